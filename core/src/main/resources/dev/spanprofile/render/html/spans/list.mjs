import { localTime } from './format.mjs';
import { buildRow } from './rows.mjs';
import { comparator, listedLine, matching, nextSort, shownText } from './order.mjs';

// The span table. The server renders the first rows; every span also comes as data, from which this sorts,
// filters and lists rows, building each row beyond the first ones only when it is to be shown. A table of 50,000
// laid-out rows would keep the page busy for seconds; the scatter draws all of them from the data.

// Times are rendered in UTC on the server; show them in the reader's time zone.
function localise(time) {
  const date = new Date(time.getAttribute('datetime'));
  if (!isNaN(date.getTime())) {
    time.textContent = localTime(date);
  }
}

// page: data (the block), base and records (readRecords); onFiltered is told after each change of the kept spans.
export function createSpanList(page, onFiltered) {
  const $ = (id) => document.getElementById(id);
  const table = $('spans');
  const body = table.tBodies[0];
  const filter = $('filter');
  const shown = $('shown');
  const listed = $('listed');
  const listedText = $('listed-text');
  const showMore = $('show-more');
  const showAll = $('show-all');
  const records = page.records;
  const step = page.data.listed || 100;
  let visible = records.slice();
  let limit = step;
  let sort = { key: 'start', descending: true };
  let brush = null;

  // The rows the server rendered belong to the first records, in the same order.
  body.querySelectorAll('tr[data-start]').forEach((row, index) => {
    records[index].row = row;
    localise(row.querySelector('time[datetime]'));
  });

  function rowOf(record) {
    if (!record.row) {
      record.row = buildRow(record, page);
    }
    return record.row;
  }

  function offerMore() {
    const line = listedLine(visible.length, limit, step);
    listed.hidden = line.hidden;
    listedText.textContent = line.text;
    showMore.textContent = line.more;
    showMore.hidden = line.moreHidden;
    showAll.hidden = line.allHidden;
  }

  // The first rows of the list in its order; the rest are counted, and offered.
  function render() {
    const rows = visible.slice(0, limit).map(rowOf);
    body.querySelectorAll('tr.empty').forEach((row) => rows.push(row));
    body.replaceChildren(...rows);
    offerMore();
  }

  function applySort() {
    visible.sort(comparator(sort));
    limit = step;
    render();
    table.querySelectorAll('thead button').forEach((button) => {
      const active = button.dataset.sort === sort.key;
      button.classList.toggle('sorted', active);
      button.classList.toggle('asc', active && !sort.descending);
      button.closest('th').setAttribute('aria-sort', active ? (sort.descending ? 'descending' : 'ascending') : 'none');
    });
  }

  // Which spans match, in the current order; with initial the table is left as served when all do.
  function applyFilter(initial) {
    visible = matching(records, filter.value, brush);
    if (!initial || visible.length < records.length) {
      visible.sort(comparator(sort));
      limit = step;
      render();
    }
    else {
      offerMore();
    }
    shown.textContent = shownText(visible.length, records.length);
    onFiltered();
  }

  table.querySelectorAll('thead button').forEach((button) => {
    button.addEventListener('click', () => {
      sort = nextSort(sort, button.dataset.sort);
      applySort();
    });
  });
  filter.addEventListener('input', () => applyFilter(false));
  showMore.addEventListener('click', () => {
    limit += step;
    render();
  });
  showAll.addEventListener('click', () => {
    limit = Infinity;
    render();
  });
  applyFilter(true);

  return {
    // A rectangle dragged on the scatter (or null): the list keeps only the spans inside it.
    brush(next) {
      brush = next;
      applyFilter(false);
    },
    // The spans the list keeps, in its order (listed or not yet).
    order: () => visible.map((r) => ({ name: r.lowerName, duration: r.duration, start: r.start })),
    // The row this script builds for the index-th span, for comparison with the server's.
    builtRow: (index) => buildRow(records[index], page).outerHTML
  };
}
