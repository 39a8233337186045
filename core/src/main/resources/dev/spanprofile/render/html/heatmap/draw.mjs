import { cellColour, millisText, minuteText } from './format.mjs';
import { MARGIN, cellRect } from './grid.mjs';

// Paints the heatmap: a shade per cell with requests, a red corner on cells with failed ones, the axes' labels, the
// selection the page shows (solid) and the one being dragged (dashed).

export function drawHeatmap(ctx, layout, ratio, picture) {
  const { map, starts, most, shown, dragged } = picture;
  const bands = layout.bands;
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.clearRect(0, 0, layout.width, layout.height);
  ctx.fillStyle = '#f5f6f8';
  ctx.fillRect(MARGIN.left, MARGIN.top, layout.width - MARGIN.left - MARGIN.right, bands * layout.rowHeight);
  for (let c = 0; c < layout.columns; c++) {
    for (let b = 0; b < bands; b++) {
      const count = map.counts[c][b];
      if (count > 0) {
        const cell = cellRect(layout, c, b);
        ctx.fillStyle = cellColour(count, most);
        ctx.fillRect(cell.x, cell.y, Math.max(1, cell.width - 1), Math.max(1, cell.height - 1));
        if (map.errors[c][b] > 0) {
          // A red corner: the cell holds failed requests, whatever its shade.
          const size = Math.min(cell.width, cell.height) * 0.6;
          ctx.fillStyle = '#d93025';
          ctx.beginPath();
          ctx.moveTo(cell.x + cell.width - 1 - size, cell.y);
          ctx.lineTo(cell.x + cell.width - 1, cell.y);
          ctx.lineTo(cell.x + cell.width - 1, cell.y + size);
          ctx.closePath();
          ctx.fill();
        }
      }
    }
  }
  ctx.fillStyle = '#5b6475';
  ctx.font = '11px system-ui, sans-serif';
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'right';
  const every = Math.max(1, Math.ceil(14 / layout.rowHeight));
  for (let band = 0; band <= bands; band += every) {
    const y = MARGIN.top + (bands - band) * layout.rowHeight;
    ctx.fillText(millisText(map.bandEdgesMillis[band]), MARGIN.left - 4, Math.max(6, y));
  }
  ctx.textBaseline = 'top';
  ctx.textAlign = 'center';
  const step = Math.max(1, Math.ceil(56 / layout.cellWidth));
  for (let column = 0; column < layout.columns; column += step) {
    ctx.fillText(minuteText(starts[column]), MARGIN.left + (column + 0.5) * layout.cellWidth,
      MARGIN.top + bands * layout.rowHeight + 4);
  }
  if (shown) {
    outline(ctx, layout, shown, '#0b62c4', false);
  }
  if (dragged) {
    outline(ctx, layout, dragged, '#1d2330', true);
  }
}

function outline(ctx, layout, cells, colour, dashed) {
  const low = cellRect(layout, cells.c0, cells.b0);
  const high = cellRect(layout, cells.c1, cells.b1);
  ctx.save();
  ctx.strokeStyle = colour;
  ctx.lineWidth = 2;
  if (dashed) {
    ctx.setLineDash([4, 3]);
  }
  ctx.strokeRect(low.x + 1, high.y + 1, high.x + high.width - low.x - 2, low.y + low.height - high.y - 2);
  ctx.restore();
}
