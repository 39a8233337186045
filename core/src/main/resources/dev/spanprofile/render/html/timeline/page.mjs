import { millisText, stretchParam } from './format.mjs';
import { timeScale } from './scale.mjs';
import { LABEL, describeAt, laneTop, timelineHeight, timelineLabel } from './lanes.mjs';
import { drawTimeline } from './draw.mjs';

// A span's request along its time: one lane per thread (a hand-off shows as the next lane taking over), CPU
// samples as ticks, waits as bars labelled with what was waited on. Dragging selects a stretch; the page then
// loads the graph of that stretch from the server (from/to in the URL), so a selection is also a link. This module
// wires the canvas and the pointer; the scale, the lanes and the painting live in their modules.

function startTimeline(block) {
  const payload = JSON.parse(block.textContent);
  const timeline = payload.timeline;
  const selected = payload.stretch || null;
  const canvas = document.getElementById('timeline-canvas');
  const statusLine = document.getElementById('timeline-status');
  const ctx = canvas.getContext('2d');
  const lanes = timeline.lanes;
  const entries = timeline.entries;
  let scale = timeScale(timeline.durationMillis, 0);
  let width = 0;
  let drag = null;
  let drawn = { waits: [], ticks: [] };

  function draw() {
    const ratio = window.devicePixelRatio || 1;
    drawn = drawTimeline(ctx, { width, height: canvas.height / ratio, ratio, scale, lanes, entries,
      shown: drag ? [Math.min(drag.from, drag.to), Math.max(drag.from, drag.to)] : selected });
  }

  function layout() {
    width = canvas.clientWidth;
    scale = timeScale(timeline.durationMillis, width);
    const height = timelineHeight(lanes.length);
    const ratio = window.devicePixelRatio || 1;
    canvas.style.height = height + 'px';
    canvas.width = Math.max(1, Math.round(width * ratio));
    canvas.height = Math.max(1, Math.round(height * ratio));
    draw();
  }

  function pointerX(event) {
    return event.clientX - canvas.getBoundingClientRect().left;
  }

  function select(from, to) {
    const url = new URL(window.location.href);
    url.searchParams.set('from', stretchParam(from));
    url.searchParams.set('to', stretchParam(to));
    url.hash = '';
    window.location.assign(url.toString());
  }

  canvas.addEventListener('pointerdown', (event) => {
    if (event.button !== 0) {
      return;
    }
    const at = scale.millisAt(pointerX(event));
    drag = { from: at, to: at, startX: pointerX(event) };
    canvas.setPointerCapture(event.pointerId);
    event.preventDefault();
  });
  canvas.addEventListener('pointermove', (event) => {
    const rect = canvas.getBoundingClientRect();
    if (drag) {
      drag.to = scale.millisAt(pointerX(event));
      statusLine.textContent = 'Stretch ' + millisText(Math.min(drag.from, drag.to)) + ' to '
        + millisText(Math.max(drag.from, drag.to));
      draw();
    }
    else {
      statusLine.textContent = describeAt(event.clientX - rect.left, event.clientY - rect.top, drawn.waits, lanes,
        scale);
    }
  });
  canvas.addEventListener('pointerup', (event) => {
    if (!drag) {
      return;
    }
    const moved = Math.abs(pointerX(event) - drag.startX);
    const from = Math.min(drag.from, drag.to);
    const to = Math.max(drag.from, drag.to);
    drag = null;
    // A click is no selection: only a drag of a few pixels selects.
    if (moved >= 4 && to > from) {
      statusLine.textContent = 'Loading the flame graph of ' + millisText(from) + ' to ' + millisText(to) + '…';
      select(from, to);
    }
    draw();
  });
  canvas.addEventListener('pointercancel', () => {
    drag = null;
    draw();
  });
  window.addEventListener('resize', layout);

  canvas.setAttribute('aria-label', timelineLabel(lanes, entries, scale.duration));
  if (timeline.truncated) {
    statusLine.textContent = timeline.note;
  }
  else if (entries.length === 0) {
    statusLine.textContent = 'No samples on the timeline yet.';
  }
  layout();

  // What is drawn where, for tests and the curious (a canvas has no DOM to inspect).
  window.spanprofileTimeline = {
    ready: true,
    state() {
      return { width, height: canvas.height / (window.devicePixelRatio || 1), durationMillis: scale.duration,
        lanes: lanes.map((lane, index) => ({ thread: lane.thread, top: laneTop(index) + LABEL })),
        waits: drawn.waits, ticks: drawn.ticks, stretch: selected };
    },
    xOf: (millis) => scale.x(millis)
  };
}

const timelineBlock = document.getElementById('timeline-data');
if (timelineBlock) {
  startTimeline(timelineBlock);
}
