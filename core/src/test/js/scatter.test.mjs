import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MARGIN, clockText, decadeText, scatterRange, scatterScale }
  from '../../main/resources/dev/spanprofile/render/html/spans/scatter-scale.mjs';
import { brushOf, describePoint, dragMoved, nearest, pointsOf }
  from '../../main/resources/dev/spanprofile/render/html/spans/scatter-points.mjs';
import { COLOURS, dotMask, paintDots, rgb } from '../../main/resources/dev/spanprofile/render/html/spans/dots.mjs';

// The span list's scatter without its canvas: the axes (start time across, log duration up), the points and what
// the pointer finds, a dragged rectangle as the times and durations the list keeps, and the dots' pixels.

const T0 = Date.parse('2026-12-01T10:00:00Z');
function record(spanId, startMillis, durationMillis, more = {}) {
  return { spanId, name: 'http get /' + spanId, start: startMillis * 1e6, duration: durationMillis, status: 'OK',
    inFlight: false, retained: 'recent', match: true, ...more };
}

test('durations widen to whole decades and a short burst of starts to a second', () => {
  const points = pointsOf([record('a', T0, 3), record('b', T0 + 200, 450)]);
  const range = scatterRange(points);
  assert.equal(range.l0, 0);
  assert.equal(range.l1, 3);
  assert.equal(range.t0, T0 - 500);
  assert.equal(range.t1, T0 + 700);
  // One duration still spans a decade; a zero one is drawn at 0.01 ms.
  assert.deepEqual([scatterRange(pointsOf([record('c', T0, 10)])).l0, scatterRange(pointsOf([record('c', T0, 10)])).l1],
    [1, 2]);
  assert.equal(pointsOf([record('z', T0, 0)])[0].duration, 0.01);
});

test('start times map across and durations up on a log scale, and back', () => {
  const range = { t0: T0, t1: T0 + 60000, l0: 0, l1: 3 };
  const scale = scatterScale(range, 676, 220);
  assert.equal(scale.xOf(T0), MARGIN.left);
  assert.equal(scale.xOf(T0 + 60000), 676 - MARGIN.right);
  assert.equal(scale.xOf(T0 + 30000), MARGIN.left + 300);
  assert.equal(scale.yOf(1), 220 - MARGIN.bottom);
  assert.equal(scale.yOf(1000), MARGIN.top);
  // Each decade the same height: 10 ms a third of the way up.
  assert.ok(Math.abs(scale.yOf(10) - (220 - MARGIN.bottom - 190 / 3)) < 1e-9);
  assert.ok(Math.abs(scale.startAt(scale.xOf(T0 + 12345)) - (T0 + 12345)) < 1e-3);
  assert.ok(Math.abs(scale.durationAt(scale.yOf(42)) - 42) < 1e-9);
});

test('the pointer finds the shown point nearest to it within 8 px, never a faded one', () => {
  const points = pointsOf([record('a', T0, 3), record('b', T0, 3, { match: false }), record('c', T0, 3)]);
  [[100, 100], [104, 100], [110, 100]].forEach(([x, y], i) => Object.assign(points[i], { x, y }));
  assert.equal(nearest(points, 103.9, 100).record.spanId, 'a');
  assert.equal(nearest(points, 106, 101).record.spanId, 'c');
  assert.equal(nearest(points, 100, 109), null);
  points[1].hidden = false;
  assert.equal(nearest(points, 104, 100).record.spanId, 'b');
});

test('points say what they are: running, failed, kept', () => {
  const [ok, running, failed] = pointsOf([record('a', T0, 12.34), record('b', T0, 5, { inFlight: true }),
    record('c', T0, 900, { status: 'ERROR', retained: 'failed' })]);
  assert.deepEqual([ok.kind, running.kind, failed.kind], ['ok', 'running', 'error']);
  assert.equal(ok.href, 'spanprofile/a');
  assert.equal(describePoint(ok), 'http get /a · 12.3 ms');
  assert.equal(describePoint(running), 'http get /b · 5.0 ms so far (running)');
  assert.equal(describePoint(failed), 'http get /c · 900.0 ms · error · kept as failed');
});

