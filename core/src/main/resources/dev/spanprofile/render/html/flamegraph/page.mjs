import { ancestorsOf, functionTotals, makeBottomUp, makeGraph } from './tree.mjs';
import { exactPattern, hashString, shortName } from './names.mjs';
import { compileSearch, matchNames, matchedSamples } from './search.mjs';
import { percent, weightFormat } from './format.mjs';
import { NORMALISATIONS, diffDeltas, diffShades, perRequest, share } from './diff.mjs';
import { sandwichGraph, sandwichOf } from './sandwich.mjs';
import { makePalette } from './palette.mjs';
import { ROW, createCanvasView } from './draw.mjs';
import { showTooltip } from './tooltip.mjs';
import { renderTable } from './table.mjs';
import { renderLegend, sizeTimeBar } from './legend.mjs';

// The flame-graph page: reads the profile from the page's inert JSON block, keeps the view's state (view, zoom,
// search, sandwich, a diff's normalisation) in the URL fragment, and wires the controls. Drawing, tree shapes,
// search, sandwiches and colours live in their own modules.

const $ = (id) => document.getElementById(id);
const data = JSON.parse($('profile-data').textContent);
const names = data.names;
const nameCount = names.length;
const frameCategories = data.frameCategories;
const palette = makePalette(frameCategories, data.categories, names);
const samplesText = weightFormat(data);
const diff = data.diff || null;

const scroller = $('graph');
const tooltip = $('tooltip');
const searchInput = $('search');
const matchLabel = $('match');
const statusLine = $('status');
const breadcrumb = $('breadcrumb');
const openSpan = $('open-span');
const followBox = $('follow-box');
const follow = $('follow');
const canvasView = createCanvasView($('flame'), scroller, $('spacer'), names, palette);

const topDown = makeGraph(data.n, data.d, data.v);
let diffShade = null;
const spanOfNode = new Map(data.spans);
// The sandwich view shows one function (state.sandwich, a name id); back returns to the view it was opened from.
const graphs = { 'top-down': topDown, 'bottom-up': null, sandwich: null };
const state = { view: 'top-down', zoom: 0, hover: -1, regex: null, search: '', matches: [], matchIndex: -1,
  sandwich: -1, back: 'top-down', normalisation: 'request' };
const nameMatches = new Uint8Array(nameCount);
let ancestors = [0];
let readyMillis = 0;

function graph() {
  return graphs[state.view];
}

function colourOf(i) {
  return (diffShade && state.view === 'top-down') ? palette.diffFill(diffShade[i]) : palette.colourOfName[graph().n[i]];
}

function scene() {
  return { g: graph(), zoom: state.zoom, ancestors, hover: state.hover, flat: state.view === 'sandwich',
    nameMatches: state.regex !== null ? nameMatches : null, colourOf };
}

function draw() {
  canvasView.draw(scene());
}

let drawPending = false;
function requestDraw() {
  if (!drawPending) {
    drawPending = true;
    window.requestAnimationFrame(() => {
      drawPending = false;
      draw();
    });
  }
}

function layout() {
  canvasView.layout(scene());
}

// --- tooltip --------------------------------------------------------------------------------------------------

// One side of a comparison: its samples (or bytes, or time waited) and what a request of that side has there.
function diffSide(label, weight, spans) {
  const per = perRequest(weight, spans);
  if (data.unit) {
    return label + ': ' + samplesText(weight) + ' in ' + spans + ' spans · '
      + samplesText(data.unit === 'bytes' ? Math.round(per) : per) + ' per request';
  }
  return label + ': ' + weight + ' samples in ' + spans + ' spans · ' + per.toFixed(2) + ' per request';
}

