(function () {
  'use strict';

  // A span's request along its time: one lane per thread (a hand-off shows as the next lane taking over), CPU
  // samples as ticks, waits as bars labelled with what was waited on. Dragging selects a stretch; the page then
  // loads the graph of that stretch from the server (from/to in the URL), so a selection is also a link.
  var block = document.getElementById('timeline-data');
  if (!block) {
    return;
  }
  var payload = JSON.parse(block.textContent);
  var timeline = payload.timeline;
  var selected = payload.stretch || null;
  var canvas = document.getElementById('timeline-canvas');
  var statusLine = document.getElementById('timeline-status');
  var ctx = canvas.getContext('2d');
  var FONT = '11px system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif';
  var AXIS = 18;
  var LABEL = 14;
  var BAR = 16;
  var GAP = 4;
  var LANE = LABEL + BAR + GAP;
  var PAD = 6;
  var CPU = '#e8772e';
  var OTHER = '#9aa3b2';
  // The breakdown's colours, by what the wait's frame says it waited on.
  var WAIT_COLOURS = [[/^\[socket/, '#d9579b'], [/^\[file/, '#9c6ade'], [/^\[(monitor|lock)/, '#c9463d'],
    [/^\[park/, '#e6a2c8'], [/^\[sleep/, '#8fa8c8'], [/^\[(GC|safepoint)/, '#6b7f99']];
  var duration = Math.max(timeline.durationMillis, 0.001);
  var lanes = timeline.lanes;
  var entries = timeline.entries;
  var width = 0;
  var drag = null;
  var drawn = { waits: [], ticks: [] };

  function x(millis) {
    var clamped = Math.min(duration, Math.max(0, millis));
    return PAD + clamped / duration * (width - 2 * PAD);
  }

  function millisAt(px) {
    return Math.min(duration, Math.max(0, (px - PAD) / (width - 2 * PAD) * duration));
  }

  function laneTop(lane) {
    return AXIS + lane * LANE;
  }

  function waitColour(label) {
    for (var i = 0; i < WAIT_COLOURS.length; i++) {
      if (WAIT_COLOURS[i][0].test(label || '')) {
        return WAIT_COLOURS[i][1];
      }
    }
    return '#b5a1c9';
  }

  function millisText(millis) {
    if (millis >= 1000) {
      return (millis / 1000).toLocaleString('en-US', { maximumFractionDigits: 2 }) + ' s';
    }
    return millis.toLocaleString('en-US', { maximumFractionDigits: millis < 10 ? 1 : 0 }) + ' ms';
  }

  // A step of 1, 2 or 5 times a power of ten that leaves at least 70 px between labels.
  function axisStep() {
    var rough = duration / Math.max(1, (width - 2 * PAD) / 70);
    var power = Math.pow(10, Math.floor(Math.log10(rough)));
    var steps = [1, 2, 5, 10];
    for (var i = 0; i < steps.length; i++) {
      if (steps[i] * power >= rough) {
        return steps[i] * power;
      }
    }
    return 10 * power;
  }

  function fitText(text, available) {
    if (ctx.measureText(text).width <= available) {
      return text;
    }
    for (var n = text.length - 1; n > 2; n--) {
      var shorter = text.slice(0, n) + '…';
      if (ctx.measureText(shorter).width <= available) {
        return shorter;
      }
    }
    return '';
  }

  function layout() {
    width = canvas.clientWidth;
    var height = AXIS + Math.max(1, lanes.length) * LANE + 2;
    var ratio = window.devicePixelRatio || 1;
    canvas.style.height = height + 'px';
    canvas.width = Math.max(1, Math.round(width * ratio));
    canvas.height = Math.max(1, Math.round(height * ratio));
    draw();
  }

  function draw() {
    var ratio = window.devicePixelRatio || 1;
    var height = canvas.height / ratio;
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, width, height);
    ctx.font = FONT;
    ctx.textBaseline = 'middle';
    var step = axisStep();
    ctx.fillStyle = '#5b6475';
    ctx.strokeStyle = '#e4e7ec';
    ctx.lineWidth = 1;
    for (var t = 0; t <= duration + step / 1000; t += step) {
      var tx = Math.round(x(t)) + 0.5;
      ctx.beginPath();
      ctx.moveTo(tx, AXIS - 4);
      ctx.lineTo(tx, height);
      ctx.stroke();
      var text = t === 0 ? '0' : millisText(t);
      var textWidth = ctx.measureText(text).width;
      ctx.fillText(text, Math.min(width - textWidth - 2, Math.max(2, tx - textWidth / 2)), AXIS / 2);
    }
    drawn = { waits: [], ticks: [] };
    lanes.forEach(function (lane, index) {
      var top = laneTop(index);
      ctx.fillStyle = '#5b6475';
      ctx.fillText(fitText(lane.thread, width - 2 * PAD), PAD, top + LABEL / 2);
      ctx.fillStyle = '#f5f6f8';
      ctx.fillRect(PAD, top + LABEL, width - 2 * PAD, BAR);
    });
    // Waits first, ticks over them: a sample taken during a wait (another kind) stays visible.
    entries.forEach(function (entry, index) {
      if (entry.kind !== 'wait') {
        return;
      }
      var top = laneTop(entry.lane) + LABEL;
      var left = x(entry.startMillis);
      var barWidth = Math.max(2, x(entry.endMillis) - left);
      ctx.fillStyle = waitColour(entry.label);
      ctx.fillRect(left, top, barWidth, BAR);
      drawn.waits.push({ index: index, x: left, y: top, width: barWidth, height: BAR, label: entry.label,
        lane: entry.lane, startMillis: entry.startMillis, endMillis: entry.endMillis });
      var fitted = barWidth > 24 ? fitText(entry.label || '', barWidth - 6) : '';
      if (fitted) {
        ctx.fillStyle = '#17191e';
        ctx.fillText(fitted, left + 3, top + BAR / 2);
      }
    });
    entries.forEach(function (entry, index) {
      if (entry.kind === 'wait') {
        return;
      }
      var top = laneTop(entry.lane) + LABEL;
      var cpu = entry.kind === 'cpu';
      var tick = x(entry.endMillis);
      ctx.fillStyle = cpu ? CPU : OTHER;
      ctx.fillRect(tick - 0.75, cpu ? top : top + BAR * 2 / 3, 1.5, cpu ? BAR : BAR / 3);
      drawn.ticks.push({ index: index, kind: entry.kind, x: tick, lane: entry.lane, atMillis: entry.endMillis });
    });
    var shown = drag ? [Math.min(drag.from, drag.to), Math.max(drag.from, drag.to)] : selected;
    if (shown) {
      var sx = x(shown[0]);
      var sw = Math.max(1, x(shown[1]) - sx);
      ctx.fillStyle = 'rgba(11, 98, 196, 0.14)';
      ctx.fillRect(sx, AXIS, sw, height - AXIS);
      ctx.strokeStyle = '#0b62c4';
      ctx.strokeRect(sx + 0.5, AXIS + 0.5, sw - 1, height - AXIS - 1);
    }
  }

  function pointerX(event) {
    return event.clientX - canvas.getBoundingClientRect().left;
  }

  function describeAt(px, py) {
    var millis = millisAt(px);
    for (var i = drawn.waits.length - 1; i >= 0; i--) {
      var wait = drawn.waits[i];
      if (px >= wait.x && px <= wait.x + wait.width && py >= wait.y && py <= wait.y + wait.height) {
        return wait.label + ' — ' + millisText(wait.endMillis - wait.startMillis) + ', from '
          + millisText(wait.startMillis) + ' to ' + millisText(wait.endMillis) + ' on ' + lanes[wait.lane].thread;
      }
    }
    return millisText(millis) + ' from the start. Drag across the timeline for the flame graph of a stretch.';
  }

  function select(from, to) {
    var url = new URL(window.location.href);
    url.searchParams.set('from', from.toFixed(3).replace(/\.?0+$/, ''));
    url.searchParams.set('to', to.toFixed(3).replace(/\.?0+$/, ''));
    url.hash = '';
    window.location.assign(url.toString());
  }

  canvas.addEventListener('pointerdown', function (event) {
    if (event.button !== 0) {
      return;
    }
    var at = millisAt(pointerX(event));
    drag = { from: at, to: at, startX: pointerX(event) };
    canvas.setPointerCapture(event.pointerId);
    event.preventDefault();
  });
  canvas.addEventListener('pointermove', function (event) {
    var rect = canvas.getBoundingClientRect();
    if (drag) {
      drag.to = millisAt(pointerX(event));
      statusLine.textContent = 'Stretch ' + millisText(Math.min(drag.from, drag.to)) + ' to '
        + millisText(Math.max(drag.from, drag.to));
      draw();
    } else {
      statusLine.textContent = describeAt(event.clientX - rect.left, event.clientY - rect.top);
    }
  });
  canvas.addEventListener('pointerup', function (event) {
    if (!drag) {
      return;
    }
    var moved = Math.abs(pointerX(event) - drag.startX);
    var from = Math.min(drag.from, drag.to);
    var to = Math.max(drag.from, drag.to);
    drag = null;
    // A click is no selection: only a drag of a few pixels selects.
    if (moved >= 4 && to > from) {
      statusLine.textContent = 'Loading the flame graph of ' + millisText(from) + ' to ' + millisText(to) + '…';
      select(from, to);
    }
    draw();
  });
  canvas.addEventListener('pointercancel', function () {
    drag = null;
    draw();
  });
  window.addEventListener('resize', layout);

  var cpuTicks = entries.filter(function (entry) { return entry.kind === 'cpu'; }).length;
  canvas.setAttribute('aria-label', 'Timeline of this request: ' + lanes.length + ' thread'
    + (lanes.length === 1 ? '' : 's') + ', ' + cpuTicks + ' CPU samples, '
    + entries.filter(function (entry) { return entry.kind === 'wait'; }).length + ' waits over '
    + millisText(duration));
  if (timeline.truncated) {
    statusLine.textContent = timeline.note;
  } else if (entries.length === 0) {
    statusLine.textContent = 'No samples on the timeline yet.';
  }
  layout();

  // What is drawn where, for tests and the curious (a canvas has no DOM to inspect).
  window.spanprofileTimeline = {
    ready: true,
    state: function () {
      return { width: width, height: canvas.height / (window.devicePixelRatio || 1), durationMillis: duration,
        lanes: lanes.map(function (lane, index) { return { thread: lane.thread, top: laneTop(index) + LABEL }; }),
        waits: drawn.waits, ticks: drawn.ticks, stretch: selected };
    },
    xOf: x
  };
}());
