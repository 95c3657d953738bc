'use strict';
/* Communication matrix heatmap on a canvas, senders down and receivers across; ranks are binned when there are more
   ranks than pixels. */
(function () {
  const S = window.Straggler;
  const D = S.data('comm');
  if (!D) return;
  const n = D.ranks, cells = D.cells;
  const canvas = document.getElementById('comm-canvas');
  const tip = document.getElementById('comm-tip');
  const legend = document.getElementById('comm-legend');
  // ML is the width of #comm-rows in report.css: the row axis title stands above the row numbers
  const MAX = 560, ML = 56, MT = 18;
  const bin = Math.max(1, Math.ceil(n / MAX));
  const g = Math.ceil(n / bin);
  const px = Math.max(1, Math.min(40, Math.floor(MAX / g)));
  let mode = D.hasBytes ? 'bytes' : 'messages';
  if (!D.hasBytes) {
    document.querySelectorAll('input[name="comm-mode"]').forEach(r => { r.disabled = true; r.checked = r.value === 'messages'; });
  }
  const msgs = new Float64Array(g * g), bytes = new Float64Array(g * g);
  let totalMsgs = 0, totalBytes = 0;
  for (let i = 0; i < cells.length; i += 4) {
    const k = Math.floor(cells[i] / bin) * g + Math.floor(cells[i + 1] / bin);
    msgs[k] += cells[i + 2];
    bytes[k] += cells[i + 3];
    totalMsgs += cells[i + 2];
    totalBytes += cells[i + 3];
  }
  document.getElementById('comm-total').textContent = n + ' ranks \u00b7 ' + S.fmt(totalMsgs, 'occ', true) + ' messages'
    + (D.hasBytes ? ' \u00b7 ' + S.fmt(totalBytes, 'bytes') : '') + (bin > 1 ? ' \u00b7 ' + bin + ' ranks per cell' : '');

  function draw() {
    const grid = mode === 'bytes' ? bytes : msgs;
    let lo = Infinity, hi = 0;
    for (const v of grid) if (v > 0) { if (v < lo) lo = v; if (v > hi) hi = v; }
    const side = g * px;
    canvas.width = ML + side + 2;
    canvas.height = MT + side + 2;
    const c = canvas.getContext('2d');
    c.fillStyle = '#ffffff';
    c.fillRect(0, 0, canvas.width, canvas.height);
    const img = c.createImageData(side, side);
    const span = hi > lo ? Math.log(hi) - Math.log(lo) : 1;
    for (let s = 0; s < g; s++) {
      for (let r = 0; r < g; r++) {
        const v = grid[s * g + r];
        const rgb = v > 0 ? S.seq(0.12 + 0.88 * (hi > lo ? (Math.log(v) - Math.log(lo)) / span : 1)) : [248, 249, 251];
        for (let dy = 0; dy < px; dy++) {
          let o = ((s * px + dy) * side + r * px) * 4;
          for (let dx = 0; dx < px; dx++, o += 4) {
            img.data[o] = rgb[0]; img.data[o + 1] = rgb[1]; img.data[o + 2] = rgb[2]; img.data[o + 3] = 255;
          }
        }
      }
    }
    c.putImageData(img, ML + 1, MT + 1);
    c.strokeStyle = '#c5ccd6';
    c.strokeRect(ML + 0.5, MT + 0.5, side + 1, side + 1);
    c.fillStyle = '#5b6575';
    c.font = '11px system-ui, sans-serif';
    c.textAlign = 'center';
    // rows are senders from the top, columns receivers from the left: the titles above the canvas (#comm-rows,
    // #comm-cols) say so
    const every = Math.max(1, Math.ceil(30 / px));
    for (let r = 0; r < g; r += every) c.fillText(String(r * bin), ML + 1 + (r + 0.5) * px, MT - 5);
    c.textAlign = 'right';
    for (let s = 0; s < g; s += every) c.fillText(String(s * bin), ML - 6, MT + 1 + (s + 0.5) * px + 4);
    drawLegend(lo, hi);
  }

  function drawLegend(lo, hi) {
    legend.textContent = '';
    if (!(hi > 0)) { legend.textContent = 'no point-to-point messages'; return; }
    const stops = [];
    for (let i = 0; i <= 10; i++) { const rgb = S.seq(1 - 0.88 * i / 10); stops.push('rgb(' + rgb.join(',') + ')'); }
    const unit = mode === 'bytes' ? 'bytes' : 'occ';
    if (S.fmt(hi, unit, true) === S.fmt(lo, unit, true)) {
      // every communicating pair shows the same amount: one value, not a scale from it to itself
      legend.appendChild(S.el('div', null, 'every pair: ' + S.fmt(hi, unit, true)));
      legend.appendChild(S.el('div', {style: 'margin-top:6px'}, mode === 'bytes' ? 'bytes' : 'messages'));
      return;
    }
    legend.appendChild(S.el('div', null, S.fmt(hi, unit, true)));
    const h = Math.max(120, Math.min(320, g * px - 40));
    legend.appendChild(S.el('div', {class: 'grad', style: 'height:' + h + 'px;background:linear-gradient(' + stops.join(',') + ')'}));
    legend.appendChild(S.el('div', null, S.fmt(lo, unit, true)));
    legend.appendChild(S.el('div', {style: 'margin-top:6px'}, (mode === 'bytes' ? 'bytes' : 'messages') + ' (log scale)'));
  }

  function range(i) {
    const a = i * bin, b = Math.min(n, a + bin) - 1;
    return a === b ? 'rank ' + a : 'ranks ' + a + '\u2013' + b;
  }

  canvas.addEventListener('mousemove', ev => {
    const rect = canvas.getBoundingClientRect();
    const x = (ev.clientX - rect.left) * canvas.width / rect.width - ML - 1;
    const y = (ev.clientY - rect.top) * canvas.height / rect.height - MT - 1;
    const r = Math.floor(x / px), s = Math.floor(y / px);
    if (r < 0 || s < 0 || r >= g || s >= g) { tip.style.display = 'none'; return; }
    const k = s * g + r;
    tip.textContent = range(s) + ' \u2192 ' + range(r) + ': ' + S.fmt(msgs[k], 'occ', true) + ' messages'
      + (D.hasBytes ? ', ' + S.fmt(bytes[k], 'bytes') : '');
    tip.style.left = (ev.clientX + 14) + 'px';
    tip.style.top = (ev.clientY + 12) + 'px';
    tip.style.display = 'block';
  });
  canvas.addEventListener('mouseleave', () => { tip.style.display = 'none'; });
  document.querySelectorAll('input[name="comm-mode"]').forEach(rb => rb.addEventListener('change', ev => {
    mode = ev.target.value; draw();
  }));
  draw();
})();
