// The scatter's axes: start time across (epoch milliseconds), duration up on a log scale in whole decades, and
// back from pixels to times and durations for a dragged rectangle.

export const MARGIN = { left: 64, right: 12, top: 8, bottom: 22 };

// The points' extent. Durations widen to whole decades so that the grid lines are 1, 10, 100 ms; a second or less
// of start times widens to a second.
export function scatterRange(points) {
  const range = { t0: Infinity, t1: -Infinity, d0: Infinity, d1: -Infinity };
  for (const p of points) {
    range.t0 = Math.min(range.t0, p.start);
    range.t1 = Math.max(range.t1, p.start);
    range.d0 = Math.min(range.d0, p.duration);
    range.d1 = Math.max(range.d1, p.duration);
  }
  range.l0 = Math.floor(Math.log10(range.d0 || 1));
  range.l1 = Math.max(range.l0 + 1, Math.ceil(Math.log10(range.d1 || 1)));
  if (range.t1 - range.t0 < 1000) {
    range.t0 -= 500;
    range.t1 += 500;
  }
  return range;
}

export function scatterScale(range, width, height) {
  const across = width - MARGIN.left - MARGIN.right;
  const up = height - MARGIN.top - MARGIN.bottom;
  return {
    xOf: (start) => MARGIN.left + (start - range.t0) / (range.t1 - range.t0) * across,
    yOf: (duration) => height - MARGIN.bottom - (Math.log10(duration) - range.l0) / (range.l1 - range.l0) * up,
    startAt: (x) => range.t0 + (x - MARGIN.left) / across * (range.t1 - range.t0),
    durationAt: (y) => Math.pow(10, range.l0 + (height - MARGIN.bottom - y) / up * (range.l1 - range.l0))
  };
}

// A grid line's label: 1 ms, 10 ms, 100 ms, 1 s, 10 s.
export function decadeText(millis) {
  return millis >= 1000 ? (millis / 1000) + ' s' : millis + ' ms';
}

export function clockText(epochMillis) {
  const date = new Date(epochMillis);
  return [date.getHours(), date.getMinutes(), date.getSeconds()].map((part) => String(part).padStart(2, '0'))
    .join(':');
}
