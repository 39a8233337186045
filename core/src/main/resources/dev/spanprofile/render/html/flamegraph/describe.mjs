import { shortName } from './names.mjs';
import { percent } from './format.mjs';
import { perRequest, share } from './diff.mjs';

// What the tooltip and the status line say about a frame: its category, its weight against the whole and the
// zoom, in a diff both sides per request and as shares, and in a sandwich what it is to the function.
//
// page: what holds for the whole page (names, the category label of a name id, samplesText, the diff and its
// baseline per node, the weight unit, span ids by node); view: what is shown (view, g, topDown, zoom, sandwich).

export function describeFrame(page, view, node) {
  if (view.view === 'sandwich') {
    return describeInSandwich(page, view, node);
  }
  const g = view.g;
  const lines = [];
  let kind = page.categoryLabel(g.n[node]);
  const spanId = view.view === 'top-down' ? page.spanOfNode.get(node) : undefined;
  if (spanId) {
    kind += ' ' + spanId + ' — double-click to open its page';
  }
  lines.push(['cat', kind]);
  const total = g.total[node];
  let line = 'Total: ' + page.samplesText(total) + ' · ' + percent(total, g.total[0]) + ' of all';
  if (view.zoom !== 0) {
    line += ' · ' + percent(total, g.total[view.zoom]) + ' of zoom';
  }
  lines.push(['row', line]);
  if (view.view === 'top-down') {
    lines.push(['row', 'Self: ' + page.samplesText(g.self[node]) + ' · ' + percent(g.self[node], g.total[0])]);
  }
  const diff = page.diff;
  if (diff && view.view === 'top-down') {
    lines.push(['row', diffSide(page, diff.examined || 'Slow', total, diff.slowSpans)]);
    lines.push(['row', diffSide(page, diff.compared || 'Typical', page.baseline[node], diff.typicalSpans)]);
    lines.push(['row', 'Share of samples: slow ' + percent(share(total, g.total[0]), 1) + ' · typical '
      + percent(share(page.baseline[node], page.baseline[0]), 1)]);
  }
  if (node !== 0) {
    lines.push(['hint', 'Right-click or S: its callers and callees (sandwich)']);
  }
  return { name: page.names[g.n[node]], lines };
}

// One side of a comparison: its samples (or bytes, or time waited) and what a request of that side has there.
export function diffSide(page, label, weight, spans) {
  const per = perRequest(weight, spans);
  if (page.unit) {
    return label + ': ' + page.samplesText(weight) + ' in ' + spans + ' spans · '
      + page.samplesText(page.unit === 'bytes' ? Math.round(per) : per) + ' per request';
  }
  return label + ': ' + weight + ' samples in ' + spans + ' spans · ' + per.toFixed(2) + ' per request';
}

// In a sandwich, weights are of the function's total: callers above it carry the calls made through them,
// callees below it what those calls spent there.
function describeInSandwich(page, view, node) {
  const g = view.g;
  const fn = shortName(page.names[view.sandwich]);
  const text = page.samplesText;
  const lines = [['cat', page.categoryLabel(g.n[node])]];
  const total = g.total[node];
  const all = view.topDown.total[0];
  if (node === 0) {
    lines.push(['row', 'Total: ' + text(total) + ' · ' + percent(total, all) + ' of all']);
    lines.push(['row', 'Self: ' + text(g.self[0]) + ' · ' + percent(g.self[0], all) + ' of all']);
    lines.push(['hint', 'Callers above, callees below. Esc or ✕ closes.']);
  } else if (g.part[node] < 0) {
    lines.push(['row', 'Calls ' + fn + ' through this path: ' + text(total) + ' · ' + percent(total, g.total[0])
      + ' of its total']);
    lines.push(['hint', 'Click: this function\'s own sandwich']);
  } else {
    lines.push(['row', 'Called by ' + fn + ': ' + text(total) + ' · ' + percent(total, g.total[0]) + ' of its total']);
    lines.push(['row', 'Self here: ' + text(g.self[node])]);
    lines.push(['hint', 'Click: this function\'s own sandwich']);
  }
  return { name: page.names[g.n[node]], lines };
}