test('a drag of more than 4 px is a rectangle of the times and durations it covers, either way', () => {
  assert.equal(dragMoved({ x0: 10, y0: 10, x1: 12, y1: 12, moved: false }), false);
  assert.equal(dragMoved({ x0: 10, y0: 10, x1: 13, y1: 12, moved: false }), true);
  assert.equal(dragMoved({ x0: 10, y0: 10, x1: 10, y1: 10, moved: true }), true);
  const scale = scatterScale({ t0: T0, t1: T0 + 60000, l0: 0, l1: 3 }, 676, 220);
  const down = { x0: scale.xOf(T0 + 30000), y0: scale.yOf(500), x1: scale.xOf(T0 + 10000), y1: scale.yOf(2) };
  const up = { x0: down.x1, y0: down.y1, x1: down.x0, y1: down.y0 };
  for (const drag of [down, up]) {
    const brush = brushOf(drag, scale);
    assert.ok(Math.abs(brush.t0 - (T0 + 10000)) < 1e-3 && Math.abs(brush.t1 - (T0 + 30000)) < 1e-3);
    assert.ok(Math.abs(brush.d0 - 2) < 1e-9 && Math.abs(brush.d1 - 500) < 1e-9);
  }
});

test('dots are discs three quarters opaque, errors painted over the rest, faded spans as faint squares', () => {
  const width = 40;
  const height = 20;
  const image = { data: new Uint8ClampedArray(width * height * 4), width, height };
  const points = pointsOf([record('a', T0, 1), record('b', T0, 1, { status: 'ERROR' }),
    record('c', T0, 1, { match: false })]);
  Object.assign(points[0], { x: 10, y: 10 });
  Object.assign(points[1], { x: 12, y: 10 });
  Object.assign(points[2], { x: 30, y: 10 });
  paintDots(image, points, 1);
  const pixel = (x, y) => Array.from(image.data.slice((y * width + x) * 4, (y * width + x) * 4 + 4));
  // Where the two overlap the error's red is on top, three quarters of it over a quarter of the blue beneath
  // (blue on top would give red 90, blue 165).
  const red = rgb(COLOURS.error);
  const blue = rgb(COLOURS.ok);
  const over = (top, under) => Math.round((top * 0.75 + under * 0.1875) / 0.9375);
  assert.deepEqual(pixel(11, 9), [over(red[0], blue[0]), over(red[1], blue[1]), over(red[2], blue[2]),
    Math.round(0.9375 * 255)]);
  // The ok dot alone, at its left edge's middle: blue, three quarters opaque.
  assert.deepEqual(pixel(8, 9), [...rgb(COLOURS.ok), Math.round(0.75 * 255)]);
  // Beyond a dot's radius: nothing.
  assert.deepEqual(pixel(4, 9), [0, 0, 0, 0]);
  assert.deepEqual(pixel(20, 2), [0, 0, 0, 0]);
  // The faded one: a solid 2-px square.
  assert.deepEqual(pixel(29, 9), [...rgb('#b9c0cc'), 255]);
  assert.deepEqual(pixel(30, 10), [...rgb('#b9c0cc'), 255]);
  assert.deepEqual(pixel(31, 10), [0, 0, 0, 0]);
  // At twice the pixel density the disc is twice as wide, and still three quarters opaque at its centre.
  const mask = dotMask(16, 2);
  assert.equal(mask[8 * 16 + 8], 0.75);
  assert.equal(mask[0], 0);
});

test('axis labels: decades in ms then s, clock times with seconds', () => {
  assert.deepEqual([1, 10, 100, 1000, 10000].map(decadeText), ['1 ms', '10 ms', '100 ms', '1 s', '10 s']);
  assert.match(clockText(T0 + 7000), /^\d\d:\d\d:07$/);
});
