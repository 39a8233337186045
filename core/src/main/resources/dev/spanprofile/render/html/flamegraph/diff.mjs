// Differential graphs: each frame's difference between the examined (slow) side and the compared (typical) side,
// as one of a few shades from blue (less) through grey to red (more), scaled to the largest difference anywhere.
//
// Two normalisations. Per request: a frame's weight per request on each side; what a slow request spends more
// time in. Share of samples: a frame's part of each side's whole; what takes a larger part of the slow side. Per
// request alone paints every frame "more" when the slow side is simply longer everywhere (a frame keeping its
// share grows with the whole), so a frame is coloured per request only where its share moved the same way; a
// frame whose share held stays grey.

export const DIFF_SHADES = 5;

export const NORMALISATIONS = {
  request: 'per request',
  share: 'share of samples'
};

// Differences of shares below this are rounding, not a change.
const SHARE_EPSILON = 1e-9;

export function perRequest(samples, spans) {
  return spans > 0 ? samples / spans : 0;
}

export function share(samples, whole) {
  return whole > 0 ? samples / whole : 0;
}

// Per node: the difference under a normalisation ('request' or 'share'). `baseline` is the compared side's
// weight per node, node 0 holding each side's whole; `diff` has the two sides' request counts.
export function diffDeltas(g, baseline, diff, normalisation) {
  const deltas = new Float64Array(g.count);
  const slowWhole = g.total[0];
  const typicalWhole = baseline[0];
  for (let i = 1; i < g.count; i++) {
    const shareDelta = share(g.total[i], slowWhole) - share(baseline[i], typicalWhole);
    if (normalisation === 'share') {
      deltas[i] = shareDelta;
      continue;
    }
    const requestDelta = perRequest(g.total[i], diff.slowSpans) - perRequest(baseline[i], diff.typicalSpans);
    const agree = (requestDelta > 0 && shareDelta > SHARE_EPSILON) || (requestDelta < 0 && shareDelta < -SHARE_EPSILON);
    deltas[i] = agree ? requestDelta : 0;
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
