import { test } from 'node:test';
import assert from 'node:assert/strict';
import { durationText, instantText, millisText } from '../../main/resources/dev/spanprofile/render/html/spans/format.mjs';
import { readRecords } from '../../main/resources/dev/spanprofile/render/html/spans/records.mjs';
import { comparator, inBrush, listedLine, matching, nextSort, shownText }
  from '../../main/resources/dev/spanprofile/render/html/spans/order.mjs';
import { badgesOf, rowAttributes, topFrames, traceLink } from '../../main/resources/dev/spanprofile/render/html/spans/rows.mjs';

// The span list without its page: the data block read into records, the filter and the sort, the line under the
// list, and what a built row holds (the same text the server renders, SpanIndexPage).

// Start times in the block are nanoseconds after base, which is beyond a double's exact range.
const BASE = '1764583200123456789';
function block(spans) {
  return {
    base: BASE, listed: 2,
    names: ['http get /checkout', 'HTTP GET /Owners/{id}'],
    details: ['GET /checkout?cpuMillis=100', 'GET /owners/7'],
    statuses: ['OK', 'ERROR'],
    reasons: ['', 'no samples: shorter than the interval'],
    retained: ['recent', 'slowest', 'failed'],
    frames: ['com.acme.Checkout.total(long)', 'Checkout.total', 'java.lang.Thread.sleep', 'Thread.sleep'],
    spans
  };
}
// spanId, traceId, name, detail, inFlight, status, startOffset, durationMicros, samples, reason, retained,
// allocated, lockwait, top (frame, samples pairs)
const DATA = block([
  ['a1', '0123456789abcdef', 0, 0, 0, 0, 0, 120500, 12, 0, 0, 0, 0, [0, 9, 1, 3]],
  ['b2', 'fedcba9876543210', 1, 1, 1, 1, 1000000, 7250, 0, 1, 1, 0, 0, []],
  ['c3', '00000000000000aa', 0, 0, 0, 0, 2000000, 950000, 40, 0, 2, 0, 0, [1, 40]]
]);

test('records keep the exact start for rows and a double for sorting and drawing', () => {
  const { base, records } = readRecords(DATA);
  assert.equal(base, 1764583200123456789n);
  assert.equal(records.length, 3);
  const [a, b] = records;
  assert.equal(a.name, 'http get /checkout');
  assert.equal(b.lowerName, 'http get /owners/{id}');
  assert.equal(b.inFlight, true);
  assert.equal(b.status, 'ERROR');
  assert.equal(b.retained, 'slowest');
  assert.equal(b.emptyReason, 'no samples: shorter than the interval');
  assert.equal(a.duration, 120.5);
  // As a double, the start is good to 256 ns at this base: enough to sort and draw, not to write.
  assert.ok(Math.abs(b.start - a.start - 1000000) <= 256);
  assert.equal(rowAttributes(b, base)[0][1], '1764583200124456789');
  assert.equal(readRecords({ ...DATA, base: undefined }).base, 0n);
});

test('the filter keeps names containing the text, any case, and inside the dragged rectangle', () => {
  const { records } = readRecords(DATA);
  assert.deepEqual(matching(records, '  OWNERS ', null).map((r) => r.spanId), ['b2']);
  assert.deepEqual(records.map((r) => r.match), [false, true, false]);
  assert.deepEqual(matching(records, '', null).length, 3);
  const startMillis = records[0].start / 1e6;
  const brush = { t0: startMillis - 0.5, t1: startMillis + 1.5, d0: 100, d1: 1000 };
  assert.equal(inBrush(records[0], brush), true);
  // In time but too short.
  assert.equal(inBrush(records[1], brush), false);
  // Long enough, but started 2 ms in: beyond the rectangle's right edge.
  assert.equal(inBrush(records[2], brush), false);
  assert.deepEqual(matching(records, 'checkout', { ...brush, t1: startMillis + 3 }).map((r) => r.spanId), ['a1', 'c3']);
});

