import { functionTotals, makeGraph } from './tree.mjs';
import { exactPattern } from './names.mjs';
import { weightFormat } from './format.mjs';
import { makePalette } from './palette.mjs';
import { createCanvasView } from './draw.mjs';
import { showTooltip } from './tooltip.mjs';
import { renderTable } from './table.mjs';
import { renderLegend, sizeTimeBar } from './legend.mjs';
import { findByKey, functionOf, readFragment } from './url-state.mjs';
import { keyAction } from './keyboard.mjs';
import { createFlameView } from './flame-view.mjs';
import { inspection } from './inspect.mjs';

// The flame-graph page: reads the profile from the page's inert JSON block, wires the mouse, the keys and the
// controls to the graph's view, and starts from the state the URL fragment asks for. The view, what to say about
// a frame, the fragment, the keys, drawing, tree shapes, search and colours live in their modules.

const $ = (id) => document.getElementById(id);
const data = JSON.parse($('profile-data').textContent);
const names = data.names;
const frameCategories = data.frameCategories;
const palette = makePalette(frameCategories, data.categories, names);
const samplesText = weightFormat(data);
const diff = data.diff || null;
const topDown = makeGraph(data.n, data.d, data.v);

const scroller = $('graph');
const canvas = $('flame');
const searchInput = $('search');
const statusLine = $('status');
const follow = $('follow');
const canvasView = createCanvasView(canvas, scroller, $('spacer'), names, palette);
const spanOfNode = new Map(data.spans);
const view = createFlameView({ data, names, topDown, spanOfNode, frameCategories, palette,
  samplesText, diff, canvasView, byId: $, canvas, scroller, tooltip: $('tooltip'), searchInput,
  matchLabel: $('match'), statusLine, breadcrumb: $('breadcrumb'), openSpan: $('open-span'), follow });
const state = view.state;
let readyMillis = 0;

// --- top self-time table --------------------------------------------------------------------------------------

const tablePage = { names, categories: data.categories, totals: functionTotals(topDown, names.length),
  whole: topDown.total[0], frameCategories, samplesText, swatch: palette.swatch };
let tableSort = 'self';

function showTable() {
  renderTable(document.querySelector('#top tbody'), tablePage, tableSort, (id) => {
    searchInput.value = exactPattern(names[id]);
    view.applySearch();
  }, view.openSandwich);
}

document.querySelectorAll('#top thead button').forEach((button) => {
  button.addEventListener('click', () => {
    tableSort = button.dataset.sort;
    document.querySelectorAll('#top thead button').forEach((b) => b.classList.toggle('sorted', b === button));
    showTable();
  });
});

// --- mouse ----------------------------------------------------------------------------------------------------

function nodeAt(event) {
  return canvasView.nodeAt(view.scene(), event.clientX, event.clientY);
}

canvas.addEventListener('mousemove', (event) => {
  const node = nodeAt(event);
  if (node !== state.hover) {
    state.hover = node;
    view.requestDraw();
  }
  if (node >= 0) {
    showTooltip($('tooltip'), statusLine, view.describe(node), event.clientX, event.clientY);
  } else {
    view.hideTooltip();
  }
});
canvas.addEventListener('mouseleave', () => {
  state.hover = -1;
  view.hideTooltip();
  view.requestDraw();
});
canvas.addEventListener('click', (event) => {
  const node = nodeAt(event);
  if (node >= 0 && state.view !== 'sandwich') {
    state.selected = node;
  }
  view.openFrame(node);
});
canvas.addEventListener('contextmenu', (event) => {
  const node = nodeAt(event);
  if (node >= 0 && view.openSandwich(view.graph().n[node])) {
    event.preventDefault();
    view.hideTooltip();
  }
});
canvas.addEventListener('dblclick', (event) => {
  const spanId = state.view === 'top-down' ? spanOfNode.get(nodeAt(event)) : undefined;
  if (spanId) {
    location.href = encodeURIComponent(spanId);
  }
});
canvas.addEventListener('focus', view.requestDraw);
canvas.addEventListener('blur', () => {
  view.hideTooltip();
  view.requestDraw();
});
scroller.addEventListener('scroll', () => {
  view.hideTooltip();
  view.requestDraw();
});
window.addEventListener('resize', () => canvasView.layout(view.scene()));

