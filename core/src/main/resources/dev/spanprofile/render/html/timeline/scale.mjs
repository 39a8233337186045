// Milliseconds since the request's start to pixels across the canvas and back, clamped to the request.

export const PAD = 6;

export function timeScale(durationMillis, width) {
  const duration = Math.max(durationMillis, 0.001);
  return {
    duration,
    x(millis) {
      const clamped = Math.min(duration, Math.max(0, millis));
      return PAD + clamped / duration * (width - 2 * PAD);
    },
    millisAt(px) {
      return Math.min(duration, Math.max(0, (px - PAD) / (width - 2 * PAD) * duration));
    }
  };
}

// A step of 1, 2 or 5 times a power of ten that leaves at least 70 px between labels.
export function axisStep(duration, width) {
  const rough = duration / Math.max(1, (width - 2 * PAD) / 70);
  const power = Math.pow(10, Math.floor(Math.log10(rough)));
  for (const step of [1, 2, 5, 10]) {
    if (step * power >= rough) {
      return step * power;
    }
  }
  return 10 * power;
}

// The times the axis labels, from 0 to the request's end (the last one may lie a rounding error beyond it).
export function axisTimes(duration, width) {
  const step = axisStep(duration, width);
  const times = [];
  for (let t = 0; t <= duration + step / 1000; t += step) {
    times.push(t);
  }
  return times;
}
