'use strict';
/* Cube explorer: metric tree -> call tree of the selected metric -> per-location chart of the selected path. */
(function () {
  const S = window.Straggler;
  const D = S.data('explorer');
  if (!D) return;
  const M = D.metrics, P = D.paths, L = D.locations, R = D.regions;
  const np = P.parent.length, nl = L.length, diff = D.difference;
  const timeTotal = D.timeMetric >= 0 ? M[D.timeMetric].total : 0;
  const threaded = L.some(l => l[1] !== 0);
  /** Location indices in system-tree order: by process, then thread. */
  const ORDER = Array.from({length: nl}, (_, i) => i).sort((a, b) => L[a][0] - L[b][0] || L[a][1] - L[b][1] || a - b);

  const mKids = M.map(() => []), mRoots = [];
  M.forEach((m, i) => (m.parent < 0 ? mRoots : mKids[m.parent]).push(i));
  const pKids = Array.from({length: np}, () => []), pRoots = [];
  for (let p = 0; p < np; p++) (P.parent[p] < 0 ? pRoots : pKids[P.parent[p]]).push(p);

  // |total| of a metric's subtree decides whether it is worth showing by default
  const mMass = M.map(m => Math.abs(m.total));
  for (let i = M.length - 1; i >= 0; i--) mKids[i].forEach(k => { mMass[i] += mMass[k]; });

  const state = { metric: D.timeMetric >= 0 ? D.timeMetric : 0, path: -1, mode: 'excl',
    showZeroPaths: false, showZeroMetrics: false, openPaths: new Set(), closedMetrics: new Set() };
  let excl, incl, mass, rows, meanExcl, meanIncl;

  function rootOf(m) { while (M[m].parent >= 0) m = M[m].parent; return m; }
  /** Percentages of time metrics refer to total time; others to their root metric. */
  function base(m) {
    const r = rootOf(m);
    return M[r].unit === 'sec' && timeTotal ? timeTotal : M[r].total;
  }
  function fmt(m, v) { return S.fmt(v, M[m].unit, M[m].integer); }
  function pathLabel(p) {
    const r = R[P.region[p]];
    return r[0] + (P.callsite[p] > 0 ? ' @' + P.callsite[p] : '');
  }
  function pathTitle(p) {
    const names = [];
    for (let q = p; q >= 0; q = P.parent[q]) names.push(R[P.region[q]][0]);
    return S.joinPath(names.reverse());
  }
  function locLabel(l) { return threaded ? L[l][0] + '.' + L[l][1] : String(L[l][0]); }
  function barClass(v) { return diff ? (v < 0 ? 'n' : 'p') : ''; }
  function minibar(v, b) {
    const w = b ? Math.min(100, Math.abs(100 * v / b)) : 0;
    return S.el('div', {class: 'minibar'}, S.el('span', {class: barClass(v), style: 'width:' + w.toFixed(1) + '%'}));
  }

  /* ---- data of the selected metric ---- */
  function loadMetric(m) {
    const d = D.data[m];
    excl = new Float64Array(np);
    d.paths.forEach((p, i) => { excl[p] = d.sums[i]; });
    incl = Float64Array.from(excl);
    mass = excl.map(Math.abs);
    // parents precede children, so one backward pass accumulates subtrees
    for (let p = np - 1; p >= 0; p--) {
      const q = P.parent[p];
      if (q >= 0) { incl[q] += incl[p]; mass[q] += mass[p]; }
    }
    rows = new Map();
    d.rowPaths.forEach((p, i) => rows.set(p, d.rows[i]));
    meanExcl = meanIncl = null;
    if (d.meanPaths) {
      meanExcl = new Float64Array(np);
      d.meanPaths.forEach((p, i) => { meanExcl[p] = d.meanSums[i]; });
      meanIncl = Float64Array.from(meanExcl);
      for (let p = np - 1; p >= 0; p--) if (P.parent[p] >= 0) meanIncl[P.parent[p]] += meanIncl[p];
    }
  }

  /** Opens the call tree down to the path with the largest exclusive value and selects it. */
  function focusHotPath() {
    let best = -1;
    for (let p = 0; p < np; p++) if (excl[p] !== 0 && (best < 0 || Math.abs(excl[p]) > Math.abs(excl[best]))) best = p;
    state.openPaths = new Set();
    for (let q = best >= 0 ? P.parent[best] : -1; q >= 0; q = P.parent[q]) state.openPaths.add(q);
    state.path = best;
  }

  /* ---- metric tree ---- */
  function renderMetrics() {
    const box = document.getElementById('explorer-metrics');
    box.textContent = '';
    const hdr = S.el('div', {class: 'row m-row hdr'}, [S.el('span', null, 'Metric'), S.el('span', {class: 'num'}, 'Total'),
      S.el('span', {class: 'num'}, '%'), S.el('span')]);
    const ul = S.el('ul');
    let hidden = 0;
    const add = (parentUl, m, depth) => {
      if (!state.showZeroMetrics && mMass[m] === 0) { hidden++; return; }
      const li = S.el('li');
      const kids = mKids[m].filter(k => state.showZeroMetrics || mMass[k] !== 0);
      const open = kids.length > 0 && !state.closedMetrics.has(m);
      const tog = S.el('span', {class: 'tog'}, kids.length ? (open ? '\u25be' : '\u25b8') : '');
      const row = S.el('div', {class: 'row m-row' + (m === state.metric ? ' sel' : '') + (M[m].total === 0 ? ' zero' : ''),
        title: (M[m].descr ? M[m].descr + ' ' : '') + '(' + M[m].id + ')'}, [
        S.el('span', {class: 'name', style: 'padding-left:' + (depth * 14) + 'px'}, [tog, M[m].name]),
        S.el('span', {class: 'num'}, fmt(m, M[m].total)),
        S.el('span', {class: 'num'}, S.pct(M[m].total, base(m))),
        minibar(M[m].total, base(m))]);
      tog.addEventListener('click', ev => {
        ev.stopPropagation();
        if (state.closedMetrics.has(m)) state.closedMetrics.delete(m); else state.closedMetrics.add(m);
        renderMetrics();
      });
      row.addEventListener('click', () => selectMetric(m));
      li.appendChild(row);
      if (open) {
        const sub = S.el('ul');
        kids.forEach(k => add(sub, k, depth + 1));
        li.appendChild(sub);
      }
      parentUl.appendChild(li);
    };
    mRoots.forEach(m => add(ul, m, 0));
    box.appendChild(hdr);
    box.appendChild(ul);
    if (hidden > 0 || state.showZeroMetrics) {
      const more = S.el('div', {class: 'more'}, state.showZeroMetrics ? 'Hide metrics without values'
        : 'Show ' + hidden + ' metric' + (hidden === 1 ? '' : 's') + ' without values');
      more.addEventListener('click', () => { state.showZeroMetrics = !state.showZeroMetrics; renderMetrics(); });
      box.appendChild(more);
    }
  }

  function selectMetric(m) {
    state.metric = m;
    try { history.replaceState(null, '', '#metric=' + encodeURIComponent(M[m].id)); } catch (e) { /* file: URLs may refuse */ }
    loadMetric(m);
    focusHotPath();
    renderMetrics();
    renderCallTree();
    renderChart();
  }

  /* ---- call tree ---- */
  function renderCallTree() {
    const m = state.metric;
    document.getElementById('explorer-metric-name').textContent = M[m].name + ' (total ' + fmt(m, M[m].total) + ')';
    const box = document.getElementById('explorer-calltree');
    const scroll = box.scrollTop;
    box.textContent = '';
    box.appendChild(S.el('div', {class: 'row c-row hdr'}, [S.el('span', null, 'Call path'), S.el('span', {class: 'num'}, 'excl.'),
      S.el('span', {class: 'num'}, 'incl.'), S.el('span', {class: 'num'}, '% incl.'), S.el('span')]));
    const b = base(m);
    const visible = p => state.showZeroPaths || mass[p] !== 0;
    const order = list => list.filter(visible).sort((x, y) => Math.abs(incl[y]) - Math.abs(incl[x]));
    const add = (ul, p, depth) => {
      const kids = pKids[p].filter(visible);
      const open = kids.length > 0 && state.openPaths.has(p);
      const tog = S.el('span', {class: 'tog'}, kids.length ? (open ? '\u25be' : '\u25b8') : '');
      const row = S.el('div', {class: 'row c-row' + (p === state.path ? ' sel' : '') + (mass[p] === 0 ? ' zero' : ''),
        title: pathTitle(p)}, [
        S.el('span', {class: 'name', style: 'padding-left:' + (depth * 14) + 'px'}, [tog, pathLabel(p)]),
        S.el('span', {class: 'num'}, fmt(m, excl[p])),
        S.el('span', {class: 'num'}, fmt(m, incl[p])),
        S.el('span', {class: 'num'}, S.pct(incl[p], b)),
        minibar(incl[p], b)]);
      tog.addEventListener('click', ev => {
        ev.stopPropagation();
        if (state.openPaths.has(p)) state.openPaths.delete(p); else state.openPaths.add(p);
        renderCallTree();
      });
      row.addEventListener('click', () => { state.path = p; renderCallTree(); renderChart(); });
      const li = S.el('li', null, row);
      if (open) {
        const sub = S.el('ul');
        order(kids).forEach(k => add(sub, k, depth + 1));
        li.appendChild(sub);
      }
      ul.appendChild(li);
    };
    const ul = S.el('ul');
    order(pRoots).forEach(p => add(ul, p, 0));
    box.appendChild(ul);
    if (!ul.firstChild) box.appendChild(S.el('div', {class: 'more'}, 'This metric is zero on every call path.'));
    box.scrollTop = scroll;
    const selRow = box.querySelector('.row.sel');
    if (selRow && (selRow.offsetTop < box.scrollTop || selRow.offsetTop > box.scrollTop + box.clientHeight - 20)) {
      box.scrollTop = Math.max(0, selRow.offsetTop - box.clientHeight / 3);
    }
  }

  /* ---- per-location chart ---- */
  /** The selected values per location, and how many non-zero rows are not embedded in the page. */
  function locationValues() {
    const d = D.data[state.metric];
    if (state.path < 0) return {values: d.perLocation, missing: 0, label: 'all call paths'};
    const values = new Float64Array(nl);
    let missing = 0;
    const addRow = p => {
      const r = rows.get(p);
      if (r) { for (let l = 0; l < nl; l++) values[l] += r[l]; } else if (excl[p] !== 0) missing++;
    };
    if (state.mode === 'excl') {
      addRow(state.path);
    } else {
      const stack = [state.path];
      while (stack.length) { const p = stack.pop(); addRow(p); pKids[p].forEach(k => stack.push(k)); }
    }
    return {values, missing, label: pathTitle(state.path) + (state.mode === 'excl' ? ' (exclusive)' : ' (inclusive)')};
  }

  function renderChart() {
    const m = state.metric;
    const {values, missing, label} = locationValues();
    document.getElementById('explorer-path-name').textContent = M[m].name + ' \u2014 ' + label;
    const stats = document.getElementById('explorer-stats');
    const box = document.getElementById('explorer-chart');
    stats.textContent = '';
    box.textContent = '';
    if (D.collapsed) { wholeRun(m, stats); return; }
    let min = Infinity, max = -Infinity, sum = 0, iMin = 0, iMax = 0;
    for (let l = 0; l < nl; l++) {
      const v = values[l];
      sum += v;
      if (v < min) { min = v; iMin = l; }
      if (v > max) { max = v; iMax = l; }
    }
    const mean = sum / nl;
    const who = threaded ? 'location ' : 'rank ';
    const parts = [['min', fmt(m, min) + ' (' + who + locLabel(iMin) + ')'], ['mean', fmt(m, mean)],
      ['max', fmt(m, max) + ' (' + who + locLabel(iMax) + ')'], ['sum', fmt(m, sum)]];
    // load imbalance is only meaningful for values that cannot be negative
    if (mean > 0 && min >= 0) parts.push(['max / mean', (max / mean).toFixed(2)]);
    parts.forEach(([k, v], i) => {
      if (i) stats.appendChild(document.createTextNode(' \u00b7 '));
      stats.appendChild(S.el('span', null, [k + ' ', S.el('b', null, v)]));
    });
    if (missing > 0 && state.mode === 'excl') {
      // nothing to draw: only the call path's total over all processes is in the page
      stats.textContent = '';
      stats.appendChild(S.el('span', null, ['sum over all processes ', S.el('b', null, fmt(m, excl[state.path]))]));
      stats.appendChild(S.el('div', {class: 'warn'}, 'The per-process values of this call path are not included in '
        + 'this page (size limit: only the largest call paths of each metric are broken down per process).'));
      return;
    }
    if (missing > 0) {
      stats.appendChild(S.el('div', {class: 'warn'}, missing + ' call path' + (missing === 1 ? '' : 's')
        + ' below this one are not broken down per process in this page (size limit); the bars show the rest.'));
    }
    drawBars(box, values, m, mean);
  }

  /** A collapsed cube has one value per call path for all processes together: no bars, which would show one "rank". */
  function wholeRun(m, stats) {
    const all = state.path < 0, inc = state.mode === 'incl';
    const whole = all ? M[m].total : (inc ? incl : excl)[state.path];
    stats.appendChild(S.el('span', null, ['whole run (summed over processes) ', S.el('b', null, fmt(m, whole))]));
    if (meanExcl) {
      const mean = all ? D.data[m].meanTotal : (inc ? meanIncl : meanExcl)[state.path];
      stats.appendChild(document.createTextNode(' \u00b7 '));
      // a mean of counts need not be whole: not rounded like the counts themselves
      stats.appendChild(S.el('span', null, [D.meanLabel + ' ', S.el('b', null, S.fmt(mean, M[m].unit, false))]));
    }
  }

  function drawBars(box, values, m, mean) {
    const W = Math.max(600, box.clientWidth || 1100), H = 250, ml = 76, mr = 12, mt = 10, mb = 34;
    const pw = W - ml - mr, ph = H - mt - mb;
    let lo = 0, hi = 0;
    for (const v of values) { if (v < lo) lo = v; if (v > hi) hi = v; }
    const ts = S.ticks(lo, hi, 5, M[m].integer);
    lo = Math.min(lo, ts[0]);
    hi = Math.max(hi, ts[ts.length - 1]);
    if (hi === lo) hi = lo + 1;
    const y = v => mt + ph * (hi - v) / (hi - lo);
    const root = S.svg('svg', {viewBox: '0 0 ' + W + ' ' + H, role: 'img', 'aria-label': 'values per process'});
    ts.forEach(t => {
      root.appendChild(S.svg('line', {class: 'grid', x1: ml, x2: W - mr, y1: y(t), y2: y(t)}));
      root.appendChild(S.svg('text', {x: ml - 6, y: y(t) + 4, 'text-anchor': 'end'}, fmt(m, t)));
    });
    const bw = pw / nl, gap = bw > 4 ? Math.min(2, bw * 0.15) : 0;
    // bars in system-tree order: each process's threads together under it (locations are numbered by trace id)
    for (let i = 0; i < nl; i++) {
      const l = ORDER[i];
      const v = values[l];
      if (v === 0) continue;
      const y0 = y(Math.max(0, v)), y1 = y(Math.min(0, v));
      const colour = diff ? (v < 0 ? 'var(--neg)' : 'var(--pos)') : 'var(--accent)';
      root.appendChild(S.svg('rect', {x: ml + i * bw + gap / 2, y: y0, width: Math.max(0.5, bw - gap), height: Math.max(0.5, y1 - y0),
        fill: colour}, S.svg('title', null, (threaded ? 'Location ' : 'Rank ') + locLabel(l)
        + (L[l][2] ? ' (' + L[l][2] + ')' : '') + ': ' + fmt(m, v))));
    }
    root.appendChild(S.svg('line', {class: 'axis', x1: ml, x2: W - mr, y1: y(0), y2: y(0)}));
    root.appendChild(S.svg('line', {class: 'axis', x1: ml, x2: ml, y1: mt, y2: mt + ph}));
    if (mean !== 0) {
      root.appendChild(S.svg('line', {x1: ml, x2: W - mr, y1: y(mean), y2: y(mean), stroke: '#e08a00', 'stroke-width': 1.5,
        'stroke-dasharray': '6 4'}, S.svg('title', null, 'mean ' + fmt(m, mean))));
    }
    const every = Math.max(1, Math.ceil(nl / Math.floor(pw / 42)));
    for (let i = 0; i < nl; i += every) {
      root.appendChild(S.svg('text', {x: ml + (i + 0.5) * bw, y: H - mb + 16, 'text-anchor': 'middle'}, locLabel(ORDER[i])));
    }
    root.appendChild(S.svg('text', {x: ml + pw / 2, y: H - 4, 'text-anchor': 'middle'},
      threaded ? 'location (rank.thread)' : 'rank'));
    box.appendChild(root);
  }

  document.getElementById('explorer-zero').addEventListener('change', ev => {
    state.showZeroPaths = ev.target.checked; renderCallTree();
  });
  document.querySelectorAll('input[name="explorer-mode"]').forEach(r => r.addEventListener('change', ev => {
    state.mode = ev.target.value; renderChart();
  }));
  document.getElementById('explorer-all').addEventListener('click', () => { state.path = -1; renderCallTree(); renderChart(); });
  window.addEventListener('resize', () => renderChart());
  // a link may name the metric to open: report.html#metric=mpi_latesender
  const wanted = decodeURIComponent((location.hash.match(/^#metric=(.+)$/) || [])[1] || '');
  const start = M.findIndex(m => m.id === wanted);
  // without a link, open the largest wait state (what a reader came for), not the call path holding most time
  // (in a short run that is MPI_Init)
  const WAIT_STATES = ['mpi_latesender', 'mpi_latereceiver', 'mpi_barrier_wait', 'mpi_barrier_completion',
    'mpi_wait_nxn', 'mpi_nxn_completion', 'mpi_latebroadcast', 'mpi_earlyreduce', 'mpi_earlyscan'];
  let largest = -1;
  M.forEach((m, i) => {
    if (WAIT_STATES.includes(m.id) && m.total > 0 && (largest < 0 || m.total > M[largest].total)) largest = i;
  });
  selectMetric(start >= 0 ? start : largest >= 0 ? largest : state.metric);
  // other sections open a metric at a call path here (e.g. the delay a timeline window marks)
  window.StragglerExplorer = {
    show(metricId, path) {
      const m = M.findIndex(x => x.id === metricId);
      if (m < 0) return false;
      selectMetric(m);
      if (path >= 0 && path < np) {
        for (let q = P.parent[path]; q >= 0; q = P.parent[q]) state.openPaths.add(q);
        state.path = path;
        renderCallTree();
        renderChart();
      }
      document.getElementById('explorer').scrollIntoView();
      return true;
    }
  };
})();
