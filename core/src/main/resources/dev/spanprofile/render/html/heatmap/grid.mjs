// The heatmap's cells: minutes across (columns), latency bands up (band 0 at the bottom). Where a cell is drawn,
// which cell a point is in, rectangles of cells, and what they hold.

export const MARGIN = { left: 64, right: 8, top: 6, bottom: 20 };

export function gridLayout(width, columns, bands) {
  const rowHeight = Math.max(6, Math.min(18, Math.floor(220 / Math.max(1, bands))));
  return {
    width,
    height: MARGIN.top + Math.max(1, bands) * rowHeight + MARGIN.bottom,
    rowHeight,
    cellWidth: (width - MARGIN.left - MARGIN.right) / Math.max(1, columns),
    columns,
    bands
  };
}

export function cellRect(layout, column, band) {
  return {
    x: MARGIN.left + column * layout.cellWidth,
    y: MARGIN.top + (layout.bands - 1 - band) * layout.rowHeight,
    width: layout.cellWidth,
    height: layout.rowHeight
  };
}

// The cell under a point, clamped to the grid; inside says whether the point was on it.
export function cellAt(layout, x, y) {
  const column = Math.floor((x - MARGIN.left) / layout.cellWidth);
  const band = layout.bands - 1 - Math.floor((y - MARGIN.top) / layout.rowHeight);
  return {
    column: Math.max(0, Math.min(layout.columns - 1, column)),
    band: Math.max(0, Math.min(layout.bands - 1, band)),
    inside: column >= 0 && column < layout.columns && band >= 0 && band < layout.bands
  };
}

// The rectangle of cells between two corners, whichever way it was dragged.
export function cellsBetween(a, b) {
  return {
    c0: Math.min(a.column, b.column), c1: Math.max(a.column, b.column),
    b0: Math.min(a.band, b.band), b1: Math.max(a.band, b.band)
  };
}

export function mostCount(counts) {
  let most = 0;
  counts.forEach((column) => column.forEach((count) => {
    most = Math.max(most, count);
  }));
  return most;
}

export function sumCells(map, cells) {
  const total = { requests: 0, errors: 0 };
  for (let c = cells.c0; c <= cells.c1; c++) {
    for (let b = cells.b0; b <= cells.b1; b++) {
      total.requests += map.counts[c][b];
      total.errors += map.errors[c][b];
    }
  }
  return total;
}
