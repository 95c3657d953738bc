'use strict';
/* Scaling sections: rank-correlation tables with rank scatter and share-versus-p charts, and scaling models with
   measured points, fitted curves and confidence bands. Both draw with the small SVG chart below. */
(function () {
  const S = window.Straggler;
  const COLORS = ['#2b6cb0', '#c05621', '#2f855a', '#6b46c1', '#b83280'];

  /** Finite values only. */
  function finite(a) { return a.filter(v => v !== null && isFinite(v)); }

  /**
   * An SVG chart. spec: {logX, xLabel, yLabel, unit, xInteger, yInteger, xMarks, series: [{points: [[x, y]...], line,
   * dots, color, label}], band: {x, lo, hi, color}, vline: {x, label}}. xInteger/yInteger: the axis counts (ranks),
   * ticks only at whole numbers; a logX axis is one of process counts, ticked at xMarks (the measured counts) and
   * powers of two. Returns whether a confidence band was drawn.
   */
  function chart(container, spec) {
    container.textContent = '';
    const W = 900, H = 320, ML = 64, MR = 14, MT = 14, MB = 38;
    const xs = [], ys = [];
    for (const s of spec.series) for (const p of s.points) { xs.push(p[0]); ys.push(p[1]); }
    if (spec.band) { xs.push(...finite(spec.band.x)); ys.push(...finite(spec.band.lo), ...finite(spec.band.hi)); }
    const fx = spec.logX ? (v => Math.log2(v)) : (v => v);
    const xv = finite(xs.filter(v => !spec.logX || v > 0)).map(fx), yv = finite(ys);
    if (xv.length === 0 || yv.length === 0) { container.textContent = 'nothing to plot'; return false; }
    let x0 = Math.min(...xv), x1 = Math.max(...xv), y0 = Math.min(0, ...yv), y1 = Math.max(...yv);
    if (x0 === x1) { x0 -= 1; x1 += 1; }
    if (y0 === y1) { y1 = y0 + 1; }
    const yt = S.ticks(y0, y1, 5, spec.yInteger);
    y0 = Math.min(y0, yt[0]); y1 = Math.max(y1, yt[yt.length - 1]);
    const px = v => ML + (fx(v) - x0) / (x1 - x0) * (W - ML - MR);
    const py = v => MT + (1 - (v - y0) / (y1 - y0)) * (H - MT - MB);
    const svg = S.svg('svg', {viewBox: '0 0 ' + W + ' ' + H, role: 'img', style: 'width: 100%; max-width: 1100px'});
    for (const t of yt) {
      svg.appendChild(S.svg('line', {class: 'grid', x1: ML, x2: W - MR, y1: py(t), y2: py(t)}));
      svg.appendChild(S.svg('text', {class: 'ytick', x: ML - 6, y: py(t) + 4, 'text-anchor': 'end'},
        spec.unit ? S.fmt(t, spec.unit) : String(+t.toPrecision(4))));
    }
    const xt = spec.logX ? S.processTicks(Math.pow(2, x0), Math.pow(2, x1), spec.xMarks, 8) : S.ticks(x0, x1, 8, spec.xInteger);
    for (const t of xt) {
      svg.appendChild(S.svg('line', {class: 'grid', x1: px(t), x2: px(t), y1: MT, y2: H - MB}));
      svg.appendChild(S.svg('text', {class: 'xtick', x: px(t), y: H - MB + 14, 'text-anchor': 'middle'}, String(+t.toPrecision(4))));
    }
    svg.appendChild(S.svg('line', {class: 'axis', x1: ML, x2: W - MR, y1: py(y0), y2: py(y0)}));
    svg.appendChild(S.svg('line', {class: 'axis', x1: ML, x2: ML, y1: MT, y2: H - MB}));
    svg.appendChild(S.svg('text', {x: (ML + W - MR) / 2, y: H - 6, 'text-anchor': 'middle'}, spec.xLabel || ''));
    const yl = S.svg('text', {x: 12, y: (MT + H - MB) / 2, 'text-anchor': 'middle', transform: 'rotate(-90 12 ' + (MT + H - MB) / 2 + ')'}, spec.yLabel || '');
    svg.appendChild(yl);
    let banded = false;
    if (spec.band) {
      const b = spec.band, up = [], down = [];
      for (let i = 0; i < b.x.length; i++) {
        if (b.lo[i] === null || b.hi[i] === null || !isFinite(b.lo[i]) || !isFinite(b.hi[i])) continue;
        up.push(px(b.x[i]) + ',' + py(Math.min(y1, b.hi[i])));
        down.unshift(px(b.x[i]) + ',' + py(Math.max(y0, b.lo[i])));
      }
      if (up.length > 1) {
        svg.appendChild(S.svg('polygon', {class: 'band', points: up.concat(down).join(' '), fill: b.color || '#2b6cb0', 'fill-opacity': '0.15', stroke: 'none'}));
        banded = true;
      }
    }
    if (spec.vline && isFinite(spec.vline.x) && fx(spec.vline.x) >= x0 && fx(spec.vline.x) <= x1) {
      const x = px(spec.vline.x);
      svg.appendChild(S.svg('line', {class: 'vline', x1: x, x2: x, y1: MT, y2: H - MB, stroke: '#9b2c2c', 'stroke-dasharray': '4 3'}));
      const right = x > (ML + W - MR) / 2;
      svg.appendChild(S.svg('text', {x: right ? x - 4 : x + 4, y: H - MB - 6, 'text-anchor': right ? 'end' : 'start'}, spec.vline.label || ''));
    }
    spec.series.forEach((s, k) => {
      const color = s.color || COLORS[k % COLORS.length];
      const pts = s.points.filter(p => isFinite(p[1]) && (!spec.logX || p[0] > 0));
      if (s.line && pts.length > 1) {
        const attrs = {class: 'curve', points: pts.map(p => px(p[0]) + ',' + py(p[1])).join(' '), fill: 'none', stroke: color,
          'stroke-width': s.width || '1.8'};
        if (s.dash) attrs['stroke-dasharray'] = s.dash;
        svg.appendChild(S.svg('polyline', attrs));
      }
      if (s.dots) {
        for (const p of pts) svg.appendChild(S.svg('circle', {class: 'dot', cx: px(p[0]), cy: py(p[1]), r: 3.2, fill: color, 'fill-opacity': '0.8'}));
      }
    });
    const legend = spec.series.filter(s => s.label);
    legend.forEach((s, k) => {
      const color = s.color || COLORS[spec.series.indexOf(s) % COLORS.length];
      svg.appendChild(S.svg('rect', {x: ML + 10, y: MT + 4 + 14 * k, width: 10, height: 3, fill: color}));
      svg.appendChild(S.svg('text', {x: ML + 24, y: MT + 9 + 14 * k}, s.label));
    });
    container.appendChild(svg);
    return banded;
  }

  function rsText(v) { return v === null || !isFinite(v) ? '\u2013' : (v > 0 ? '+' : '') + v.toFixed(3); }

  // Rank-correlation sections
  document.querySelectorAll('.scaling-root').forEach(root => {
    const id = root.getAttribute('data-section');
    const D = S.data(id);
    if (!D) return;
    const rowsEl = document.getElementById(id + '-rows');
    const titleEl = document.getElementById(id + '-title');
    const scatterEl = document.getElementById(id + '-scatter');
    const curveEl = document.getElementById(id + '-curve');
    const headEl = document.getElementById(id + '-head');
    const what = n => n + ' ' + (D.subject || 'entry') + (n === 1 ? '' : 's');
    const hidden = D.belowThreshold > 0 ? '; ' + what(D.belowThreshold) + ' below ' + (100 * D.shareThreshold).toFixed(1)
      + ' % of communication in every run not listed' : '';
    if (D.rows.length === 0) {
      headEl.textContent = 'Ranked by r_s';
      rowsEl.textContent = 'no entry reaches the share threshold' + hidden;
      return;
    }
    const table = S.el('table', {class: 'top'});
    table.appendChild(S.el('tr', null, [S.el('th', {class: 'num'}, 'r_s'), S.el('th', {class: 'num'}, 'p-value'),
      S.el('th', {class: 'num'}, 'max share'), S.el('th', null, D.subject || 'entry')]));
    const trs = D.rows.map((r, i) => {
      const tr = S.el('tr', {class: 'srow', style: 'cursor: pointer'}, [S.el('td', {class: 'num'}, rsText(r.rs)),
        S.el('td', {class: 'num'}, r.pValue === null ? '\u2013' : r.pValue.toFixed(4)),
        S.el('td', {class: 'num'}, (100 * r.maxShare).toFixed(1) + '%'), S.el('td', {class: 'key'}, S.breakable(r.key))]);
      tr.addEventListener('click', () => select(i));
      table.appendChild(tr);
      return tr;
    });
    rowsEl.appendChild(table);
    // the list scrolls when long: its box holds whole rows only, as far down as the charts beside it reach (at least
    // 460 px), and the head says how many rows there are
    const charts = scatterEl.parentElement;
    const fit = () => {
      headEl.textContent = what(D.rows.length) + ', ranked by r_s' + hidden;
      rowsEl.style.height = '0';
      const room = Math.max(460, charts.getBoundingClientRect().bottom - rowsEl.getBoundingClientRect().top - 1);
      const shown = S.fitRows(rowsEl, trs, room);
      if (shown < trs.length) {
        headEl.textContent = what(D.rows.length) + ', ranked by r_s (' + shown + ' in view, scroll for the other '
          + (trs.length - shown) + ')' + hidden;
      }
    };
    window.addEventListener('resize', fit);
    function select(i) {
      trs.forEach((tr, k) => { tr.style.background = k === i ? '#dbe8fb' : ''; });
      const r = D.rows[i];
      titleEl.textContent = r.key + ' \u2014 r_s ' + rsText(r.rs);
      chart(scatterEl, {xLabel: 'rank of the number of tasks', yLabel: 'rank of the share', xInteger: true, yInteger: true,
        series: [{points: r.taskRanks.map((x, k) => [x, r.shareRanks[k]]), dots: true}]});
      const byP = new Map();
      for (const s of r.series) { const a = byP.get(s.tasks) || []; a.push(s.share); byP.set(s.tasks, a); }
      const mean = [...byP.entries()].sort((a, b) => a[0] - b[0]).map(([p, a]) => [p, 100 * a.reduce((x, y) => x + y, 0) / a.length]);
      chart(curveEl, {logX: true, xLabel: 'tasks', yLabel: 'share of MPI time (%)', xMarks: r.series.map(s => s.tasks),
        series: [{points: r.series.map(s => [s.tasks, 100 * s.share]), dots: true}, {points: mean, line: true}]});
    }
    select(0);
    fit();
  });

  // Scaling-model section
  const M = S.data('model');
  if (M) {
    const pick = document.getElementById('model-pick');
    const formula = document.getElementById('model-formula');
    const stats = document.getElementById('model-stats');
    const area = document.getElementById('model-chart');
    const notes = document.getElementById('model-notes');
    const caption = document.getElementById('model-caption');
    const level = Math.round(100 * (M.bandLevel || 0.95)) + ' %';
    const extrapolated = (measured, to) => to > Math.max(...measured) * (1 + 1e-9) ? ', extrapolated to p = ' + Math.round(to) : '';
    const items = [];
    if (M.medya) items.push({label: 'run time: c0 + c1/p + c2/\u221ap (time, computation, MPI)', medya: M.medya});
    for (const m of (M.models || [])) items.push({label: m.metric + (m.callPath.length ? ' @ ' + S.joinPath(m.callPath) : ''), model: m});
    items.forEach((it, i) => pick.appendChild(S.el('option', {value: i}, it.label)));
    const show = i => {
      const it = items[i];
      if (!it) { area.textContent = 'no model'; caption.textContent = ''; return; }
      if (notes) notes.textContent = '';
      if (it.medya) {
        const md = it.medya, pts = md.points;
        const pmin = Math.min(...pts.map(p => p.tasks));
        const pmax = Math.max(...pts.map(p => p.tasks), ...md.predictions.map(p => p.tasks));
        const grid = [];
        for (let k = 0; k < 60; k++) grid.push(pmin * Math.pow(pmax / pmin, k / 59));
        const f = c => p => c.c0 + c.c1 / p + c.c2 / Math.sqrt(p);
        // labelled as the runs table names them; the keys are the JSON's
        const parts = [['time', md.total, 'total'], ['computation', md.computation, 'computation'], ['MPI', md.communication, 'communication']];
        const series = [];
        // the total is drawn last, wider and dashed: where MPI is nearly all of it, both stay visible
        [1, 2, 0].forEach(k => {
          const [name, fit, key] = parts[k];
          series.push({points: grid.map(p => [p, f(fit)(p)]), line: true, color: COLORS[k],
            width: k === 0 ? '2.6' : '1.8', dash: k === 0 ? '7 4' : null,
            label: name + ' ' + fit.formula + ' (R\u00b2 ' + (fit.r2 === null ? '\u2013' : fit.r2.toFixed(3)) + ')'});
          series.push({points: pts.map(p => [p.tasks, p[key]]), dots: true, color: COLORS[k]});
        });
        formula.textContent = md.crossover.text;
        stats.textContent = pts.length + ' runs; predictions: ' + md.predictions.map(p => 'p = ' + p.tasks + ': ' + (p.total < 0 ? 'invalid (<0)' : S.fmt(p.total, 'sec'))).join('; ');
        chart(area, {logX: true, xLabel: 'processes', yLabel: 'time per process', unit: 'sec', series: series,
          xMarks: pts.map(p => p.tasks).concat(md.predictions.map(p => p.tasks)),
          vline: md.crossover.kind === 'AT' ? {x: md.crossover.p, label: 'MPI overtakes computation'} : null});
        // a least-squares fit of three coefficients to a few runs: no confidence band is computed, none is drawn
        caption.textContent = 'Time per process of each run (dots) and the fitted c0 + c1/p + c2/\u221ap of time '
          + '(dashed), computation and MPI (lines)' + extrapolated(pts.map(p => p.tasks), pmax)
          + '; these fits have no confidence band. The x axis is logarithmic.';
      } else {
        const m = it.model;
        formula.textContent = m.formula ? m.formula : 'no model: ' + m.reason;
        const series = [{points: m.p.map((p, k) => [p, m.values[k]]), dots: true, label: 'measured'}];
        let band = null;
        if (m.curve) {
          series.push({points: m.curve.p.map((p, k) => [p, m.curve.fit[k]]), line: true, label: 'model'});
          // a time or a count is never negative: the band is drawn from 0 where its lower edge dips below
          band = {x: m.curve.p, lo: m.curve.lower.map(v => Math.max(0, v)), hi: m.curve.upper};
        }
        const banded = chart(area, {logX: true, xLabel: 'processes', yLabel: m.metric, unit: 'sec', series: series, band: band,
          xMarks: m.p, vline: m.turnOver ? {x: m.turnOver.p, label: 'form turns over'} : null});
        stats.textContent = m.formula ? 'R\u00b2 ' + (m.r2 === null ? '\u2013' : m.r2.toFixed(4)) + ' \u00b7 leave-one-out SMAPE '
          + m.cvSmape.toFixed(2) + '%' + (banded ? ' \u00b7 ' + level + ' confidence band' : '') : '';
        // the band is only mentioned where one is drawn: with as many runs as coefficients there is none
        caption.textContent = !m.curve ? 'Measured values (dots); no model was fitted. The x axis is logarithmic.'
          : 'Measured values (dots) and the fitted model (line)' + (banded ? ' with its ' + level + ' confidence band (shaded)'
          : '; no confidence band: too few runs for one') + extrapolated(m.p, m.curve.p[m.curve.p.length - 1])
          + '. The x axis is logarithmic.';
        // the turn-over flag first: it says whether the extrapolated curve can be trusted at all
        if (notes) notes.textContent = [m.turnOver ? m.turnOver.text : null].concat(m.notes || []).filter(x => x).join(' \u00b7 ');
      }
    };
    pick.addEventListener('change', () => show(+pick.value));
    show(0);
  }
})();
