import { test } from 'node:test';
import assert from 'node:assert/strict';
import { millisText, stretchParam } from '../../main/resources/dev/spanprofile/render/html/timeline/format.mjs';
import { PAD, axisStep, axisTimes, timeScale } from '../../main/resources/dev/spanprofile/render/html/timeline/scale.mjs';
import { AXIS, BAR, LABEL, describeAt, fitText, laneTop, placeEntries, timelineHeight, timelineLabel, waitColour }
  from '../../main/resources/dev/spanprofile/render/html/timeline/lanes.mjs';

// The timeline's geometry and words: where a time is drawn, the axis labels, waits and ticks in their lanes, what
// the pointer is over, and the stretch a drag puts in the URL.

test('times map across the padded width and back, clamped to the request', () => {
  const scale = timeScale(200, 412);
  assert.equal(scale.x(0), PAD);
  assert.equal(scale.x(200), 412 - PAD);
  assert.equal(scale.x(100), 206);
  assert.equal(scale.x(-5), PAD);
  assert.equal(scale.x(900), 412 - PAD);
  assert.equal(scale.millisAt(scale.x(37.5)), 37.5);
  assert.equal(scale.millisAt(0), 0);
  assert.equal(scale.millisAt(10000), 200);
  // A request of no measurable length still has a scale.
  assert.equal(timeScale(0, 412).duration, 0.001);
  assert.ok(Number.isFinite(timeScale(0, 412).x(0)));
});

test('axis labels step by 1, 2 or 5 times a power of ten, at least 70 px apart', () => {
  // 1,000 ms across 712 px: ten labels would fit, 100 ms each.
  assert.equal(axisStep(1000, 712), 100);
  assert.equal(axisStep(1000, 300), 500);
  assert.equal(axisStep(30, 712), 5);
  assert.deepEqual(axisTimes(1000, 300), [0, 500, 1000]);
  for (const [duration, width] of [[1000, 712], [7.3, 500], [123456, 1400]]) {
    const times = axisTimes(duration, width);
    const scale = timeScale(duration, width);
    assert.ok(scale.x(times[1]) - scale.x(times[0]) >= 70, `labels of ${duration} ms across ${width} px`);
    assert.ok(times[times.length - 1] <= duration * 1.001);
  }
});

test('waits become blocks in their thread\'s lane, samples ticks at their end; a short wait stays visible', () => {
  const scale = timeScale(100, 212);
  const placed = placeEntries([
    { kind: 'cpu', lane: 0, startMillis: 9, endMillis: 10 },
    { kind: 'wait', lane: 1, startMillis: 20, endMillis: 70, label: '[socket read]' },
    { kind: 'wait', lane: 0, startMillis: 80, endMillis: 80.1, label: '[park]' },
    { kind: 'wall', lane: 1, startMillis: 49, endMillis: 50 }
  ], scale);
  assert.deepEqual(placed.ticks, [{ index: 0, kind: 'cpu', x: 26, lane: 0, atMillis: 10 },
    { index: 3, kind: 'wall', x: 106, lane: 1, atMillis: 50 }]);
  assert.deepEqual(placed.waits[0], { index: 1, x: 46, y: laneTop(1) + LABEL, width: 100, height: BAR,
    label: '[socket read]', lane: 1, startMillis: 20, endMillis: 70 });
  assert.equal(placed.waits[1].width, 2);
  assert.equal(laneTop(0), AXIS);
  assert.ok(laneTop(1) >= laneTop(0) + LABEL + BAR);
  assert.equal(timelineHeight(2), laneTop(2) + 2);
  assert.equal(timelineHeight(0), timelineHeight(1));
});

test('the status line names the wait under the pointer, else the time there', () => {
  const scale = timeScale(100, 212);
  const lanes = [{ thread: 'http-nio-1' }, { thread: 'pool-2' }];
  const { waits } = placeEntries([{ kind: 'wait', lane: 1, startMillis: 20, endMillis: 70, label: '[socket read]' }],
    scale);
  const inside = describeAt(60, waits[0].y + 3, waits, lanes, scale);
  assert.equal(inside, '[socket read] — 50 ms, from 20 ms to 70 ms on pool-2');
  assert.match(describeAt(60, laneTop(0) + LABEL + 3, waits, lanes, scale), /^27 ms from the start\./);
});

test('each kind of wait has its colour; unknown ones share one', () => {
  assert.equal(waitColour('[socket read]'), '#d9579b');
  assert.equal(waitColour('[lock] java.util.concurrent.locks.ReentrantLock'), '#c9463d');
  assert.equal(waitColour('[monitor] Object'), '#c9463d');
  assert.equal(waitColour('[GC pause]'), '#6b7f99');
  assert.equal(waitColour('somewhere'), waitColour(undefined));
  assert.notEqual(waitColour('[park]'), waitColour('[sleep]'));
});

test('labels shorten to the longest start that fits, with an ellipsis, or vanish', () => {
  const measure = (text) => text.length * 6;
  assert.equal(fitText('[socket read]', 100, measure), '[socket read]');
  assert.equal(fitText('[socket read]', 48, measure), '[socket…');
  assert.equal(fitText('[socket read]', 20, measure), '');
});

test('durations read as people write them, and a stretch in the URL drops trailing zeros', () => {
  assert.equal(millisText(3.25), '3.3 ms');
  assert.equal(millisText(42.4), '42 ms');
  assert.equal(millisText(1234.5), '1.23 s');
  assert.equal(millisText(12500), '12.5 s');
  assert.equal(stretchParam(10), '10');
  assert.equal(stretchParam(0), '0');
  assert.equal(stretchParam(12.5), '12.5');
  assert.equal(stretchParam(1.23456), '1.235');
  assert.equal(timelineLabel([{ thread: 'a' }], [{ kind: 'cpu' }, { kind: 'cpu' }, { kind: 'wait' }], 1500),
    'Timeline of this request: 1 thread, 2 CPU samples, 1 waits over 1.5 s');
});
