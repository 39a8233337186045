import { DIFF_SHADES } from './diff.mjs';
import { className, hashString } from './names.mjs';

// Colours: a family per frame category, as the page's data gives it (frameCategories: each category's hue, spread,
// saturation and lightness, at the index names' categories refer to), and a few shades per family picked by a hash
// of the class name, so a function keeps its colour on every page. No category is known here by name or position.

export const SHADES = 4;

// fills: every colour the graph is drawn with, by index: the shades of each category, the same paler (zoom
// ancestors), the colour of frames a search does not match, then the difference shades.
export function makePalette(frameCategories, categories, names) {
  const colours = [];
  const paleColours = [];
  frameCategories.forEach(({ colour }) => {
    for (let shade = 0; shade < SHADES; shade++) {
      const hue = colour.hue + (shade - 1.5) * colour.spread / SHADES;
      const light = colour.lightness + (shade % 2) * 4 - 2;
      colours.push('hsl(' + hue + ',' + colour.saturation + '%,' + light + '%)');
      paleColours.push('hsl(' + hue + ',' + Math.round(colour.saturation * 0.45) + '%,' + Math.min(94, light + 20)
        + '%)');
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
