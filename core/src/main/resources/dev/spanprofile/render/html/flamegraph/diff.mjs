// Differential graphs: each frame's difference between the examined (slow) side and the compared (typical) side,
// as one of a few shades from blue (less) through grey to red (more), scaled to the largest difference anywhere.

export const DIFF_SHADES = 5;

export function perRequest(samples, spans) {
  return spans > 0 ? samples / spans : 0;
}

// Per node: samples per request on the slow side minus on the typical side.
export function diffDeltas(g, baseline, diff) {
  const deltas = new Float64Array(g.count);
  for (let i = 1; i < g.count; i++) {
    deltas[i] = perRequest(g.total[i], diff.slowSpans) - perRequest(baseline[i], diff.typicalSpans);
  }
  return deltas;
}

// Shades from -DIFF_SHADES (much less) to +DIFF_SHADES (much more), the largest difference getting the strongest.
export function diffShades(deltas) {
  let largest = 0;
  for (let i = 1; i < deltas.length; i++) {
    largest = Math.max(largest, Math.abs(deltas[i]));
  }
  const shades = new Int32Array(deltas.length);
  for (let j = 0; j < deltas.length; j++) {
    shades[j] = largest > 0 ? Math.round(DIFF_SHADES * deltas[j] / largest) : 0;
  }
  return shades;
}
