// The points as pixels of their own layer, each dot blended into what is under it. Drawing 50,000 dots through the
// canvas's own calls takes a software-rendered page seconds; writing their pixels takes milliseconds. Spans filtered
// out of the list stay as faint dots, so the picture keeps its shape.

export const COLOURS = { ok: '#3a78c9', error: '#d93025', running: '#e07b00' };
const FAINT = '#b9c0cc';

export function rgb(hex) {
  return [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16));
}

// How much of each pixel of a dot's square a disc of radius 3 (CSS pixels) covers, three quarters opaque.
export function dotMask(size, ratio) {
  const mask = new Float32Array(size * size);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const distance = Math.hypot((x + 0.5) / ratio - 4, (y + 0.5) / ratio - 4);
      mask[y * size + x] = 0.75 * Math.max(0, Math.min(1, (3 - distance) * ratio + 0.5));
    }
  }
  return mask;
}

// Paints the points (x, y in CSS pixels) into image ({ data, width, height }, RGBA as ImageData has it): shown ones
// by kind, errors over running over ok, hidden ones as 2-px faint squares.
export function paintDots(image, points, ratio) {
  const { data: pixels, width, height } = image;
  function blend(left, top, extent, alphas, colour) {
    for (let dy = 0; dy < extent; dy++) {
      const y = top + dy;
      if (y < 0 || y >= height) {
        continue;
      }
      for (let dx = 0; dx < extent; dx++) {
        const x = left + dx;
        const alpha = alphas ? alphas[dy * extent + dx] : 1;
        if (alpha === 0 || x < 0 || x >= width) {
          continue;
        }
        const at = (y * width + x) * 4;
        const under = pixels[at + 3] / 255 * (1 - alpha);
        const total = alpha + under;
        pixels[at] = (colour[0] * alpha + pixels[at] * under) / total;
        pixels[at + 1] = (colour[1] * alpha + pixels[at + 1] * under) / total;
        pixels[at + 2] = (colour[2] * alpha + pixels[at + 2] * under) / total;
        pixels[at + 3] = total * 255;
      }
    }
  }
  const size = Math.ceil(8 * ratio);
  const mask = dotMask(size, ratio);
  for (const kind of ['ok', 'running', 'error']) {
    const colour = rgb(COLOURS[kind]);
    for (const p of points) {
      if (p.kind === kind && !p.hidden) {
        blend(Math.round((p.x - 4) * ratio), Math.round((p.y - 4) * ratio), size, mask, colour);
      }
    }
  }
  const faint = rgb(FAINT);
  const faintSize = Math.max(1, Math.round(2 * ratio));
  for (const p of points) {
    if (p.hidden) {
      blend(Math.round((p.x - 1) * ratio), Math.round((p.y - 1) * ratio), faintSize, null, faint);
    }
  }
  return image;
}
