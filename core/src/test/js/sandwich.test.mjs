import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sandwichGraph, sandwichOf } from '../../main/resources/dev/spanprofile/render/html/flamegraph/sandwich.mjs';
import { functionTotals, makeGraph } from '../../main/resources/dev/spanprofile/render/html/flamegraph/tree.mjs';
import { graphOf, nodeAt } from './fixtures.mjs';

function tree(f, half) {
  return makeGraph(half.n, half.d, half.v);
}

test('callers and callees merge every call of the function; both are rooted at its total', () => {
  const f = graphOf(['web;ctl;svc;Repo.find;jdbc 5', 'web;ctl;svc;Repo.find 1', 'web;job;Repo.find;jdbc 3',
    'web;job;Repo.find;cache 2', 'web;ctl;other 4']);
  const s = sandwichOf(f.g, f.id('Repo.find'), f.names);
  assert.equal(s.total, 11);
  assert.equal(s.total, functionTotals(f.g, f.names.length).total[f.id('Repo.find')]);
  const callers = tree(f, s.callers);
  const callees = tree(f, s.callees);
  assert.equal(callers.total[0], 11);
  assert.equal(callees.total[0], 11);
  // Direct callers: svc 6, job 5; then their callers up to the root.
  assert.equal(callers.total[nodeAt(f, callers, ['svc'])], 6);
  assert.equal(callers.total[nodeAt(f, callers, ['job'])], 5);
  assert.equal(callers.total[nodeAt(f, callers, ['svc', 'ctl', 'web', 'root'])], 6);
  // Callees merged over both call sites: jdbc 5 + 3, cache 2; the function's own 1 is its self.
  assert.equal(callees.total[nodeAt(f, callees, ['jdbc'])], 8);
  assert.equal(callees.total[nodeAt(f, callees, ['cache'])], 2);
  assert.equal(callees.self[0], 1);
});

test('the totals add up: each caller level and each node\'s callees sum to no more than it', () => {
  const f = graphOf(['a;b;x;y 4', 'a;x;y;z 3', 'c;x 2', 'c;d;x;z 6']);
  const s = sandwichOf(f.g, f.id('x'), f.names);
  for (const half of [tree(f, s.callers), tree(f, s.callees)]) {
    const children = new Float64Array(half.count);
    for (let i = 1; i < half.count; i++) {
      children[half.parent[i]] += half.total[i];
    }
    for (let i = 0; i < half.count; i++) {
      assert.ok(children[i] <= half.total[i], 'children of node ' + i + ' exceed it');
    }
  }
  // Every caller path ends at the root, so the callers' leaves (all the root) add up to the total.
  const callers = tree(f, s.callers);
  let leaves = 0;
  for (let i = 0; i < callers.count; i++) {
    if (callers.self[i] > 0) {
      assert.equal(f.names[callers.n[i]], 'root');
      leaves += callers.self[i];
    }
  }
  assert.equal(leaves, 15);
});

test('recursion is counted once: the outermost call, its recursive calls among its callees', () => {
  const f = graphOf(['main;walk;walk;walk;leaf 6', 'main;walk;leaf 2', 'main;other;walk 1']);
  const s = sandwichOf(f.g, f.id('walk'), f.names);
  assert.equal(s.total, 9);
  const callers = tree(f, s.callers);
  const callees = tree(f, s.callees);
  assert.equal(callers.total[0], 9);
  assert.equal(nodeAt(f, callers, ['walk']), -1);
  assert.equal(callers.total[nodeAt(f, callers, ['main'])], 8);
  assert.equal(callers.total[nodeAt(f, callers, ['other', 'main'])], 1);
  assert.equal(callees.total[nodeAt(f, callees, ['walk'])], 6);
  assert.equal(callees.total[nodeAt(f, callees, ['leaf'])], 2);
  assert.equal(callees.total[nodeAt(f, callees, ['walk', 'walk', 'leaf'])], 6);
});

test('drawn as one graph: callers upside down above the function\'s row, callees below, rows in x order', () => {
  const f = graphOf(['web;ctl;find;jdbc 5', 'web;job;find 3']);
  const g = sandwichGraph(sandwichOf(f.g, f.id('find'), f.names));
  // Callers: ctl/job, web, root above; callees: jdbc below.
  assert.equal(g.d[0], 3);
  assert.equal(g.depthCount, 5);
  assert.deepEqual(Array.from(g.rows[3]), [0]);
  assert.deepEqual(Array.from(g.rows[2]).map((i) => f.names[g.n[i]]), ['ctl', 'job']);
  // Callers are paths, not merged by name across them: each caller's own callers above it.
  assert.deepEqual(Array.from(g.rows[1]).map((i) => f.names[g.n[i]] + ' ' + g.total[i]), ['web 5', 'web 3']);
  assert.deepEqual(Array.from(g.rows[0]).map((i) => f.names[g.n[i]]), ['root', 'root']);
  assert.deepEqual(Array.from(g.rows[4]).map((i) => [f.names[g.n[i]], g.total[i], g.part[i]]), [['jdbc', 5, 1]]);
  for (const row of g.rows) {
    for (let k = 1; k < row.length; k++) {
      assert.ok(g.x[row[k - 1]] + g.total[row[k - 1]] <= g.x[row[k]]);
    }
  }
  assert.equal(g.total[0], 8);
  assert.equal(g.self[0], 3);
});