test('a sort by a column puts ties in the data\'s order; a second click flips it', () => {
  const { records } = readRecords(block([
    ['x', 't', 0, 0, 0, 0, 0, 5000, 3, 0, 0, 0, 0, []],
    ['y', 't', 0, 0, 0, 0, 1, 9000, 3, 0, 0, 0, 0, []],
    ['z', 't', 0, 0, 0, 0, 2, 1000, 7, 0, 0, 0, 0, []]
  ]));
  const order = (sort) => records.slice().sort(comparator(sort)).map((r) => r.spanId).join('');
  assert.equal(order({ key: 'duration', descending: true }), 'yxz');
  assert.equal(order({ key: 'duration', descending: false }), 'zxy');
  assert.equal(order({ key: 'samples', descending: true }), 'zxy');
  assert.equal(order({ key: 'samples', descending: false }), 'xyz');
  let sort = { key: 'start', descending: true };
  sort = nextSort(sort, 'duration');
  assert.deepEqual(sort, { key: 'duration', descending: true });
  assert.deepEqual(nextSort(sort, 'duration'), { key: 'duration', descending: false });
  assert.deepEqual(nextSort({ key: 'duration', descending: false }, 'samples'), { key: 'samples', descending: true });
});

test('the line under the list counts what is listed and offers the rest a step at a time', () => {
  assert.deepEqual(listedLine(250, 100, 100), { hidden: false, text: 'Listing the first 100 of 250 spans.',
    more: 'Show 100 more', moreHidden: false, allHidden: false });
  assert.deepEqual(listedLine(250, 200, 100), { hidden: false, text: 'Listing the first 200 of 250 spans.',
    more: 'Show 50 more', moreHidden: false, allHidden: true });
  assert.equal(listedLine(30, 100, 100).hidden, true);
  assert.equal(listedLine(250, Infinity, 100).text, 'Listing the first 250 of 250 spans.');
  assert.equal(shownText(3, 3), '3 spans');
  assert.equal(shownText(1, 3), '1 of 3 spans');
});

test('a built row says what the server\'s does: times, durations, badges, top frames, the trace', () => {
  const { base, records } = readRecords(DATA);
  assert.deepEqual(rowAttributes(records[0], base), [['start', '1764583200123456789'], ['duration', '120.500'],
    ['samples', '12'], ['allocated', '0'], ['lockwait', '0'], ['name', 'http get /checkout'], ['status', 'OK'],
    ['retained', 'recent']]);
  assert.deepEqual(badgesOf(records[0]), []);
  assert.deepEqual(badgesOf(records[1]).map((b) => b.text), ['in flight', 'error', 'kept · slowest']);
  assert.equal(badgesOf(records[1])[2].title, 'Kept beyond the recent requests: among the slowest of its name');
  assert.equal(badgesOf(records[2])[0].title,
    'Kept beyond the recent requests: the latest failure of its name in its minute');
  assert.equal(badgesOf({ ...records[2], retained: 'forced' })[0].title,
    'Kept beyond the recent requests: asked for by its caller (on-demand header or capture)');
  assert.deepEqual(topFrames(records[0], DATA.frames), [
    { title: 'com.acme.Checkout.total(long)', name: 'Checkout.total', percent: '75%' },
    { title: 'java.lang.Thread.sleep', name: 'Thread.sleep', percent: '25%' }]);
  // One sample is not "100%" of anything: a span with fewer than three says how many.
  const one = { ...records[0], samples: 1, top: [records[0].top[0], 1] };
  assert.deepEqual(topFrames(one, DATA.frames).map((frame) => frame.percent), ['1 sample']);
  const two = { ...records[0], samples: 2, top: [records[0].top[0], 1, records[0].top[2], 1] };
  assert.deepEqual(topFrames(two, DATA.frames).map((frame) => frame.percent), ['1 sample', '1 sample']);
  assert.deepEqual(traceLink('0123456789abcdef'), { text: '01234567…', href: 'spanprofile/0123456789abcdef',
    title: 'All spans of trace 0123456789abcdef in this process' });
});

test('instants and milliseconds are written as Java writes them', () => {
  assert.equal(instantText('1764583200000000000'), '2025-12-01T10:00:00Z');
  assert.equal(instantText('1764583200120000000'), '2025-12-01T10:00:00.120Z');
  assert.equal(instantText('1764583200123456000'), '2025-12-01T10:00:00.123456Z');
  assert.equal(instantText('1764583200123456789'), '2025-12-01T10:00:00.123456789Z');
  assert.equal(instantText('-1500000000'), '1969-12-31T23:59:58.500Z');
  assert.equal(millisText(99.94), '99.9 ms');
  assert.equal(millisText(1234567.4), '1,234,567 ms');
  assert.equal(durationText(7250), '7.250');
  assert.equal(durationText(950000), '950.000');
});
