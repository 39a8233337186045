(function () {
  'use strict';

  // The listed spans as points: start time across, duration up on a log scale. Read from the list's own records
  // (all of them, not only the rows in the table), so the picture and the list can never disagree. A click opens a
  // span; a drag keeps only the spans inside it.
  var canvas = document.getElementById('scatter-canvas');
  var index = window.spanprofileIndex;
  if (!canvas || !index) {
    return;
  }
  var status = document.getElementById('scatter-status');
  var clear = document.getElementById('scatter-clear');
  var margin = { left: 64, right: 12, top: 8, bottom: 22 };
  var colours = { ok: '#3a78c9', error: '#d93025', running: '#e07b00' };
  var layout = null;
  var drag = null;
  var brush = null;
  var layer = null;
  var points = index.records.map(function (record) {
    return {
      record: record,
      start: record.start / 1e6,
      duration: Math.max(0.01, record.duration),
      kind: record.inFlight ? 'running' : record.status === 'ERROR' ? 'error' : 'ok',
      kept: record.retained && record.retained !== 'recent',
      href: 'spanprofile/' + record.spanId,
      hidden: !record.match,
      x: 0,
      y: 0
    };
  });
  var range = { t0: Infinity, t1: -Infinity, d0: Infinity, d1: -Infinity };
  points.forEach(function (p) {
    range.t0 = Math.min(range.t0, p.start);
    range.t1 = Math.max(range.t1, p.start);
    range.d0 = Math.min(range.d0, p.duration);
    range.d1 = Math.max(range.d1, p.duration);
  });
  // Whole decades up, so that the grid lines are 1, 10, 100 ms.
  range.l0 = Math.floor(Math.log10(range.d0 || 1));
  range.l1 = Math.max(range.l0 + 1, Math.ceil(Math.log10(range.d1 || 1)));
  if (range.t1 - range.t0 < 1000) {
    range.t0 -= 500;
    range.t1 += 500;
  }

  function millisText(millis) {
    return millis >= 1000 ? (millis / 1000) + ' s' : millis + ' ms';
  }

  function timeText(epochMillis) {
    var date = new Date(epochMillis);
    return [date.getHours(), date.getMinutes(), date.getSeconds()].map(function (part) {
      return String(part).padStart(2, '0');
    }).join(':');
  }

  function xOf(start) {
    return margin.left + (start - range.t0) / (range.t1 - range.t0) * (layout.width - margin.left - margin.right);
  }

  function yOf(duration) {
    var share = (Math.log10(duration) - range.l0) / (range.l1 - range.l0);
    return layout.height - margin.bottom - share * (layout.height - margin.top - margin.bottom);
  }

  function startAt(x) {
    return range.t0 + (x - margin.left) / (layout.width - margin.left - margin.right) * (range.t1 - range.t0);
  }

  function durationAt(y) {
    var share = (layout.height - margin.bottom - y) / (layout.height - margin.top - margin.bottom);
    return Math.pow(10, range.l0 + share * (range.l1 - range.l0));
  }

  function measure() {
    var width = Math.max(240, canvas.parentElement.clientWidth);
    var height = width < 600 ? 180 : 220;
    var ratio = window.devicePixelRatio || 1;
    canvas.style.height = height + 'px';
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
    layout = { width: width, height: height, ratio: ratio };
    layer = null;
    points.forEach(function (p) {
      p.x = xOf(p.start);
      p.y = yOf(p.duration);
    });
  }

  function draw() {
    var ctx = canvas.getContext('2d');
    ctx.setTransform(layout.ratio, 0, 0, layout.ratio, 0, 0);
    ctx.clearRect(0, 0, layout.width, layout.height);
    ctx.font = '11px system-ui, sans-serif';
    ctx.fillStyle = '#5b6475';
    ctx.strokeStyle = '#e4e7ec';
    ctx.lineWidth = 1;
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    for (var decade = range.l0; decade <= range.l1; decade++) {
      var y = Math.round(yOf(Math.pow(10, decade))) + 0.5;
      ctx.beginPath();
      ctx.moveTo(margin.left, y);
      ctx.lineTo(layout.width - margin.right, y);
      ctx.stroke();
      ctx.fillText(millisText(Math.pow(10, decade)), margin.left - 4, y);
    }
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    for (var i = 0; i <= 4; i++) {
      var t = range.t0 + (range.t1 - range.t0) * i / 4;
      ctx.textAlign = i === 0 ? 'left' : i === 4 ? 'right' : 'center';
      ctx.fillText(timeText(t), xOf(t), layout.height - margin.bottom + 6);
    }
    if (!layer) {
      layer = paintPoints();
    }
    ctx.save();
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.drawImage(layer, 0, 0);
    ctx.restore();
    ctx.beginPath();
    points.forEach(function (p) {
      if (p.kept && !p.hidden) {
        ctx.moveTo(p.x + 6, p.y);
        ctx.arc(p.x, p.y, 6, 0, 2 * Math.PI);
      }
    });
    ctx.strokeStyle = '#1d2330';
    ctx.lineWidth = 1.5;
    ctx.stroke();
    var box = drag && drag.moved ? drag : brush ? { x0: xOf(brush.t0), x1: xOf(brush.t1), y0: yOf(brush.d1), y1: yOf(brush.d0) } : null;
    if (box) {
      ctx.save();
      ctx.setLineDash([4, 3]);
      ctx.strokeStyle = '#0b62c4';
      ctx.lineWidth = 1.5;
      ctx.strokeRect(Math.min(box.x0, box.x1), Math.min(box.y0, box.y1), Math.abs(box.x1 - box.x0), Math.abs(box.y1 - box.y0));
      ctx.restore();
    }
  }

  // The points as pixels of their own layer, each dot blended into what is under it. Drawing 50,000 dots through
  // the canvas's own calls takes a software-rendered page seconds; writing their pixels takes milliseconds. Spans
  // filtered out of the list stay as faint dots, so the picture keeps its shape. The layer is kept until the size or
  // the filter changes, so a drag's rectangle redraws over it without repainting the points.
  function paintPoints() {
    var ratio = layout.ratio;
    var width = canvas.width;
    var height = canvas.height;
    var image = new ImageData(width, height);
    var pixels = image.data;
    var size = Math.ceil(8 * ratio);
    var mask = dotMask(size, ratio);
    var faint = rgb('#b9c0cc');
    function blend(left, top, extent, alphas, colour) {
      for (var dy = 0; dy < extent; dy++) {
        var y = top + dy;
        if (y < 0 || y >= height) {
          continue;
        }
        for (var dx = 0; dx < extent; dx++) {
          var x = left + dx;
          var alpha = alphas ? alphas[dy * extent + dx] : 1;
          if (alpha === 0 || x < 0 || x >= width) {
            continue;
          }
          var at = (y * width + x) * 4;
          var under = pixels[at + 3] / 255 * (1 - alpha);
          var total = alpha + under;
          pixels[at] = (colour[0] * alpha + pixels[at] * under) / total;
          pixels[at + 1] = (colour[1] * alpha + pixels[at + 1] * under) / total;
          pixels[at + 2] = (colour[2] * alpha + pixels[at + 2] * under) / total;
          pixels[at + 3] = total * 255;
        }
      }
    }
    ['ok', 'running', 'error'].forEach(function (kind) {
      var colour = rgb(colours[kind]);
      points.forEach(function (p) {
        if (p.kind === kind && !p.hidden) {
          blend(Math.round((p.x - 4) * ratio), Math.round((p.y - 4) * ratio), size, mask, colour);
        }
      });
    });
    var faintSize = Math.max(1, Math.round(2 * ratio));
    points.forEach(function (p) {
      if (p.hidden) {
        blend(Math.round((p.x - 1) * ratio), Math.round((p.y - 1) * ratio), faintSize, null, faint);
      }
    });
    var target = document.createElement('canvas');
    target.width = width;
    target.height = height;
    target.getContext('2d').putImageData(image, 0, 0);
    return target;
  }

  // How much of each pixel of a dot's square a disc of radius 3 (CSS pixels) covers, three quarters opaque.
  function dotMask(size, ratio) {
    var mask = new Float32Array(size * size);
    for (var y = 0; y < size; y++) {
      for (var x = 0; x < size; x++) {
        var distance = Math.hypot((x + 0.5) / ratio - 4, (y + 0.5) / ratio - 4);
        mask[y * size + x] = 0.75 * Math.max(0, Math.min(1, (3 - distance) * ratio + 0.5));
      }
    }
    return mask;
  }

  function rgb(hex) {
    return [1, 3, 5].map(function (at) {
      return parseInt(hex.slice(at, at + 2), 16);
    });
  }

  function nearest(x, y) {
    var best = null;
    var bestDistance = 64;
    points.forEach(function (p) {
      var distance = (p.x - x) * (p.x - x) + (p.y - y) * (p.y - y);
      if (!p.hidden && distance < bestDistance) {
        best = p;
        bestDistance = distance;
      }
    });
    return best;
  }

  function local(event) {
    var box = canvas.getBoundingClientRect();
    return { x: event.clientX - box.left, y: event.clientY - box.top };
  }

  function setBrush(next) {
    brush = next;
    clear.hidden = !brush;
    document.dispatchEvent(new CustomEvent('spanprofile-brush', { detail: brush }));
    draw();
  }

  function describe(p) {
    return p.record.name + ' · ' + p.duration.toFixed(1) + ' ms'
      + (p.kind === 'running' ? ' so far (running)' : p.kind === 'error' ? ' · error' : '')
      + (p.kept ? ' · kept as ' + p.record.retained : '');
  }

  canvas.addEventListener('pointerdown', function (event) {
    var at = local(event);
    drag = { x0: at.x, y0: at.y, x1: at.x, y1: at.y, moved: false };
    canvas.setPointerCapture(event.pointerId);
  });
  canvas.addEventListener('pointermove', function (event) {
    var at = local(event);
    if (drag) {
      drag.x1 = at.x;
      drag.y1 = at.y;
      drag.moved = drag.moved || Math.abs(drag.x1 - drag.x0) + Math.abs(drag.y1 - drag.y0) > 4;
      draw();
      return;
    }
    var p = nearest(at.x, at.y);
    canvas.style.cursor = p ? 'pointer' : 'crosshair';
    status.textContent = p ? describe(p) : '';
  });
  canvas.addEventListener('pointerup', function (event) {
    if (!drag) {
      return;
    }
    var done = drag;
    drag = null;
    if (!done.moved) {
      var p = nearest(done.x0, done.y0);
      if (p && p.href) {
        window.location.href = p.href;
      }
      draw();
      return;
    }
    setBrush({
      t0: startAt(Math.min(done.x0, done.x1)), t1: startAt(Math.max(done.x0, done.x1)),
      d0: durationAt(Math.max(done.y0, done.y1)), d1: durationAt(Math.min(done.y0, done.y1))
    });
  });
  canvas.addEventListener('pointercancel', function () {
    drag = null;
    draw();
  });
  clear.addEventListener('click', function () {
    setBrush(null);
  });
  document.addEventListener('spanprofile-filtered', function () {
    points.forEach(function (p) {
      p.hidden = !p.record.match;
    });
    layer = null;
    draw();
  });
  // The canvas's width changes without a window resize too (a scroll bar appearing as the page grows).
  new ResizeObserver(function () {
    if (points.length > 0) {
      measure();
      draw();
    }
  }).observe(canvas.parentElement);

  var drawMillis = 0;
  if (points.length === 0) {
    canvas.hidden = true;
  }
  else {
    var began = performance.now();
    measure();
    draw();
    drawMillis = performance.now() - began;
    performance.mark('spanprofile-scatter-drawn');
  }
  // Ready once the frame with the scatter and the list's first rows has been drawn.
  requestAnimationFrame(function () {
    setTimeout(function () {
      performance.mark('spanprofile-index-ready');
    });
  });

  // For tests and tools: where each listed span is drawn, in CSS pixels on the canvas.
  window.spanprofileScatter = {
    points: function () {
      return points.map(function (p) {
        return { x: p.x, y: p.y, kind: p.kind, kept: !!p.kept, href: p.href, hidden: p.hidden };
      });
    },
    brush: function () { return brush; },
    drawMillis: function () { return drawMillis; },
    yOf: function (durationMillis) { return layout ? yOf(durationMillis) : null; }
  };
}());