// --- controls and keys ----------------------------------------------------------------------------------------

$('reset').addEventListener('click', () => view.zoomTo(0));
$('view-top-down').addEventListener('click', () => view.setView('top-down'));
$('view-bottom-up').addEventListener('click', () => view.setView('bottom-up'));
let searchTimer = 0;
searchInput.addEventListener('input', () => {
  clearTimeout(searchTimer);
  searchTimer = setTimeout(view.applySearch, 120);
});

// From the search field, Enter first searches for what is typed, without waiting for the typing pause.
function stepMatch(direction, where) {
  clearTimeout(searchTimer);
  if (where === 'search') {
    view.applySearch();
  }
  view.stepMatch(direction);
}

const KEY_ACTIONS = {
  'focus-search': () => {
    searchInput.focus();
    searchInput.select();
  },
  escape: () => {
    if (searchInput.value) {
      searchInput.value = '';
      view.applySearch();
    } else if (state.view === 'sandwich') {
      view.closeSandwich();
    } else {
      view.zoomTo(0);
    }
  },
  'next-match': (where) => stepMatch(1, where),
  'previous-match': (where) => stepMatch(-1, where),
  reset: () => view.zoomTo(0),
  invert: () => view.setView(state.view === 'bottom-up' ? 'top-down' : 'bottom-up'),
  sandwich: () => {
    const node = state.hover >= 0 ? state.hover : (document.activeElement === canvas ? state.selected : -1);
    if (node >= 0) {
      view.openSandwich(view.graph().n[node]);
    }
  },
  left: () => view.moveSelection('left'),
  right: () => view.moveSelection('right'),
  up: () => view.moveSelection('up'),
  down: () => view.moveSelection('down'),
  open: () => view.openFrame(state.selected >= 0 ? state.selected : state.zoom)
};

document.addEventListener('keydown', (event) => {
  const where = event.target === searchInput ? 'search' : (event.target === canvas ? 'graph' : 'page');
  const action = keyAction(event, where);
  if (action !== null) {
    // Keys the page uses are not the browser's too: arrows do not scroll, / is not typed, Ctrl+F is not find.
    if (action !== 'escape') {
      event.preventDefault();
    }
    KEY_ACTIONS[action](where);
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
  view.writeHash();
  scheduleFollow();
});

window.spanprofile = inspection({ names, canvasView, scroller, diff, scene: view.scene, draw: view.draw,
  graph: view.graph, openSandwich: view.openSandwich, state: () => state, matchText: () => $('match').textContent,
  readyMillis: () => readyMillis });

// --- start ----------------------------------------------------------------------------------------------------

const initial = readFragment(location.hash.slice(1));
if (initial.view === 'bottom-up') {
  view.showBottomUp();
}
searchInput.value = initial.search;
if (data.inFlight) {
  $('follow-box').hidden = false;
  follow.checked = initial.follow;
}
if (diff) {
  $('diff-normalisation').hidden = false;
  $('normalisation-label').hidden = false;
  view.colourDifference(initial.normalisation);
  ['request', 'share'].forEach((normalisation) => $('norm-' + normalisation).addEventListener('click', () => {
    view.colourDifference(normalisation);
    view.writeHash();
    view.draw();
  }));
}
if (initial.zoom) {
  view.restoreZoom(findByKey(view.graph(), names, initial.zoom));
}
renderLegend($('legend'), frameCategories, data.categories, palette.swatch);
document.querySelectorAll('.time-bar').forEach(sizeTimeBar);
showTable();
canvasView.layout(view.scene());
if (searchInput.value) {
  view.applySearch();
}
view.zoomTo(state.zoom);
if (initial.sandwich) {
  view.openSandwich(functionOf(names, initial.sandwich));
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
