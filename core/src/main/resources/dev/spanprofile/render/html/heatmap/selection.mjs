import { millisText, minuteText } from './format.mjs';

// A selection of cells as the server reads it (minutes as ISO-8601 instants, bands by their edges), the selection
// a page shows back as cells, and the words for it.

// The selection the page shows, as cells: columns whose minute lies in [from, to), bands within the durations.
export function selectedCells(selection, starts, bandEdges) {
  if (!selection) {
    return null;
  }
  const columns = starts.length;
  const bands = bandEdges.length - 1;
  const from = Date.parse(selection.from);
  const to = Date.parse(selection.to);
  const cells = { c0: columns, c1: -1, b0: bands, b1: -1 };
  for (let c = 0; c < columns; c++) {
    if (starts[c] >= from && starts[c] < to) {
      cells.c0 = Math.min(cells.c0, c);
      cells.c1 = Math.max(cells.c1, c);
    }
  }
  const max = selection.maxDurationMillis;
  for (let b = 0; b < bands; b++) {
    const low = bandEdges[b];
    if (low >= selection.minDurationMillis - 1e-9 && (max === undefined || low < max - 1e-9)) {
      cells.b0 = Math.min(cells.b0, b);
      cells.b1 = Math.max(cells.b1, b);
    }
  }
  return (cells.c1 >= 0 && cells.b1 >= 0) ? cells : null;
}

export function selectionQuery(cells, starts, bandEdges, bucketMillis) {
  const query = '&from=' + new Date(starts[cells.c0]).toISOString()
    + '&to=' + new Date(starts[cells.c1] + bucketMillis).toISOString()
    + '&minDurationMillis=' + bandEdges[cells.b0];
  const max = bandEdges[cells.b1 + 1];
  return (max === null || max === undefined) ? query : query + '&maxDurationMillis=' + max;
}

export function describeCells(cells, starts, bandEdges, total) {
  const minutes = minuteText(starts[cells.c0]) + (cells.c1 > cells.c0 ? '–' + minuteText(starts[cells.c1]) : '');
  return minutes + ', ' + millisText(bandEdges[cells.b0]) + ' to ' + millisText(bandEdges[cells.b1 + 1]) + ': '
    + total.requests + ' requests' + (total.errors ? ', ' + total.errors + ' failed' : '');
}