function describe(node) {
  if (state.view === 'sandwich') {
    return describeInSandwich(node);
  }
  const g = graph();
  const lines = [];
  let kind = frameCategories[data.categories[g.n[node]]].label;
  const spanId = state.view === 'top-down' ? spanOfNode.get(node) : undefined;
  if (spanId) {
    kind += ' ' + spanId + ' — double-click to open its page';
  }
  lines.push(['cat', kind]);
  const total = g.total[node];
  let line = 'Total: ' + samplesText(total) + ' · ' + percent(total, g.total[0]) + ' of all';
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
    lines.push(['row', 'Share of samples: slow ' + percent(share(total, g.total[0]), 1) + ' · typical '
      + percent(share(data.b[node], data.b[0]), 1)]);
  }
  if (node !== 0) {
    lines.push(['hint', 'Right-click or S: its callers and callees (sandwich)']);
  }
  return { name: names[g.n[node]], lines };
}

// In a sandwich, weights are of the function's total: callers above it carry the calls made through them,
// callees below it what those calls spent there.
function describeInSandwich(node) {
  const g = graph();
  const fn = shortName(names[state.sandwich]);
  const lines = [['cat', frameCategories[data.categories[g.n[node]]].label]];
  const total = g.total[node];
  if (node === 0) {
    lines.push(['row', 'Total: ' + samplesText(total) + ' · ' + percent(total, topDown.total[0]) + ' of all']);
    lines.push(['row', 'Self: ' + samplesText(g.self[0]) + ' · ' + percent(g.self[0], topDown.total[0]) + ' of all']);
    lines.push(['hint', 'Callers above, callees below. Esc or ✕ closes.']);
  } else if (g.part[node] < 0) {
    lines.push(['row', 'Calls ' + fn + ' through this path: ' + samplesText(total) + ' · '
      + percent(total, g.total[0]) + ' of its total']);
    lines.push(['hint', 'Click: this function\'s own sandwich']);
  } else {
    lines.push(['row', 'Called by ' + fn + ': ' + samplesText(total) + ' · ' + percent(total, g.total[0])
      + ' of its total']);
    lines.push(['row', 'Self here: ' + samplesText(g.self[node])]);
    lines.push(['hint', 'Click: this function\'s own sandwich']);
  }
  return { name: names[g.n[node]], lines };
}

function hideTooltip() {
  tooltip.hidden = true;
}

// --- search ---------------------------------------------------------------------------------------------------

function applySearch() {
  const text = searchInput.value;
  const search = compileSearch(text);
  state.search = text;
  state.regex = search.regex;
  searchInput.classList.toggle('invalid', search.literal);
  searchInput.title = search.literal ? 'Not a valid regular expression; searching for the text as typed' : '';
  matchNames(names, state.regex, nameMatches);
  state.matchIndex = -1;
  updateMatches();
  writeHash();
  requestDraw();
}

// The share of samples in matching frames, each sample counted once however many matching frames its stack
// has; and the outermost matches, to step through.
function updateMatches() {
  const g = graph();
  state.matches = [];
  if (state.regex === null) {
    matchLabel.textContent = '';
    matchLabel.classList.remove('hit');
    return;
  }
  if (state.view === 'sandwich') {
    // The callees half is a tree of its own: the share of the function's time in matching frames.
    const callees = g.callees;
    matchLabel.textContent = 'Matched: ' + percent(matchedSamples(callees, nameMatches, 0, null), callees.total[0])
      + ' of ' + shortName(names[state.sandwich]) + '\'s time';
    matchLabel.classList.add('hit');
    return;
  }
  const all = matchedSamples(g, nameMatches, 0, state.matches);
  let text = 'Matched: ' + percent(all, g.total[0]) + ' of ' + (state.view === 'top-down' ? 'the profile' : 'samples');
  if (state.zoom !== 0) {
    text += ' · ' + percent(matchedSamples(g, nameMatches, state.zoom, null), g.total[state.zoom]) + ' of zoom';
  }
  text += ' · ' + state.matches.length + (state.matches.length === 1 ? ' place' : ' places');
  if (state.matchIndex >= 0) {
    text += ' (' + (state.matchIndex + 1) + ' of ' + state.matches.length + ')';
  }
  matchLabel.textContent = text;
  matchLabel.classList.toggle('hit', state.matches.length > 0);
}

