import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makePalette } from '../../main/resources/dev/spanprofile/render/html/flamegraph/palette.mjs';

// Categories as the page's data lists them: the palette must take each one's colour from its entry, whatever its
// position in the list and whatever its id.
const APPLICATION = { id: 'application', label: 'application',
  colour: { hue: 22, spread: 14, saturation: 86, lightness: 63 } };
const JDK = { id: 'jdk', label: 'JDK', colour: { hue: 197, spread: 16, saturation: 52, lightness: 66 } };
const OTHER = { id: 'other', label: 'synthetic', colour: { hue: 220, spread: 0, saturation: 8, lightness: 82 } };
const NAMES = ['root', 'com.acme.Checkout.run', 'java.util.HashMap.get', 'com.acme.Checkout.total'];

function hueOf(fill) {
  return Number(/^hsl\(([-\d.]+),/.exec(fill)[1]);
}

test('a reordered category list colours every name as its own category', () => {
  const listed = makePalette([APPLICATION, JDK, OTHER], [2, 0, 1, 0], NAMES);
  const reordered = makePalette([OTHER, JDK, APPLICATION], [0, 2, 1, 2], NAMES);
  for (let i = 0; i < NAMES.length; i++) {
    assert.equal(reordered.fills[reordered.colourOfName[i]], listed.fills[listed.colourOfName[i]], NAMES[i]);
  }
  assert.equal(reordered.swatch(2), listed.swatch(0));
  // Each name's shade sits within its family's spread around the family's hue.
  const hue = (palette, i) => hueOf(palette.fills[palette.colourOfName[i]]);
  assert.ok(Math.abs(hue(reordered, 1) - 22) <= 14 / 2, 'application: ' + hue(reordered, 1));
  assert.ok(Math.abs(hue(reordered, 2) - 197) <= 16 / 2, 'JDK: ' + hue(reordered, 2));
  assert.equal(hue(reordered, 0), 220);
  // One class, one shade: both methods of Checkout are drawn alike.
  assert.equal(reordered.colourOfName[1], reordered.colourOfName[3]);
});

test('a category the script has never heard of is drawn in the colour its entry gives', () => {
  const novel = { id: 'gpu', label: 'GPU kernels', colour: { hue: 140, spread: 0, saturation: 70, lightness: 50 } };
  const palette = makePalette([OTHER, novel], [0, 1], ['root', 'cuda.launch']);
  assert.equal(palette.fills[palette.colourOfName[1]].replace(/,\d+%\)$/, ')'), 'hsl(140,70%)');
  assert.notEqual(palette.fills[palette.colourOfName[1]], palette.fills[palette.colourOfName[0]]);
});

test('pale, unmatched and difference fills follow the category shades', () => {
  const palette = makePalette([APPLICATION, JDK, OTHER], [2, 0, 1], NAMES.slice(0, 3));
  assert.equal(palette.paleOffset, 3 * 4);
  assert.equal(palette.noMatch, 2 * 3 * 4);
  assert.equal(palette.fills[palette.noMatch], '#e7e9ed');
  assert.equal(hueOf(palette.fills[palette.paleOffset + palette.colourOfName[1]]),
    hueOf(palette.fills[palette.colourOfName[1]]));
  assert.match(palette.fills[palette.diffFill(3)], /^hsl\(2,/);
  assert.match(palette.fills[palette.diffFill(-3)], /^hsl\(216,/);
});
