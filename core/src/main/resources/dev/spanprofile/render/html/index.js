(function () {
  'use strict';

  // The server renders the first rows; every span also comes as data (spans-data), from which this script sorts,
  // filters and lists rows, building each row beyond the first ones only when it is to be shown. A table of
  // 50,000 laid-out rows would keep the page busy for seconds; the scatter draws all of them from the data.
  var table = document.getElementById('spans');
  var body = table.tBodies[0];
  var filter = document.getElementById('filter');
  var shown = document.getElementById('shown');
  var listed = document.getElementById('listed');
  var listedText = document.getElementById('listed-text');
  var showMore = document.getElementById('show-more');
  var showAll = document.getElementById('show-all');
  var data = JSON.parse(document.getElementById('spans-data').textContent);
  var STEP = data.listed || 100;
  // Start times are nanoseconds after data.base, which is beyond a double's exact range: kept as a double for sorting
  // and drawing, and made exact (with BigInt) only for the rows that are built.
  var base = BigInt(data.base || '0');
  var baseNanos = Number(base);
  var lowerNames = data.names.map(function (name) {
    return name.toLowerCase();
  });
  var records = data.spans.map(function (span, index) {
    return {
      index: index,
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
    };
  });
  var visible = records.slice();
  var limit = STEP;
  var sort = { key: 'start', descending: true };
  // A rectangle dragged on the scatter: start times (epoch ms) and durations (ms) the list keeps, or null.
  var brush = null;

  // One formatter for every row: toLocaleTimeString makes a new one per call, a third of a millisecond each.
  var timeFormat = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: 'numeric', second: 'numeric',
    hour12: false });

  function localTime(date) {
    return timeFormat.format(date) + '.' + String(date.getMilliseconds()).padStart(3, '0');
  }

  // Times are rendered in UTC on the server; show them in the reader's time zone.
  function localise(time) {
    var date = new Date(time.getAttribute('datetime'));
    if (!isNaN(date.getTime())) {
      time.textContent = localTime(date);
    }
  }

  // The rows the server rendered belong to the first records, in the same order.
  Array.prototype.forEach.call(body.querySelectorAll('tr[data-start]'), function (row, index) {
    records[index].row = row;
    localise(row.querySelector('time[datetime]'));
  });

  // As Java's Instant.toString: the fraction of a second in groups of three digits, as many as it needs.
  function instantText(nanosText) {
    var nanos = BigInt(nanosText);
    var fraction = Number(((nanos % 1000000000n) + 1000000000n) % 1000000000n);
    var seconds = Number((nanos - BigInt(fraction)) / 1000000000n);
    var text = new Date(seconds * 1000).toISOString().slice(0, 19);
    if (fraction === 0) {
      return text + 'Z';
    }
    var digits = String(fraction).padStart(9, '0');
    return text + '.' + (fraction % 1000000 === 0 ? digits.slice(0, 3) : fraction % 1000 === 0 ? digits.slice(0, 6)
      : digits) + 'Z';
  }

  // As SpanIndexPage.formatMillis: whole milliseconds with grouping from 100 ms, one decimal below.
  function millisText(millis) {
    if (millis >= 100) {
      return millis.toFixed(0).replace(/\B(?=(\d{3})+(?!\d))/g, ',') + ' ms';
    }
    return millis.toFixed(1) + ' ms';
  }

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) {
      node.className = className;
    }
    if (text !== undefined) {
      node.textContent = text;
    }
    return node;
  }

  function badge(parent, className, text, title) {
    parent.appendChild(document.createTextNode(' '));
    var node = parent.appendChild(element('span', 'badge ' + className, text));
    if (title) {
      node.title = title;
    }
  }

  // The row the server renders for a span (SpanIndexPage.appendRow), built with the DOM: names stay text.
  function buildRow(r) {
    var row = document.createElement('tr');
    var startText = (base + BigInt(r.startOffset)).toString();
    // As SpanIndexPage.durationText: microseconds as milliseconds with three decimals.
    var durationText = Math.floor(r.durationMicros / 1000) + '.' + String(r.durationMicros % 1000).padStart(3, '0');
    [['start', startText], ['duration', durationText], ['samples', r.samples], ['allocated', r.allocated],
      ['lockwait', r.lockwait], ['name', r.lowerName], ['status', r.status], ['retained', r.retained]]
      .forEach(function (pair) {
        row.setAttribute('data-' + pair[0], String(pair[1]));
      });
    if (r.inFlight) {
      row.className = 'in-flight';
    }
    var instant = instantText(startText);
    var time = element('time', null, localTime(new Date(instant)));
    time.setAttribute('datetime', instant);
    time.title = instant;
    row.appendChild(element('td', 'start')).appendChild(time);
    var span = row.appendChild(element('td', 'span'));
    span.appendChild(element('a', 'span-link', r.name)).setAttribute('href', 'spanprofile/' + r.spanId);
    if (r.inFlight) {
      badge(span, 'in-flight', 'in flight');
    }
    if (r.status === 'ERROR') {
      badge(span, 'error', 'error');
    }
    if (r.retained !== 'recent') {
      badge(span, 'kept', 'kept · ' + r.retained, 'Kept beyond the recent requests: ' + (r.retained === 'slowest'
        ? 'among the slowest of its name' : 'the latest failure of its name in its minute'));
    }
    span.appendChild(element('div', 'sub', r.detail));
    row.appendChild(element('td', 'num duration', millisText(r.duration)));
    row.appendChild(element('td', 'num samples', String(r.samples)));
    if (data.allocated) {
      row.appendChild(element('td', 'num allocated', (r.allocated / (1024 * 1024)).toFixed(1) + ' MB'));
    }
    if (data.lockwait) {
      row.appendChild(element('td', 'num lockwait', millisText(r.lockwait / 1e6)));
    }
    var top = row.appendChild(element('td', 'top'));
    if (r.top.length === 0) {
      top.appendChild(element('span', 'none', r.emptyReason));
    }
    else {
      var list = top.appendChild(element('ol'));
      for (var i = 0; i < r.top.length; i += 2) {
        var item = list.appendChild(element('li'));
        item.title = data.frames[2 * r.top[i]];
        var percent = r.samples > 0 ? 100 * r.top[i + 1] / r.samples : 0;
        item.appendChild(element('span', 'pct', percent.toFixed(0) + '%'));
        item.appendChild(document.createTextNode(' ' + data.frames[2 * r.top[i] + 1]));
      }
    }
    var trace = row.appendChild(element('td', 'trace'))
      .appendChild(element('a', null, r.traceId.substring(0, Math.min(8, r.traceId.length)) + '…'));
    trace.setAttribute('href', 'spanprofile/' + r.traceId);
    trace.title = 'All spans of trace ' + r.traceId + ' in this process';
    return row;
  }

  function rowOf(record) {
    if (!record.row) {
      record.row = buildRow(record);
    }
    return record.row;
  }

  // The first rows of the list in its order; the rest are counted, and offered.
  function render() {
    var rows = visible.slice(0, limit).map(rowOf);
    body.querySelectorAll('tr.empty').forEach(function (row) {
      rows.push(row);
    });
    body.replaceChildren.apply(body, rows);
    offerMore();
  }

  function offerMore() {
    var rest = visible.length - Math.min(limit, visible.length);
    listed.hidden = rest === 0;
    listedText.textContent = 'Listing the first ' + Math.min(limit, visible.length) + ' of ' + visible.length
      + ' spans.';
    showMore.textContent = 'Show ' + Math.min(STEP, rest) + ' more';
    showMore.hidden = rest === 0;
    showAll.hidden = rest <= STEP;
  }

  function compare(a, b) {
    var diff = a[sort.key] - b[sort.key];
    return (sort.descending ? -diff : diff) || a.index - b.index;
  }

  function applySort() {
    visible.sort(compare);
    limit = STEP;
    render();
    table.querySelectorAll('thead button').forEach(function (button) {
      var active = button.dataset.sort === sort.key;
      button.classList.toggle('sorted', active);
      button.classList.toggle('asc', active && !sort.descending);
      button.closest('th').setAttribute('aria-sort', active ? (sort.descending ? 'descending' : 'ascending') : 'none');
    });
  }

  function inBrush(r) {
    var start = r.start / 1e6;
    return start >= brush.t0 && start <= brush.t1 && r.duration >= brush.d0 && r.duration <= brush.d1;
  }

  // Which spans match, in the current order; with {@code initial} the table is left as served when all do.
  function applyFilter(initial) {
    var text = filter.value.trim().toLowerCase();
    visible = [];
    records.forEach(function (r) {
      r.match = (!text || r.lowerName.indexOf(text) >= 0) && (!brush || inBrush(r));
      if (r.match) {
        visible.push(r);
      }
    });
    if (!initial || visible.length < records.length) {
      visible.sort(compare);
      limit = STEP;
      render();
    }
    else {
      offerMore();
    }
    shown.textContent = visible.length + (visible.length === records.length ? '' : ' of ' + records.length)
      + ' spans';
    document.dispatchEvent(new CustomEvent('spanprofile-filtered'));
  }

  table.querySelectorAll('thead button').forEach(function (button) {
    button.addEventListener('click', function () {
      var key = button.dataset.sort;
      sort = { key: key, descending: sort.key === key ? !sort.descending : true };
      applySort();
    });
  });
  filter.addEventListener('input', function () {
    applyFilter(false);
  });
  showMore.addEventListener('click', function () {
    limit += STEP;
    render();
  });
  showAll.addEventListener('click', function () {
    limit = Infinity;
    render();
  });
  document.addEventListener('spanprofile-brush', function (event) {
    brush = event.detail;
    applyFilter(false);
  });
  applyFilter(true);
  window.spanprofileIndex = {
    // Every span, as the scatter draws it: match says whether the list keeps it.
    records: records,
    // The spans the list keeps, in its order (listed or not yet).
    order: function () {
      return visible.map(function (r) {
        return { name: r.lowerName, duration: r.duration, start: r.start };
      });
    },
    // The row this script builds for the index-th span, for comparison with the server's.
    builtRow: function (index) {
      return buildRow(records[index]).outerHTML;
    }
  };
}());
