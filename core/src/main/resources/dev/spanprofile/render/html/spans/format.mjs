// Times and durations as the span list writes them: the same text the server renders for the first rows
// (SpanIndexPage), so a row built here matches one served.

// One formatter for every row: toLocaleTimeString makes a new one per call, a third of a millisecond each.
const timeFormat = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: 'numeric', second: 'numeric',
  hour12: false });

export function localTime(date) {
  return timeFormat.format(date) + '.' + String(date.getMilliseconds()).padStart(3, '0');
}

// As Java's Instant.toString: the fraction of a second in groups of three digits, as many as it needs.
export function instantText(nanosText) {
  const nanos = BigInt(nanosText);
  const fraction = Number(((nanos % 1000000000n) + 1000000000n) % 1000000000n);
  const seconds = Number((nanos - BigInt(fraction)) / 1000000000n);
  const text = new Date(seconds * 1000).toISOString().slice(0, 19);
  if (fraction === 0) {
    return text + 'Z';
  }
  const digits = String(fraction).padStart(9, '0');
  return text + '.' + (fraction % 1000000 === 0 ? digits.slice(0, 3) : fraction % 1000 === 0 ? digits.slice(0, 6)
    : digits) + 'Z';
}

// As SpanIndexPage.formatMillis: whole milliseconds with grouping from 100 ms, one decimal below.
export function millisText(millis) {
  if (millis >= 100) {
    return millis.toFixed(0).replace(/\B(?=(\d{3})+(?!\d))/g, ',') + ' ms';
  }
  return millis.toFixed(1) + ' ms';
}

// As SpanIndexPage.durationText: microseconds as milliseconds with three decimals.
export function durationText(micros) {
  return Math.floor(micros / 1000) + '.' + String(micros % 1000).padStart(3, '0');
}
