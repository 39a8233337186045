import { cellAt, cellRect, cellsBetween, gridLayout, mostCount, sumCells } from './grid.mjs';
import { describeCells, selectedCells, selectionQuery } from './selection.mjs';
import { drawHeatmap } from './draw.mjs';

// A span name's requests by minute (across) and latency band (up). Dragging a rectangle opens the flame graph
// of the requests in its cells: the selection travels in the URL, so the server merges exactly those cells. This
// module wires the canvas and the pointer; the grid, the selection and the painting live in their modules.

function startHeatmap(canvas, source) {
  const data = JSON.parse(source.textContent);
  const map = data.heatmap;
  const links = data.links;
  const status = document.getElementById('heatmap-status');
  const columns = map.startTimes.length;
  const bands = map.bandEdgesMillis.length - 1;
  const starts = map.startTimes.map((time) => Date.parse(time));
  const bucketMillis = links.bucketMillis || 60000;
  const most = mostCount(map.counts);
  const shown = selectedCells(data.selection, starts, map.bandEdgesMillis);
  let layout = null;
  let ratio = 1;
  let drag = null;

  function measure() {
    ratio = window.devicePixelRatio || 1;
    layout = gridLayout(Math.max(240, canvas.parentElement.clientWidth), columns, bands);
    canvas.style.height = layout.height + 'px';
    canvas.width = Math.round(layout.width * ratio);
    canvas.height = Math.round(layout.height * ratio);
  }

  function draw() {
    drawHeatmap(canvas.getContext('2d'), layout, ratio, { map, starts, most, shown,
      dragged: drag && drag.moved ? cellsBetween(drag.from, drag.to) : null });
  }

  function selectionHref(cells, compare) {
    return links.name + selectionQuery(cells, starts, map.bandEdgesMillis, bucketMillis)
      + (compare ? '&compare=rest' : '') + '&format=html';
  }

  function describe(cells) {
    return describeCells(cells, starts, map.bandEdgesMillis, sumCells(map, cells));
  }

  function point(event) {
    const box = canvas.getBoundingClientRect();
    return cellAt(layout, event.clientX - box.left, event.clientY - box.top);
  }

  if (bands < 1) {
    canvas.hidden = true;
    status.textContent = 'No request of this name has had its profile folded in the window yet.';
  }
  else {
    canvas.addEventListener('pointerdown', (event) => {
      const cell = point(event);
      if (!cell.inside) {
        return;
      }
      drag = { from: cell, to: cell, moved: false };
      canvas.setPointerCapture(event.pointerId);
    });
    canvas.addEventListener('pointermove', (event) => {
      const cell = point(event);
      if (drag) {
        drag.moved = drag.moved || cell.column !== drag.from.column || cell.band !== drag.from.band;
        drag.to = cell;
        status.textContent = describe(cellsBetween(drag.from, drag.to)) + ' — release for their flame graph';
        draw();
      }
      else if (cell.inside) {
        status.textContent = describe(cellsBetween(cell, cell));
      }
    });
    canvas.addEventListener('pointerup', () => {
      if (!drag) {
        return;
      }
      // The cells the moves reached: what was outlined is what opens.
      const cells = cellsBetween(drag.from, drag.to);
      drag = null;
      window.location.href = selectionHref(cells, false);
    });
    canvas.addEventListener('pointercancel', () => {
      drag = null;
      draw();
    });
    // The canvas's width changes without a window resize too (a scroll bar appearing as the page grows).
    new ResizeObserver(() => {
      measure();
      draw();
    }).observe(canvas.parentElement);
    measure();
    draw();
    const compare = document.getElementById('heatmap-compare');
    const clear = document.getElementById('heatmap-clear');
    if (shown && compare) {
      compare.href = selectionHref(shown, true);
      status.textContent = 'Selected: ' + describe(shown);
    }
    if (clear) {
      clear.href = links.name + '&format=html';
    }
  }

  // For tests and tools: where a cell is drawn (CSS pixels on the canvas) and what the map holds.
  window.spanprofileHeatmap = {
    ready: true,
    columns,
    bands,
    cellRect: (column, band) => (layout ? cellRect(layout, column, band) : null),
    selected: () => selectedCells(data.selection, starts, map.bandEdgesMillis),
    sum: (c0, c1, b0, b1) => sumCells(map, { c0, c1, b0, b1 })
  };
}

const heatmapCanvas = document.getElementById('heatmap-canvas');
const heatmapSource = document.getElementById('heatmap-data');
if (heatmapCanvas && heatmapSource) {
  startHeatmap(heatmapCanvas, heatmapSource);
}
