import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cellColour, millisText } from '../../main/resources/dev/spanprofile/render/html/heatmap/format.mjs';
import { MARGIN, cellAt, cellRect, cellsBetween, gridLayout, mostCount, sumCells }
  from '../../main/resources/dev/spanprofile/render/html/heatmap/grid.mjs';
import { describeCells, selectedCells, selectionQuery }
  from '../../main/resources/dev/spanprofile/render/html/heatmap/selection.mjs';

// A name's latency heatmap without its canvas: cells to pixels and back, a dragged rectangle to the URL the server
// merges, and the selection a page shows back as the same cells.

const MINUTE = 60000;
const T0 = Date.parse('2026-12-01T10:00:00Z');
// Three minutes, bands 0–10, 10–100, 100–1000 ms and 1 s on.
const map = {
  startTimes: [0, 1, 2].map((m) => new Date(T0 + m * MINUTE).toISOString()),
  bandEdgesMillis: [0, 10, 100, 1000, null],
  counts: [[5, 1, 0, 0], [9, 0, 2, 1], [0, 0, 0, 0]],
  errors: [[0, 1, 0, 0], [0, 0, 0, 1], [0, 0, 0, 0]]
};
const starts = map.startTimes.map((time) => Date.parse(time));

test('a cell\'s rectangle and the cell under a point agree; band 0 is at the bottom', () => {
  const layout = gridLayout(372, 3, 4);
  assert.equal(layout.cellWidth, 100);
  assert.equal(layout.rowHeight, 18);
  assert.equal(layout.height, MARGIN.top + 4 * 18 + MARGIN.bottom);
  assert.deepEqual(cellRect(layout, 0, 0), { x: MARGIN.left, y: MARGIN.top + 3 * 18, width: 100, height: 18 });
  for (const [column, band] of [[0, 0], [2, 3], [1, 2]]) {
    const rect = cellRect(layout, column, band);
    assert.deepEqual(cellAt(layout, rect.x + 50, rect.y + 9), { column, band, inside: true });
  }
  // Off the grid: clamped to the nearest cell, and said to be outside.
  assert.deepEqual(cellAt(layout, 10, 1000), { column: 0, band: 0, inside: false });
  // Many bands share the height: rows shrink, to 6 px at least.
  assert.equal(gridLayout(372, 3, 24).rowHeight, 9);
  assert.equal(gridLayout(372, 3, 100).rowHeight, 6);
});

test('a rectangle dragged either way covers the same cells and sums their requests and failures', () => {
  const cells = cellsBetween({ column: 1, band: 3 }, { column: 0, band: 1 });
  assert.deepEqual(cells, { c0: 0, c1: 1, b0: 1, b1: 3 });
  assert.deepEqual(sumCells(map, cells), { requests: 4, errors: 2 });
  assert.deepEqual(sumCells(map, { c0: 0, c1: 2, b0: 0, b1: 3 }), { requests: 18, errors: 2 });
  assert.equal(mostCount(map.counts), 9);
});

test('a selection goes to the URL as minutes and band edges, and comes back as the same cells', () => {
  const cells = { c0: 0, c1: 1, b0: 0, b1: 1 };
  const query = selectionQuery(cells, starts, map.bandEdgesMillis, MINUTE);
  assert.equal(query, '&from=2026-12-01T10:00:00.000Z&to=2026-12-01T10:02:00.000Z&minDurationMillis=0'
    + '&maxDurationMillis=100');
  const params = new URLSearchParams(query.slice(1));
  const selection = { from: params.get('from'), to: params.get('to'),
    minDurationMillis: Number(params.get('minDurationMillis')),
    maxDurationMillis: Number(params.get('maxDurationMillis')) };
  assert.deepEqual(selectedCells(selection, starts, map.bandEdgesMillis), cells);
  // The open-ended top band has no maximum.
  const top = selectionQuery({ c0: 2, c1: 2, b0: 2, b1: 3 }, starts, map.bandEdgesMillis, MINUTE);
  assert.equal(top, '&from=2026-12-01T10:02:00.000Z&to=2026-12-01T10:03:00.000Z&minDurationMillis=100');
  assert.deepEqual(selectedCells({ from: '2026-12-01T10:02:00Z', to: '2026-12-01T10:03:00Z', minDurationMillis: 100 },
    starts, map.bandEdgesMillis), { c0: 2, c1: 2, b0: 2, b1: 3 });
  assert.equal(selectedCells(null, starts, map.bandEdgesMillis), null);
  // A selection outside the window shows no cells.
  assert.equal(selectedCells({ from: '2026-12-01T11:00:00Z', to: '2026-12-01T11:05:00Z', minDurationMillis: 0 },
    starts, map.bandEdgesMillis), null);
});

test('the status line says the minutes, the durations and what the cells hold', () => {
  const cells = { c0: 0, c1: 1, b0: 1, b1: 3 };
  const text = describeCells(cells, starts, map.bandEdgesMillis, sumCells(map, cells));
  assert.match(text, /^\d\d:\d\d–\d\d:\d\d, 10 ms to ∞: 4 requests, 2 failed$/);
  assert.match(describeCells({ c0: 2, c1: 2, b0: 0, b1: 0 }, starts, map.bandEdgesMillis, { requests: 0, errors: 0 }),
    /^\d\d:\d\d, 0.00 ms to 10 ms: 0 requests$/);
  assert.equal(millisText(2.5), '2.5 ms');
  assert.equal(millisText(0.25), '0.25 ms');
  assert.equal(millisText(1500), '1.5 s');
  assert.equal(millisText(25000), '25 s');
});

test('shades darken with the log of the count, from light to the darkest blue at the busiest cell', () => {
  assert.equal(cellColour(0, 9), 'rgb(226,236,250)');
  assert.equal(cellColour(9, 9), 'rgb(8,48,130)');
  const blue = (count) => Number(cellColour(count, 1000).match(/rgb\((\d+),(\d+),(\d+)\)/)[1]);
  assert.ok(blue(1) > blue(10) && blue(10) > blue(100));
  // Log scale: one request among a busiest thousand is already a tenth of the way down.
  assert.ok(226 - blue(1) > 0.09 * (226 - 8));
});
