// The call tree as flat arrays. Nodes arrive depth-first (pre-order) with their depth and weight; positions,
// parents, self weight, subtree sizes and per-depth rows are derived once, and every walk is iterative, so a
// 2,000-deep stack cannot overflow the script's stack.

export function makeGraph(n, d, v) {
  const count = n.length;
  const parent = new Int32Array(count);
  const x = new Float64Array(count);
  const total = Float64Array.from(v);
  const self = new Float64Array(count);
  const size = new Int32Array(count);
  const stack = [];
  const cursor = [];
  const rowCounts = [];
  let depthCount = 0;
  for (let i = 0; i < count; i++) {
    const depth = d[i];
    if (depth === 0) {
      parent[i] = -1;
      x[i] = 0;
    } else {
      const p = stack[depth - 1];
      parent[i] = p;
      x[i] = cursor[depth - 1];
      cursor[depth - 1] += total[i];
      self[p] -= total[i];
    }
    self[i] += total[i];
    stack[depth] = i;
    cursor[depth] = x[i];
    if (depth + 1 > depthCount) {
      depthCount = depth + 1;
    }
    rowCounts[depth] = (rowCounts[depth] || 0) + 1;
    size[i] = 1;
  }
  for (let j = count - 1; j > 0; j--) {
    size[parent[j]] += size[j];
  }
  const rows = [];
  const fill = [];
  for (let r = 0; r < depthCount; r++) {
    rows.push(new Int32Array(rowCounts[r] || 0));
    fill.push(0);
  }
  for (let k = 0; k < count; k++) {
    rows[d[k]][fill[d[k]]++] = k;
  }
  return { count, n: Int32Array.from(n), d: Int32Array.from(d), total, x, self, parent, size, rows, depthCount };
}

// A tree given as parallel arrays (name, weight, parent; node 0 the root, parents before children) in the
// pre-order makeGraph reads, children heaviest first (ties by name, so the order is stable).
export function preOrder(nameIds, weights, parents, names) {
  const children = new Array(nameIds.length);
  for (let c = 1; c < nameIds.length; c++) {
    (children[parents[c]] || (children[parents[c]] = [])).push(c);
  }
  const n = [];
  const d = [];
  const v = [];
  const stack = [0];
  const depths = [0];
  const order = heaviestFirst(weights, nameIds, names);
  while (stack.length) {
    const idx = stack.pop();
    const depth = depths.pop();
    n.push(nameIds[idx]);
    d.push(depth);
    v.push(weights[idx]);
    const kids = children[idx];
    if (kids) {
      kids.sort(order);
      for (let k = kids.length - 1; k >= 0; k--) {
        stack.push(kids[k]);
        depths.push(depth + 1);
      }
    }
  }
  return { n, d, v };
}

function heaviestFirst(totals, nameIds, names) {
  return (a, b) => (totals[b] - totals[a]) || (names[nameIds[a]] < names[nameIds[b]] ? -1 : 1);
}

// Merges paths into a tree: add(at, name) finds or makes the child of node `at` with that name.
export function treeBuilder(rootName, nameCount) {
  const n = [rootName];
  const v = [0];
  const p = [-1];
  const index = new Map();
  return {
    n, v, p,
    child(at, name) {
      const key = at * nameCount + name;
      let id = index.get(key);
      if (id === undefined) {
        id = n.length;
        n.push(name);
        v.push(0);
        p.push(at);
        index.set(key, id);
      }
      return id;
    }
  };
}

// The inverted tree: each function where samples ended, then its callers, merged over all call paths.
export function makeBottomUp(g, names) {
  const tree = treeBuilder(g.n[0], names.length);
  tree.v[0] = g.total[0];
  for (let i = 1; i < g.count; i++) {
    const s = g.self[i];
    if (s <= 0) {
      continue;
    }
    let at = 0;
    for (let node = i; node > 0; node = g.parent[node]) {
      at = tree.child(at, g.n[node]);
      tree.v[at] += s;
    }
  }
  const order = preOrder(tree.n, tree.v, tree.p, names);
  return makeGraph(order.n, order.d, order.v);
}

export function ancestorsOf(g, node) {
  const path = [];
  for (let i = node; i >= 0; i = g.parent[i]) {
    path.push(i);
  }
  return path.reverse();
}

// First node of a row (sorted by position) that ends after x.
export function firstAtOrAfter(g, nodes, x) {
  let lo = 0;
  let hi = nodes.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const node = nodes[mid];
    if (g.x[node] + g.total[node] <= x) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

// Self and total per function over all its call sites; total counts a recursive function once per stack.
export function functionTotals(g, nameCount) {
  const self = new Float64Array(nameCount);
  const total = new Float64Array(nameCount);
  const onStack = new Int32Array(nameCount);
  const path = [];
  for (let i = 1; i < g.count; i++) {
    const depth = g.d[i];
    while (path.length && g.d[path[path.length - 1]] >= depth) {
      onStack[g.n[path.pop()]]--;
    }
    const name = g.n[i];
    if (onStack[name] === 0) {
      total[name] += g.total[i];
    }
    onStack[name]++;
    path.push(i);
    self[name] += g.self[i];
  }
  return { self, total };
}
