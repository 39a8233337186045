import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findByKey, fragmentOf, functionOf, pathKey, readFragment } from '../../main/resources/dev/spanprofile/render/html/flamegraph/url-state.mjs';
import { breadcrumbNodes } from '../../main/resources/dev/spanprofile/render/html/flamegraph/breadcrumb.mjs';
import { describeFrame } from '../../main/resources/dev/spanprofile/render/html/flamegraph/describe.mjs';
import { compileSearch, matchNames, matchSummary } from '../../main/resources/dev/spanprofile/render/html/flamegraph/search.mjs';
import { sandwichState } from '../../main/resources/dev/spanprofile/render/html/flamegraph/inspect.mjs';
import { sandwichGraph, sandwichOf } from '../../main/resources/dev/spanprofile/render/html/flamegraph/sandwich.mjs';
import { graphOf, nodeAt } from './fixtures.mjs';

// The page's state outside the canvas: the URL fragment, the breadcrumb's path, the tooltip's text, the match line.

test('a zoom is kept by its path of names, so a newer profile with other node numbers finds the same frame', () => {
  const before = graphOf(['web;svc;Repo.find 4', 'web;other 3']);
  const after = graphOf(['gc 9', 'web;other 1', 'web;svc;Repo.find 2', 'web;svc;Repo.save 2']);
  const key = pathKey(before.g, before.names, nodeAt(before, before.g, ['web', 'svc', 'Repo.find']));
  const found = findByKey(after.g, after.names, key);
  assert.equal(found, nodeAt(after, after.g, ['web', 'svc', 'Repo.find']));
  assert.notEqual(found, nodeAt(before, before.g, ['web', 'svc', 'Repo.find']));
  assert.equal(findByKey(after.g, after.names, 'feedbeef'), 0);
});

test('the fragment leaves defaults out and reads back what it wrote', () => {
  assert.equal(fragmentOf({ view: 'top-down', normalisation: 'request', search: '', follow: false }), '');
  const text = fragmentOf({ view: 'sandwich', functionName: 'Repo.find', normalisation: 'share', zoomKey: 'ab12',
    search: 'Repo|jdbc', follow: true });
  const read = readFragment(text);
  assert.deepEqual(read, { view: 'sandwich', zoom: 'ab12', search: 'Repo|jdbc', follow: true,
    sandwich: read.sandwich, normalisation: 'share' });
  assert.equal(functionOf(['root', 'Repo.save', 'Repo.find'], read.sandwich), 2);
  assert.deepEqual(readFragment('view=nonsense&colour=odd'), { view: 'top-down', zoom: null, search: '',
    follow: false, sandwich: null, normalisation: 'request' });
});

test('a long zoom path shows the root, a gap and the last five', () => {
  assert.deepEqual(breadcrumbNodes([0, 4, 9]), [0, 4, 9]);
  assert.deepEqual(breadcrumbNodes([0, 1, 2, 3, 4, 5, 6]), [0, 1, 2, 3, 4, 5, 6]);
  assert.deepEqual(breadcrumbNodes([0, 1, 2, 3, 4, 5, 6, 7, 8]), [0, -1, 4, 5, 6, 7, 8]);
});

const f = graphOf(['web;svc;Repo.find 6', 'web;svc 2', 'web;other 2']);
const page = { names: f.names, samplesText: (w) => w + ' samples', spanOfNode: new Map([[1, 'abc123']]),
  diff: null, categoryLabel: (id) => (id === f.id('Repo.find') ? 'application' : 'framework or library') };

test('a frame is described by its category, its share of all and of the zoom, and its self time', () => {
  const svc = nodeAt(f, f.g, ['web', 'svc']);
  const text = describeFrame(page, { view: 'top-down', g: f.g, topDown: f.g, zoom: nodeAt(f, f.g, ['web']) }, svc);
  assert.equal(text.name, 'svc');
  assert.deepEqual(text.lines.map((line) => line[1]), ['framework or library',
    'Total: 8 samples · 80.0% of all · 80.0% of zoom', 'Self: 2 samples · 20.0%',
    'Right-click or S: its callers and callees (sandwich)']);
  const span = describeFrame(page, { view: 'top-down', g: f.g, topDown: f.g, zoom: 0 }, 1);
  assert.match(span.lines[0][1], /abc123 — double-click/);
});

test('a diff\'s frame is described per request on both sides and as shares', () => {
  const find = nodeAt(f, f.g, ['web', 'svc', 'Repo.find']);
  const baseline = new Float64Array(f.g.count);
  baseline[0] = 20;
  baseline[find] = 2;
  const diffPage = Object.assign({}, page, { diff: { slowSpans: 2, typicalSpans: 4 }, baseline });
  const lines = describeFrame(diffPage, { view: 'top-down', g: f.g, topDown: f.g, zoom: 0 }, find).lines;
  assert.deepEqual(lines.slice(3, 6).map((line) => line[1]), ['Slow: 6 samples in 2 spans · 3.00 per request',
    'Typical: 2 samples in 4 spans · 0.50 per request', 'Share of samples: slow 60.0% · typical 10.0%']);
});

test('in a sandwich, callers and callees are described against the function\'s total', () => {
  const s = graphOf(['web;ctl;Repo.find;jdbc 5', 'web;job;Repo.find 3']);
  const g = sandwichGraph(sandwichOf(s.g, s.id('Repo.find'), s.names));
  const sPage = Object.assign({}, page, { names: s.names, categoryLabel: () => 'application' });
  const view = { view: 'sandwich', g, topDown: s.g, zoom: 0, sandwich: s.id('Repo.find') };
  const state = sandwichState(g, s.names, { view: 'sandwich', sandwich: s.id('Repo.find') });
  assert.deepEqual(state.callers.map((c) => c.name + '=' + c.samples), ['ctl=5', 'job=3']);
  assert.deepEqual(state.callees.map((c) => c.name + '=' + c.samples), ['jdbc=5']);
  assert.equal(state.samples, 8);
  assert.equal(state.self, 3);
  assert.equal(describeFrame(sPage, view, state.callers[1].node).lines[1][1],
    'Calls Repo.find through this path: 3 samples · 37.5% of its total');
  assert.equal(describeFrame(sPage, view, state.callees[0].node).lines[1][1],
    'Called by Repo.find: 5 samples · 62.5% of its total');
  assert.equal(describeFrame(sPage, view, 0).lines[1][1], 'Total: 8 samples · 100.0% of all');
  assert.equal(sandwichState(g, s.names, { view: 'top-down' }), null);
});

test('the match line gives the share of the profile and of the zoom, the places, and which one is shown', () => {
  const matches = new Uint8Array(f.names.length);
  matchNames(f.names, compileSearch('repo|other').regex, matches);
  const places = [];
  const whole = matchSummary(f.g, { view: 'top-down', zoom: 0, matchIndex: 1 }, matches, places, f.names);
  assert.deepEqual(whole, { text: 'Matched: 80.0% of the profile · 2 places (2 of 2)', hit: true });
  assert.equal(places.length, 2);
  const svc = nodeAt(f, f.g, ['web', 'svc']);
  assert.equal(matchSummary(f.g, { view: 'bottom-up', zoom: svc, matchIndex: -1 }, matches, places, f.names).text,
    'Matched: 80.0% of samples · 75.0% of zoom · 2 places');
  matchNames(f.names, compileSearch('nothing').regex, matches);
  assert.deepEqual(matchSummary(f.g, { view: 'top-down', zoom: 0, matchIndex: -1 }, matches, places, f.names),
    { text: 'Matched: 0.0% of the profile · 0 places', hit: false });
});
