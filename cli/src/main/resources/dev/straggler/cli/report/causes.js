'use strict';
/* Why processes wait: wait-state kind tabs -> effect table (where the waiting is) beside cause table (which delays
   explain it), per-rank strips on both sides, and a per-rank chart of delay caused against waiting. */
(function () {
  const S = window.Straggler;
  const D = S.data('causes');
  if (!D) return;
  const K = D.kinds, L = D.locations, nl = L.length;
  const BLUES = [[239, 245, 252], [158, 202, 225], [66, 146, 198], [8, 69, 148]];
  const ORANGES = [[255, 245, 235], [253, 190, 133], [230, 110, 30], [140, 45, 4]];
  const state = {kind: 0, effect: -1, cause: -1};

  function sec(v) { return S.fmt(v, 'sec'); }
  /** A share already clamped to [0, 100] by the page's generator. */
  function pc(v) { return v > 0 && v < 0.1 ? '<0.1 %' : v.toFixed(1) + ' %'; }
  function part(v, whole) { return whole > 0 ? Math.max(0, Math.min(100, 100 * v / whole)) : 0; }
  function ramp(stops, t) {
    t = Math.max(0, Math.min(1, t)) * (stops.length - 1);
    const i = Math.min(stops.length - 2, Math.floor(t)), f = t - i, a = stops[i], b = stops[i + 1];
    return 'rgb(' + [0, 1, 2].map(k => Math.round(a[k] + (b[k] - a[k]) * f)).join(',') + ')';
  }
  function max(values) { let m = 0; for (const v of values) if (v > m) m = v; return m; }

  /* ---- tabs ---- */
  function renderTabs() {
    const box = document.getElementById('causes-tabs');
    box.textContent = '';
    K.forEach((k, i) => {
      const b = S.el('button', {type: 'button', role: 'tab', class: 'rc-tab' + (i === state.kind ? ' sel' : ''),
        'data-kind': k.id, 'aria-selected': String(i === state.kind)},
        [S.el('span', {class: 'rc-tab-name'}, k.name), S.el('span', {class: 'rc-tab-val'}, sec(k.waiting))]);
      b.addEventListener('click', () => {
        // a reload or a copied link opens the same wait state (not done on load: it would replace an explorer link)
        try { history.replaceState(null, '', '#wait=' + encodeURIComponent(k.id)); } catch (e) { /* file: URLs may refuse */ }
        select(i);
      });
      box.appendChild(b);
    });
  }

  function select(i) {
    state.kind = i; state.effect = -1; state.cause = -1;
    renderTabs(); renderAnswer(); renderEffects(); renderCauses(); renderChart();
  }

  /* ---- the answer and the kind's totals ---- */
  function renderAnswer() {
    const k = K[state.kind];
    const p = document.getElementById('causes-answer');
    p.textContent = '';
    k.answer.forEach(s => p.appendChild(s.path !== undefined ? S.el('code', {title: s.title}, s.path) : document.createTextNode(s.text)));
    const f = document.getElementById('causes-facts');
    f.textContent = '';
    const item = (swatch, label, value) => S.el('span', {class: 'rc-fact'},
      [swatch ? S.el('i', {class: 'sw ' + swatch}) : null, label + ' ', S.el('b', null, value)]);
    f.appendChild(item('wait', k.name + ' waiting', sec(k.waiting)));
    f.appendChild(item('short', 'short-term delay', sec(k.shortTerm)));
    f.appendChild(item('long', 'propagated delay', sec(k.longTerm)));
    f.appendChild(item(null, 'explained', pc(k.explained)));
    if (k.classified) {
      f.appendChild(item('indirect', 'indirect', pc(part(k.indirect, k.waiting))));
      f.appendChild(item('prop', 'propagating', pc(part(k.propagating, k.waiting))));
    }
  }

  /* ---- per-rank strips ---- */
  function strip(values, top, stops, what) {
    const W = 110, H = 14, w = W / nl;
    const root = S.svg('svg', {class: 'strip', viewBox: '0 0 ' + W + ' ' + H, width: W, height: H, preserveAspectRatio: 'none'});
    let iMax = 0;
    for (let l = 0; l < nl; l++) {
      if (values[l] > values[iMax]) iMax = l;
      if (!(values[l] > 0)) continue;
      const r = S.svg('rect', {x: l * w, y: 0, width: Math.max(w, 0.6), height: H, fill: ramp(stops, 0.12 + 0.88 * values[l] / top)});
      if (nl <= 256) r.appendChild(S.svg('title', null, D.word + ' ' + L[l] + ': ' + sec(values[l])));
      root.appendChild(r);
    }
    root.insertBefore(S.svg('title', null, what + ' per ' + D.word + '; most on ' + D.word + ' ' + L[iMax]
      + ' (' + sec(values[iMax]) + ')'), root.firstChild);
    return root;
  }

  function splitBar(parts) {
    return S.el('div', {class: 'split'}, parts.filter(p => p[1] > 0).map(p =>
      S.el('span', {class: p[0], style: 'width:' + p[1].toFixed(1) + '%', title: p[2]})));
  }

  function table(boxId, head, rows, more, moreLabel) {
    const box = document.getElementById(boxId);
    box.textContent = '';
    box.appendChild(S.el('div', {class: 'rc-row hdr'}, head.map(h => S.el('span', {class: h[1] || '', title: h[2]}, h[0]))));
    rows.forEach(r => box.appendChild(r));
    if (more.count > 0) {
      box.appendChild(S.el('div', {class: 'rc-more'}, more.count + ' more call path' + (more.count === 1 ? '' : 's')
        + ' ' + moreLabel + ' ' + sec(more.value) + ' (' + pc(more.share) + ')'));
    }
  }

  /* ---- effect: where the waiting is ---- */
  function renderEffects() {
    const k = K[state.kind];
    const top = max(k.effects.flatMap(e => e.perLocation));
    const rows = k.effects.map((e, i) => {
      const cells = [S.el('span', {class: 'name', title: e.title}, e.label), S.el('span', {class: 'num'}, sec(e.waiting)),
        S.el('span', {class: 'num'}, pc(e.share))];
      if (k.classified) {
        const ind = part(e.indirect, e.waiting), prop = part(e.propagating, e.waiting);
        cells.push(S.el('span', {class: 'splits'}, [
          splitBar([['direct', 100 - ind, 'direct ' + pc(100 - ind) + ': caused by a delay on the process waited for'],
            ['indirect', ind, 'indirect ' + pc(ind) + ': caused by waiting on the process waited for']]),
          splitBar([['prop', prop, 'propagating ' + pc(prop) + ': made other processes wait in turn'],
            ['term', 100 - prop, 'terminal ' + pc(100 - prop) + ': made no one else wait']])]));
      }
      cells.push(strip(e.perLocation, top, BLUES, 'waiting'));
      const row = S.el('div', {class: 'rc-row' + (k.classified ? ' cls' : '') + (i === state.effect ? ' sel' : ''), 'data-row': i}, cells);
      row.addEventListener('click', () => { state.effect = state.effect === i ? -1 : i; renderEffects(); renderChart(); });
      return row;
    });
    const head = [['Call path where processes wait'], ['waiting', 'num'], ['share', 'num']];
    if (k.classified) head.push(['dir. \u00b7 prop.', 'splits', 'upper bar: direct (dark) vs indirect (light); '
      + 'lower bar: propagating (purple) vs terminal (grey)']);
    head.push(['per ' + D.word, 'strip-h']);
    table('causes-effects', head, rows, k.moreEffects, 'wait');
    document.getElementById('causes-effects').className = 'rc-table' + (k.classified ? ' cls' : '');
  }

  /* ---- cause: delays that explain it ---- */
  function renderCauses() {
    const k = K[state.kind];
    const top = max(k.causes.flatMap(c => c.perLocation));
    const rows = k.causes.map((c, i) => {
      const total = c.shortTerm + c.longTerm;
      const bar = S.el('div', {class: 'share-bar', title: sec(c.shortTerm) + ' short-term, ' + sec(c.longTerm) + ' propagated'}, [
        S.el('span', {class: 'short', style: 'width:' + (c.share * part(c.shortTerm, total) / 100).toFixed(2) + '%'}),
        S.el('span', {class: 'long', style: 'width:' + (c.share * part(c.longTerm, total) / 100).toFixed(2) + '%'})]);
      const row = S.el('div', {class: 'rc-row' + (i === state.cause ? ' sel' : ''), 'data-row': i}, [
        S.el('span', {class: 'name', title: c.title}, c.label), S.el('span', {class: 'num'}, sec(total)),
        S.el('span', {class: 'num'}, pc(c.share)), bar, strip(c.perLocation, top, ORANGES, 'delay')]);
      row.addEventListener('click', () => { state.cause = state.cause === i ? -1 : i; renderCauses(); renderChart(); });
      return row;
    });
    if (!rows.length) rows.push(S.el('div', {class: 'rc-more'}, 'No delay costs were found for this wait state.'));
    table('causes-causes', [['Delaying call path'], ['delay', 'num'], ['explains', 'num', 'share of all ' + k.name + ' waiting'],
      ['short \u00b7 prop.', 'bar-h', 'bar length: share of the waiting explained; dark: short-term, light: propagated'], ['per ' + D.word, 'strip-h']],
      rows, k.moreCauses, 'delay');
  }

  /* ---- per-rank chart: delay caused up, waiting down ---- */
  function renderChart() {
    const k = K[state.kind];
    const up = state.cause >= 0 ? k.causes[state.cause].perLocation : k.delayPerLocation;
    const down = state.effect >= 0 ? k.effects[state.effect].perLocation : k.waitingPerLocation;
    const what = document.getElementById('causes-chart-what');
    what.textContent = 'delay: ' + (state.cause >= 0 ? k.causes[state.cause].label : 'all call paths')
      + ' \u00b7 waiting: ' + (state.effect >= 0 ? k.effects[state.effect].label : 'all call paths');
    const box = document.getElementById('causes-chart');
    box.textContent = '';
    const W = Math.max(600, box.clientWidth || 1100), H = 230, ml = 76, mr = 12, mt = 10, mb = 30;
    const pw = W - ml - mr, ph = H - mt - mb;
    const hi = Math.max(max(up), max(down)) || 1;
    const ts = S.ticks(0, hi, 3);
    const top = Math.max(hi, ts[ts.length - 1]);
    const y = v => mt + ph / 2 * (1 - v / top);
    const root = S.svg('svg', {viewBox: '0 0 ' + W + ' ' + H, role: 'img', 'aria-label': 'delay and waiting per ' + D.word});
    ts.forEach(t => {
      (t === 0 ? [0] : [t, -t]).forEach(v => {
        root.appendChild(S.svg('line', {class: 'grid', x1: ml, x2: W - mr, y1: y(v), y2: y(v)}));
        root.appendChild(S.svg('text', {x: ml - 6, y: y(v) + 4, 'text-anchor': 'end'}, sec(Math.abs(v))));
      });
    });
    const bw = pw / nl, gap = bw > 4 ? Math.min(2, bw * 0.15) : 0;
    for (let l = 0; l < nl; l++) {
      const x = ml + l * bw + gap / 2, w = Math.max(0.5, bw - gap);
      const tip = D.word + ' ' + L[l] + ': delay ' + sec(up[l]) + ', waiting ' + sec(down[l]);
      if (up[l] > 0) root.appendChild(S.svg('rect', {class: 'up', x, y: y(up[l]), width: w, height: Math.max(0.5, y(0) - y(up[l])), fill: '#e0782a'}, S.svg('title', null, tip)));
      if (down[l] > 0) root.appendChild(S.svg('rect', {class: 'down', x, y: y(0), width: w, height: Math.max(0.5, y(-down[l]) - y(0)), fill: 'var(--accent)'}, S.svg('title', null, tip)));
    }
    root.appendChild(S.svg('line', {class: 'axis', x1: ml, x2: W - mr, y1: y(0), y2: y(0)}));
    root.appendChild(S.svg('line', {class: 'axis', x1: ml, x2: ml, y1: mt, y2: mt + ph}));
    const every = Math.max(1, Math.ceil(nl / Math.floor(pw / 42)));
    for (let l = 0; l < nl; l += every) {
      root.appendChild(S.svg('text', {x: ml + (l + 0.5) * bw, y: H - mb + 16, 'text-anchor': 'middle'}, L[l]));
    }
    root.appendChild(S.svg('text', {x: ml + pw / 2, y: H - 2, 'text-anchor': 'middle'}, D.word));
    box.appendChild(root);
  }

  window.addEventListener('resize', () => renderChart());
  // a link may name the wait state to open: report.html#wait=mpi_latereceiver
  const wanted = decodeURIComponent((location.hash.match(/^#wait=(.+)$/) || [])[1] || '');
  const start = K.findIndex(k => k.id === wanted);
  select(start >= 0 ? start : 0);
})();
