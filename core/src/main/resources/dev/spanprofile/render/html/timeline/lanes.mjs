import { millisText } from './format.mjs';

// Where things sit on the timeline: one lane per thread (its name above a bar), waits as blocks in the bar, samples
// as ticks, and what the pointer is over. Geometry only: draw.mjs paints it.

export const AXIS = 18;
export const LABEL = 14;
export const BAR = 16;
const GAP = 4;
const LANE = LABEL + BAR + GAP;

// The breakdown's colours, by what the wait's frame says it waited on.
const WAIT_COLOURS = [[/^\[socket/, '#d9579b'], [/^\[file/, '#9c6ade'], [/^\[(monitor|lock)/, '#c9463d'],
  [/^\[park/, '#e6a2c8'], [/^\[sleep/, '#8fa8c8'], [/^\[(GC|safepoint)/, '#6b7f99']];

export function laneTop(lane) {
  return AXIS + lane * LANE;
}

export function timelineHeight(laneCount) {
  return AXIS + Math.max(1, laneCount) * LANE + 2;
}

export function waitColour(label) {
  for (const [pattern, colour] of WAIT_COLOURS) {
    if (pattern.test(label || '')) {
      return colour;
    }
  }
  return '#b5a1c9';
}

// Each wait as the block drawn for it (at least 2 px wide), each sample as a tick at its end.
export function placeEntries(entries, scale) {
  const waits = [];
  const ticks = [];
  entries.forEach((entry, index) => {
    if (entry.kind === 'wait') {
      const top = laneTop(entry.lane) + LABEL;
      const left = scale.x(entry.startMillis);
      waits.push({ index, x: left, y: top, width: Math.max(2, scale.x(entry.endMillis) - left), height: BAR,
        label: entry.label, lane: entry.lane, startMillis: entry.startMillis, endMillis: entry.endMillis });
    }
    else {
      ticks.push({ index, kind: entry.kind, x: scale.x(entry.endMillis), lane: entry.lane, atMillis: entry.endMillis });
    }
  });
  return { waits, ticks };
}

// What the status line says under the pointer: the topmost wait there, else the time.
export function describeAt(px, py, waits, lanes, scale) {
  for (let i = waits.length - 1; i >= 0; i--) {
    const wait = waits[i];
    if (px >= wait.x && px <= wait.x + wait.width && py >= wait.y && py <= wait.y + wait.height) {
      return wait.label + ' — ' + millisText(wait.endMillis - wait.startMillis) + ', from '
        + millisText(wait.startMillis) + ' to ' + millisText(wait.endMillis) + ' on ' + lanes[wait.lane].thread;
    }
  }
  return millisText(scale.millisAt(px)) + ' from the start. Drag across the timeline for the flame graph of a stretch.';
}

// The longest start of text, with an ellipsis, that measure() says fits; '' when not even three characters do.
export function fitText(text, available, measure) {
  if (measure(text) <= available) {
    return text;
  }
  for (let n = text.length - 1; n > 2; n--) {
    const shorter = text.slice(0, n) + '…';
    if (measure(shorter) <= available) {
      return shorter;
    }
  }
  return '';
}

export function timelineLabel(lanes, entries, duration) {
  const count = (kind) => entries.filter((entry) => entry.kind === kind).length;
  return 'Timeline of this request: ' + lanes.length + ' thread' + (lanes.length === 1 ? '' : 's') + ', '
    + count('cpu') + ' CPU samples, ' + count('wait') + ' waits over ' + millisText(duration);
}
