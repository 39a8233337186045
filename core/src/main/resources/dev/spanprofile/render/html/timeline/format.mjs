// Times as the timeline writes them: whole milliseconds from 10 ms, one decimal below, seconds from 1 s.

export function millisText(millis) {
  if (millis >= 1000) {
    return (millis / 1000).toLocaleString('en-US', { maximumFractionDigits: 2 }) + ' s';
  }
  return millis.toLocaleString('en-US', { maximumFractionDigits: millis < 10 ? 1 : 0 }) + ' ms';
}

// A stretch's end as the URL carries it: at most three decimals, without trailing zeros.
export function stretchParam(millis) {
  return millis.toFixed(3).replace(/\.?0+$/, '');
}
