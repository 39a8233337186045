import { ancestorsOf, makeBottomUp } from './tree.mjs';
import { shortName } from './names.mjs';
import { compileSearch, matchNames, matchSummary } from './search.mjs';
import { NORMALISATIONS, diffDeltas, diffShades } from './diff.mjs';
import { sandwichGraph, sandwichOf } from './sandwich.mjs';
import { ROW } from './draw.mjs';
import { showTooltip } from './tooltip.mjs';
import { describeFrame } from './describe.mjs';
import { fragmentOf, pathKey } from './url-state.mjs';
import { renderBreadcrumb, renderSandwichLabel } from './breadcrumb.mjs';
import { frameToward } from './keyboard.mjs';

// The graph's view and what changes it: which graph is shown (top-down, bottom-up, a function's sandwich), the
// zoom and its path, the keyboard's selected frame, the search and its matches, a diff's colouring; each change
// redraws and keeps the URL fragment, breadcrumb, match line and links in step. The page wires controls to these.
//
// page: the profile (data, names, topDown, spanOfNode, frameCategories, palette, samplesText, diff), the drawing
// (canvasView) and the page's elements (byId, canvas, scroller, tooltip, searchInput, matchLabel, statusLine,
// breadcrumb, openSpan, follow).

export function createFlameView(page) {
  const { data, names, topDown, spanOfNode, frameCategories, palette, samplesText, diff, canvasView, byId } = page;
  const { canvas, scroller, tooltip, searchInput, matchLabel, statusLine, breadcrumb, openSpan, follow } = page;
  const describing = { names, samplesText, spanOfNode, diff, baseline: data.b, unit: data.unit,
    categoryLabel: (nameId) => frameCategories[data.categories[nameId]].label };
  let diffShade = null;
  // The sandwich view shows one function (state.sandwich, a name id); back returns to the view it was opened from.
  const graphs = { 'top-down': topDown, 'bottom-up': null, sandwich: null };
  const state = { view: 'top-down', zoom: 0, hover: -1, selected: -1, regex: null, search: '', matches: [],
    matchIndex: -1, sandwich: -1, back: 'top-down', normalisation: 'request' };
  const nameMatches = new Uint8Array(names.length);
  let ancestors = [0];

  function graph() {
    return graphs[state.view];
  }

  function colourOf(i) {
    return (diffShade && state.view === 'top-down') ? palette.diffFill(diffShade[i])
      : palette.colourOfName[graph().n[i]];
  }

  function scene() {
    return { g: graph(), zoom: state.zoom, ancestors, hover: state.hover, flat: state.view === 'sandwich',
      selected: document.activeElement === canvas ? state.selected : -1,
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

  function describe(node) {
    return describeFrame(describing, { view: state.view, g: graph(), topDown, zoom: state.zoom,
      sandwich: state.sandwich }, node);
  }

  function hideTooltip() {
    tooltip.hidden = true;
  }

  function applySearch() {
    const search = compileSearch(searchInput.value);
    state.search = searchInput.value;
    state.regex = search.regex;
    searchInput.classList.toggle('invalid', search.literal);
    searchInput.title = search.literal ? 'Not a valid regular expression; searching for the text as typed' : '';
    matchNames(names, state.regex, nameMatches);
    state.matchIndex = -1;
    updateMatches();
    writeHash();
    requestDraw();
  }

  function updateMatches() {
    const summary = state.regex === null ? { text: '', hit: false }
      : matchSummary(graph(), state, nameMatches, state.matches, names);
    if (state.regex === null) {
      state.matches = [];
    }
    matchLabel.textContent = summary.text;
    matchLabel.classList.toggle('hit', summary.hit);
  }

  function stepMatch(direction) {
    const count = state.matches.length;
    if (count) {
      const from = state.matchIndex < 0 ? (direction > 0 ? -1 : 0) : state.matchIndex;
      state.matchIndex = (from + direction + count) % count;
      zoomTo(state.matches[state.matchIndex], true);
    }
  }

  function scrollToRow(node) {
    const top = graph().d[node] * ROW;
    if (top < scroller.scrollTop || top > scroller.scrollTop + canvasView.height() - ROW) {
      scroller.scrollTop = Math.max(0, top - ROW * 2);
    }
  }

  function zoomTo(node, keepMatchIndex) {
    const g = graph();
    state.zoom = node >= 0 && node < g.count ? node : 0;
    ancestors = ancestorsOf(g, state.zoom);
    if (!keepMatchIndex) {
      state.matchIndex = -1;
    }
    if (state.selected >= 0) {
      state.selected = state.zoom;
    }
    scrollToRow(state.zoom);
    updateBreadcrumb();
    updateMatches();
    updateOpenSpan();
    writeHash();
    draw();
  }

  // The keyboard's frame: outlined while the graph has the focus, described in the tooltip beside it and in the
  // status line, which screen readers announce.
  function select(node) {
    if (node < 0) {
      return;
    }
    state.selected = node;
    scrollToRow(node);
    draw();
    const rect = canvasView.nodeRect(scene(), node);
    if (rect) {
      const bounds = canvas.getBoundingClientRect();
      showTooltip(tooltip, statusLine, describe(node), bounds.left + rect.x + Math.min(rect.width / 2, 40),
        bounds.top + rect.y + ROW);
    }
  }

  function moveSelection(direction) {
    if (state.selected < 0) {
      select(state.zoom);
      return;
    }
    const view = { zoom: state.zoom, ancestors, flat: state.view === 'sandwich' };
    const g = graph();
    // Frames under half a pixel are not drawn: nor are they selected.
    const halfPixel = 0.5 * g.total[state.zoom] / Math.max(1, canvasView.width());
    select(frameToward(g, view, state.selected, direction, halfPixel));
  }

  // A click or Enter on a frame: in a sandwich, that function's own sandwich; elsewhere, zoom into it.
  function openFrame(node) {
    if (node >= 0 && state.view === 'sandwich') {
      if (node !== 0) {
        openSandwich(graph().n[node]);
      }
    } else if (node >= 0) {
      zoomTo(node);
      offerFrameSpans(node);
    }
  }

  function updateBreadcrumb() {
    if (state.view === 'sandwich') {
      renderSandwichLabel(breadcrumb, { name: names[state.sandwich], total: graph().total[0] }, topDown.total[0],
        samplesText, state.back, closeSandwich);
    } else {
      renderBreadcrumb(breadcrumb, ancestors, graph(), names, samplesText, (node) => zoomTo(node));
    }
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

  function showButtons(prefix, choices, chosen) {
    choices.forEach((choice) => {
      byId(prefix + choice).classList.toggle('selected', choice === chosen);
      byId(prefix + choice).setAttribute('aria-pressed', String(choice === chosen));
    });
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
    state.selected = -1;
    showButtons('view-', ['top-down', 'bottom-up'], view);
    scroller.scrollTop = 0;
    state.zoom = 0;
    ancestors = [0];
    canvasView.layout(scene());
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
    showButtons('norm-', ['request', 'share'], normalisation);
    byId('normalisation-label').textContent = 'Colour: difference ' + NORMALISATIONS[normalisation]
      + (normalisation === 'request' ? ' (where the share moved the same way)' : '');
  }

  function writeHash() {
    const text = fragmentOf({ view: state.view, functionName: names[state.sandwich],
      normalisation: diff ? state.normalisation : null, search: state.search, follow: follow.checked,
      zoomKey: state.zoom !== 0 ? pathKey(graph(), names, state.zoom) : null });
    history.replaceState(null, '', text ? '#' + text : location.pathname + location.search);
  }

  // A name's graph: from the clicked frame to the stored requests with the most samples in it.
  function offerFrameSpans(node) {
    const link = byId('frame-spans');
    if (!data.frameSpans || state.view !== 'top-down' || node === 0) {
      link.hidden = true;
      return;
    }
    const path = ancestorsOf(topDown, node).slice(1).map((i) => names[topDown.n[i]]);
    link.href = data.frameSpans + encodeURIComponent(path.join(';'));
    link.textContent = 'Stored spans with the most samples in ' + shortName(names[topDown.n[node]]);
    link.hidden = false;
  }

  return { state, graph, scene, draw, requestDraw, describe, hideTooltip, applySearch, stepMatch, zoomTo, select,
    moveSelection, openFrame, setView, openSandwich, closeSandwich, colourDifference, writeHash,
    showButtons, updateMatches, ancestors: () => ancestors,
    restoreZoom(node) {
      state.zoom = node;
      ancestors = ancestorsOf(graph(), node);
    },
    showBottomUp() {
      graphs['bottom-up'] = makeBottomUp(topDown, names);
      state.view = 'bottom-up';
      state.back = 'bottom-up';
      showButtons('view-', ['top-down', 'bottom-up'], 'bottom-up');
    } };
}
