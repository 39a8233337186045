import { shortName } from './names.mjs';
import { percent } from './format.mjs';

// The top self-time table: functions over all their call sites, sorted by self or total weight; a row's click
// searches for the function, its ⇅ button opens the function's sandwich. Rows are built with DOM calls (never
// markup), since names come from the profiled application.

const ROWS = 60;

export function renderTable(body, page, sortKey, onPick, onSandwich) {
  const { names, categories, frameCategories, totals, whole, samplesText, swatch } = page;
  const key = totals[sortKey];
  const ids = [];
  for (let i = 0; i < names.length; i++) {
    if (totals.self[i] > 0 && frameCategories[categories[i]].table) {
      ids.push(i);
    }
  }
  ids.sort((a, b) => (key[b] - key[a]) || (totals.self[b] - totals.self[a]));
  body.textContent = '';
  ids.slice(0, ROWS).forEach((id) => {
    const row = document.createElement('tr');
    row.dataset.frame = names[id];
    row.title = names[id] + '\nSelf: ' + samplesText(totals.self[id]) + '\nTotal: ' + samplesText(totals.total[id])
      + '\nClick to highlight it in the graph';
    const fn = document.createElement('td');
    fn.className = 'fn';
    const swatchMark = document.createElement('i');
    swatchMark.className = 'swatch';
    swatchMark.style.background = swatch(categories[id]);
    fn.appendChild(swatchMark);
    const sandwich = document.createElement('button');
    sandwich.type = 'button';
    sandwich.className = 'sandwich';
    sandwich.textContent = '⇅';
    sandwich.title = 'Callers and callees of ' + names[id] + ' (sandwich)';
    sandwich.setAttribute('aria-label', sandwich.title);
    sandwich.addEventListener('click', (event) => {
      event.stopPropagation();
      onSandwich(id);
    });
    fn.appendChild(sandwich);
    fn.appendChild(document.createTextNode(' ' + shortName(names[id])));
    const selfCell = document.createElement('td');
    selfCell.className = 'num';
    selfCell.textContent = percent(totals.self[id], whole);
    const totalCell = document.createElement('td');
    totalCell.className = 'num';
    totalCell.textContent = percent(totals.total[id], whole);
    row.appendChild(fn);
    row.appendChild(selfCell);
    row.appendChild(totalCell);
    row.addEventListener('click', () => {
      body.querySelectorAll('tr.active').forEach((r) => r.classList.remove('active'));
      row.classList.add('active');
      onPick(id);
    });
    body.appendChild(row);
  });
}
