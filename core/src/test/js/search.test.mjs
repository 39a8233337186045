import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileSearch, matchNames, matchedSamples } from '../../main/resources/dev/spanprofile/render/html/flamegraph/search.mjs';
import { exactPattern, shortName } from '../../main/resources/dev/spanprofile/render/html/flamegraph/names.mjs';
import { graphOf, nodeAt } from './fixtures.mjs';

test('a regular expression matches names case-insensitively; an invalid one is searched as typed', () => {
  assert.equal(compileSearch('repo|hikari').regex.test('com.acme.OrderRepository.find'), true);
  const broken = compileSearch('find(');
  assert.equal(broken.literal, true);
  assert.equal(broken.regex.test('Repository.find(long)'), true);
  assert.equal(compileSearch('').regex, null);
});

test('matched samples count each sample once, however many matching frames its stack has', () => {
  const f = graphOf(['web;Repo.find;Repo.load 4', 'web;Repo.find 1', 'web;cache 3', 'gc 2']);
  const matches = new Uint8Array(f.names.length);
  assert.equal(matchNames(f.names, compileSearch('repo').regex, matches), 2);
  const outermost = [];
  assert.equal(matchedSamples(f.g, matches, 0, outermost), 5);
  assert.deepEqual(outermost, [nodeAt(f, f.g, ['web', 'Repo.find'])]);
  // Zoomed into a matching frame's subtree: all of it matches.
  assert.equal(matchedSamples(f.g, matches, nodeAt(f, f.g, ['web', 'Repo.find', 'Repo.load']), null), 4);
  assert.equal(matchedSamples(f.g, matches, nodeAt(f, f.g, ['gc']), null), 0);
});

test('the exact pattern of a name with regex characters matches that name only', () => {
  const name = 'com.acme.Pay$$Lambda.get(java.lang.Object)';
  const regex = compileSearch(exactPattern(name)).regex;
  assert.equal(regex.test(name), true);
  assert.equal(regex.test(name + 'x'), false);
  assert.equal(shortName(name), 'Pay$$Lambda.get(java.lang.Object)');
});
