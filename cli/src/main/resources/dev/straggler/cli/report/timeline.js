/* Straggler timeline: draws the trace-event JSON of PerfettoExport on a canvas, on the timeline page (embedded as
 * #tl-data) and in the analysis report (StragglerTimeline(root, meta, data), one window at a time).
 * Rows are locations (trace-event pid = rank, tid = thread), regions are B/E pairs nested by depth, messages are
 * flow starts (ph "s") and ends (ph "f") with one id, marks are X slices on tids MARK_TID_BASE * (lane + 1) + thread.
 * Times in the JSON are microseconds since the trace's first event; the page shows seconds since the start of the
 * measurement (origin_s in #tl-meta + ts / 1e6), as the command line does.
 * The state of the last drawing is left on <body> for tests and scripts: data-visible-from and data-visible-to (seconds
 * since the start of the measurement), data-rows, data-drawn-bars, data-drawn-messages, data-marks (marks drawn),
 * data-slices (region slices in the page), data-levels (nesting levels of the deepest row), data-hover (the last text shown for the pointer), data-error; the canvas
 * has data-plot-left and data-plot-width (CSS pixels of the time axis). */
window.StragglerTimeline = function (root, meta, data, standalone) {
  'use strict';
  var MARK_TID_BASE = 1000000;
  var COLOURS = {
    'MPI': '#d9534f', 'MPI,I/O': '#b5405e', 'OpenMP': '#3f7fd0', 'I/O': '#8e5bb5', 'Pthreads': '#17a096',
    'user': '#7fae6a', 'measurement': '#a3a9b2'
  };
  var OTHER_COLOUR = '#c9a227';
  var LEGEND = ['MPI', 'MPI,I/O', 'OpenMP', 'I/O', 'Pthreads', 'user', 'measurement'];
  var MARK_COLOUR = '#f0a020';
  var COLL_COLOUR = '#7b4fb0';
  /** the delay behind a wait state (category "delay"): on the location that caused the waiting */
  var DELAY_COLOUR = '#c0392b';
  function markColour(mk) { return mk.cat === 'delay' ? DELAY_COLOUR : MARK_COLOUR; }
  var LABEL_W = 92;      // the rows' names, left of the plot
  var AXIS_H = 30;
  var MARK_LANE_H = 18;
  // the drawing's state goes on root's data-* attributes (the page's <body> when the page is one timeline)
  var body = root;
  var status = root.querySelector('.tl-status');
  var origin = meta.origin_s || 0;
  var other = data.otherData || {};
  var events = data.traceEvents || [];

  // ---- rows: one per location, in the export's order (rank, then thread)
  var rows = [];
  var rowOf = {};            // "pid:tid" -> row
  var threaded = false;
  function rowFor(pid, tid, create) {
    var key = pid + ':' + tid;
    var r = rowOf[key];
    if (!r && create) {
      r = {pid: pid, tid: tid, name: '', depths: [], marks: [], markLanes: 0, stack: []};
      rowOf[key] = r;
      rows.push(r);
      if (tid > 0) threaded = true;
    }
    return r;
  }
  var names = [], nameIndex = {}, cats = [], catIndex = {};
  function intern(list, index, s) {
    var i = index[s];
    if (i === undefined) { i = list.length; list.push(s); index[s] = i; }
    return i;
  }
  var flowStart = {}, messages = [];
  var collSteps = {}, collectives = [];
  var totalSlices = 0;
  for (var k = 0; k < events.length; k++) {
    var e = events[k];
    var ph = e.ph;
    if (ph === 'B' || ph === 'E') {
      var r = rowFor(e.pid, e.tid, true);
      if (ph === 'B') {
        var d = r.stack.length >> 1;   // the stack holds (depth, index) pairs
        if (!r.depths[d]) r.depths[d] = {s: [], e: [], n: [], c: [], clip: []};
        var L = r.depths[d];
        L.s.push(e.ts); L.e.push(e.ts);
        L.n.push(intern(names, nameIndex, e.name || '?'));
        L.c.push(intern(cats, catIndex, e.cat || ''));
        L.clip.push(e.args && e.args.clipped ? 1 : 0);
        r.stack.push(d, L.s.length - 1);
        totalSlices++;
      } else if (r.stack.length) {
        var idx = r.stack.pop(), dd = r.stack.pop();
        r.depths[dd].e[idx] = e.ts;
        if (e.args && (e.args.clipped || e.args.unclosed)) r.depths[dd].clip[idx] |= e.args.clipped ? 2 : 4;
      }
    } else if (ph === 'M' && e.name === 'thread_name' && e.tid < MARK_TID_BASE) {
      rowFor(e.pid, e.tid, true).name = e.args && e.args.name || '';
    } else if (ph === 'X' && e.tid >= MARK_TID_BASE) {
      var mr = rowFor(e.pid, e.tid % MARK_TID_BASE, true);
      var lane = Math.floor(e.tid / MARK_TID_BASE) - 1;
      mr.marks.push({s: e.ts, e: e.ts + (e.dur || 0), lane: lane, name: e.name, cat: e.cat || '', args: e.args || {}});
      mr.markLanes = Math.max(mr.markLanes, lane + 1);
    } else if (e.cat === 'MPI collective' && (ph === 's' || ph === 't' || ph === 'f')) {
      // a collective operation: one flow through its members, step by step
      if (!collSteps[e.id]) { collSteps[e.id] = []; collectives.push(collSteps[e.id]); }
      collSteps[e.id].push(e);
    } else if (ph === 's') {
      flowStart[e.id] = e;
    } else if (ph === 'f' && flowStart[e.id]) {
      messages.push({a: flowStart[e.id], b: e});
    }
  }
  rows.sort(function (a, b) { return a.pid - b.pid || a.tid - b.tid; });
  for (var ri = 0; ri < rows.length; ri++) {
    var row = rows[ri];
    row.label = 'rank ' + row.pid + (threaded ? '.' + row.tid : '');
    row.stack = null;
    for (var di = 0; di < row.depths.length; di++) {
      var D = row.depths[di];
      if (!D) { row.depths[di] = D = {s: [], e: [], n: [], c: [], clip: []}; }
      // within one depth slices do not overlap: starts and ends both ascend, so both can be binary-searched
      D.s = Float64Array.from(D.s); D.e = Float64Array.from(D.e);
      D.n = Int32Array.from(D.n); D.c = Int32Array.from(D.c); D.clip = Uint8Array.from(D.clip);
    }
  }
  /** The deepest nesting level with a slice around time t on the row (the MPI call of a message), or 0. */
  function levelAt(r, t) {
    if (!r) return 0;
    for (var d = r.depths.length - 1; d > 0; d--) {
      var D = r.depths[d];
      var k = upperBound(D.s, t, 0) - 1;
      if (k >= 0 && D.e[k] >= t) return d;
    }
    return 0;
  }
  collectives.forEach(function (steps) {
    steps.forEach(function (st) { st.row = rowFor(st.pid, st.tid, false); });
    steps.forEach(function (st) { st.level = levelAt(st.row, st.ts); });
  });
  for (var mi = 0; mi < messages.length; mi++) {
    var msg = messages[mi];
    msg.ra = rowFor(msg.a.pid, msg.a.tid, false);
    msg.rb = rowFor(msg.b.pid, msg.b.tid, false);
    // each end drawn on the bar of the call it was recorded in, as Perfetto binds a flow to its enclosing slice
    msg.la = levelAt(msg.ra, msg.a.ts);
    msg.lb = levelAt(msg.rb, msg.b.ts);
  }
  var catColour = cats.map(function (c) { return COLOURS[c] || OTHER_COLOUR; });

  // ---- the window (µs since the first event) and the view inside it
  var w0 = (other.window_from_s || 0) * 1e6;
  var w1 = other.window_to_s !== undefined ? other.window_to_s * 1e6 : 0;
  if (!isFinite(w1) || w1 <= w0) {
    // no declared end: the last time of any slice
    rows.forEach(function (r) { r.depths.forEach(function (D) { if (D.e.length) w1 = Math.max(w1, D.e[D.e.length - 1]); }); });
    if (!(w1 > w0)) w1 = w0 + 1;
  }
  var MIN_SPAN = 1e-3;   // 1 ns
  var v0 = w0, v1 = w1;

  function setView(a, b) {
    var span = Math.max(MIN_SPAN, Math.min(b - a, w1 - w0));
    if (a < w0) a = w0;
    if (a + span > w1) a = w1 - span;
    v0 = a; v1 = a + span;
  }
  var hash = standalone && /(?:^#|&)view=([-0-9.eE+]+),([-0-9.eE+]+)/.exec(location.hash);
  if (hash) setView((parseFloat(hash[1]) - origin) * 1e6, (parseFloat(hash[2]) - origin) * 1e6);

  // ---- layout
  var canvas = root.querySelector('canvas.tl-canvas');
  var ctx = canvas.getContext('2d');
  var maxDepth = 0;
  rows.forEach(function (r) { maxDepth = Math.max(maxDepth, r.depths.length); });
  var SUB_H = maxDepth <= 6 ? 16 : Math.max(6, Math.floor(96 / maxDepth));
  var y = AXIS_H;
  rows.forEach(function (r) {
    r.y = y;
    r.markH = r.markLanes * MARK_LANE_H;
    r.barsY = y + 3 + r.markH;
    r.h = 6 + r.markH + Math.max(1, r.depths.length) * SUB_H;
    y += r.h;
  });
  var cssH = y + 4, cssW = 0, plotW = 1;

  function X(t) { return LABEL_W + (t - v0) / (v1 - v0) * plotW; }
  function T(x) { return v0 + (x - LABEL_W) / plotW * (v1 - v0); }

  /** first index with a[i] >= t, searching from lo */
  function lowerBound(a, t, lo) {
    var hi = a.length;
    while (lo < hi) { var m = (lo + hi) >>> 1; if (a[m] < t) lo = m + 1; else hi = m; }
    return lo;
  }

  /** first index with a[i] > t, searching from lo */
  function upperBound(a, t, lo) {
    var hi = a.length;
    while (lo < hi) { var m = (lo + hi) >>> 1; if (a[m] <= t) lo = m + 1; else hi = m; }
    return lo;
  }

  // ---- formatting
  function unitFor(sec) {
    var a = Math.abs(sec);
    if (a >= 1) return [1, 's'];
    if (a >= 1e-3) return [1e-3, 'ms'];
    if (a >= 1e-6) return [1e-6, '\u00b5s'];
    return [1e-9, 'ns'];
  }
  function fmtDuration(sec) {
    if (sec === 0) return '0 s';
    var u = unitFor(sec);
    return (sec / u[0]).toFixed(3) + ' ' + u[1];
  }
  /** a time since the start of the measurement, with as many decimals as the view's width needs */
  function fmtTime(us) {
    var sec = origin + us / 1e6;
    var dec = Math.min(12, Math.max(6, Math.ceil(-Math.log10((v1 - v0) / 1e6 / 1000))));
    return sec.toFixed(dec) + ' s';
  }

  // ---- legend
  (function legend() {
    var box = root.querySelector('.tl-legend');
    var seen = {};
    cats.forEach(function (c) { seen[c] = true; });
    var items = LEGEND.filter(function (c) { return seen[c]; }).map(function (c) { return [c, COLOURS[c]]; });
    cats.forEach(function (c) { if (!COLOURS[c]) items.push([c || 'other', OTHER_COLOUR]); });
    var waits = rows.some(function (r) { return r.marks.some(function (m) { return m.cat !== 'delay'; }); });
    var delays = rows.some(function (r) { return r.marks.some(function (m) { return m.cat === 'delay'; }); });
    if (waits) items.push(['wait state (analysis)', MARK_COLOUR]);
    if (delays) items.push(['delay that caused it (root causes)', DELAY_COLOUR]);
    if (messages.length) items.push(['message (send \u2192 receive)', '#1d2430']);
    if (collectives.length) items.push(['collective operation (its members linked)', COLL_COLOUR]);
    items.forEach(function (it) {
      var s = document.createElement('span');
      var i = document.createElement('i');
      i.style.background = it[1];
      if (it[0].indexOf('message') === 0) { i.style.height = '2px'; }
      s.appendChild(i);
      s.appendChild(document.createTextNode(it[0]));
      box.appendChild(s);
    });
    var n = document.createElement('span');
    n.textContent = '\u00b7 ' + rows.length + ' locations, ' + totalSlices.toLocaleString('en') + ' regions, '
        + messages.length.toLocaleString('en') + (messages.length === 1 ? ' message' : ' messages')
        + (collectives.length ? ', ' + collectives.length.toLocaleString('en') + ' collective operation'
            + (collectives.length === 1 ? '' : 's') : '') + ' in the window';
    box.appendChild(n);
  })();

  // ---- drawing
  function niceStep(span, px) {
    var raw = span / Math.max(1, px / 110);
    var p = Math.pow(10, Math.floor(Math.log10(raw)));
    var m = raw / p;
    return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
  }

  function drawAxis() {
    var stepUs = niceStep(v1 - v0, plotW);
    var stepSec = stepUs / 1e6;
    var u = unitFor(stepSec * 10 >= 1 ? Math.max(stepSec, 1) : stepSec * 10 >= 1e-3 ? Math.max(stepSec, 1e-3)
        : stepSec * 10 >= 1e-6 ? Math.max(stepSec, 1e-6) : stepSec);
    var dec = Math.max(0, Math.ceil(-Math.log10(stepSec / u[0]) - 1e-9));
    ctx.fillStyle = '#f7f8fa';
    ctx.fillRect(0, 0, cssW, AXIS_H);
    ctx.strokeStyle = '#c5ccd6';
    ctx.beginPath(); ctx.moveTo(0, AXIS_H - 0.5); ctx.lineTo(cssW, AXIS_H - 0.5); ctx.stroke();
    ctx.font = '11px system-ui, sans-serif';
    ctx.textBaseline = 'middle';
    ctx.textAlign = 'left';
    ctx.fillStyle = '#5b6575';
    ctx.fillText('time since start', 6, AXIS_H / 2);
    // ticks on multiples of the step in seconds since the start of the measurement
    var originUs = origin * 1e6;
    var first = Math.ceil((v0 + originUs) / stepUs) * stepUs - originUs;
    ctx.textAlign = 'center';
    for (var t = first, i = 0; t <= v1 + 1e-9 && i < 1000; t = first + (++i) * stepUs) {
      var x = Math.round(X(t)) + 0.5;
      ctx.strokeStyle = '#c5ccd6';
      ctx.beginPath(); ctx.moveTo(x, AXIS_H - 6); ctx.lineTo(x, AXIS_H); ctx.stroke();
      ctx.strokeStyle = 'rgba(29,36,48,0.06)';
      ctx.beginPath(); ctx.moveTo(x, AXIS_H); ctx.lineTo(x, cssH); ctx.stroke();
      var label = ((t + originUs) / 1e6 / u[0]).toFixed(dec) + ' ' + u[1];
      if (x < LABEL_W - 1 || x > cssW - 24) continue;
      ctx.fillStyle = '#1d2430';
      // a label at the plot's left edge starts there rather than reach into the row names
      ctx.textAlign = x < LABEL_W + 24 ? 'left' : 'center';
      ctx.fillText(label, x < LABEL_W + 24 ? x + 3 : x, AXIS_H / 2 - 2);
    }
  }

  function drawLabel(text, x0, x1, yMid, colour) {
    var w = x1 - x0 - 6;
    if (w < 14) return;
    var s = text;
    if (ctx.measureText(s).width > w) {
      // shorten from the end, keeping the start of the name
      var lo = 0, hi = s.length;
      while (lo < hi) {
        var m = (lo + hi + 1) >> 1;
        if (ctx.measureText(s.slice(0, m) + '\u2026').width <= w) lo = m; else hi = m - 1;
      }
      if (lo < 2) return;
      s = s.slice(0, lo) + '\u2026';
    }
    ctx.fillStyle = colour;
    ctx.fillText(s, x0 + 3, yMid);
  }

  var drawnBars = 0, drawnMessages = 0, drawnMarks = 0, drawnCollectives = 0;

  /** Collective operations: a line through the members' collective records (rank order), a dot at each. */
  function drawCollectives() {
    ctx.strokeStyle = COLL_COLOUR;
    ctx.fillStyle = COLL_COLOUR;
    ctx.lineWidth = 1.5;
    for (var c = 0; c < collectives.length; c++) {
      var steps = collectives[c];
      var lo = Infinity, hi = -Infinity;
      steps.forEach(function (st) { lo = Math.min(lo, st.ts); hi = Math.max(hi, st.ts); });
      if (hi < v0 || lo > v1) continue;
      ctx.beginPath();
      var started = false;
      for (var k = 0; k < steps.length; k++) {
        var st = steps[k];
        if (!st.row) continue;
        var x = X(st.ts), yy = levelMid(st.row, st.level);
        if (started) ctx.lineTo(x, yy); else { ctx.moveTo(x, yy); started = true; }
      }
      ctx.stroke();
      for (var k2 = 0; k2 < steps.length; k2++) {
        var s2 = steps[k2];
        if (!s2.row) continue;
        ctx.beginPath(); ctx.arc(X(s2.ts), levelMid(s2.row, s2.level), 2.5, 0, 2 * Math.PI); ctx.fill();
      }
      drawnCollectives++;
    }
    ctx.lineWidth = 1;
  }

  function drawRow(r) {
    var xl = LABEL_W, xr = LABEL_W + plotW;
    var labelFont = SUB_H >= 12;
    for (var d = 0; d < r.depths.length; d++) {
      var D = r.depths[d], S = D.s, E = D.e, n = S.length;
      var top = r.barsY + d * SUB_H, h = SUB_H - 1;
      // slices ending before the view (or at its start) are skipped by a binary search on the (ascending) ends
      var i = upperBound(E, v0, 0);
      while (i < n && S[i] < v1) {
        var x0 = X(S[i]), x1 = X(E[i]);
        if (x1 - x0 >= 1) {
          var a = Math.max(x0, xl), b = Math.min(x1, xr);
          ctx.fillStyle = catColour[D.c[i]];
          ctx.fillRect(a, top, Math.max(1, b - a), h);
          if (b - a > 3) {
            ctx.fillStyle = 'rgba(255,255,255,0.55)';
            ctx.fillRect(b - 1, top, 1, h);
          }
          if (labelFont) drawLabel(names[D.n[i]], a, b, top + h / 2 + 0.5, '#fff');
          drawnBars++;
          i++;
          continue;
        }
        // narrower than a pixel: one bar for every slice that starts in this pixel column (level of detail),
        // found by a binary search so that a million tiny slices cost one step per pixel
        var px = Math.floor(x0);
        var j = lowerBound(S, T(px + 1), i + 1);
        if (j - 1 > i && X(E[j - 1]) - X(S[j - 1]) >= 1) j--;   // a wide slice keeps its own bar
        var xe = Math.max(px + 1, X(E[j - 1]));
        var ma = Math.max(px, xl), mb = Math.min(xe, xr);
        if (mb > ma) {
          ctx.fillStyle = catColour[D.c[i]];
          ctx.fillRect(ma, top, mb - ma, h);
          drawnBars++;
        }
        i = j;
      }
    }
    // marks: a bar with name and severity on the row's analysis lane, the interval shaded over the region bars
    for (var m = 0; m < r.marks.length; m++) {
      var mk = r.marks[m];
      if (mk.e < v0 || mk.s > v1 || (mk.e === v0 && mk.s < mk.e) || (mk.s === v1 && mk.s < mk.e)) continue;
      var ma0 = Math.max(X(mk.s), xl), ma1 = Math.min(Math.max(X(mk.e), X(mk.s) + 2), xr);
      var my = r.y + 3 + mk.lane * MARK_LANE_H;
      var delay = mk.cat === 'delay';
      ctx.fillStyle = delay ? 'rgba(192,57,43,0.14)' : 'rgba(240,160,32,0.22)';
      ctx.fillRect(ma0, r.barsY, ma1 - ma0, r.h - 6 - r.markH);
      ctx.strokeStyle = markColour(mk);
      ctx.lineWidth = 2;
      ctx.strokeRect(ma0 + 1, r.barsY, Math.max(0, ma1 - ma0 - 2), r.h - 6 - r.markH);
      ctx.lineWidth = 1;
      ctx.fillStyle = markColour(mk);
      ctx.fillRect(ma0, my, ma1 - ma0, MARK_LANE_H - 3);
      var sev = mk.args.severity_s, dl = mk.args.delay_s;
      drawLabel(mk.name + (typeof sev === 'number' ? ' \u00b7 ' + fmtDuration(sev) + ' lost' : '')
          + (typeof dl === 'number' ? ' \u00b7 ' + fmtDuration(dl) + ' delay' : ''), ma0, ma1,
          my + (MARK_LANE_H - 3) / 2 + 0.5, delay ? '#ffffff' : '#1d2430');
      drawnMarks++;
    }
  }

  function levelMid(r, d) { return r.barsY + d * SUB_H + SUB_H / 2; }

  /**
   * Messages as lines from the send to the receive. Level of detail: of the messages between the same two rows
   * whose ends fall into the same pixel columns one line is drawn (they would cover the same pixels), and where many
   * messages are sent within a few pixels the lines are made fainter and lose their arrowheads, so that they do not
   * hide the bars beneath them.
   */
  var BUCKET = 8;
  function drawMessages() {
    var buckets = new Uint16Array(Math.ceil(plotW / BUCKET) + 2);
    function bucket(t) { return Math.max(0, Math.min(buckets.length - 1, Math.floor((X(t) - LABEL_W) / BUCKET) + 1)); }
    var visible = [];
    for (var i = 0; i < messages.length; i++) {
      var m = messages[i];
      if (!m.ra || !m.rb || Math.max(m.a.ts, m.b.ts) < v0 || Math.min(m.a.ts, m.b.ts) > v1) continue;
      visible.push(m);
      var bk = bucket(m.a.ts);
      if (buckets[bk] < 65535) buckets[bk]++;
    }
    ctx.strokeStyle = '#1d2430';
    ctx.fillStyle = '#1d2430';
    ctx.lineWidth = 1;
    var seen = new Set();
    for (var j = 0; j < visible.length; j++) {
      var mm = visible[j];
      var xa = X(mm.a.ts), xb = X(mm.b.ts), ya = levelMid(mm.ra, mm.la), yb = levelMid(mm.rb, mm.lb);
      var key = Math.floor(xa) + ':' + Math.floor(xb) + ':' + ya + ':' + yb;
      if (seen.has(key)) continue;
      seen.add(key);
      var crowd = buckets[bucket(mm.a.ts)];
      ctx.globalAlpha = Math.max(0.12, Math.min(0.8, 2 / crowd));
      ctx.beginPath(); ctx.moveTo(xa, ya); ctx.lineTo(xb, yb); ctx.stroke();
      if (crowd <= 3 && Math.abs(yb - ya) + Math.abs(xb - xa) > 20 && xb >= LABEL_W && xb <= LABEL_W + plotW) {
        var ang = Math.atan2(yb - ya, xb - xa), s = 7;
        ctx.beginPath();
        ctx.moveTo(xb, yb);
        ctx.lineTo(xb - s * Math.cos(ang - 0.4), yb - s * Math.sin(ang - 0.4));
        ctx.lineTo(xb - s * Math.cos(ang + 0.4), yb - s * Math.sin(ang + 0.4));
        ctx.closePath(); ctx.fill();
      }
      drawnMessages++;
    }
    ctx.globalAlpha = 1;
  }

  /** The canvas' width now: a scroll bar coming or going changes it without a resize event. */
  function measure() {
    cssW = Math.max(300, canvas.parentNode.clientWidth || 800);
    plotW = Math.max(1, cssW - LABEL_W - 8);
  }

  function draw() {
    measure();
    var dpr = window.devicePixelRatio || 1;
    if (canvas.width !== Math.round(cssW * dpr) || canvas.height !== Math.round(cssH * dpr)) {
      canvas.width = Math.round(cssW * dpr);
      canvas.height = Math.round(cssH * dpr);
      canvas.style.height = cssH + 'px';
    }
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, cssW, cssH);
    drawnBars = 0; drawnMessages = 0; drawnMarks = 0; drawnCollectives = 0;
    drawAxis();
    ctx.font = '11px system-ui, sans-serif';
    ctx.textAlign = 'left';
    ctx.textBaseline = 'middle';
    ctx.save();
    ctx.beginPath(); ctx.rect(LABEL_W, AXIS_H, plotW, cssH - AXIS_H); ctx.clip();
    for (var i = 0; i < rows.length; i++) {
      if (i % 2) { ctx.fillStyle = '#fafbfc'; ctx.fillRect(LABEL_W, rows[i].y, plotW, rows[i].h); }
      drawRow(rows[i]);
    }
    drawMessages();
    drawCollectives();
    ctx.restore();
    // row names and separators
    ctx.font = '12px system-ui, sans-serif';
    for (var j = 0; j < rows.length; j++) {
      var r = rows[j];
      ctx.fillStyle = '#f7f8fa';
      ctx.fillRect(0, r.y, LABEL_W, r.h);
      ctx.fillStyle = '#1d2430';
      ctx.fillText(r.label, 8, r.barsY + Math.min(r.h - r.markH - 6, SUB_H) / 2 + 1);
      ctx.strokeStyle = '#e3e7ee';
      ctx.beginPath(); ctx.moveTo(0, r.y + r.h - 0.5); ctx.lineTo(cssW, r.y + r.h - 0.5); ctx.stroke();
    }
    ctx.strokeStyle = '#c5ccd6';
    ctx.beginPath(); ctx.moveTo(LABEL_W - 0.5, AXIS_H); ctx.lineTo(LABEL_W - 0.5, cssH); ctx.stroke();
    var from = origin + v0 / 1e6, to = origin + v1 / 1e6;
    body.dataset.visibleFrom = String(from);
    body.dataset.visibleTo = String(to);
    body.dataset.rows = String(rows.length);
    body.dataset.drawnBars = String(drawnBars);
    body.dataset.drawnMessages = String(drawnMessages);
    body.dataset.drawnCollectives = String(drawnCollectives);
    body.dataset.marks = String(drawnMarks);
    body.dataset.slices = String(totalSlices);
    body.dataset.levels = String(maxDepth);
    canvas.dataset.plotLeft = String(LABEL_W);
    canvas.dataset.plotWidth = String(plotW);
    if (!hovering) showView();
  }

  function showView() {
    status.textContent = 'Showing ' + fmtTime(v0) + ' to ' + fmtTime(v1) + ' (' + fmtDuration((v1 - v0) / 1e6)
        + ' of ' + fmtDuration((w1 - w0) / 1e6) + '): ' + drawnBars.toLocaleString('en') + ' bars, '
        + drawnMessages.toLocaleString('en') + (drawnMessages === 1 ? ' message' : ' messages') + ' drawn';
  }

  // ---- what is under the pointer
  var hovering = false;
  function hit(x, yy) {
    if (x < LABEL_W || yy < AXIS_H) return null;
    var t = T(x), tol = (v1 - v0) / plotW;   // one pixel
    for (var i = 0; i < rows.length; i++) {
      var r = rows[i];
      if (yy < r.y || yy >= r.y + r.h) continue;
      if (yy < r.barsY) {
        for (var m = 0; m < r.marks.length; m++) {
          var mk = r.marks[m];
          if (yy >= r.y + 3 + mk.lane * MARK_LANE_H && yy < r.y + 3 + (mk.lane + 1) * MARK_LANE_H
              && t >= mk.s - tol && t <= mk.e + tol) {
            var sev = mk.args.severity_s, dl = mk.args.delay_s, pr = mk.args.propagated_s;
            return r.label + ' \u00b7 ' + mk.name + (mk.cat ? ' [' + mk.cat + ']' : '') + ' \u00b7 start '
                + fmtTime(mk.s) + ' \u00b7 duration ' + fmtDuration((mk.e - mk.s) / 1e6)
                + (typeof sev === 'number' ? ' \u00b7 severity ' + fmtDuration(sev) : '')
                + (typeof dl === 'number' ? ' \u00b7 delay ' + fmtDuration(dl) : '')
                + (typeof pr === 'number' && pr > 0 ? ' \u00b7 propagated ' + fmtDuration(pr) : '')
                + (mk.args.where ? ' \u00b7 in ' + mk.args.where : '')
                + (mk.args.partner_rank !== undefined && mk.args.partner_rank >= 0 ? ' \u00b7 partner rank '
                    + mk.args.partner_rank : '');
          }
        }
        return null;
      }
      var d = Math.floor((yy - r.barsY) / SUB_H);
      var D = r.depths[d];
      if (!D) return null;
      // the last slice starting at or before the pointer (one pixel of slack for merged bars)
      var k = lowerBound(D.s, t + tol, 0) - 1;
      if (k < 0 || D.e[k] < t - tol) return null;
      var note = D.clip[k] & 1 ? ' (began before the window)' : D.clip[k] & 2 ? ' (ends after the window)'
          : D.clip[k] & 4 ? ' (never left: ended at the location\'s last event)' : '';
      return r.label + ' \u00b7 ' + names[D.n[k]] + ' [' + (cats[D.c[k]] || 'other') + '] \u00b7 start '
          + fmtTime(D.s[k]) + ' \u00b7 duration ' + fmtDuration((D.e[k] - D.s[k]) / 1e6) + note;
    }
    return null;
  }

  function pointer(ev) {
    var before = cssW;
    measure();
    if (cssW !== before) draw();
    var b = canvas.getBoundingClientRect();
    return [ev.clientX - b.left, ev.clientY - b.top];
  }

  // ---- zoom and pan
  function zoomAt(x, factor) {
    var t = T(Math.min(Math.max(x, LABEL_W), LABEL_W + plotW));
    var span = Math.max(MIN_SPAN, (v1 - v0) * factor);
    var f = (t - v0) / (v1 - v0);
    setView(t - f * span, t - f * span + span);
    draw();
  }
  function pan(fraction) {
    var span = v1 - v0;
    setView(v0 + fraction * span, v1 + fraction * span);
    draw();
  }
  canvas.addEventListener('wheel', function (ev) {
    ev.preventDefault();
    var dy = ev.deltaMode === 1 ? ev.deltaY * 16 : ev.deltaMode === 2 ? ev.deltaY * 400 : ev.deltaY;
    if (ev.shiftKey || Math.abs(ev.deltaX) > Math.abs(dy)) {
      pan((ev.shiftKey ? dy : ev.deltaX) / plotW);
      return;
    }
    zoomAt(pointer(ev)[0], Math.exp(Math.max(-3, Math.min(3, dy * 0.002))));
  }, {passive: false});
  var drag = null;
  canvas.addEventListener('mousedown', function (ev) {
    drag = {x: pointer(ev)[0], v0: v0, v1: v1};
    canvas.classList.add('dragging');
    canvas.focus();
  });
  window.addEventListener('mouseup', function () { drag = null; canvas.classList.remove('dragging'); });
  /** a page may hold several timelines one after the other: keys go to the one whose canvas has the focus */
  function active() {
    return root.isConnected && (standalone || document.activeElement === canvas);
  }
  canvas.addEventListener('mousemove', function (ev) {
    var p = pointer(ev);
    if (drag && ev.buttons) {
      var dt = (p[0] - drag.x) / plotW * (drag.v1 - drag.v0);
      setView(drag.v0 - dt, drag.v1 - dt);
      draw();
      return;
    }
    var text = hit(p[0], p[1]);
    hovering = text !== null;
    if (hovering) { status.textContent = text; body.dataset.hover = text; } else { showView(); }
  });
  canvas.addEventListener('mouseleave', function () { hovering = false; showView(); });
  document.addEventListener('keydown', function (ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey || !active()) return;
    switch (ev.key) {
      case '+': case '=': measure(); zoomAt(LABEL_W + plotW / 2, 1 / 1.5); break;
      case '-': case '_': measure(); zoomAt(LABEL_W + plotW / 2, 1.5); break;
      case 'ArrowLeft': pan(-0.2); break;
      case 'ArrowRight': pan(0.2); break;
      case '0': setView(w0, w1); draw(); break;
      default: return;
    }
    ev.preventDefault();
  });
  window.addEventListener('resize', function () { if (root.isConnected) draw(); });
  if (window.ResizeObserver) {
    new ResizeObserver(function () { if ((canvas.parentNode.clientWidth || 800) !== cssW) draw(); })
        .observe(canvas.parentNode);
  }
  draw();
};

// the timeline page: one timeline, its trace events and their origin embedded as #tl-data and #tl-meta
(function () {
  var el = document.getElementById('tl-data');
  if (!el) return;
  var data, meta;
  try {
    meta = JSON.parse(document.getElementById('tl-meta').textContent);
    data = JSON.parse(el.textContent);
  } catch (e) {
    var msg = 'the embedded trace events are not valid JSON (' + e.message + ')';
    document.body.dataset.error = msg;
    var p = document.createElement('p');
    p.className = 'tl-error';
    p.textContent = 'Cannot draw the timeline: ' + msg;
    document.body.insertBefore(p, document.getElementById('tl-view'));
    return;
  }
  window.StragglerTimeline(document.body, meta, data, true);
})();
