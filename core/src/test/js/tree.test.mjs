import { test } from 'node:test';
import assert from 'node:assert/strict';
import { firstAtOrAfter, functionTotals, makeBottomUp } from '../../main/resources/dev/spanprofile/render/html/flamegraph/tree.mjs';
import { graphOf, nodeAt } from './fixtures.mjs';

test('layout: children side by side inside their parent, self is what no child covers', () => {
  const f = graphOf(['a;b 3', 'a;c 2', 'a 1', 'd 4']);
  const g = f.g;
  const a = nodeAt(f, g, ['a']);
  const b = nodeAt(f, g, ['a', 'b']);
  const c = nodeAt(f, g, ['a', 'c']);
  const d = nodeAt(f, g, ['d']);
  assert.equal(g.total[0], 10);
  assert.deepEqual([g.x[a], g.total[a], g.self[a]], [0, 6, 1]);
  assert.deepEqual([g.x[b], g.x[c], g.x[d]], [0, 3, 6]);
  assert.equal(g.parent[c], a);
  assert.equal(g.size[a], 3);
  assert.equal(g.depthCount, 3);
  assert.deepEqual(Array.from(g.rows[1]), [a, d]);
  // Hit-testing in a row: the first node ending after x.
  assert.equal(firstAtOrAfter(g, g.rows[1], 5.5), 0);
  assert.equal(firstAtOrAfter(g, g.rows[1], 6), 1);
  assert.equal(firstAtOrAfter(g, g.rows[1], 10), 2);
});

test('bottom-up: each leaf function merged over its call paths, then its callers', () => {
  const f = graphOf(['a;x 3', 'b;x 2', 'b 5']);
  const up = makeBottomUp(f.g, f.names);
  assert.equal(up.total[0], 10);
  const x = nodeAt(f, up, ['x']);
  assert.equal(up.total[x], 5);
  assert.equal(up.total[nodeAt(f, up, ['x', 'a'])], 3);
  assert.equal(up.total[nodeAt(f, up, ['x', 'b'])], 2);
  assert.equal(up.total[nodeAt(f, up, ['b'])], 5);
  // Heaviest first: b (5, as a leaf) ties x (5), so by name.
  assert.deepEqual(Array.from(up.rows[1]).map((i) => f.names[up.n[i]]), ['b', 'x']);
});

test('function totals count a recursive function once per stack, self at every call', () => {
  const f = graphOf(['a;r;r;r 4', 'a;r 1', 'b;r 2']);
  const totals = functionTotals(f.g, f.names.length);
  assert.equal(totals.total[f.id('r')], 7);
  assert.equal(totals.self[f.id('r')], 7);
  assert.equal(totals.total[f.id('a')], 5);
  assert.equal(totals.self[f.id('a')], 0);
});

test('a 3,000-deep stack lays out without recursion', () => {
  const frames = [];
  for (let i = 0; i < 3000; i++) {
    frames.push('f' + (i % 7));
  }
  const f = graphOf([frames.join(';') + ' 2']);
  assert.equal(f.g.depthCount, 3001);
  assert.equal(functionTotals(f.g, f.names.length).total[f.id('f3')], 2);
});
