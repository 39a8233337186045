import { ROW } from './draw.mjs';

// A read-only view of the page's state for tests and the curious (the canvas itself has no DOM to inspect), as
// window.spanprofile. page gives what it reads: names, canvasView, scroller, scene(), draw(), graph(), state(),
// the match line's text and readyMillis.

export function inspection(page) {
  const names = page.names;
  const canvasView = page.canvasView;
  return {
    state() {
      const g = page.graph();
      const state = page.state();
      const stats = canvasView.stats;
      const selected = state.selected;
      return { view: state.view, zoom: names[g.n[state.zoom]], zoomDepth: g.d[state.zoom],
        zoomSamples: g.total[state.zoom], search: state.search, match: page.matchText(),
        matches: state.matches.length, nodes: g.count, depth: g.depthCount, samples: g.total[0],
        draws: stats.draws, lastDrawMillis: stats.lastDrawMillis, maxDrawMillis: stats.maxDrawMillis,
        readyMillis: page.readyMillis(), canvasWidth: canvasView.width(), canvasHeight: canvasView.height(),
        normalisation: page.diff ? state.normalisation : null, sandwich: sandwichState(g, names, state),
        selected: selected >= 0 ? { name: names[g.n[selected]], depth: g.d[selected], samples: g.total[selected],
          x: g.x[selected] } : null };
    },
    // Opens the sandwich of the function with exactly this name; false when it has no samples.
    sandwich(name) {
      const id = names.indexOf(name);
      return id >= 0 && page.openSandwich(id);
    },
    // The widest frame whose name contains text, scrolled into view: its rectangle relative to the canvas.
    frameRect(text) {
      const current = page.scene();
      const g = current.g;
      let best = -1;
      for (let i = 0; i < g.count; i++) {
        if (canvasView.visible(current, i) && names[g.n[i]].indexOf(text) >= 0
          && (best < 0 || g.total[i] > g.total[best])) {
          best = i;
        }
      }
      return best < 0 ? null : rectOf(page, current, best);
    },
    // Where the selected frame is drawn, scrolled into view; null without a selection.
    selectedRect() {
      const current = page.scene();
      return current.selected >= 0 ? rectOf(page, current, current.selected) : null;
    },
    pixel: canvasView.pixel
  };
}

function rectOf(page, current, node) {
  const g = current.g;
  const canvasView = page.canvasView;
  const scroller = page.scroller;
  const top = g.d[node] * ROW;
  if (top < scroller.scrollTop || top + ROW > scroller.scrollTop + canvasView.height()) {
    scroller.scrollTop = Math.max(0, top - canvasView.height() / 2);
    page.draw();
  }
  const rect = canvasView.nodeRect(current, node);
  return rect && { x: rect.x, y: rect.y, width: rect.width, height: rect.height, name: page.names[g.n[node]],
    samples: g.total[node] };
}

// The open sandwich: the function, its total, and its direct callers and callees with their weights.
export function sandwichState(g, names, state) {
  if (state.view !== 'sandwich') {
    return null;
  }
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
