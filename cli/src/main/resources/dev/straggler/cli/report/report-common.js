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

  /**
   * Round axis ticks covering [lo, hi]: steps of 1, 2, 2.5 or 5 times a power of ten. With integer set (an axis of
   * ranks, process counts or other counts) only whole numbers: no tick at 1.5 between rank 1 and rank 2.
   */
  function ticks(lo, hi, count, integer) {
    if (lo === hi) { hi = lo === 0 || integer ? lo + 1 : lo * 1.1; }
    const span = hi - lo;
    const raw = span / Math.max(1, count);
    const mag = Math.pow(10, Math.floor(Math.log10(raw)));
    let steps = [1, 2, 2.5, 5, 10].map(f => f * mag);
    if (integer) steps = steps.filter(s => Number.isInteger(s)).concat([1]).map(s => Math.max(1, s)).sort((a, b) => a - b);
    const step = steps.find(s => span / s <= count) || steps[steps.length - 1] * 2;
    const out = [];
    for (let t = Math.ceil(lo / step - 1e-9) * step; t <= hi + step * 1e-9; t += step) {
      out.push(integer ? Math.round(t) : Math.abs(t) < step * 1e-9 ? 0 : t);
    }
    return out;
  }

  /**
   * Ticks of a process-count axis drawn on a log2 scale from lo to hi: the process counts that were measured (or
   * predicted), then powers of two at least half an octave from every other tick, at most about count of them;
   * whole numbers only.
   */
  function processTicks(lo, hi, marks, count) {
    const gap = Math.max(1e-9, (Math.log2(hi) - Math.log2(lo)) / Math.max(1, count));
    const out = [];
    const far = (t, d) => out.every(u => Math.abs(Math.log2(t) - Math.log2(u)) >= d * 0.999);
    const inside = t => Number.isInteger(t) && t >= 1 && t >= lo * (1 - 1e-9) && t <= hi * (1 + 1e-9);
    for (const t of [...new Set(marks || [])].filter(inside).sort((a, b) => a - b)) if (far(t, gap)) out.push(t);
    for (let t = Math.pow(2, Math.max(0, Math.ceil(Math.log2(lo) - 1e-9))); t <= hi * (1 + 1e-9); t *= 2) {
      if (inside(t) && far(t, Math.max(gap, 0.5))) out.push(t);
    }
    return out.sort((a, b) => a - b);
  }

  /**
   * Fits a scrolling list to whole rows: no fixed height when all rows fit in maxPx, else the height of the rows that
   * fit, so that no row shows cut at the bottom. Returns how many rows are in view.
   */
  function fitRows(box, rows, maxPx) {
    box.style.height = 'auto';
    // measured with the scroll bar in place: the narrower rows wrap as they will when the list scrolls
    box.style.overflowY = 'scroll';
    const top = box.getBoundingClientRect().top;
    let shown = 0, bottom = 0;
    for (const r of rows) {
      const b = r.getBoundingClientRect().bottom - top;
      if (b > maxPx && shown > 0) break;
      shown++;
      bottom = b;
    }
    if (shown < rows.length) {
      box.style.height = Math.round(bottom) + 'px';
    } else {
      box.style.overflowY = 'visible';
    }
    return shown;
  }

  /** Between the region names of a call path, as in every report (Java: dev.straggler.patterns.cube.PathNames). */
  const PATH_SEPARATOR = '/';
  function joinPath(names) { return names.join(PATH_SEPARATOR); }
  /** Text with a line-break opportunity after each separator, for long call paths in narrow cells. */
  function breakable(text) {
    const out = [];
    text.split(PATH_SEPARATOR).forEach((part, i, all) => {
      out.push(i < all.length - 1 ? part + PATH_SEPARATOR : part);
      if (i < all.length - 1) out.push(document.createElement('wbr'));
    });
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

  return { data, fmt, pct, el, svg, ticks, processTicks, fitRows, joinPath, breakable, PATH_SEPARATOR, seq, SVG_NS };
})();
