(function () {
  'use strict';

  // A span name's requests by minute (across) and latency band (up). Dragging a rectangle opens the flame graph
  // of the requests in its cells: the selection travels in the URL, so the server merges exactly those cells.
  var canvas = document.getElementById('heatmap-canvas');
  var source = document.getElementById('heatmap-data');
  if (!canvas || !source) {
    return;
  }
  var data = JSON.parse(source.textContent);
  var map = data.heatmap;
  var links = data.links;
  var status = document.getElementById('heatmap-status');
  var columns = map.startTimes.length;
  var bands = map.bandEdgesMillis.length - 1;
  var starts = map.startTimes.map(function (time) { return Date.parse(time); });
  var bucketMillis = links.bucketMillis || 60000;
  var margin = { left: 64, right: 8, top: 6, bottom: 20 };
  var layout = null;
  var drag = null;
  var most = 0;
  map.counts.forEach(function (column) {
    column.forEach(function (count) { most = Math.max(most, count); });
  });

  function millisText(millis) {
    if (millis === null || millis === undefined) {
      return '∞';
    }
    if (millis >= 1000) {
      return (millis / 1000).toFixed(millis >= 10000 ? 0 : 1) + ' s';
    }
    return (millis >= 10 ? millis.toFixed(0) : millis >= 1 ? millis.toFixed(1) : millis.toFixed(2)) + ' ms';
  }

  function timeText(epochMillis) {
    var date = new Date(epochMillis);
    return String(date.getHours()).padStart(2, '0') + ':' + String(date.getMinutes()).padStart(2, '0');
  }

  // Light to dark blue by the log of the count, so one busy minute does not wash out the rest.
  function fill(count) {
    var share = Math.log(count + 1) / Math.log(most + 1);
    var light = [226, 236, 250];
    var dark = [8, 48, 130];
    var rgb = light.map(function (from, i) { return Math.round(from + (dark[i] - from) * share); });
    return 'rgb(' + rgb.join(',') + ')';
  }

  function measure() {
    var width = Math.max(240, canvas.parentElement.clientWidth);
    var rowHeight = Math.max(6, Math.min(18, Math.floor(220 / Math.max(1, bands))));
    var height = margin.top + Math.max(1, bands) * rowHeight + margin.bottom;
    var ratio = window.devicePixelRatio || 1;
    canvas.style.height = height + 'px';
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
    layout = {
      width: width, height: height, ratio: ratio, rowHeight: rowHeight,
      cellWidth: (width - margin.left - margin.right) / Math.max(1, columns)
    };
  }

  function cellRect(column, band) {
    return {
      x: margin.left + column * layout.cellWidth,
      y: margin.top + (bands - 1 - band) * layout.rowHeight,
      width: layout.cellWidth,
      height: layout.rowHeight
    };
  }

  function cellAt(x, y) {
    var column = Math.floor((x - margin.left) / layout.cellWidth);
    var band = bands - 1 - Math.floor((y - margin.top) / layout.rowHeight);
    return {
      column: Math.max(0, Math.min(columns - 1, column)),
      band: Math.max(0, Math.min(bands - 1, band)),
      inside: column >= 0 && column < columns && band >= 0 && band < bands
    };
  }

  // The selection the page shows, as cells: columns whose minute lies in [from, to), bands within the durations.
  function shownCells() {
    var selection = data.selection;
    if (!selection) {
      return null;
    }
    var from = Date.parse(selection.from);
    var to = Date.parse(selection.to);
    var cells = { c0: columns, c1: -1, b0: bands, b1: -1 };
    for (var c = 0; c < columns; c++) {
      if (starts[c] >= from && starts[c] < to) {
        cells.c0 = Math.min(cells.c0, c);
        cells.c1 = Math.max(cells.c1, c);
      }
    }
    for (var b = 0; b < bands; b++) {
      var low = map.bandEdgesMillis[b];
      var max = selection.maxDurationMillis;
      if (low >= selection.minDurationMillis - 1e-9 && (max === undefined || low < max - 1e-9)) {
        cells.b0 = Math.min(cells.b0, b);
        cells.b1 = Math.max(cells.b1, b);
      }
    }
    return (cells.c1 >= 0 && cells.b1 >= 0) ? cells : null;
  }

  function outline(ctx, cells, colour, dashed) {
    var low = cellRect(cells.c0, cells.b0);
    var high = cellRect(cells.c1, cells.b1);
    ctx.save();
    ctx.strokeStyle = colour;
    ctx.lineWidth = 2;
    if (dashed) {
      ctx.setLineDash([4, 3]);
    }
    ctx.strokeRect(low.x + 1, high.y + 1, high.x + high.width - low.x - 2, low.y + low.height - high.y - 2);
    ctx.restore();
  }

  function draw() {
    var ctx = canvas.getContext('2d');
    ctx.setTransform(layout.ratio, 0, 0, layout.ratio, 0, 0);
    ctx.clearRect(0, 0, layout.width, layout.height);
    ctx.fillStyle = '#f5f6f8';
    ctx.fillRect(margin.left, margin.top, layout.width - margin.left - margin.right, bands * layout.rowHeight);
    for (var c = 0; c < columns; c++) {
      for (var b = 0; b < bands; b++) {
        var count = map.counts[c][b];
        if (count > 0) {
          var cell = cellRect(c, b);
          ctx.fillStyle = fill(count);
          ctx.fillRect(cell.x, cell.y, Math.max(1, cell.width - 1), Math.max(1, cell.height - 1));
          if (map.errors[c][b] > 0) {
            // A red corner: the cell holds failed requests, whatever its shade.
            var size = Math.min(cell.width, cell.height) * 0.6;
            ctx.fillStyle = '#d93025';
            ctx.beginPath();
            ctx.moveTo(cell.x + cell.width - 1 - size, cell.y);
            ctx.lineTo(cell.x + cell.width - 1, cell.y);
            ctx.lineTo(cell.x + cell.width - 1, cell.y + size);
            ctx.closePath();
            ctx.fill();
          }
        }
      }
    }
    ctx.fillStyle = '#5b6475';
    ctx.font = '11px system-ui, sans-serif';
    ctx.textBaseline = 'middle';
    ctx.textAlign = 'right';
    var every = Math.max(1, Math.ceil(14 / layout.rowHeight));
    for (var band = 0; band <= bands; band += every) {
      var y = margin.top + (bands - band) * layout.rowHeight;
      ctx.fillText(millisText(map.bandEdgesMillis[band]), margin.left - 4, Math.max(6, y));
    }
    ctx.textBaseline = 'top';
    ctx.textAlign = 'center';
    var step = Math.max(1, Math.ceil(56 / layout.cellWidth));
    for (var column = 0; column < columns; column += step) {
      ctx.fillText(timeText(starts[column]), margin.left + (column + 0.5) * layout.cellWidth,
        margin.top + bands * layout.rowHeight + 4);
    }
    var shown = shownCells();
    if (shown) {
      outline(ctx, shown, '#0b62c4', false);
    }
    if (drag && drag.moved) {
      outline(ctx, normalise(drag.from, drag.to), '#1d2330', true);
    }
  }

  function normalise(a, b) {
    return {
      c0: Math.min(a.column, b.column), c1: Math.max(a.column, b.column),
      b0: Math.min(a.band, b.band), b1: Math.max(a.band, b.band)
    };
  }

  function sum(cells) {
    var total = { requests: 0, errors: 0 };
    for (var c = cells.c0; c <= cells.c1; c++) {
      for (var b = cells.b0; b <= cells.b1; b++) {
        total.requests += map.counts[c][b];
        total.errors += map.errors[c][b];
      }
    }
    return total;
  }

  // The selection's URL parameters: minutes as ISO-8601 instants, bands by their edges.
  function parameters(cells) {
    var query = '&from=' + new Date(starts[cells.c0]).toISOString()
      + '&to=' + new Date(starts[cells.c1] + bucketMillis).toISOString()
      + '&minDurationMillis=' + map.bandEdgesMillis[cells.b0];
    var max = map.bandEdgesMillis[cells.b1 + 1];
    return (max === null || max === undefined) ? query : query + '&maxDurationMillis=' + max;
  }

  function selectionHref(cells, compare) {
    return links.name + parameters(cells) + (compare ? '&compare=rest' : '') + '&format=html';
  }

  function describe(cells) {
    var total = sum(cells);
    var minutes = timeText(starts[cells.c0]) + (cells.c1 > cells.c0 ? '–' + timeText(starts[cells.c1]) : '');
    return minutes + ', ' + millisText(map.bandEdgesMillis[cells.b0]) + ' to '
      + millisText(map.bandEdgesMillis[cells.b1 + 1]) + ': ' + total.requests + ' requests'
      + (total.errors ? ', ' + total.errors + ' failed' : '');
  }

  function point(event) {
    var box = canvas.getBoundingClientRect();
    return cellAt(event.clientX - box.left, event.clientY - box.top);
  }

  if (bands < 1) {
    canvas.hidden = true;
    status.textContent = 'No request of this name has had its profile folded in the window yet.';
  }
  else {
    canvas.addEventListener('pointerdown', function (event) {
      var cell = point(event);
      if (!cell.inside) {
        return;
      }
      drag = { from: cell, to: cell, moved: false };
      canvas.setPointerCapture(event.pointerId);
    });
    canvas.addEventListener('pointermove', function (event) {
      var cell = point(event);
      if (drag) {
        drag.moved = drag.moved || cell.column !== drag.from.column || cell.band !== drag.from.band;
        drag.to = cell;
        status.textContent = describe(normalise(drag.from, drag.to)) + ' — release for their flame graph';
        draw();
      }
      else if (cell.inside) {
        status.textContent = describe(normalise(cell, cell));
      }
    });
    canvas.addEventListener('pointerup', function () {
      if (!drag) {
        return;
      }
      // The cells the moves reached: what was outlined is what opens.
      var cells = normalise(drag.from, drag.to);
      drag = null;
      window.location.href = selectionHref(cells, false);
    });
    canvas.addEventListener('pointercancel', function () {
      drag = null;
      draw();
    });
    // The canvas's width changes without a window resize too (a scroll bar appearing as the page grows).
    new ResizeObserver(function () {
      measure();
      draw();
    }).observe(canvas.parentElement);
    measure();
    draw();
    var shown = shownCells();
    var compare = document.getElementById('heatmap-compare');
    var clear = document.getElementById('heatmap-clear');
    if (shown && compare) {
      compare.href = selectionHref(shown, true);
      status.textContent = 'Selected: ' + describe(shown);
    }
    if (clear) {
      clear.href = links.name + '&format=html';
    }
  }

  // For tests and tools: where a cell is drawn (CSS pixels on the canvas) and what the map holds.
  window.spanprofileHeatmap = {
    ready: true,
    columns: columns,
    bands: bands,
    cellRect: function (column, band) { return layout ? cellRect(column, band) : null; },
    selected: shownCells,
    sum: function (c0, c1, b0, b1) { return sum({ c0: c0, c1: c1, b0: b0, b1: b1 }); }
  };
}());
