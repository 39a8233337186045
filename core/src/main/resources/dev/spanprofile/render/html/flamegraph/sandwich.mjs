import { makeGraph, preOrder, treeBuilder } from './tree.mjs';

// A function's sandwich: every call of it merged, its callers above (the function at the bottom, who called it
// over it, up to the root) and its callees below. Only the outermost call on a stack is taken, so a recursive
// function's weight is counted once: both halves are rooted at the function's total over all call sites.

// The sandwich of name id `name` in top-down graph g, as two trees in makeGraph's form: callers (inverted: node 0
// the function, its children the direct callers) and callees (node 0 the function, its children what it called).
export function sandwichOf(g, name, names) {
  const callers = treeBuilder(name, names.length);
  const callees = treeBuilder(name, names.length);
  const mapped = new Int32Array(g.count);
  for (let i = 1; i < g.count; i++) {
    if (g.n[i] !== name || hasAncestorNamed(g, i, name)) {
      continue;
    }
    const weight = g.total[i];
    callers.v[0] += weight;
    let at = 0;
    for (let p = g.parent[i]; p >= 0; p = g.parent[p]) {
      at = callers.child(at, g.n[p]);
      callers.v[at] += weight;
    }
    // The subtree is contiguous in pre-order: map each node under the merged node of its parent.
    callees.v[0] += weight;
    mapped[i] = 0;
    const end = i + g.size[i];
    for (let j = i + 1; j < end; j++) {
      mapped[j] = callees.child(mapped[g.parent[j]], g.n[j]);
      callees.v[mapped[j]] += g.total[j];
    }
    i = end - 1;
  }
  return { total: callers.v[0], callers: preOrder(callers.n, callers.v, callers.p, names),
    callees: preOrder(callees.n, callees.v, callees.p, names) };
}

function hasAncestorNamed(g, node, name) {
  for (let p = g.parent[node]; p >= 0; p = g.parent[p]) {
    if (g.n[p] === name) {
      return true;
    }
  }
  return false;
}

// Both halves as one graph to draw: callers' rows upside down above the function's row, callees' below it, all
// laid out over the function's total. Node 0 is the function; `part` says which half a node is in (0 for the
// function, -1 callers, 1 callees) and `d` is the row it is drawn in.
export function sandwichGraph(sandwich) {
  const up = makeGraph(sandwich.callers.n, sandwich.callers.d, sandwich.callers.v);
  const down = makeGraph(sandwich.callees.n, sandwich.callees.d, sandwich.callees.v);
  const middle = up.depthCount - 1;
  const count = up.count + down.count - 1;
  const n = new Int32Array(count);
  const d = new Int32Array(count);
  const total = new Float64Array(count);
  const x = new Float64Array(count);
  const self = new Float64Array(count);
  const part = new Int8Array(count);
  const parent = new Int32Array(count).fill(-1);
  const rowLists = [];
  for (let r = 0; r < middle + down.depthCount; r++) {
    rowLists.push([]);
  }
  n[0] = up.n[0];
  d[0] = middle;
  total[0] = up.total[0];
  self[0] = down.self[0];
  rowLists[middle].push(0);
  for (let i = 1; i < up.count; i++) {
    n[i] = up.n[i];
    d[i] = middle - up.d[i];
    total[i] = up.total[i];
    x[i] = up.x[i];
    part[i] = -1;
    parent[i] = up.parent[i];
    rowLists[d[i]].push(i);
  }
  const offset = up.count - 1;
  for (let j = 1; j < down.count; j++) {
    const k = offset + j;
    n[k] = down.n[j];
    d[k] = middle + down.d[j];
    total[k] = down.total[j];
    x[k] = down.x[j];
    self[k] = down.self[j];
    part[k] = 1;
    parent[k] = down.parent[j] === 0 ? 0 : offset + down.parent[j];
    rowLists[d[k]].push(k);
  }
  const rows = rowLists.map((list) => Int32Array.from(list));
  return { count, n, d, total, x, self, part, parent, rows, depthCount: rowLists.length, size: null,
    callers: up, callees: down, calleesOffset: offset };
}
