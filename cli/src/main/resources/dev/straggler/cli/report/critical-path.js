'use strict';
/* Critical path: the call tree on the path with time on it, average per rank, critical-path imbalance and critical
   imbalance impact (named as Scalasca's metric documentation names them, D.names); the selected call path per rank
   beside it. */
(function () {
  const S = window.Straggler;
  const D = S.data('critical-path');
  if (!D) return;
  const n = D.parent.length, L = D.locations, nl = L.length;
  const kids = Array.from({length: n}, () => []), roots = [];
  for (let i = 0; i < n; i++) (D.parent[i] < 0 ? roots : kids[D.parent[i]]).push(i);
  const hot = new Set(D.hot);
  const rows = new Map();
  D.rowPaths.forEach((p, i) => rows.set(p, i));
  const state = {path: -1, open: new Set()};
  const IMB = D.names.imbalance, IMP = D.names.impact;
  const lower = s => s.charAt(0).toLowerCase() + s.slice(1);

  function sec(v) { return S.fmt(v, 'sec'); }
  function pc(v, whole) {
    if (!(whole > 0)) return '';
    const p = Math.max(0, Math.min(100, 100 * v / whole));
    return p > 0 && p < 0.1 ? '<0.1 %' : p.toFixed(1) + ' %';
  }

  /** Opens the tree down to a path and selects it. */
  function focus(p) {
    for (let q = D.parent[p]; q >= 0; q = D.parent[q]) state.open.add(q);
    state.path = p;
  }

  function bar(i) {
    const w = v => Math.max(0, Math.min(100, 100 * v / D.length)).toFixed(2) + '%';
    const imb = Math.min(D.imbalanceIncl[i], D.pathIncl[i]);
    return S.el('div', {class: 'cp-bar', title: 'on the path ' + sec(D.pathIncl[i]) + ' (' + pc(D.pathIncl[i], D.length)
      + ' of it), of which ' + lower(IMB) + ' ' + sec(imb) + '; average per ' + D.word + ' ' + sec(D.averageIncl[i])}, [
      S.el('span', {class: 'bal', style: 'width:' + w(D.pathIncl[i] - imb)}),
      S.el('span', {class: 'imb', style: 'width:' + w(imb)}),
      S.el('i', {class: 'avg', style: 'left:' + w(Math.min(D.averageIncl[i], D.length))})]);
  }

  function renderTree() {
    const box = document.getElementById('critical-path-tree');
    const scroll = box.scrollTop;
    box.textContent = '';
    box.appendChild(S.el('div', {class: 'row cp-row hdr'}, [S.el('span', null, 'Call path'),
      S.el('span', {class: 'num', title: 'time on the critical path in this call path itself'}, 'excl.'),
      S.el('span', {class: 'num', title: 'time on the critical path, callees included'}, 'on path'),
      S.el('span', {class: 'num', title: 'average time per ' + D.word + ' outside wait states, callees included'}, 'avg / ' + D.word),
      S.el('span', {class: 'num', title: 'time on the path above the average per ' + D.word + ', none when not above it; callees included'}, IMB),
      S.el('span', {class: 'num', title: 'waiting on other ' + D.word + 's mapped onto this call path because it takes longer on the critical path than on them; callees included'}, IMP),
      S.el('span', {title: 'bar: time on the path (' + lower(IMB) + ' in orange); tick: average per ' + D.word}, '')]));
    const order = list => list.slice().sort((x, y) => D.pathIncl[y] - D.pathIncl[x]);
    const add = (ul, i, depth) => {
      const open = kids[i].length > 0 && state.open.has(i);
      const tog = S.el('span', {class: 'tog'}, kids[i].length ? (open ? '\u25be' : '\u25b8') : '');
      const row = S.el('div', {class: 'row cp-row' + (i === state.path ? ' sel' : '') + (hot.has(i) ? ' hot' : ''),
        title: D.title[i], 'data-path': i}, [
        S.el('span', {class: 'name', style: 'padding-left:' + (depth * 14) + 'px'},
          [tog, hot.has(i) ? S.el('span', {class: 'hot-mark', title: 'large ' + lower(D.names.hot)}, '\u25b2 ') : null, D.label[i]]),
        S.el('span', {class: 'num'}, sec(D.pathExcl[i])),
        S.el('span', {class: 'num'}, sec(D.pathIncl[i])),
        S.el('span', {class: 'num'}, sec(D.averageIncl[i])),
        S.el('span', {class: 'num' + (D.imbalanceIncl[i] > 0 ? ' imb' : ''),
          title: D.imbalanceNote[i] || lower(IMB) + ' ' + sec(D.imbalanceIncl[i])}, sec(D.imbalanceIncl[i]) + (D.imbalanceNote[i] ? '\u00a0*' : '')),
        S.el('span', {class: 'num'}, sec(D.impactIncl[i])),
        bar(i)]);
      tog.addEventListener('click', ev => {
        ev.stopPropagation();
        if (state.open.has(i)) state.open.delete(i); else state.open.add(i);
        renderTree();
      });
      row.addEventListener('click', () => { state.path = i; renderTree(); renderDetail(); });
      const li = S.el('li', null, row);
      if (open) {
        const sub = S.el('ul');
        order(kids[i]).forEach(k => add(sub, k, depth + 1));
        li.appendChild(sub);
      }
      ul.appendChild(li);
    };
    const ul = S.el('ul');
    order(roots).forEach(i => add(ul, i, 0));
    box.appendChild(ul);
    box.scrollTop = scroll;
    const sel = box.querySelector('.row.sel');
    if (sel && (sel.offsetTop < box.scrollTop || sel.offsetTop > box.scrollTop + box.clientHeight - 20)) {
      box.scrollTop = Math.max(0, sel.offsetTop - box.clientHeight / 3);
    }
  }

  function renderDetail() {
    const i = state.path;
    document.getElementById('critical-path-name').textContent = i >= 0 ? D.title[i] : '';
    const stats = document.getElementById('critical-path-stats');
    const box = document.getElementById('critical-path-chart');
    stats.textContent = '';
    box.textContent = '';
    if (i < 0) return;
    const parts = [['on the path', sec(D.pathIncl[i]) + ' (' + pc(D.pathIncl[i], D.length) + ')'],
      ['average per ' + D.word, sec(D.averageIncl[i])], [lower(IMB), sec(D.imbalanceIncl[i])], [lower(IMP), sec(D.impactIncl[i])]];
    parts.forEach(([k, v], j) => {
      if (j) stats.appendChild(document.createTextNode(' \u00b7 '));
      stats.appendChild(S.el('span', null, [k + ' ', S.el('b', null, v)]));
    });
    if (D.imbalanceNote[i]) stats.appendChild(S.el('div', {class: 'footnote'}, '* ' + D.imbalanceNote[i] + '.'));
    const r = rows.get(i);
    if (r === undefined) {
      stats.appendChild(S.el('div', {class: 'warn'}, 'The per-' + D.word + ' values of this call path are not included '
        + 'in this page (size limit: only the call paths with the most time on the critical path).'));
      return;
    }
    drawBars(box, D.busyRows[r], D.pathRows[r], D.averageIncl[i]);
  }

  /** Time outside wait states per rank (blue), the part of it on the critical path (orange), the average (dashed). */
  function drawBars(box, busy, onPath, mean) {
    const W = Math.max(420, box.clientWidth || 560), H = 260, ml = 64, mr = 10, mt = 22, mb = 34;
    const pw = W - ml - mr, ph = H - mt - mb;
    let hi = 0;
    for (let l = 0; l < nl; l++) hi = Math.max(hi, busy[l], onPath[l]);
    const ts = S.ticks(0, hi || 1, 5);
    hi = Math.max(hi, ts[ts.length - 1]) || 1;
    const y = v => mt + ph * (1 - v / hi);
    const root = S.svg('svg', {viewBox: '0 0 ' + W + ' ' + H, role: 'img', 'aria-label': 'time per ' + D.word});
    ts.forEach(t => {
      root.appendChild(S.svg('line', {class: 'grid', x1: ml, x2: W - mr, y1: y(t), y2: y(t)}));
      root.appendChild(S.svg('text', {x: ml - 6, y: y(t) + 4, 'text-anchor': 'end'}, sec(t)));
    });
    const bw = pw / nl, gap = bw > 4 ? Math.min(3, bw * 0.2) : 0;
    for (let l = 0; l < nl; l++) {
      const x = ml + l * bw + gap / 2, w = Math.max(0.5, bw - gap);
      const tip = D.word + ' ' + L[l] + ': ' + sec(busy[l]) + ' outside wait states, ' + sec(onPath[l]) + ' on the critical path';
      if (busy[l] > 0) root.appendChild(S.svg('rect', {class: 'busy', x, y: y(busy[l]), width: w, height: Math.max(0.5, y(0) - y(busy[l])), fill: '#9ec3e8'}, S.svg('title', null, tip)));
      if (onPath[l] > 0) root.appendChild(S.svg('rect', {class: 'onpath', x: x + w * 0.25, y: y(onPath[l]), width: Math.max(0.5, w * 0.5), height: Math.max(0.5, y(0) - y(onPath[l])), fill: '#e0782a'}, S.svg('title', null, tip)));
    }
    root.appendChild(S.svg('line', {class: 'axis', x1: ml, x2: W - mr, y1: y(0), y2: y(0)}));
    root.appendChild(S.svg('line', {class: 'axis', x1: ml, x2: ml, y1: mt, y2: mt + ph}));
    if (mean > 0) {
      root.appendChild(S.svg('line', {x1: ml, x2: W - mr, y1: y(mean), y2: y(mean), stroke: '#1d2430', 'stroke-width': 1.2,
        'stroke-dasharray': '6 4'}, S.svg('title', null, 'average ' + sec(mean))));
    }
    const legend = [['#9ec3e8', 'time outside wait states'], ['#e0782a', 'on the critical path']];
    let lx = ml;
    legend.forEach(([c, t]) => {
      root.appendChild(S.svg('rect', {x: lx, y: 4, width: 10, height: 10, fill: c}));
      root.appendChild(S.svg('text', {x: lx + 14, y: 13}, t));
      lx += 24 + t.length * 6;
    });
    root.appendChild(S.svg('line', {x1: lx, x2: lx + 16, y1: 9, y2: 9, stroke: '#1d2430', 'stroke-dasharray': '4 3'}));
    root.appendChild(S.svg('text', {x: lx + 20, y: 13}, 'average'));
    const every = Math.max(1, Math.ceil(nl / Math.floor(pw / 36)));
    for (let l = 0; l < nl; l += every) {
      root.appendChild(S.svg('text', {x: ml + (l + 0.5) * bw, y: H - mb + 16, 'text-anchor': 'middle'}, L[l]));
    }
    root.appendChild(S.svg('text', {x: ml + pw / 2, y: H - 4, 'text-anchor': 'middle'}, D.word));
    box.appendChild(root);
  }

  const answer = document.getElementById('critical-path-answer');
  D.answer.forEach(s => answer.appendChild(s.path !== undefined ? S.el('code', {title: s.title}, s.path) : document.createTextNode(s.text)));
  // open the tree at the activities that stand out; select the first, else the largest time on the path
  D.hot.forEach(focus);
  let start = D.hot.length ? D.hot[0] : -1;
  if (start < 0) for (let i = 0; i < n; i++) if (start < 0 || D.pathExcl[i] > D.pathExcl[start]) start = i;
  if (start >= 0) focus(start);
  renderTree();
  renderDetail();
  window.addEventListener('resize', () => renderDetail());
})();