function stepMatch(direction) {
  const count = state.matches.length;
  if (!count) {
    return;
  }
  state.matchIndex = ((state.matchIndex < 0 ? (direction > 0 ? -1 : 0) : state.matchIndex) + direction + count) % count;
  zoomTo(state.matches[state.matchIndex], true);
}

// --- zoom, view, page state -----------------------------------------------------------------------------------

function zoomTo(node, keepMatchIndex) {
  const g = graph();
  state.zoom = node >= 0 && node < g.count ? node : 0;
  ancestors = ancestorsOf(g, state.zoom);
  if (!keepMatchIndex) {
    state.matchIndex = -1;
  }
  const depthTop = g.d[state.zoom] * ROW;
  if (depthTop < scroller.scrollTop || depthTop > scroller.scrollTop + canvasView.height() - ROW) {
    scroller.scrollTop = Math.max(0, depthTop - ROW * 2);
  }
  updateBreadcrumb();
  updateMatches();
  updateOpenSpan();
  writeHash();
  draw();
}

function updateBreadcrumb() {
  const g = graph();
  breadcrumb.textContent = '';
  if (state.view === 'sandwich') {
    const label = document.createElement('span');
    label.id = 'sandwich-label';
    label.textContent = 'Sandwich of ' + shortName(names[state.sandwich]) + ': ' + samplesText(g.total[0])
      + ', ' + percent(g.total[0], topDown.total[0]) + ' of all — callers above, callees below ';
    label.title = names[state.sandwich];
    const close = document.createElement('button');
    close.type = 'button';
    close.id = 'sandwich-close';
    close.textContent = '✕ close';
    close.title = 'Back to the ' + state.back + ' graph (Esc)';
    close.addEventListener('click', closeSandwich);
    breadcrumb.appendChild(label);
    breadcrumb.appendChild(close);
    return;
  }
  const path = ancestors;
  const shown = path.length > 7 ? [path[0], -1].concat(path.slice(path.length - 5)) : path;
  shown.forEach((node, index) => {
    if (index > 0) {
      const sep = document.createElement('span');
      sep.className = 'sep';
      sep.textContent = '›';
      breadcrumb.appendChild(sep);
    }
    if (node === -1) {
      const gap = document.createElement('span');
      gap.className = 'sep';
      gap.textContent = '…';
      breadcrumb.appendChild(gap);
      return;
    }
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = shortName(names[g.n[node]]);
    button.title = names[g.n[node]] + ' — ' + samplesText(g.total[node]);
    button.addEventListener('click', () => zoomTo(node));
    breadcrumb.appendChild(button);
  });
}

function updateOpenSpan() {
  let spanId = null;
  if (state.view === 'top-down') {
    for (let i = 0; i < ancestors.length && spanId === null; i++) {
      spanId = spanOfNode.get(ancestors[i]) || null;
    }
  }
  openSpan.hidden = spanId === null;
  if (spanId !== null) {
    openSpan.href = encodeURIComponent(spanId);
    openSpan.textContent = 'Open span ' + spanId + ' on its own';
  }
}

function showViewButtons(view) {
  $('view-top-down').classList.toggle('selected', view === 'top-down');
  $('view-bottom-up').classList.toggle('selected', view === 'bottom-up');
  $('view-top-down').setAttribute('aria-pressed', String(view === 'top-down'));
  $('view-bottom-up').setAttribute('aria-pressed', String(view === 'bottom-up'));
}

function setView(view) {
  if (view === state.view || (view === 'sandwich' && graphs.sandwich === null)) {
    return;
  }
  if (view === 'bottom-up' && graphs['bottom-up'] === null) {
    graphs['bottom-up'] = makeBottomUp(topDown, names);
  }
  if (view !== 'sandwich') {
    state.back = view;
  }
  state.view = view;
  showViewButtons(view);
  scroller.scrollTop = 0;
  state.zoom = 0;
  ancestors = [0];
  layout();
  zoomTo(0);
}

