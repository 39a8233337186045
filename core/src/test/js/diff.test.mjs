import { test } from 'node:test';
import assert from 'node:assert/strict';
import { diffDeltas, diffShades } from '../../main/resources/dev/spanprofile/render/html/flamegraph/diff.mjs';
import { graphOf, nodeAt } from './fixtures.mjs';

// The baseline (typical) weights laid out on the slow side's graph, node by node, as the page data carries them.
function baselineOn(slow, typical) {
  const b = new Float64Array(slow.g.count);
  for (let i = 0; i < slow.g.count; i++) {
    const path = [];
    for (let p = i; p > 0; p = slow.g.parent[p]) {
      path.unshift(slow.names[slow.g.n[p]]);
    }
    const at = nodeAt(typical, typical.g, path);
    b[i] = at >= 0 ? typical.g.total[at] : 0;
  }
  return b;
}

test('per request: a slow side longer everywhere in the same proportions paints nothing "more"', () => {
  // 10 slow requests, each twice as long as one of 10 typical ones, spread alike.
  const slow = graphOf(['web;parse 40', 'web;query 120', 'web;render 40']);
  const typical = graphOf(['web;parse 20', 'web;query 60', 'web;render 20']);
  const sides = { slowSpans: 10, typicalSpans: 10 };
  const shades = diffShades(diffDeltas(slow.g, baselineOn(slow, typical), sides, 'request'));
  assert.deepEqual(Array.from(shades), new Array(slow.g.count).fill(0));
});

test('per request: where a slow request spends more is red, what it spends alike stays grey, not blue', () => {
  // Slow requests: the same parse and render, 90 more samples each in the query.
  const slow = graphOf(['web;parse 20', 'web;query 960', 'web;render 20']);
  const typical = graphOf(['web;parse 20', 'web;query 60', 'web;render 20']);
  const b = baselineOn(slow, typical);
  const sides = { slowSpans: 10, typicalSpans: 10 };
  const request = diffShades(diffDeltas(slow.g, b, sides, 'request'));
  assert.equal(request[nodeAt(slow, slow.g, ['web', 'query'])], 5);
  // The request's entry point is all of both sides (its share held): longer, but not where the time went.
  assert.equal(request[nodeAt(slow, slow.g, ['web'])], 0);
  assert.equal(request[nodeAt(slow, slow.g, ['web', 'parse'])], 0);
  assert.equal(request[nodeAt(slow, slow.g, ['web', 'render'])], 0);
  // As shares of each side's samples, parse and render shrank: blue.
  const share = diffDeltas(slow.g, b, sides, 'share');
  assert.ok(Math.abs(share[nodeAt(slow, slow.g, ['web', 'query'])] - (0.96 - 0.6)) < 1e-12);
  const shareShades = diffShades(share);
  assert.ok(shareShades[nodeAt(slow, slow.g, ['web', 'parse'])] < 0);
  assert.equal(shareShades[nodeAt(slow, slow.g, ['web', 'query'])], 5);
});

test('per request counts requests: a side with more requests but the same per request is grey', () => {
  // 30 slow requests against 10 typical: three times the samples, the same per request and the same shares.
  const slow = graphOf(['web;parse 60', 'web;query 90']);
  const typical = graphOf(['web;parse 20', 'web;query 30']);
  const deltas = diffDeltas(slow.g, baselineOn(slow, typical), { slowSpans: 30, typicalSpans: 10 }, 'request');
  assert.deepEqual(Array.from(deltas), new Array(slow.g.count).fill(0));
});

test('per request: less per request and a smaller share is blue, scaled to the largest difference', () => {
  const slow = graphOf(['web;cache 10', 'web;query 190']);
  const typical = graphOf(['web;cache 50', 'web;query 50']);
  const shades = diffShades(diffDeltas(slow.g, baselineOn(slow, typical), { slowSpans: 10, typicalSpans: 10 },
    'request'));
  // cache: 1 against 5 per request (−4); query: 19 against 5 (+14); web: +10 per request, but all of both sides.
  assert.equal(shades[nodeAt(slow, slow.g, ['web', 'query'])], 5);
  assert.equal(shades[nodeAt(slow, slow.g, ['web', 'cache'])], -1);
  assert.equal(shades[nodeAt(slow, slow.g, ['web'])], 0);
});
