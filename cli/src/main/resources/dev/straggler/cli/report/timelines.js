/* Timelines section: the run's overview (per row and time bin, each paradigm's share of the bin, as stacked
 * heights) with the most severe wait-state instances marked, their list, and the window of the one picked, drawn by
 * StragglerTimeline (timeline.js) with the wait and the delay that caused it marked. State for tests and scripts on
 * the section element: data-open (index of the instance shown, -1 none), data-overview-rows, data-overview-marks. */
(function () {
  const S = window.Straggler;
  const D = S.data('timelines');
  const section = document.getElementById('timelines');
  if (!D || !section) return;
  const COLOURS = {
    'MPI': '#d9534f', 'MPI,I/O': '#b5405e', 'OpenMP': '#3f7fd0', 'I/O': '#8e5bb5', 'Pthreads': '#17a096',
    'user': '#7fae6a', 'measurement': '#a3a9b2'
  };
  const DELAY_METRIC = {
    mpi_latesender: 'delay_latesender', mpi_latesender_wo: 'delay_latesender', mpi_latereceiver: 'delay_latereceiver',
    mpi_barrier_wait: 'delay_barrier', mpi_wait_nxn: 'delay_n2n', mpi_latebroadcast: 'delay_12n',
    mpi_earlyreduce: 'delay_n21', mpi_earlyscan: 'delay_n21'
  };
  const O = D.overview, I = D.instances;
  const C = O.categories.length;
  const sec = v => S.fmt(v, 'sec');
  const at = v => v.toFixed(6) + ' s';
  const who = (rank, thread) => 'rank ' + rank + (thread > 0 ? '.' + thread : '');

  // ---- overview
  const canvas = document.getElementById('timelines-overview');
  const status = document.getElementById('timelines-over-status');
  const LABEL_W = 92, AXIS_H = 22;
  const rows = O.rows.length;
  const rowH = Math.max(3, Math.min(14, Math.floor(360 / Math.max(1, rows))));
  const cssH = AXIS_H + rows * rowH + 4;
  let cssW = 800, plotW = 700;
  const t0 = O.start, t1 = O.start + O.bins * O.binWidth;
  const X = t => LABEL_W + (t - t0) / (t1 - t0 || 1) * plotW;
  let marks = [];

  function drawOverview() {
    cssW = Math.max(300, canvas.parentNode.clientWidth || 800);
    plotW = Math.max(1, cssW - LABEL_W - 8);
    const dpr = window.devicePixelRatio || 1;
    canvas.width = Math.round(cssW * dpr);
    canvas.height = Math.round(cssH * dpr);
    canvas.style.height = cssH + 'px';
    const ctx = canvas.getContext('2d');
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, cssW, cssH);
    ctx.font = '11px system-ui, sans-serif';
    ctx.textBaseline = 'middle';
    // axis: five ticks, seconds since the start of the measurement
    ctx.fillStyle = '#5b6575';
    for (let k = 0; k <= 4; k++) {
      const t = t0 + k * (t1 - t0) / 4, x = X(t);
      ctx.textAlign = k === 0 ? 'left' : k === 4 ? 'right' : 'center';
      ctx.fillText(t.toFixed(3) + ' s', x, AXIS_H / 2);
    }
    ctx.textAlign = 'left';
    const bw = plotW / O.bins;
    for (let r = 0; r < rows; r++) {
      const y = AXIS_H + r * rowH, h = rowH - (rowH > 4 ? 1 : 0);
      const sh = O.rows[r].shares;
      for (let b = 0; b < O.bins; b++) {
        let yy = y + h;
        for (let c = 0; c < C; c++) {
          const v = sh[b * C + c];
          if (!(v > 0)) continue;
          const hh = v * h;
          ctx.fillStyle = COLOURS[O.categories[c]] || '#c9a227';
          ctx.fillRect(LABEL_W + b * bw, yy - hh, Math.max(bw, 0.5), hh);
          yy -= hh;
        }
      }
      if (rowH >= 9 || r % Math.ceil(9 / rowH) === 0) {
        ctx.fillStyle = '#1d2430';
        ctx.fillText(O.rows[r].label, 6, y + h / 2);
      }
    }
    // the instances: an outlined box over the waiting row, a triangle above it
    marks = [];
    I.forEach((inst, k) => {
      if (inst.row < 0) return;
      const y = AXIS_H + inst.row * rowH;
      const x0 = X(inst.start), x1 = Math.max(X(inst.end), x0 + 3);
      ctx.strokeStyle = k === open ? '#1d2430' : '#f0a020';
      ctx.lineWidth = 2;
      ctx.strokeRect(x0, y, x1 - x0, rowH - 1);
      ctx.fillStyle = k === open ? '#1d2430' : '#f0a020';
      ctx.beginPath(); ctx.moveTo(x0 - 4, y - 1); ctx.lineTo(x0 + 4, y - 1); ctx.lineTo(x0, y + 4); ctx.fill();
      marks.push({k: k, x0: x0 - 4, x1: x1 + 4, y0: y - 6, y1: y + rowH});
    });
    ctx.lineWidth = 1;
    section.dataset.overviewRows = String(rows);
    section.dataset.overviewMarks = String(marks.length);
  }

  function markAt(ev) {
    const r = canvas.getBoundingClientRect();
    const x = ev.clientX - r.left, y = ev.clientY - r.top;
    let best = null;
    marks.forEach(m => { if (x >= m.x0 && x <= m.x1 && y >= m.y0 && y <= m.y1) best = m; });
    return best;
  }
  canvas.addEventListener('mousemove', ev => {
    const m = markAt(ev);
    if (m) {
      const i = I[m.k];
      status.textContent = i.name + ': ' + sec(i.severity) + ' lost on ' + who(i.rank, i.thread) + ' at ' + at(i.start)
          + ' \u00b7 click to open';
    } else {
      const r = canvas.getBoundingClientRect();
      const t = t0 + (ev.clientX - r.left - LABEL_W) / plotW * (t1 - t0);
      const row = Math.floor((ev.clientY - r.top - AXIS_H) / rowH);
      if (t >= t0 && t <= t1 && row >= 0 && row < rows) {
        const b = Math.min(O.bins - 1, Math.floor((t - t0) / O.binWidth));
        const parts = [];
        for (let c = 0; c < C; c++) {
          const v = O.rows[row].shares[b * C + c];
          if (v > 0) parts.push(O.categories[c] + ' ' + (100 * v).toFixed(0) + '%');
        }
        const fn = [];
        const top = O.rows[row].top;
        for (let q = 0; top && q < O.functionsPerBin; q++) {
          const v = top[b * O.functionsPerBin + q];
          if (v > 0) fn.push(O.functions[v >> 10] + ' ' + ((v & 1023) / 10).toFixed(1) + '%');
        }
        status.textContent = O.rows[row].label + ' \u00b7 ' + at(t0 + b * O.binWidth) + '\u2013'
            + at(t0 + (b + 1) * O.binWidth) + ' \u00b7 ' + (parts.length ? parts.join(', ') : 'outside every region')
            + (fn.length ? ' \u00b7 largest: ' + fn.join(', ') : top ? '' : ' \u00b7 (functions named for the first '
            + O.rows.filter(r => r.top).length + ' rows only)');
      } else {
        status.textContent = '\u00a0';
      }
    }
  });
  canvas.addEventListener('click', ev => { const m = markAt(ev); if (m) show(m.k); });

  // ---- the list
  const list = document.getElementById('timelines-list');
  const table = S.el('table');
  table.appendChild(S.el('tr', null, [S.el('th', null, 'Wait state'), S.el('th', {class: 'num'}, 'Lost'),
    S.el('th', null, 'Waiting'), S.el('th', {class: 'num'}, 'From (s)'), S.el('th', null, 'Why')]));
  const tr = [];
  I.forEach((inst, k) => {
    const why = inst.cause ? who(inst.cause.rank, inst.cause.thread) + ': ' + sec(inst.cause.delay) + ' delay'
        + (inst.cause.callpaths.length ? ' in ' + inst.cause.callpaths[0].path.split('/').pop() : '')
        : (D.rootCauses === false ? '' : '\u2014');
    const row = S.el('tr', {class: 'pick', title: 'show it below'}, [S.el('td', null, inst.name),
      S.el('td', {class: 'num'}, sec(inst.severity)),
      S.el('td', null, who(inst.rank, inst.thread) + (inst.waitingRanks > 1 ? ' (longest of ' + inst.waitingRanks + ')' : '')),
      S.el('td', {class: 'num'}, inst.start.toFixed(6)), S.el('td', null, why)]);
    row.addEventListener('click', () => show(k));
    tr.push(row);
    table.appendChild(row);
  });
  list.appendChild(table);

  // ---- one window
  const box = document.getElementById('timelines-window');
  let open = -1;
  function show(k) {
    const inst = I[k];
    open = k;
    tr.forEach((r, j) => r.classList.toggle('open', j === k));
    box.textContent = '';
    box.appendChild(S.el('h3', null, inst.name + ': ' + sec(inst.severity) + ' lost on ' + who(inst.rank, inst.thread)
        + (inst.waitingRanks > 1 ? ' (the longest of ' + inst.waitingRanks + ' waiting ranks; the loss is their sum)' : '')
        + ', ' + at(inst.start) + ' to ' + at(inst.end) + ' since the start of the measurement'));
    const p = S.el('p', {class: 'tls-why'});
    const c = inst.cause;
    if (c) {
      p.appendChild(document.createTextNode('Why: between ' + at(c.from) + ' and ' + at(c.to) + ' (since it last '
          + 'synchronised with the waiting side' + (c.stretchCut ? '; the window shows the end of that stretch' : '')
          + '), ' + who(c.rank, c.thread) + ' took longer: ' + sec(c.delay) + ' of the wait is delay'
          + (c.callpaths.length ? ' in ' : '')));
      c.callpaths.slice(0, 3).forEach((part, j) => {
        if (j > 0) p.appendChild(document.createTextNode(', '));
        const a = S.el('a', {href: '#explorer', title: 'open this call path of ' + (DELAY_METRIC[inst.metric] || '')
            + ' in the explorer'}, part.path);
        a.addEventListener('click', ev => {
          if (window.StragglerExplorer && DELAY_METRIC[inst.metric]) {
            ev.preventDefault();
            window.StragglerExplorer.show(DELAY_METRIC[inst.metric], part.callpath);
          }
        });
        p.appendChild(a);
        p.appendChild(document.createTextNode(' (' + sec(part.seconds) + ')'));
      });
      if (c.callpaths.length > 3) {
        const rest = c.callpaths.slice(3).reduce((s, x) => s + x.seconds, 0);
        p.appendChild(document.createTextNode(' and ' + (c.callpaths.length - 3) + ' more call paths ('
            + sec(rest) + ')'));
      }
      const un = inst.severity - c.delay - c.propagated;
      p.appendChild(document.createTextNode((c.propagated > 0 ? '; ' + sec(c.propagated) + ' propagated: '
          + who(c.rank, c.thread) + ' itself waited in that stretch' : '')
          + (un > 1e-9 * Math.max(1, inst.severity) ? '; ' + sec(un) + ' is charged to no delay' : '') + '. '));
      if (document.getElementById('causes')) {
        p.appendChild(S.el('a', {href: '#causes'}, 'All delays of this kind'));
        p.appendChild(document.createTextNode('.'));
      }
    } else {
      p.textContent = 'No delay is marked: root causes explain point-to-point and MPI collective instances, when '
          + 'they were computed.';
    }
    box.appendChild(p);
    box.appendChild(S.el('div', {class: 'tls-cmd'}, 'Rows: the ' + inst.locationsShown + ' location'
        + (inst.locationsShown === 1 ? '' : 's') + ' this instance concerns (the waiting, partner and delaying ones, '
        + 'and the threads of the waiting and delaying processes).' + (inst.command ? ' All locations: '
        + inst.command : '')));
    const legend = S.el('div', {class: 'tl-legend'});
    const st = S.el('div', {class: 'tl-status'}, '\u00a0');
    const view = S.el('div', {class: 'tl-view'}, [S.el('canvas', {class: 'tl-canvas', tabindex: '0'})]);
    const help = S.el('p', {class: 'tl-help'}, 'Wheel or +/-: zoom (click the timeline first for the keys); drag or '
        + '\u2190/\u2192: pan; 0: the whole window.');
    const root = S.el('div', {class: 'tls-timeline'}, [legend, st, view, help]);
    box.appendChild(root);
    window.StragglerTimeline(root, {origin_s: D.origin_s}, inst.events, false);
    section.dataset.open = String(k);
    drawOverview();
  }

  section.dataset.open = '-1';
  drawOverview();
  window.addEventListener('resize', drawOverview);
  // opened at first: the most severe instance whose delay was found (a completion has none to show), else the most
  // severe of all (a collective one counts its members' waits together)
  let worst = -1;
  const explained = I.some(inst => inst.cause);
  I.forEach((inst, k) => {
    if ((!explained || inst.cause) && (worst < 0 || inst.severity > I[worst].severity)) worst = k;
  });
  if (worst >= 0) show(worst);
  // scripts and tests open an instance by its index in the list
  window.StragglerTimelines = {show: show};
})();