// A function's sandwich, computed from the top-down tree: every call merged, whichever view it was picked in.
function openSandwich(nameId) {
  const sandwich = sandwichOf(topDown, nameId, names);
  if (!(sandwich.total > 0)) {
    return false;
  }
  graphs.sandwich = sandwichGraph(sandwich);
  state.sandwich = nameId;
  if (state.view === 'sandwich') {
    state.view = state.back;
  }
  setView('sandwich');
  return true;
}

function closeSandwich() {
  setView(state.back);
}

// A diff's colours: per request or share of samples, and a label saying which.
function colourDifference(normalisation) {
  state.normalisation = normalisation;
  diffShade = diffShades(diffDeltas(topDown, data.b, diff, normalisation));
  $('norm-request').classList.toggle('selected', normalisation === 'request');
  $('norm-share').classList.toggle('selected', normalisation === 'share');
  $('norm-request').setAttribute('aria-pressed', String(normalisation === 'request'));
  $('norm-share').setAttribute('aria-pressed', String(normalisation === 'share'));
  $('normalisation-label').textContent = 'Colour: difference ' + NORMALISATIONS[normalisation]
    + (normalisation === 'request' ? ' (where the share moved the same way)' : '');
}

// Zoom, view, search and follow live in the URL fragment: a view can be shared or bookmarked, survives the
// reloads of follow mode, and nothing of it is sent to the server.
function pathKey(g, node) {
  let h = 0x811c9dc5;
  ancestorsOf(g, node).forEach((i) => {
    h = Math.imul(h ^ hashString(names[g.n[i]]), 0x01000193) >>> 0;
  });
  return h.toString(16);
}

function findByKey(g, key) {
  const hashes = new Uint32Array(g.count);
  for (let i = 0; i < g.count; i++) {
    const base = g.parent[i] >= 0 ? hashes[g.parent[i]] : 0x811c9dc5;
    hashes[i] = Math.imul(base ^ hashString(names[g.n[i]]), 0x01000193) >>> 0;
    if (hashes[i].toString(16) === key) {
      return i;
    }
  }
  return 0;
}

