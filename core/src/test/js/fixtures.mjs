// Builds the page's graph arrays from collapsed stacks ("a;b;c 5"), independently of the modules under test:
// nested objects, then a pre-order walk with children in first-seen order.
import { makeGraph } from '../../main/resources/dev/spanprofile/render/html/flamegraph/tree.mjs';

export function graphOf(stacks, extraNames = []) {
  const names = ['root'];
  const ids = new Map([['root', 0]]);
  const id = (name) => {
    if (!ids.has(name)) {
      ids.set(name, names.length);
      names.push(name);
    }
    return ids.get(name);
  };
  extraNames.forEach(id);
  const root = { name: 0, weight: 0, children: new Map() };
  for (const line of stacks) {
    const space = line.lastIndexOf(' ');
    const weight = Number(line.slice(space + 1));
    let node = root;
    root.weight += weight;
    for (const frame of line.slice(0, space).split(';')) {
      const nameId = id(frame);
      if (!node.children.has(nameId)) {
        node.children.set(nameId, { name: nameId, weight: 0, children: new Map() });
      }
      node = node.children.get(nameId);
      node.weight += weight;
    }
  }
  const n = [];
  const d = [];
  const v = [];
  const stack = [[root, 0]];
  while (stack.length) {
    const [node, depth] = stack.pop();
    n.push(node.name);
    d.push(depth);
    v.push(node.weight);
    [...node.children.values()].reverse().forEach((child) => stack.push([child, depth + 1]));
  }
  return { names, id: (name) => ids.get(name), g: makeGraph(n, d, v), n, d, v };
}

// The first node of graph g named `name` along the path of names root-first (root excluded).
export function nodeAt(fixture, g, path) {
  let at = 0;
  for (const name of path) {
    let found = -1;
    for (let i = 0; i < g.count && found < 0; i++) {
      if (g.parent[i] === at && g.n[i] === fixture.id(name)) {
        found = i;
      }
    }
    if (found < 0) {
      return -1;
    }
    at = found;
  }
  return at;
}
