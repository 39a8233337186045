// The scatter's points, one per span of the list's records, and what the pointer finds among them.

export function pointsOf(records) {
  return records.map((record) => ({
    record,
    start: record.start / 1e6,
    duration: Math.max(0.01, record.duration),
    kind: record.inFlight ? 'running' : record.status === 'ERROR' ? 'error' : 'ok',
    kept: record.retained && record.retained !== 'recent',
    href: 'spanprofile/' + record.spanId,
    hidden: !record.match,
    x: 0,
    y: 0
  }));
}

// The shown point nearest to (x, y) within 8 px, or null.
export function nearest(points, x, y) {
  let best = null;
  let bestDistance = 64;
  for (const p of points) {
    const distance = (p.x - x) * (p.x - x) + (p.y - y) * (p.y - y);
    if (!p.hidden && distance < bestDistance) {
      best = p;
      bestDistance = distance;
    }
  }
  return best;
}

export function describePoint(p) {
  return p.record.name + ' · ' + p.duration.toFixed(1) + ' ms'
    + (p.kind === 'running' ? ' so far (running)' : p.kind === 'error' ? ' · error' : '')
    + (p.kept ? ' · kept as ' + p.record.retained : '');
}

// A drag counts as a rectangle once it has moved more than 4 px; a shorter one is a click.
export function dragMoved(drag) {
  return drag.moved || Math.abs(drag.x1 - drag.x0) + Math.abs(drag.y1 - drag.y0) > 4;
}

// The start times and durations a dragged rectangle covers, whichever way it was dragged.
export function brushOf(drag, scale) {
  return {
    t0: scale.startAt(Math.min(drag.x0, drag.x1)), t1: scale.startAt(Math.max(drag.x0, drag.x1)),
    d0: scale.durationAt(Math.max(drag.y0, drag.y1)), d1: scale.durationAt(Math.min(drag.y0, drag.y1))
  };
}