function writeHash() {
  const params = new URLSearchParams();
  if (state.view !== 'top-down') {
    params.set('view', state.view);
  }
  if (state.view === 'sandwich') {
    params.set('function', hashString(names[state.sandwich]).toString(16));
  }
  if (diff && state.normalisation !== 'request') {
    params.set('colour', state.normalisation);
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
  const text = params.toString();
  history.replaceState(null, '', text ? '#' + text : location.pathname + location.search);
}

function readHash() {
  const params = new URLSearchParams(location.hash.slice(1));
  if (params.get('view') === 'bottom-up') {
    graphs['bottom-up'] = makeBottomUp(topDown, names);
    state.view = 'bottom-up';
    showViewButtons('bottom-up');
  }
  if (params.get('search')) {
    searchInput.value = params.get('search');
  }
  return { zoom: params.get('zoom'), follow: params.get('follow') === '1',
    sandwich: params.get('view') === 'sandwich' ? params.get('function') : null,
    normalisation: params.get('colour') === 'share' ? 'share' : 'request' };
}

// --- top self-time table --------------------------------------------------------------------------------------

const tablePage = { names, categories: data.categories, totals: functionTotals(topDown, nameCount),
  whole: topDown.total[0], frameCategories, samplesText, swatch: palette.swatch };
let tableSort = 'self';

function showTable() {
  renderTable(document.querySelector('#top tbody'), tablePage, tableSort, (id) => {
    searchInput.value = exactPattern(names[id]);
    applySearch();
  }, openSandwich);
}

document.querySelectorAll('#top thead button').forEach((button) => {
  button.addEventListener('click', () => {
    tableSort = button.dataset.sort;
    document.querySelectorAll('#top thead button').forEach((b) => b.classList.toggle('sorted', b === button));
    showTable();
  });
});

// --- events ---------------------------------------------------------------------------------------------------

const canvas = $('flame');
canvas.addEventListener('mousemove', (event) => {
  const node = canvasView.nodeAt(scene(), event.clientX, event.clientY);
  if (node !== state.hover) {
    state.hover = node;
    requestDraw();
  }
  if (node >= 0) {
    showTooltip(tooltip, statusLine, describe(node), event.clientX, event.clientY);
  } else {
    hideTooltip();
  }
});
canvas.addEventListener('mouseleave', () => {
  state.hover = -1;
  hideTooltip();
  requestDraw();
});
canvas.addEventListener('click', (event) => {
  const node = canvasView.nodeAt(scene(), event.clientX, event.clientY);
  if (node >= 0 && state.view === 'sandwich') {
    if (node !== 0) {
      openSandwich(graph().n[node]);
    }
  } else if (node >= 0) {
    zoomTo(node);
    offerFrameSpans(node);
  }
});
canvas.addEventListener('contextmenu', (event) => {
  const node = canvasView.nodeAt(scene(), event.clientX, event.clientY);
  if (node >= 0 && openSandwich(graph().n[node])) {
    event.preventDefault();
    hideTooltip();
  }
});

// A name's graph: from the clicked frame to the stored requests with the most samples in it.
function offerFrameSpans(node) {
  const link = $('frame-spans');
  if (!data.frameSpans || state.view !== 'top-down' || node === 0) {
    link.hidden = true;
    return;
  }
  const path = ancestorsOf(topDown, node).slice(1).map((i) => names[topDown.n[i]]);
  link.href = data.frameSpans + encodeURIComponent(path.join(';'));
  link.textContent = 'Stored spans with the most samples in ' + shortName(names[topDown.n[node]]);
  link.hidden = false;
}
canvas.addEventListener('dblclick', (event) => {
  const node = canvasView.nodeAt(scene(), event.clientX, event.clientY);
  const spanId = state.view === 'top-down' ? spanOfNode.get(node) : undefined;
  if (spanId) {
    location.href = encodeURIComponent(spanId);
  }
});
scroller.addEventListener('scroll', () => {
  hideTooltip();
  requestDraw();
});
window.addEventListener('resize', layout);
$('reset').addEventListener('click', () => zoomTo(0));
$('view-top-down').addEventListener('click', () => setView('top-down'));
$('view-bottom-up').addEventListener('click', () => setView('bottom-up'));
let searchTimer = 0;
searchInput.addEventListener('input', () => {
  clearTimeout(searchTimer);
  searchTimer = setTimeout(applySearch, 120);
});
document.addEventListener('keydown', (event) => {
  const typing = event.target === searchInput;
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
    } else if (state.view === 'sandwich') {
      closeSandwich();
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
    setView(state.view === 'bottom-up' ? 'top-down' : 'bottom-up');
  } else if ((event.key === 's' || event.key === 'S') && state.hover >= 0) {
    openSandwich(graph().n[state.hover]);
  } else if (event.key === 'n') {
    stepMatch(1);
  } else if (event.key === 'N') {
    stepMatch(-1);
  }
});

// Follow mode reloads the page: the simplest way to fetch a fresh profile under a policy that allows no
// network access from script. The fragment keeps zoom and search across reloads.
let followTimer = 0;
function scheduleFollow() {
  clearTimeout(followTimer);
  if (follow.checked) {
    followTimer = setTimeout(() => location.reload(), 2000);
  }
}
follow.addEventListener('change', () => {
  writeHash();
  scheduleFollow();
});

