import { test } from 'node:test';
import assert from 'node:assert/strict';
import { drawn, frameToward, keyAction } from '../../main/resources/dev/spanprofile/render/html/flamegraph/keyboard.mjs';
import { sandwichGraph, sandwichOf } from '../../main/resources/dev/spanprofile/render/html/flamegraph/sandwich.mjs';
import { ancestorsOf } from '../../main/resources/dev/spanprofile/render/html/flamegraph/tree.mjs';
import { graphOf, nodeAt } from './fixtures.mjs';

const key = (k, modifiers = {}) => Object.assign({ key: k, ctrlKey: false, metaKey: false, altKey: false,
  shiftKey: false }, modifiers);

test('arrows and Enter belong to the graph only while it has the focus', () => {
  assert.equal(keyAction(key('ArrowDown'), 'graph'), 'down');
  assert.equal(keyAction(key('ArrowLeft'), 'graph'), 'left');
  assert.equal(keyAction(key('Enter'), 'graph'), 'open');
  assert.equal(keyAction(key('ArrowDown'), 'page'), null);
  assert.equal(keyAction(key('Enter'), 'page'), null);
  assert.equal(keyAction(key('ArrowDown'), 'search'), null);
});

test('the search shortcuts keep working from the graph, the page and the search field', () => {
  for (const where of ['graph', 'page']) {
    assert.equal(keyAction(key('/'), where), 'focus-search');
    assert.equal(keyAction(key('Escape'), where), 'escape');
    assert.equal(keyAction(key('n'), where), 'next-match');
    assert.equal(keyAction(key('N', { shiftKey: true }), where), 'previous-match');
    assert.equal(keyAction(key('0'), where), 'reset');
    assert.equal(keyAction(key('i'), where), 'invert');
    assert.equal(keyAction(key('s'), where), 'sandwich');
  }
  assert.equal(keyAction(key('f', { ctrlKey: true }), 'search'), 'focus-search');
  assert.equal(keyAction(key('F', { metaKey: true }), 'graph'), 'focus-search');
  assert.equal(keyAction(key('Enter'), 'search'), 'next-match');
  assert.equal(keyAction(key('Enter', { shiftKey: true }), 'search'), 'previous-match');
  assert.equal(keyAction(key('Escape'), 'search'), 'escape');
  // Typing is typing; the browser keeps its own shortcuts.
  assert.equal(keyAction(key('/'), 'search'), null);
  assert.equal(keyAction(key('n'), 'search'), null);
  assert.equal(keyAction(key('r', { ctrlKey: true }), 'graph'), null);
  assert.equal(keyAction(key('ArrowLeft', { altKey: true }), 'graph'), null);
});

// root 10: a 7 (a1 4, a2 3), b 2 (b1 2), c 1
const f = graphOf(['a;a1 4', 'a;a2 3', 'b;b1 2', 'c 1']);
const whole = { zoom: 0, ancestors: [0], flat: false };
const at = (...path) => nodeAt(f, f.g, path);

test('down goes to the leftmost (heaviest) callee, up to the caller, left and right along the row', () => {
  assert.equal(frameToward(f.g, whole, 0, 'down', 0), at('a'));
  assert.equal(frameToward(f.g, whole, at('a'), 'down', 0), at('a', 'a1'));
  assert.equal(frameToward(f.g, whole, at('a', 'a2'), 'up', 0), at('a'));
  assert.equal(frameToward(f.g, whole, at('a'), 'right', 0), at('b'));
  assert.equal(frameToward(f.g, whole, at('b'), 'right', 0), at('c'));
  assert.equal(frameToward(f.g, whole, at('c'), 'left', 0), at('b'));
  // Across parents: a2's right-hand neighbour in its row is b1.
  assert.equal(frameToward(f.g, whole, at('a', 'a2'), 'right', 0), at('b', 'b1'));
  // Edges: nothing beyond the row's ends, above the root or below a leaf.
  assert.equal(frameToward(f.g, whole, at('c'), 'right', 0), -1);
  assert.equal(frameToward(f.g, whole, at('a'), 'left', 0), -1);
  assert.equal(frameToward(f.g, whole, 0, 'up', 0), -1);
  assert.equal(frameToward(f.g, whole, at('c'), 'down', 0), -1);
});

test('frames too thin to draw are skipped', () => {
  assert.equal(frameToward(f.g, whole, at('b'), 'right', 1.5), -1);
  assert.equal(frameToward(f.g, whole, at('a'), 'right', 1.5), at('b'));
  assert.equal(frameToward(f.g, whole, at('a', 'a1'), 'right', 3.5), -1);
  assert.equal(frameToward(f.g, whole, at('a'), 'down', 3.5), at('a', 'a1'));
});

test('zoomed in, the selection stays inside the zoom and on the ancestors drawn above it', () => {
  const zoom = at('a', 'a2');
  const view = { zoom, ancestors: ancestorsOf(f.g, zoom), flat: false };
  assert.equal(drawn(f.g, view, at('a', 'a1'), 0), false);
  assert.equal(drawn(f.g, view, at('a'), 0), true);
  assert.equal(frameToward(f.g, view, zoom, 'left', 0), -1);
  assert.equal(frameToward(f.g, view, zoom, 'right', 0), -1);
  assert.equal(frameToward(f.g, view, zoom, 'up', 0), at('a'));
  assert.equal(frameToward(f.g, view, at('a'), 'up', 0), 0);
  // Back down through the ancestors to the zoom, never to a frame outside it.
  assert.equal(frameToward(f.g, view, 0, 'down', 0), at('a'));
  assert.equal(frameToward(f.g, view, at('a'), 'down', 0), zoom);
  assert.equal(frameToward(f.g, view, at('a'), 'right', 0), -1);
});

test('in a sandwich, up walks into the callers above the function and down into its callees', () => {
  const s = graphOf(['web;ctl;Repo.find;jdbc 5', 'web;job;Repo.find;cache 2']);
  const g = sandwichGraph(sandwichOf(s.g, s.id('Repo.find'), s.names));
  const flat = { zoom: 0, ancestors: [0], flat: true };
  const name = (node) => s.names[g.n[node]];
  const caller = frameToward(g, flat, 0, 'up', 0);
  assert.equal(name(caller), 'ctl');
  assert.equal(name(frameToward(g, flat, caller, 'right', 0)), 'job');
  assert.equal(name(frameToward(g, flat, caller, 'up', 0)), 'web');
  assert.equal(frameToward(g, flat, caller, 'down', 0), 0);
  const callee = frameToward(g, flat, 0, 'down', 0);
  assert.equal(name(callee), 'jdbc');
  assert.equal(name(frameToward(g, flat, callee, 'right', 0)), 'cache');
  assert.equal(frameToward(g, flat, callee, 'up', 0), 0);
});
