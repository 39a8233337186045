(function () {
  'use strict';

  // Drawing: one canvas the size of the visible part of the graph (never the whole graph: browsers refuse huge
  // canvases), frames under half a pixel skipped, fills batched per colour. That keeps a redraw of a 50,000-frame
  // profile within a frame's time.
  var ROW = 18;
  var LABEL_MIN_WIDTH = 24;
  var SHADES = 4;
  // Per category: base hue, hue spread between shades, saturation, lightness. The page data says which category
  // each ordinal stands for, so only the colours live here.
  var FAMILY_OF = { application: [22, 14, 86, 63], framework: [108, 26, 42, 62], jdk: [197, 16, 52, 66],
    native: [5, 8, 50, 64], kernel: [33, 8, 54, 64], wait: [328, 10, 58, 70], span: [268, 12, 52, 76],
    other: [220, 0, 8, 82] };
  var TEXT = '#17191e';
  var DIMMED_TEXT = '#6c7280';

  var data = JSON.parse(document.getElementById('profile-data').textContent);
  var names = data.names;
  var nameCount = names.length;
  var CATEGORY_IDS = data.categoryIds;
  var CATEGORY_LABELS = data.categoryLabels;
  var SPAN_CATEGORY = CATEGORY_IDS.indexOf('span');
  var FAMILIES = CATEGORY_IDS.map(function (id) { return FAMILY_OF[id] || FAMILY_OF.other; });

  var colours = [];
  var paleColours = [];
  FAMILIES.forEach(function (family) {
    for (var shade = 0; shade < SHADES; shade++) {
      var hue = family[0] + (shade - 1.5) * family[1] / SHADES;
      var light = family[3] + (shade % 2) * 4 - 2;
      colours.push('hsl(' + hue + ',' + family[2] + '%,' + light + '%)');
      paleColours.push('hsl(' + hue + ',' + Math.round(family[2] * 0.45) + '%,' + Math.min(94, light + 20) + '%)');
    }
  });
  var PALE_OFFSET = colours.length;
  var NO_MATCH = colours.length * 2;
  var fills = colours.concat(paleColours, ['#e7e9ed']);
  // Differential graphs: blue (fewer samples per request on the slow side) through grey to red (more).
  var DIFF_SHADES = 5;
  var DIFF_OFFSET = fills.length;
  for (var ds = -DIFF_SHADES; ds <= DIFF_SHADES; ds++) {
    var strength = Math.abs(ds) / DIFF_SHADES;
    fills.push(ds === 0 ? 'hsl(220,6%,84%)' : 'hsl(' + (ds > 0 ? 2 : 216) + ',' + Math.round(40 + 45 * strength) + '%,'
      + Math.round(86 - 30 * strength) + '%)');
  }
  var diff = data.diff || null;

  // A function keeps its colour on every page: the shade comes from a hash of its class name.
  var colourOfName = new Int32Array(nameCount);
  for (var ni = 0; ni < nameCount; ni++) {
    colourOfName[ni] = data.categories[ni] * SHADES + (hashString(className(names[ni])) % SHADES);
  }

  var $ = function (id) { return document.getElementById(id); };
  var scroller = $('graph');
  var canvas = $('flame');
  var spacer = $('spacer');
  var ctx = canvas.getContext('2d', { alpha: false });
  var tooltip = $('tooltip');
  var searchInput = $('search');
  var matchLabel = $('match');
  var statusLine = $('status');
  var breadcrumb = $('breadcrumb');
  var openSpan = $('open-span');
  var followBox = $('follow-box');
  var follow = $('follow');

  var topDown = makeGraph(data.n, data.d, data.v);
  var diffShade = diff ? diffShades(topDown, data.b) : null;
  var spanOfNode = new Map(data.spans);
  var graphs = { 'top-down': topDown, 'bottom-up': null };
  var state = { view: 'top-down', zoom: 0, hover: -1, regex: null, search: '', matches: [], matchIndex: -1 };
  var nameMatches = new Uint8Array(nameCount);
  var cssWidth = 0;
  var cssHeight = 0;
  var ancestors = [0];
  var buckets = fills.map(function () { return []; });
  var labels = [];
  var fullWidths = new Float32Array(nameCount);
  var shortWidths = new Float32Array(nameCount);
  var charWidth = 7;
  var stats = { draws: 0, lastDrawMillis: 0, maxDrawMillis: 0, readyMillis: 0 };
  var drawPending = false;

  function graph() {
    return graphs[state.view];
  }

  // --- data ---------------------------------------------------------------------------------------------------

  // Nodes arrive depth-first with their depth and sample count; positions, parents, self time and per-depth rows
  // are derived here once.
  function makeGraph(n, d, v) {
    var count = n.length;
    var parent = new Int32Array(count);
    var x = new Float64Array(count);
    var total = Float64Array.from(v);
    var self = new Float64Array(count);
    var size = new Int32Array(count);
    var stack = [];
    var cursor = [];
    var rowCounts = [];
    var depthCount = 0;
    for (var i = 0; i < count; i++) {
      var depth = d[i];
      if (depth === 0) {
        parent[i] = -1;
        x[i] = 0;
      } else {
        var p = stack[depth - 1];
        parent[i] = p;
        x[i] = cursor[depth - 1];
        cursor[depth - 1] += total[i];
        self[p] -= total[i];
      }
      self[i] += total[i];
      stack[depth] = i;
      cursor[depth] = x[i];
      if (depth + 1 > depthCount) {
        depthCount = depth + 1;
      }
      rowCounts[depth] = (rowCounts[depth] || 0) + 1;
      size[i] = 1;
    }
    for (var j = count - 1; j > 0; j--) {
      size[parent[j]] += size[j];
    }
    var rows = [];
    var fill = [];
    for (var r = 0; r < depthCount; r++) {
      rows.push(new Int32Array(rowCounts[r] || 0));
      fill.push(0);
    }
    for (var k = 0; k < count; k++) {
      rows[d[k]][fill[d[k]]++] = k;
    }
    return { count: count, n: Int32Array.from(n), d: Int32Array.from(d), total: total, x: x, self: self,
      parent: parent, size: size, rows: rows, depthCount: depthCount };
  }

  // Per node: samples per request on the slow side minus on the typical side, as a shade scaled to the largest
  // difference anywhere in the graph.
  function diffShades(g, baseline) {
    var shades = new Int32Array(g.count);
    var deltas = new Float64Array(g.count);
    var largest = 0;
    for (var i = 1; i < g.count; i++) {
      deltas[i] = perRequest(g.total[i], diff.slowSpans) - perRequest(baseline[i], diff.typicalSpans);
      largest = Math.max(largest, Math.abs(deltas[i]));
    }
    for (var j = 0; j < g.count; j++) {
      shades[j] = DIFF_OFFSET + DIFF_SHADES + (largest > 0 ? Math.round(DIFF_SHADES * deltas[j] / largest) : 0);
    }
    return shades;
  }

  function perRequest(samples, spans) {
    return spans > 0 ? samples / spans : 0;
  }

  function colourOf(g, i) {
    return (diffShade && g === topDown) ? diffShade[i] : colourOfName[g.n[i]];
  }

  // The inverted tree: each function where samples ended, then its callers, merged over all call paths.
  function makeBottomUp(g) {
    var rn = [g.n[0]];
    var rt = [g.total[0]];
    var rp = [-1];
    var index = new Map();
    for (var i = 1; i < g.count; i++) {
      var s = g.self[i];
      if (s <= 0) {
        continue;
      }
      var at = 0;
      for (var node = i; node > 0; node = g.parent[node]) {
        var key = at * nameCount + g.n[node];
        var id = index.get(key);
        if (id === undefined) {
          id = rn.length;
          rn.push(g.n[node]);
          rt.push(0);
          rp.push(at);
          index.set(key, id);
        }
        rt[id] += s;
        at = id;
      }
    }
    var children = new Array(rn.length);
    for (var c = 1; c < rn.length; c++) {
      (children[rp[c]] || (children[rp[c]] = [])).push(c);
    }
    var on = [];
    var od = [];
    var ov = [];
    var stack = [0];
    var depths = [0];
    while (stack.length) {
      var idx = stack.pop();
      var depth = depths.pop();
      on.push(rn[idx]);
      od.push(depth);
      ov.push(rt[idx]);
      var kids = children[idx];
      if (kids) {
        kids.sort(heaviestFirst(rt, rn));
        for (var k = kids.length - 1; k >= 0; k--) {
          stack.push(kids[k]);
          depths.push(depth + 1);
        }
      }
    }
    return makeGraph(on, od, ov);
  }

  function heaviestFirst(totals, nameIds) {
    return function (a, b) {
      return (totals[b] - totals[a]) || (names[nameIds[a]] < names[nameIds[b]] ? -1 : 1);
    };
  }

  function hashString(text) {
    var h = 0x811c9dc5;
    for (var i = 0; i < text.length; i++) {
      h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
    }
    return h >>> 0;
  }

  function className(name) {
    var paren = name.indexOf('(');
    var plain = paren > 0 ? name.slice(0, paren) : name;
    var dot = plain.lastIndexOf('.');
    return dot > 0 ? plain.slice(0, dot) : plain;
  }

  // Class.method: what a reader recognises when the whole name does not fit.
  function shortName(name) {
    // Bracketed names are not methods but what a thread waited on, or the profiler's placeholders: whole or nothing.
    if (name.charAt(0) === '[') {
      return name;
    }
    var paren = name.indexOf('(');
    var plain = paren > 0 ? name.slice(0, paren) : name;
    var method = plain.lastIndexOf('.');
    if (method <= 0) {
      return name;
    }
    var type = plain.lastIndexOf('.', method - 1);
    // A lambda's hidden class ends in its address (Outer$$Lambda.0x00007f...): keep the outer class too.
    if (type > 0 && plain.startsWith('0x', type + 1)) {
      type = plain.lastIndexOf('.', type - 1);
    }
    return type >= 0 ? name.slice(type + 1) : name;
  }

  function ancestorsOf(g, node) {
    var path = [];
    for (var i = node; i >= 0; i = g.parent[i]) {
      path.push(i);
    }
    return path.reverse();
  }

  // --- layout and drawing -------------------------------------------------------------------------------------

  function layout() {
    var g = graph();
    var full = g.depthCount * ROW;
    var top = scroller.getBoundingClientRect().top + window.scrollY;
    var available = Math.max(260, window.innerHeight - top - 48);
    scroller.style.height = (Math.min(full, available) + 2) + 'px';
    cssWidth = scroller.clientWidth;
    cssHeight = Math.min(full, scroller.clientHeight);
    var ratio = window.devicePixelRatio || 1;
    canvas.style.width = cssWidth + 'px';
    canvas.style.height = cssHeight + 'px';
    canvas.width = Math.max(1, Math.round(cssWidth * ratio));
    canvas.height = Math.max(1, Math.round(cssHeight * ratio));
    spacer.style.height = Math.max(0, full - cssHeight) + 'px';
    ctx.font = '12px system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif';
    charWidth = ctx.measureText('OrderServiceImpl.validateRequest').width / 32 * 1.08;
    fullWidths.fill(0);
    shortWidths.fill(0);
    draw();
  }

  function requestDraw() {
    if (!drawPending) {
      drawPending = true;
      window.requestAnimationFrame(function () {
        drawPending = false;
        draw();
      });
    }
  }

  function draw() {
    var started = performance.now();
    var g = graph();
    var z = state.zoom;
    var ratio = window.devicePixelRatio || 1;
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, cssWidth, cssHeight);
    ctx.font = '12px system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif';
    ctx.textBaseline = 'middle';
    var scrollTop = scroller.scrollTop;
    var x0 = g.x[z];
    var span = g.total[z] || 1;
    var x1 = x0 + span;
    var scale = cssWidth / span;
    var zoomDepth = g.d[z];
    var firstRow = Math.max(0, Math.floor(scrollTop / ROW));
    var lastRow = Math.min(g.depthCount - 1, Math.floor((scrollTop + cssHeight) / ROW));
    var searching = state.regex !== null;
    for (var b = 0; b < buckets.length; b++) {
      buckets[b].length = 0;
    }
    labels.length = 0;
    for (var row = firstRow; row <= lastRow; row++) {
      var y = row * ROW - scrollTop;
      if (row < zoomDepth) {
        var a = ancestors[row];
        buckets[PALE_OFFSET + colourOfName[g.n[a]]].push(0, y, cssWidth);
        labels.push(a, 0, y, cssWidth, 1);
        continue;
      }
      var nodes = g.rows[row];
      for (var k = firstAtOrAfter(g, nodes, x0); k < nodes.length; k++) {
        var i = nodes[k];
        var nx = g.x[i];
        if (nx >= x1) {
          break;
        }
        var w = g.total[i] * scale;
        if (w < 0.5) {
          continue;
        }
        var px = (nx - x0) * scale;
        var dimmed = searching && !nameMatches[g.n[i]];
        buckets[dimmed ? NO_MATCH : colourOf(g, i)].push(px, y, w);
        if (w >= LABEL_MIN_WIDTH) {
          labels.push(i, px, y, w, dimmed ? 1 : 0);
        }
      }
    }
    for (var f = 0; f < buckets.length; f++) {
      var rects = buckets[f];
      if (rects.length === 0) {
        continue;
      }
      ctx.fillStyle = fills[f];
      ctx.beginPath();
      for (var r = 0; r < rects.length; r += 3) {
        var width = rects[r + 2];
        ctx.rect(rects[r], rects[r + 1], width > 2 ? width - 1 : width, ROW - 1);
      }
      ctx.fill();
    }
    for (var l = 0; l < labels.length; l += 5) {
      var text = fit(g.n[labels[l]], labels[l + 3] - 6);
      if (text) {
        ctx.fillStyle = labels[l + 4] ? DIMMED_TEXT : TEXT;
        ctx.fillText(text, labels[l + 1] + 3, labels[l + 2] + ROW / 2);
      }
    }
    var hover = state.hover;
    if (hover >= 0) {
      var rect = nodeRect(hover);
      if (rect) {
        ctx.strokeStyle = '#17191e';
        ctx.lineWidth = 1.5;
        ctx.strokeRect(rect.x + 0.75, rect.y + 0.75, Math.max(1, rect.width - 2), ROW - 2.5);
      }
    }
    var took = performance.now() - started;
    stats.draws++;
    stats.lastDrawMillis = took;
    stats.maxDrawMillis = Math.max(stats.maxDrawMillis, took);
  }

  // First node of a row (sorted by position) that ends after x.
  function firstAtOrAfter(g, nodes, x) {
    var lo = 0;
    var hi = nodes.length;
    while (lo < hi) {
      var mid = (lo + hi) >>> 1;
      var node = nodes[mid];
      if (g.x[node] + g.total[node] <= x) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  function fit(nameId, available) {
    var full = names[nameId];
    if (!fullWidths[nameId]) {
      fullWidths[nameId] = ctx.measureText(full).width || 0.1;
    }
    if (fullWidths[nameId] <= available) {
      return full;
    }
    var short = shortName(full);
    if (!shortWidths[nameId]) {
      shortWidths[nameId] = ctx.measureText(short).width || 0.1;
    }
    if (shortWidths[nameId] <= available) {
      return short;
    }
    var chars = Math.floor(available / charWidth) - 1;
    return chars >= 2 ? short.slice(0, chars) + '…' : null;
  }

  // Where a node is drawn, in CSS pixels relative to the canvas, or null when it is not on screen.
  function nodeRect(node) {
    var g = graph();
    var z = state.zoom;
    var depth = g.d[node];
    var y = depth * ROW - scroller.scrollTop;
    var x;
    var width;
    if (depth < g.d[z]) {
      if (ancestors[depth] !== node) {
        return null;
      }
      x = 0;
      width = cssWidth;
    } else {
      var scale = cssWidth / (g.total[z] || 1);
      if (g.x[node] < g.x[z] || g.x[node] >= g.x[z] + g.total[z]) {
        return null;
      }
      x = (g.x[node] - g.x[z]) * scale;
      width = g.total[node] * scale;
    }
    if (y + ROW <= 0 || y >= cssHeight) {
      return null;
    }
    return { x: x, y: y, width: width, height: ROW - 1 };
  }

  function nodeAt(clientX, clientY) {
    var bounds = canvas.getBoundingClientRect();
    var mx = clientX - bounds.left;
    var my = clientY - bounds.top;
    if (mx < 0 || my < 0 || mx >= cssWidth || my >= cssHeight) {
      return -1;
    }
    var g = graph();
    var z = state.zoom;
    var row = Math.floor((my + scroller.scrollTop) / ROW);
    if (row >= g.depthCount) {
      return -1;
    }
    if (row < g.d[z]) {
      return ancestors[row];
    }
    var sx = g.x[z] + mx * (g.total[z] / cssWidth);
    var nodes = g.rows[row];
    var k = firstAtOrAfter(g, nodes, sx);
    if (k >= nodes.length) {
      return -1;
    }
    var node = nodes[k];
    var inside = g.x[node] <= sx && sx < g.x[node] + g.total[node];
    var inZoom = g.x[node] >= g.x[z] && g.x[node] < g.x[z] + g.total[z];
    return inside && inZoom ? node : -1;
  }

  // --- numbers ------------------------------------------------------------------------------------------------

  function percent(part, whole) {
    if (!whole) {
      return '0%';
    }
    var p = 100 * part / whole;
    return (p >= 10 || p === 0 ? p.toFixed(1) : p.toPrecision(2)) + '%';
  }

  function samplesText(samples) {
    if (data.unit === 'bytes') {
      return bytesText(samples) + ' allocated';
    }
    if (data.unit === 'nanoseconds') {
      return millis(samples / 1e6) + (data.event === 'lock' ? ' waiting for locks' : ' waiting');
    }
    var text = samples + (samples === 1 ? ' sample' : ' samples');
    if (data.intervalMillis > 0) {
      text += ' ≈ ' + millis(samples * data.intervalMillis) + ' ' + data.event;
    }
    return text;
  }

  // One side of a comparison: its samples (or bytes, or time waited) and what a request of that side has there.
  function diffSide(label, weight, spans) {
    var per = perRequest(weight, spans);
    if (data.unit) {
      return label + ': ' + samplesText(weight) + ' in ' + spans + ' spans · '
        + samplesText(data.unit === 'bytes' ? Math.round(per) : per) + ' per request';
    }
    return label + ': ' + weight + ' samples in ' + spans + ' spans · ' + per.toFixed(2) + ' per request';
  }

  function bytesText(value) {
    if (value >= 1024 * 1024) {
      return (value / (1024 * 1024)).toFixed(1) + ' MB';
    }
    return value >= 1024 ? (value / 1024).toFixed(1) + ' KB' : value + ' B';
  }

  function millis(value) {
    return value >= 100 ? Math.round(value).toLocaleString('en') + ' ms' : value.toFixed(1) + ' ms';
  }

  // --- search -------------------------------------------------------------------------------------------------

  function applySearch() {
    var text = searchInput.value;
    state.search = text;
    searchInput.classList.remove('invalid');
    searchInput.title = '';
    nameMatches.fill(0);
    if (!text) {
      state.regex = null;
    } else {
      try {
        state.regex = new RegExp(text, 'i');
      } catch (e) {
        // Not a regular expression: search for the text itself, and say so.
        state.regex = new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i');
        searchInput.classList.add('invalid');
        searchInput.title = 'Not a valid regular expression; searching for the text as typed';
      }
      for (var i = 0; i < nameCount; i++) {
        if (state.regex.test(names[i])) {
          nameMatches[i] = 1;
        }
      }
    }
    state.matchIndex = -1;
    updateMatches();
    writeHash();
    requestDraw();
  }

  // The share of samples in matching frames, each sample counted once however many matching frames its stack
  // has; and the outermost matches, to step through.
  function updateMatches() {
    var g = graph();
    state.matches = [];
    if (state.regex === null) {
      matchLabel.textContent = '';
      matchLabel.classList.remove('hit');
      return;
    }
    var all = matchedSamples(g, 0, state.matches);
    var text = 'Matched: ' + percent(all, g.total[0]) + ' of ' + (state.view === 'top-down' ? 'the profile' : 'samples');
    if (state.zoom !== 0) {
      text += ' · ' + percent(matchedSamples(g, state.zoom, null), g.total[state.zoom]) + ' of zoom';
    }
    text += ' · ' + state.matches.length + (state.matches.length === 1 ? ' place' : ' places');
    if (state.matchIndex >= 0) {
      text += ' (' + (state.matchIndex + 1) + ' of ' + state.matches.length + ')';
    }
    matchLabel.textContent = text;
    matchLabel.classList.toggle('hit', state.matches.length > 0);
  }

  function matchedSamples(g, root, outermost) {
    for (var a = g.parent[root]; a >= 0; a = g.parent[a]) {
      if (nameMatches[g.n[a]]) {
        return g.total[root];
      }
    }
    var sum = 0;
    var end = root + g.size[root];
    for (var i = root; i < end; i++) {
      if (nameMatches[g.n[i]]) {
        sum += g.total[i];
        if (outermost) {
          outermost.push(i);
        }
        i += g.size[i] - 1;
      }
    }
    return sum;
  }

  function stepMatch(direction) {
    var count = state.matches.length;
    if (!count) {
      return;
    }
    state.matchIndex = ((state.matchIndex < 0 ? (direction > 0 ? -1 : 0) : state.matchIndex) + direction + count) % count;
    zoomTo(state.matches[state.matchIndex], true);
  }

  // --- zoom, view, page state ---------------------------------------------------------------------------------

  function zoomTo(node, keepMatchIndex) {
    var g = graph();
    state.zoom = node >= 0 && node < g.count ? node : 0;
    ancestors = ancestorsOf(g, state.zoom);
    if (!keepMatchIndex) {
      state.matchIndex = -1;
    }
    var depthTop = g.d[state.zoom] * ROW;
    if (depthTop < scroller.scrollTop || depthTop > scroller.scrollTop + cssHeight - ROW) {
      scroller.scrollTop = Math.max(0, depthTop - ROW * 2);
    }
    updateBreadcrumb();
    updateMatches();
    updateOpenSpan();
    writeHash();
    draw();
  }

  function updateBreadcrumb() {
    var g = graph();
    breadcrumb.textContent = '';
    var path = ancestors;
    var shown = path.length > 7 ? [path[0], -1].concat(path.slice(path.length - 5)) : path;
    shown.forEach(function (node, index) {
      if (index > 0) {
        var sep = document.createElement('span');
        sep.className = 'sep';
        sep.textContent = '›';
        breadcrumb.appendChild(sep);
      }
      if (node === -1) {
        var gap = document.createElement('span');
        gap.className = 'sep';
        gap.textContent = '…';
        breadcrumb.appendChild(gap);
        return;
      }
      var button = document.createElement('button');
      button.type = 'button';
      button.textContent = shortName(names[g.n[node]]);
      button.title = names[g.n[node]] + ' — ' + samplesText(g.total[node]);
      button.addEventListener('click', function () {
        zoomTo(node);
      });
      breadcrumb.appendChild(button);
    });
  }

  function updateOpenSpan() {
    var spanId = null;
    if (state.view === 'top-down') {
      for (var i = 0; i < ancestors.length && spanId === null; i++) {
        spanId = spanOfNode.get(ancestors[i]) || null;
      }
    }
    openSpan.hidden = spanId === null;
    if (spanId !== null) {
      openSpan.href = encodeURIComponent(spanId);
      openSpan.textContent = 'Open span ' + spanId + ' on its own';
    }
  }

  function setView(view) {
    if (view === state.view) {
      return;
    }
    if (view === 'bottom-up' && graphs['bottom-up'] === null) {
      graphs['bottom-up'] = makeBottomUp(topDown);
    }
    state.view = view;
    $('view-top-down').classList.toggle('selected', view === 'top-down');
    $('view-bottom-up').classList.toggle('selected', view === 'bottom-up');
    $('view-top-down').setAttribute('aria-pressed', String(view === 'top-down'));
    $('view-bottom-up').setAttribute('aria-pressed', String(view === 'bottom-up'));
    scroller.scrollTop = 0;
    state.zoom = 0;
    ancestors = [0];
    layout();
    zoomTo(0);
  }

  // Zoom, view, search and follow live in the URL fragment: a view can be shared or bookmarked, survives the
  // reloads of follow mode, and nothing of it is sent to the server.
  function pathKey(g, node) {
    var h = 0x811c9dc5;
    ancestorsOf(g, node).forEach(function (i) {
      h = Math.imul(h ^ hashString(names[g.n[i]]), 0x01000193) >>> 0;
    });
    return h.toString(16);
  }

  function findByKey(g, key) {
    var hashes = new Uint32Array(g.count);
    for (var i = 0; i < g.count; i++) {
      var base = g.parent[i] >= 0 ? hashes[g.parent[i]] : 0x811c9dc5;
      hashes[i] = Math.imul(base ^ hashString(names[g.n[i]]), 0x01000193) >>> 0;
      if (hashes[i].toString(16) === key) {
        return i;
      }
    }
    return 0;
  }

  function writeHash() {
    var params = new URLSearchParams();
    if (state.view !== 'top-down') {
      params.set('view', state.view);
    }
    if (state.zoom !== 0) {
      params.set('zoom', pathKey(graph(), state.zoom));
    }
    if (state.search) {
      params.set('search', state.search);
    }
    if (follow.checked) {
      params.set('follow', '1');
    }
    var text = params.toString();
    history.replaceState(null, '', text ? '#' + text : location.pathname + location.search);
  }

  function readHash() {
    var params = new URLSearchParams(location.hash.slice(1));
    if (params.get('view') === 'bottom-up') {
      graphs['bottom-up'] = makeBottomUp(topDown);
      state.view = 'bottom-up';
      $('view-top-down').classList.remove('selected');
      $('view-bottom-up').classList.add('selected');
      $('view-top-down').setAttribute('aria-pressed', 'false');
      $('view-bottom-up').setAttribute('aria-pressed', 'true');
    }
    if (params.get('search')) {
      searchInput.value = params.get('search');
    }
    return { zoom: params.get('zoom'), follow: params.get('follow') === '1' };
  }

  // --- tooltip and status -------------------------------------------------------------------------------------

  function describe(node) {
    var g = graph();
    var name = names[g.n[node]];
    var category = data.categories[g.n[node]];
    var lines = [];
    var kind = CATEGORY_LABELS[category] || '';
    var spanId = state.view === 'top-down' ? spanOfNode.get(node) : undefined;
    if (spanId) {
      kind += ' ' + spanId + ' — double-click to open its page';
    }
    lines.push(['cat', kind]);
    var total = g.total[node];
    var line = 'Total: ' + samplesText(total) + ' · ' + percent(total, g.total[0]) + ' of all';
    if (state.zoom !== 0) {
      line += ' · ' + percent(total, g.total[state.zoom]) + ' of zoom';
    }
    lines.push(['row', line]);
    if (state.view === 'top-down') {
      lines.push(['row', 'Self: ' + samplesText(g.self[node]) + ' · ' + percent(g.self[node], g.total[0])]);
    }
    if (diff && state.view === 'top-down') {
      lines.push(['row', diffSide(diff.examined || 'Slow', total, diff.slowSpans)]);
      lines.push(['row', diffSide(diff.compared || 'Typical', data.b[node], diff.typicalSpans)]);
    }
    return { name: name, lines: lines };
  }

  function showTooltip(node, clientX, clientY) {
    var info = describe(node);
    tooltip.textContent = '';
    var title = document.createElement('div');
    title.className = 'name';
    title.textContent = info.name;
    tooltip.appendChild(title);
    info.lines.forEach(function (line) {
      var div = document.createElement('div');
      div.className = line[0];
      div.textContent = line[1];
      tooltip.appendChild(div);
    });
    tooltip.hidden = false;
    var width = tooltip.offsetWidth;
    var height = tooltip.offsetHeight;
    var left = clientX + 14;
    var top = clientY + 18;
    if (left + width > window.innerWidth - 8) {
      left = Math.max(8, clientX - width - 14);
    }
    if (top + height > window.innerHeight - 8) {
      top = Math.max(8, clientY - height - 14);
    }
    tooltip.style.left = left + 'px';
    tooltip.style.top = top + 'px';
    statusLine.textContent = info.name + ' — ' + info.lines.slice(1).map(function (l) { return l[1]; }).join(' — ');
  }

  function hideTooltip() {
    tooltip.hidden = true;
  }

  // --- top self-time table ------------------------------------------------------------------------------------

  // Self and total per function over all its call sites; total counts a recursive function once per stack.
  function functionTotals(g) {
    var self = new Float64Array(nameCount);
    var total = new Float64Array(nameCount);
    var onStack = new Int32Array(nameCount);
    var path = [];
    for (var i = 1; i < g.count; i++) {
      var depth = g.d[i];
      while (path.length && g.d[path[path.length - 1]] >= depth) {
        onStack[g.n[path.pop()]]--;
      }
      var name = g.n[i];
      if (onStack[name] === 0) {
        total[name] += g.total[i];
      }
      onStack[name]++;
      path.push(i);
      self[name] += g.self[i];
    }
    return { self: self, total: total };
  }

  var totals = functionTotals(topDown);
  var tableSort = 'self';

  function renderTable() {
    var key = totals[tableSort];
    var ids = [];
    for (var i = 0; i < nameCount; i++) {
      if (totals.self[i] > 0 && data.categories[i] !== SPAN_CATEGORY) {
        ids.push(i);
      }
    }
    ids.sort(function (a, b) {
      return (key[b] - key[a]) || (totals.self[b] - totals.self[a]);
    });
    var body = document.querySelector('#top tbody');
    body.textContent = '';
    var whole = topDown.total[0];
    ids.slice(0, 60).forEach(function (id) {
      var row = document.createElement('tr');
      row.dataset.frame = names[id];
      row.title = names[id] + '\nSelf: ' + samplesText(totals.self[id]) + '\nTotal: ' + samplesText(totals.total[id])
        + '\nClick to highlight it in the graph';
      var fn = document.createElement('td');
      fn.className = 'fn';
      var swatch = document.createElement('i');
      swatch.className = 'swatch';
      swatch.style.background = swatchColour(data.categories[id]);
      fn.appendChild(swatch);
      fn.appendChild(document.createTextNode(shortName(names[id])));
      var selfCell = document.createElement('td');
      selfCell.className = 'num';
      selfCell.textContent = percent(totals.self[id], whole);
      var totalCell = document.createElement('td');
      totalCell.className = 'num';
      totalCell.textContent = percent(totals.total[id], whole);
      row.appendChild(fn);
      row.appendChild(selfCell);
      row.appendChild(totalCell);
      row.addEventListener('click', function () {
        document.querySelectorAll('#top tbody tr.active').forEach(function (r) { r.classList.remove('active'); });
        row.classList.add('active');
        searchInput.value = '^' + names[id].replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + '$';
        applySearch();
      });
      body.appendChild(row);
    });
  }

  document.querySelectorAll('#top thead button').forEach(function (button) {
    button.addEventListener('click', function () {
      tableSort = button.dataset.sort;
      document.querySelectorAll('#top thead button').forEach(function (b) {
        b.classList.toggle('sorted', b === button);
      });
      renderTable();
    });
  });

  // --- events -------------------------------------------------------------------------------------------------

  canvas.addEventListener('mousemove', function (event) {
    var node = nodeAt(event.clientX, event.clientY);
    if (node !== state.hover) {
      state.hover = node;
      requestDraw();
    }
    if (node >= 0) {
      showTooltip(node, event.clientX, event.clientY);
    } else {
      hideTooltip();
    }
  });
  canvas.addEventListener('mouseleave', function () {
    state.hover = -1;
    hideTooltip();
    requestDraw();
  });
  canvas.addEventListener('click', function (event) {
    var node = nodeAt(event.clientX, event.clientY);
    if (node >= 0) {
      zoomTo(node);
      offerFrameSpans(node);
    }
  });

  // A name's graph: from the clicked frame to the stored requests with the most samples in it.
  function offerFrameSpans(node) {
    var link = $('frame-spans');
    if (!data.frameSpans || state.view !== 'top-down' || node === 0) {
      link.hidden = true;
      return;
    }
    var path = ancestorsOf(topDown, node).slice(1).map(function (i) { return names[topDown.n[i]]; });
    link.href = data.frameSpans + encodeURIComponent(path.join(';'));
    link.textContent = 'Stored spans with the most samples in ' + shortName(names[topDown.n[node]]);
    link.hidden = false;
  }
  canvas.addEventListener('dblclick', function (event) {
    var node = nodeAt(event.clientX, event.clientY);
    var spanId = state.view === 'top-down' ? spanOfNode.get(node) : undefined;
    if (spanId) {
      location.href = encodeURIComponent(spanId);
    }
  });
  scroller.addEventListener('scroll', function () {
    hideTooltip();
    requestDraw();
  });
  window.addEventListener('resize', layout);
  $('reset').addEventListener('click', function () {
    zoomTo(0);
  });
  $('view-top-down').addEventListener('click', function () {
    setView('top-down');
  });
  $('view-bottom-up').addEventListener('click', function () {
    setView('bottom-up');
  });
  var searchTimer = 0;
  searchInput.addEventListener('input', function () {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(applySearch, 120);
  });
  document.addEventListener('keydown', function (event) {
    var typing = event.target === searchInput;
    if ((event.ctrlKey || event.metaKey) && (event.key === 'f' || event.key === 'F')) {
      event.preventDefault();
      searchInput.focus();
      searchInput.select();
      return;
    }
    if (event.key === 'Escape') {
      if (searchInput.value) {
        searchInput.value = '';
        applySearch();
      } else {
        zoomTo(0);
      }
      return;
    }
    if (typing) {
      if (event.key === 'Enter') {
        clearTimeout(searchTimer);
        applySearch();
        stepMatch(event.shiftKey ? -1 : 1);
      }
      return;
    }
    if (event.ctrlKey || event.metaKey || event.altKey) {
      return;
    }
    if (event.key === '/') {
      event.preventDefault();
      searchInput.focus();
    } else if (event.key === '0' || event.key === 'Home') {
      zoomTo(0);
    } else if (event.key === 'i' || event.key === 'I') {
      setView(state.view === 'top-down' ? 'bottom-up' : 'top-down');
    } else if (event.key === 'n') {
      stepMatch(1);
    } else if (event.key === 'N') {
      stepMatch(-1);
    }
  });

  // Follow mode reloads the page: the simplest way to fetch a fresh profile under a policy that allows no
  // network access from script. The fragment keeps zoom and search across reloads.
  var followTimer = 0;
  function scheduleFollow() {
    clearTimeout(followTimer);
    if (follow.checked) {
      followTimer = setTimeout(function () {
        location.reload();
      }, 2000);
    }
  }
  follow.addEventListener('change', function () {
    writeHash();
    scheduleFollow();
  });

  // A read-only view of the page's state for tests and the curious (the canvas itself has no DOM to inspect).
  window.spanprofile = {
    state: function () {
      var g = graph();
      return { view: state.view, zoom: names[g.n[state.zoom]], zoomDepth: g.d[state.zoom],
        zoomSamples: g.total[state.zoom], search: state.search, match: matchLabel.textContent,
        matches: state.matches.length, nodes: g.count, depth: g.depthCount, samples: g.total[0],
        draws: stats.draws, lastDrawMillis: stats.lastDrawMillis, maxDrawMillis: stats.maxDrawMillis,
        readyMillis: stats.readyMillis, canvasWidth: cssWidth, canvasHeight: cssHeight };
    },
    // The widest frame whose name contains text, scrolled into view: its rectangle relative to the canvas.
    frameRect: function (text) {
      var g = graph();
      var best = -1;
      var z = state.zoom;
      for (var i = 0; i < g.count; i++) {
        var visible = g.d[i] < g.d[z] ? ancestors[g.d[i]] === i
          : g.x[i] >= g.x[z] && g.x[i] < g.x[z] + g.total[z];
        if (visible && names[g.n[i]].indexOf(text) >= 0 && (best < 0 || g.total[i] > g.total[best])) {
          best = i;
        }
      }
      if (best < 0) {
        return null;
      }
      var top = g.d[best] * ROW;
      if (top < scroller.scrollTop || top + ROW > scroller.scrollTop + cssHeight) {
        scroller.scrollTop = Math.max(0, top - cssHeight / 2);
        draw();
      }
      var rect = nodeRect(best);
      return rect && { x: rect.x, y: rect.y, width: rect.width, height: rect.height, name: names[g.n[best]],
        samples: g.total[best] };
    },
    // The colour drawn at a point of the canvas, to check that something is really painted there.
    pixel: function (x, y) {
      var ratio = window.devicePixelRatio || 1;
      var p = ctx.getImageData(Math.floor(x * ratio), Math.floor(y * ratio), 1, 1).data;
      return [p[0], p[1], p[2]];
    }
  };

  // --- legend and time breakdown -------------------------------------------------------------------------------

  function swatchColour(category) {
    return colours[category * SHADES + 1];
  }

  // The categories this graph holds, in the colours it draws them with.
  function renderLegend() {
    var legend = $('legend');
    var present = new Uint8Array(CATEGORY_IDS.length);
    for (var i = 0; i < nameCount; i++) {
      present[data.categories[i]] = 1;
    }
    legend.textContent = '';
    CATEGORY_IDS.forEach(function (id, category) {
      if (!present[category] || id === 'other') {
        return;
      }
      var item = document.createElement('li');
      item.dataset.category = id;
      var swatch = document.createElement('i');
      swatch.className = 'swatch';
      swatch.style.background = swatchColour(category);
      item.appendChild(swatch);
      item.appendChild(document.createTextNode(CATEGORY_LABELS[category]));
      legend.appendChild(item);
    });
  }

  // The server lists the parts of the request's time; only their widths on the bar are set here.
  function sizeTimeBar() {
    var bar = $('time-bar');
    if (!bar) {
      return;
    }
    var scale = Number(bar.dataset.scale);
    bar.querySelectorAll('.seg').forEach(function (segment) {
      var share = scale > 0 ? Number(segment.dataset.nanos) / scale : 0;
      segment.style.width = (100 * share).toFixed(3) + '%';
    });
  }

  // --- start --------------------------------------------------------------------------------------------------

  var initial = readHash();
  if (data.inFlight) {
    followBox.hidden = false;
    follow.checked = initial.follow;
  }
  if (initial.zoom) {
    state.zoom = findByKey(graph(), initial.zoom);
    ancestors = ancestorsOf(graph(), state.zoom);
  }
  renderLegend();
  sizeTimeBar();
  renderTable();
  layout();
  if (searchInput.value) {
    applySearch();
  }
  zoomTo(state.zoom);
  if (initial.follow && !data.inFlight) {
    statusLine.textContent = 'The span has ended: this is its final profile.';
  }
  if (data.hiddenNodes > 0) {
    statusLine.textContent = data.hiddenNodes + ' small frames are folded into "[small frames hidden]" nodes.';
  }
  scheduleFollow();
  stats.readyMillis = performance.now();
  performance.mark('spanprofile-ready');
}());