// A read-only view of the page's state for tests and the curious (the canvas itself has no DOM to inspect).
window.spanprofile = {
  state() {
    const g = graph();
    const stats = canvasView.stats;
    return { view: state.view, zoom: names[g.n[state.zoom]], zoomDepth: g.d[state.zoom],
      zoomSamples: g.total[state.zoom], search: state.search, match: matchLabel.textContent,
      matches: state.matches.length, nodes: g.count, depth: g.depthCount, samples: g.total[0],
      draws: stats.draws, lastDrawMillis: stats.lastDrawMillis, maxDrawMillis: stats.maxDrawMillis,
      readyMillis, canvasWidth: canvasView.width(), canvasHeight: canvasView.height(),
      normalisation: diff ? state.normalisation : null, sandwich: sandwichState() };
  },
  // Opens the sandwich of the function with exactly this name; false when it has no samples.
  sandwich(name) {
    const id = names.indexOf(name);
    return id >= 0 && openSandwich(id);
  },
  // The widest frame whose name contains text, scrolled into view: its rectangle relative to the canvas.
  frameRect(text) {
    const current = scene();
    const g = current.g;
    let best = -1;
    for (let i = 0; i < g.count; i++) {
      if (canvasView.visible(current, i) && names[g.n[i]].indexOf(text) >= 0
        && (best < 0 || g.total[i] > g.total[best])) {
        best = i;
      }
    }
    if (best < 0) {
      return null;
    }
    const top = g.d[best] * ROW;
    if (top < scroller.scrollTop || top + ROW > scroller.scrollTop + canvasView.height()) {
      scroller.scrollTop = Math.max(0, top - canvasView.height() / 2);
      draw();
    }
    const rect = canvasView.nodeRect(current, best);
    return rect && { x: rect.x, y: rect.y, width: rect.width, height: rect.height, name: names[g.n[best]],
      samples: g.total[best] };
  },
  pixel: canvasView.pixel
};

// The open sandwich: the function, its total, and its direct callers and callees with their weights.
function sandwichState() {
  if (state.view !== 'sandwich') {
    return null;
  }
  const g = graph();
  const level = (half, offset) => {
    const out = [];
    for (let i = 1; i < half.count; i++) {
      if (half.parent[i] === 0) {
        out.push({ name: names[half.n[i]], samples: half.total[i], node: offset + i });
      }
    }
    return out;
  };
  return { name: names[state.sandwich], samples: g.total[0], self: g.self[0], callers: level(g.callers, 0),
    callees: level(g.callees, g.calleesOffset) };
}

// --- start ----------------------------------------------------------------------------------------------------

const initial = readHash();
if (data.inFlight) {
  followBox.hidden = false;
  follow.checked = initial.follow;
}
if (diff) {
  $('diff-normalisation').hidden = false;
  $('normalisation-label').hidden = false;
  colourDifference(initial.normalisation);
  $('norm-request').addEventListener('click', () => {
    colourDifference('request');
    writeHash();
    draw();
  });
  $('norm-share').addEventListener('click', () => {
    colourDifference('share');
    writeHash();
    draw();
  });
}
if (initial.zoom) {
  state.zoom = findByKey(graph(), initial.zoom);
  ancestors = ancestorsOf(graph(), state.zoom);
}
renderLegend($('legend'), frameCategories, data.categories, palette.swatch);
sizeTimeBar($('time-bar'));
showTable();
layout();
if (searchInput.value) {
  applySearch();
}
zoomTo(state.zoom);
if (initial.sandwich) {
  openSandwich(names.findIndex((name) => hashString(name).toString(16) === initial.sandwich));
}
if (initial.follow && !data.inFlight) {
  statusLine.textContent = 'The span has ended: this is its final profile.';
}
if (data.hiddenNodes > 0) {
  statusLine.textContent = data.hiddenNodes + ' small frames are folded into "[small frames hidden]" nodes.';
}
scheduleFollow();
readyMillis = performance.now();
performance.mark('spanprofile-ready');
