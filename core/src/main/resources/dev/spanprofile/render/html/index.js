(function () {
  'use strict';

  var table = document.getElementById('spans');
  var body = table.tBodies[0];
  var filter = document.getElementById('filter');
  var shown = document.getElementById('shown');
  var rows = Array.prototype.slice.call(body.querySelectorAll('tr[data-start]'));
  var sort = { key: 'start', descending: true };
  // A rectangle dragged on the scatter: start times (epoch ms) and durations (ms) the list keeps, or null.
  var brush = null;

  // Times are rendered in UTC on the server; show them in the reader's time zone.
  body.querySelectorAll('time[datetime]').forEach(function (time) {
    var date = new Date(time.getAttribute('datetime'));
    if (!isNaN(date.getTime())) {
      time.textContent = date.toLocaleTimeString(undefined, { hour12: false }) + '.'
        + String(date.getMilliseconds()).padStart(3, '0');
    }
  });

  function value(row, key) {
    return parseFloat(row.dataset[key]) || 0;
  }

  function applySort() {
    rows.sort(function (a, b) {
      var diff = value(a, sort.key) - value(b, sort.key);
      return sort.descending ? -diff : diff;
    });
    rows.forEach(function (row) {
      body.appendChild(row);
    });
    table.querySelectorAll('thead button').forEach(function (button) {
      var active = button.dataset.sort === sort.key;
      button.classList.toggle('sorted', active);
      button.classList.toggle('asc', active && !sort.descending);
      button.closest('th').setAttribute('aria-sort', active ? (sort.descending ? 'descending' : 'ascending') : 'none');
    });
  }

  function inBrush(row) {
    var start = value(row, 'start') / 1e6;
    var duration = value(row, 'duration');
    return start >= brush.t0 && start <= brush.t1 && duration >= brush.d0 && duration <= brush.d1;
  }

  function applyFilter() {
    var text = filter.value.trim().toLowerCase();
    var count = 0;
    rows.forEach(function (row) {
      var match = (!text || row.dataset.name.indexOf(text) >= 0) && (!brush || inBrush(row));
      row.hidden = !match;
      if (match) {
        count++;
      }
    });
    shown.textContent = count + (count === rows.length ? '' : ' of ' + rows.length) + ' spans';
    document.dispatchEvent(new CustomEvent('spanprofile-filtered'));
  }

  table.querySelectorAll('thead button').forEach(function (button) {
    button.addEventListener('click', function () {
      var key = button.dataset.sort;
      sort = { key: key, descending: sort.key === key ? !sort.descending : true };
      applySort();
    });
  });
  filter.addEventListener('input', applyFilter);
  document.addEventListener('spanprofile-brush', function (event) {
    brush = event.detail;
    applyFilter();
  });
  applyFilter();
  window.spanprofileIndex = {
    order: function () {
      return rows.filter(function (row) { return !row.hidden; }).map(function (row) {
        return { name: row.dataset.name, duration: value(row, 'duration'), start: value(row, 'start') };
      });
    }
  };
}());
