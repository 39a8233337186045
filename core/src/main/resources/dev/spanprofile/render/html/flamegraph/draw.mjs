import { firstAtOrAfter } from './tree.mjs';
import { shortName } from './names.mjs';

// Drawing: one canvas the size of the visible part of the graph (never the whole graph: browsers refuse huge
// canvases), frames under half a pixel skipped, fills batched per colour. That keeps a redraw of a 50,000-frame
// profile within a frame's time.
//
// What is drawn comes in a scene: the graph, the zoomed node and its ancestors (drawn pale, full width, above it),
// the hovered node, the node the keyboard selected (-1 when the graph has no focus), which names a search matches
// (null when there is no search) and each node's fill.

export const ROW = 18;
const LABEL_MIN_WIDTH = 24;
const TEXT = '#17191e';
const DIMMED_TEXT = '#6c7280';
const SELECTED = '#0b62c4';
const FONT = '12px system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif';

export function createCanvasView(canvas, scroller, spacer, names, palette) {
  const ctx = canvas.getContext('2d', { alpha: false });
  const buckets = palette.fills.map(() => []);
  const labels = [];
  const fullWidths = new Float32Array(names.length);
  const shortWidths = new Float32Array(names.length);
  const stats = { draws: 0, lastDrawMillis: 0, maxDrawMillis: 0 };
  let charWidth = 7;
  let cssWidth = 0;
  let cssHeight = 0;

  function layout(scene) {
    const full = scene.g.depthCount * ROW;
    const top = scroller.getBoundingClientRect().top + window.scrollY;
    const available = Math.max(260, window.innerHeight - top - 48);
    scroller.style.height = (Math.min(full, available) + 2) + 'px';
    cssWidth = scroller.clientWidth;
    cssHeight = Math.min(full, scroller.clientHeight);
    const ratio = window.devicePixelRatio || 1;
    canvas.style.width = cssWidth + 'px';
    canvas.style.height = cssHeight + 'px';
    canvas.width = Math.max(1, Math.round(cssWidth * ratio));
    canvas.height = Math.max(1, Math.round(cssHeight * ratio));
    spacer.style.height = Math.max(0, full - cssHeight) + 'px';
    ctx.font = FONT;
    charWidth = ctx.measureText('OrderServiceImpl.validateRequest').width / 32 * 1.08;
    fullWidths.fill(0);
    shortWidths.fill(0);
    draw(scene);
  }

  // The depth of the zoomed node: rows above it show its ancestors.
  function zoomDepth(scene) {
    return scene.flat ? 0 : scene.g.d[scene.zoom];
  }

  function draw(scene) {
    const started = performance.now();
    const g = scene.g;
    const z = scene.zoom;
    const ratio = window.devicePixelRatio || 1;
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, cssWidth, cssHeight);
    ctx.font = FONT;
    ctx.textBaseline = 'middle';
    const scrollTop = scroller.scrollTop;
    const x0 = g.x[z];
    const span = g.total[z] || 1;
    const x1 = x0 + span;
    const scale = cssWidth / span;
    const ancestorRows = zoomDepth(scene);
    const firstRow = Math.max(0, Math.floor(scrollTop / ROW));
    const lastRow = Math.min(g.depthCount - 1, Math.floor((scrollTop + cssHeight) / ROW));
    const matches = scene.nameMatches;
    for (let b = 0; b < buckets.length; b++) {
      buckets[b].length = 0;
    }
    labels.length = 0;
    for (let row = firstRow; row <= lastRow; row++) {
      const y = row * ROW - scrollTop;
      if (row < ancestorRows) {
        const a = scene.ancestors[row];
        buckets[palette.paleOffset + palette.colourOfName[g.n[a]]].push(0, y, cssWidth);
        labels.push(a, 0, y, cssWidth, 1);
        continue;
      }
      const nodes = g.rows[row];
      for (let k = firstAtOrAfter(g, nodes, x0); k < nodes.length; k++) {
        const i = nodes[k];
        const nx = g.x[i];
        if (nx >= x1) {
          break;
        }
        const w = g.total[i] * scale;
        if (w < 0.5) {
          continue;
        }
        const px = (nx - x0) * scale;
        const dimmed = matches !== null && !matches[g.n[i]];
        buckets[dimmed ? palette.noMatch : scene.colourOf(i)].push(px, y, w);
        if (w >= LABEL_MIN_WIDTH) {
          labels.push(i, px, y, w, dimmed ? 1 : 0);
        }
      }
    }
    for (let f = 0; f < buckets.length; f++) {
      const rects = buckets[f];
      if (rects.length === 0) {
        continue;
      }
      ctx.fillStyle = palette.fills[f];
      ctx.beginPath();
      for (let r = 0; r < rects.length; r += 3) {
        const width = rects[r + 2];
        ctx.rect(rects[r], rects[r + 1], width > 2 ? width - 1 : width, ROW - 1);
      }
      ctx.fill();
    }
    for (let l = 0; l < labels.length; l += 5) {
      const text = fit(g.n[labels[l]], labels[l + 3] - 6);
      if (text) {
        ctx.fillStyle = labels[l + 4] ? DIMMED_TEXT : TEXT;
        ctx.fillText(text, labels[l + 1] + 3, labels[l + 2] + ROW / 2);
      }
    }
    if (scene.hover >= 0) {
      const rect = nodeRect(scene, scene.hover);
      if (rect) {
        ctx.strokeStyle = '#17191e';
        ctx.lineWidth = 1.5;
        ctx.strokeRect(rect.x + 0.75, rect.y + 0.75, Math.max(1, rect.width - 2), ROW - 2.5);
      }
    }
    if (scene.selected >= 0) {
      // Thicker and in the accent colour, so the keyboard's frame stands out from the hovered one.
      const rect = nodeRect(scene, scene.selected);
      if (rect) {
        ctx.strokeStyle = SELECTED;
        ctx.lineWidth = 2.5;
        ctx.strokeRect(rect.x + 1.25, rect.y + 1.25, Math.max(1, rect.width - 3.5), ROW - 3.5);
      }
    }
    const took = performance.now() - started;
    stats.draws++;
    stats.lastDrawMillis = took;
    stats.maxDrawMillis = Math.max(stats.maxDrawMillis, took);
  }

  function fit(nameId, available) {
    const full = names[nameId];
    if (!fullWidths[nameId]) {
      fullWidths[nameId] = ctx.measureText(full).width || 0.1;
    }
    if (fullWidths[nameId] <= available) {
      return full;
    }
    const short = shortName(full);
    if (!shortWidths[nameId]) {
      shortWidths[nameId] = ctx.measureText(short).width || 0.1;
    }
    if (shortWidths[nameId] <= available) {
      return short;
    }
    const chars = Math.floor(available / charWidth) - 1;
    return chars >= 2 ? short.slice(0, chars) + '…' : null;
  }

  // Whether a node is drawn at the current zoom (as an ancestor row or inside the zoomed node).
  function visible(scene, node) {
    const g = scene.g;
    const z = scene.zoom;
    if (g.d[node] < zoomDepth(scene)) {
      return scene.ancestors[g.d[node]] === node;
    }
    return g.x[node] >= g.x[z] && g.x[node] < g.x[z] + g.total[z];
  }

  // Where a node is drawn, in CSS pixels relative to the canvas, or null when it is not on screen.
  function nodeRect(scene, node) {
    const g = scene.g;
    const z = scene.zoom;
    const depth = g.d[node];
    const y = depth * ROW - scroller.scrollTop;
    if (!visible(scene, node) || y + ROW <= 0 || y >= cssHeight) {
      return null;
    }
    if (depth < zoomDepth(scene)) {
      return { x: 0, y, width: cssWidth, height: ROW - 1 };
    }
    const scale = cssWidth / (g.total[z] || 1);
    return { x: (g.x[node] - g.x[z]) * scale, y, width: g.total[node] * scale, height: ROW - 1 };
  }

  function nodeAt(scene, clientX, clientY) {
    const bounds = canvas.getBoundingClientRect();
    const mx = clientX - bounds.left;
    const my = clientY - bounds.top;
    if (mx < 0 || my < 0 || mx >= cssWidth || my >= cssHeight) {
      return -1;
    }
    const g = scene.g;
    const z = scene.zoom;
    const row = Math.floor((my + scroller.scrollTop) / ROW);
    if (row >= g.depthCount) {
      return -1;
    }
    if (row < zoomDepth(scene)) {
      return scene.ancestors[row];
    }
    const sx = g.x[z] + mx * (g.total[z] / cssWidth);
    const nodes = g.rows[row];
    const k = firstAtOrAfter(g, nodes, sx);
    if (k >= nodes.length) {
      return -1;
    }
    const node = nodes[k];
    const inside = g.x[node] <= sx && sx < g.x[node] + g.total[node];
    const inZoom = g.x[node] >= g.x[z] && g.x[node] < g.x[z] + g.total[z];
    return inside && inZoom ? node : -1;
  }

  // The colour drawn at a point of the canvas, to check that something is really painted there.
  function pixel(x, y) {
    const ratio = window.devicePixelRatio || 1;
    const p = ctx.getImageData(Math.floor(x * ratio), Math.floor(y * ratio), 1, 1).data;
    return [p[0], p[1], p[2]];
  }

  return { layout, draw, nodeRect, nodeAt, visible, pixel, stats,
    width: () => cssWidth, height: () => cssHeight };
}
