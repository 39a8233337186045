// Numbers as the page writes them: shares, samples with the time they stand for, bytes, milliseconds.

export function percent(part, whole) {
  if (!whole) {
    return '0%';
  }
  const p = 100 * part / whole;
  return (p >= 10 || p === 0 ? p.toFixed(1) : p.toPrecision(2)) + '%';
}

export function bytesText(value) {
  if (value >= 1024 * 1024) {
    return (value / (1024 * 1024)).toFixed(1) + ' MB';
  }
  return value >= 1024 ? (value / 1024).toFixed(1) + ' KB' : value + ' B';
}

export function millis(value) {
  return value >= 100 ? Math.round(value).toLocaleString('en') + ' ms' : value.toFixed(1) + ' ms';
}

// What a weight means on this page: samples of some interval, bytes allocated, or nanoseconds waited.
export function weightFormat(data) {
  return function samplesText(samples) {
    if (data.unit === 'bytes') {
      return bytesText(samples) + ' allocated';
    }
    if (data.unit === 'nanoseconds') {
      return millis(samples / 1e6) + (data.event === 'lock' ? ' waiting for locks' : ' waiting');
    }
    let text = samples + (samples === 1 ? ' sample' : ' samples');
    if (data.intervalMillis > 0) {
      text += ' ≈ ' + millis(samples * data.intervalMillis) + ' ' + data.event;
    }
    return text;
  };
}
