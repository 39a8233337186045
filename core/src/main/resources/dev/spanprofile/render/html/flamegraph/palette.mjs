import { DIFF_SHADES } from './diff.mjs';
import { className, hashString } from './names.mjs';

// Colours: a family per frame category (the page data names the categories; only their colours live here), a few
// shades per family picked by a hash of the class name, so a function keeps its colour on every page.

export const SHADES = 4;
// Per category: base hue, hue spread between shades, saturation, lightness.
const FAMILY_OF = { application: [22, 14, 86, 63], framework: [108, 26, 42, 62], jdk: [197, 16, 52, 66],
  native: [5, 8, 50, 64], kernel: [33, 8, 54, 64], wait: [328, 10, 58, 70], span: [268, 12, 52, 76],
  other: [220, 0, 8, 82] };

// fills: every colour the graph is drawn with, by index: the shades of each category, the same paler (zoom
// ancestors), the colour of frames a search does not match, then the difference shades.
export function makePalette(categoryIds, categories, names) {
  const colours = [];
  const paleColours = [];
  categoryIds.map((id) => FAMILY_OF[id] || FAMILY_OF.other).forEach((family) => {
    for (let shade = 0; shade < SHADES; shade++) {
      const hue = family[0] + (shade - 1.5) * family[1] / SHADES;
      const light = family[3] + (shade % 2) * 4 - 2;
      colours.push('hsl(' + hue + ',' + family[2] + '%,' + light + '%)');
      paleColours.push('hsl(' + hue + ',' + Math.round(family[2] * 0.45) + '%,' + Math.min(94, light + 20) + '%)');
    }
  });
  const paleOffset = colours.length;
  const noMatch = colours.length * 2;
  const fills = colours.concat(paleColours, ['#e7e9ed']);
  // Differential graphs: blue (less on the slow side) through grey to red (more).
  const diffOffset = fills.length;
  for (let ds = -DIFF_SHADES; ds <= DIFF_SHADES; ds++) {
    const strength = Math.abs(ds) / DIFF_SHADES;
    fills.push(ds === 0 ? 'hsl(220,6%,84%)' : 'hsl(' + (ds > 0 ? 2 : 216) + ',' + Math.round(40 + 45 * strength) + '%,'
      + Math.round(86 - 30 * strength) + '%)');
  }
  const colourOfName = new Int32Array(names.length);
  for (let i = 0; i < names.length; i++) {
    colourOfName[i] = categories[i] * SHADES + (hashString(className(names[i])) % SHADES);
  }
  return {
    fills, colourOfName, paleOffset, noMatch,
    // The fill of a difference shade (-DIFF_SHADES..DIFF_SHADES).
    diffFill: (shade) => diffOffset + DIFF_SHADES + shade,
    swatch: (category) => colours[category * SHADES + 1]
  };
}
