import { firstAtOrAfter } from './tree.mjs';

// The graph without a mouse: which action a key asks for, and which frame an arrow key moves the selection to.
//
// Arrows and Enter act only while the graph has the focus, so they still scroll the page and press buttons
// elsewhere; the single-letter keys act anywhere but in the search field.

const ARROWS = { ArrowLeft: 'left', ArrowRight: 'right', ArrowUp: 'up', ArrowDown: 'down' };

// The action of a key: where is 'search' (typing in the search field), 'graph' (the graph has the focus) or
// 'page'; null when the key is the browser's.
export function keyAction(event, where) {
  const command = event.ctrlKey || event.metaKey;
  if (command && (event.key === 'f' || event.key === 'F')) {
    return 'focus-search';
  }
  if (event.key === 'Escape') {
    return 'escape';
  }
  if (where === 'search') {
    return event.key === 'Enter' ? (event.shiftKey ? 'previous-match' : 'next-match') : null;
  }
  if (command || event.altKey) {
    return null;
  }
  if (where === 'graph' && ARROWS[event.key]) {
    return ARROWS[event.key];
  }
  if (where === 'graph' && event.key === 'Enter') {
    return 'open';
  }
  switch (event.key) {
    case '/':
      return 'focus-search';
    case '0':
    case 'Home':
      return 'reset';
    case 'i':
    case 'I':
      return 'invert';
    case 's':
    case 'S':
      return 'sandwich';
    case 'n':
      return 'next-match';
    case 'N':
      return 'previous-match';
    default:
      return null;
  }
}

// The frame an arrow moves to from `node`, or -1 when there is none that way. Up and down go to the adjacent row's
// frame over this one (its caller in a top-down graph; the leftmost, heaviest, of its callees), left and right to
// the neighbour in the row. Only frames drawn count: inside the zoom (or the zoom's ancestors, drawn full width
// above it) and at least minTotal wide, so the selection never lands on a frame too thin to see.
export function frameToward(g, view, node, direction, minTotal) {
  if (direction === 'left' || direction === 'right') {
    return neighbourInRow(g, view, node, direction === 'left' ? -1 : 1, minTotal);
  }
  const row = g.d[node] + (direction === 'up' ? -1 : 1);
  if (row < 0 || row >= g.depthCount) {
    return -1;
  }
  const start = g.x[node];
  const end = start + g.total[node];
  const nodes = g.rows[row];
  // Frames of a row do not overlap, so the first that ends after this one's start and is drawn is the one.
  for (let k = firstAtOrAfter(g, nodes, start); k < nodes.length && g.x[nodes[k]] < end; k++) {
    if (drawn(g, view, nodes[k], minTotal)) {
      return nodes[k];
    }
  }
  return -1;
}

function neighbourInRow(g, view, node, step, minTotal) {
  if (g.d[node] < zoomDepth(g, view)) {
    return -1;
  }
  const nodes = g.rows[g.d[node]];
  let k = firstAtOrAfter(g, nodes, g.x[node]);
  while (k < nodes.length && nodes[k] !== node) {
    k++;
  }
  for (k += step; k >= 0 && k < nodes.length; k += step) {
    if (drawn(g, view, nodes[k], minTotal)) {
      return nodes[k];
    }
    if (!inZoom(g, view, nodes[k])) {
      return -1;
    }
  }
  return -1;
}

function zoomDepth(g, view) {
  return view.flat ? 0 : g.d[view.zoom];
}

function inZoom(g, view, node) {
  return g.x[node] >= g.x[view.zoom] && g.x[node] < g.x[view.zoom] + g.total[view.zoom];
}

// Whether a frame is drawn at this zoom, wide enough to see.
export function drawn(g, view, node, minTotal) {
  if (g.d[node] < zoomDepth(g, view)) {
    return view.ancestors[g.d[node]] === node;
  }
  return inZoom(g, view, node) && g.total[node] >= minTotal;
}
