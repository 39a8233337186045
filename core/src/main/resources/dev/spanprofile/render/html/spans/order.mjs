// Which spans the list keeps (the filter text, the scatter's rectangle) and in what order, and the words for it.

// Records by one key, descending or not; ties keep the data's order.
export function comparator(sort) {
  return (a, b) => {
    const diff = a[sort.key] - b[sort.key];
    return (sort.descending ? -diff : diff) || a.index - b.index;
  };
}

// The next sort after a click on a column's button: the same column flips, another starts descending.
export function nextSort(sort, key) {
  return { key, descending: sort.key === key ? !sort.descending : true };
}

// A rectangle dragged on the scatter: start times (epoch ms) and durations (ms), both ends included.
export function inBrush(record, brush) {
  const start = record.start / 1e6;
  return start >= brush.t0 && start <= brush.t1 && record.duration >= brush.d0 && record.duration <= brush.d1;
}

// Marks each record's match (its name contains the text, case-insensitively; inside the brush if there is one) and
// returns those that match, in the records' order.
export function matching(records, text, brush) {
  const lower = text.trim().toLowerCase();
  const kept = [];
  for (const record of records) {
    record.match = (!lower || record.lowerName.indexOf(lower) >= 0) && (!brush || inBrush(record, brush));
    if (record.match) {
      kept.push(record);
    }
  }
  return kept;
}

export function shownText(kept, total) {
  return kept + (kept === total ? '' : ' of ' + total) + ' spans';
}

// The line under the list: how many of the kept spans are listed, and the buttons that list more.
export function listedLine(kept, limit, step) {
  const listed = Math.min(limit, kept);
  const rest = kept - listed;
  return {
    hidden: rest === 0,
    text: 'Listing the first ' + listed + ' of ' + kept + ' spans.',
    more: 'Show ' + Math.min(step, rest) + ' more',
    moreHidden: rest === 0,
    allHidden: rest <= step
  };
}
