'use strict';
/* Helpers shared by the report sections: data lookup, number formatting, DOM/SVG building, colour scales. */
window.Straggler = (function () {
  const SVG_NS = 'http://www.w3.org/2000/svg';

  function data(id) {
    const el = document.getElementById('data-' + id);
    return el ? JSON.parse(el.textContent) : null;
  }

  /** Scales x to about three significant digits. */
  function sig(x) {
    return x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2);
  }

  /**
   * A value in its unit: seconds scaled to s/ms/µs/ns, bytes to KiB/MiB/..., counts with separators. What prints as
   * zero has no sign ("−0 B" or "−0.00 ns" would read as a loss).
   */
  function fmt(v, unit, integer) {
    const s = magnitude(v, unit, integer);
    return /^\u2212[0.,]+(\s|$)/.test(s) ? s.substring(1) : s;
  }

  function magnitude(v, unit, integer) {
    if (v === 0 || !isFinite(v)) return v === 0 ? '0' : String(v);
    const a = Math.abs(v);
    const sign = v < 0 ? '\u2212' : '';
    if (unit === 'sec') {
      if (a >= 1) return sign + (a >= 1000 ? Math.round(a).toLocaleString('en-US') : sig(a)) + ' s';
      if (a >= 1e-3) return sign + sig(a * 1e3) + ' ms';
      if (a >= 1e-6) return sign + sig(a * 1e6) + ' \u00b5s';
      return sign + sig(a * 1e9) + ' ns';
    }
    if (unit === 'bytes') {
      const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
      let x = a, i = 0;
      while (x >= 1024 && i < units.length - 1) { x /= 1024; i++; }
      return sign + (i === 0 ? Math.round(x).toString() : sig(x)) + ' ' + units[i];
    }
    if (integer || Number.isInteger(v)) return sign + Math.round(a).toLocaleString('en-US');
    return sign + sig(a) + (unit && unit !== 'occ' ? ' ' + unit : '');
  }

  function pct(v, base) {
    if (!base) return '';
    const p = 100 * v / base;
    if (p !== 0 && Math.abs(p) < 0.1) return (p < 0 ? '>\u22120.1' : '<0.1') + '%';
    return p.toFixed(1) + '%';
  }

  function el(tag, attrs, children) {
    const e = document.createElement(tag);
    if (attrs) for (const k in attrs) { if (attrs[k] !== undefined && attrs[k] !== null) e.setAttribute(k, attrs[k]); }
    append(e, children);
    return e;
  }

  function svg(tag, attrs, children) {
    const e = document.createElementNS(SVG_NS, tag);
    if (attrs) for (const k in attrs) e.setAttribute(k, attrs[k]);
    append(e, children);
    return e;
  }

  function append(e, children) {
    if (children === undefined || children === null) return;
    if (!Array.isArray(children)) children = [children];
    for (const c of children) {
      if (c === null || c === undefined) continue;
      e.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
    }
  }

  /** Round axis ticks covering [lo, hi]. */
  function ticks(lo, hi, count) {
    if (lo === hi) { hi = lo === 0 ? 1 : lo * 1.1; }
    const span = hi - lo;
    const raw = span / Math.max(1, count);
    const mag = Math.pow(10, Math.floor(Math.log10(raw)));
    const step = [1, 2, 2.5, 5, 10].map(f => f * mag).find(s => span / s <= count) || 10 * mag;
    const out = [];
    for (let t = Math.ceil(lo / step) * step; t <= hi + step * 1e-9; t += step) out.push(Math.abs(t) < step * 1e-9 ? 0 : t);
    return out;
  }

  /** Sequential colour for t in [0,1] (light yellow to dark blue). */
  const SEQ = [[255, 255, 217], [199, 233, 180], [65, 182, 196], [34, 94, 168], [8, 29, 88]];
  function seq(t) {
    t = Math.max(0, Math.min(1, t)) * (SEQ.length - 1);
    const i = Math.min(SEQ.length - 2, Math.floor(t)), f = t - i;
    const a = SEQ[i], b = SEQ[i + 1];
    return [0, 1, 2].map(k => Math.round(a[k] + (b[k] - a[k]) * f));
  }

  return { data, fmt, pct, el, svg, ticks, seq, SVG_NS };
})();
