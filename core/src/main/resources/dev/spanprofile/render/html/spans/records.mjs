// The span list's data block (spans-data) read into one record per span. Strings come once in the block's tables
// (names, details, statuses, reasons, retention) and a span's row points into them by index.

export function readRecords(data) {
  // Start times are nanoseconds after data.base, which is beyond a double's exact range: kept as a double for
  // sorting and drawing, and made exact (with BigInt) only for the rows that are built.
  const base = BigInt(data.base || '0');
  const baseNanos = Number(base);
  const lowerNames = data.names.map((name) => name.toLowerCase());
  const records = data.spans.map((span, index) => ({
    index,
    spanId: span[0],
    traceId: span[1],
    name: data.names[span[2]],
    lowerName: lowerNames[span[2]],
    detail: data.details[span[3]],
    inFlight: span[4] === 1,
    status: data.statuses[span[5]],
    startOffset: span[6],
    start: baseNanos + span[6],
    durationMicros: span[7],
    duration: span[7] / 1000,
    samples: span[8],
    emptyReason: data.reasons[span[9]],
    retained: data.retained[span[10]],
    allocated: span[11],
    lockwait: span[12],
    top: span[13],
    match: true,
    row: null
  }));
  return { base, records };
}
