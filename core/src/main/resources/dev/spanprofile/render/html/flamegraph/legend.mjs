// The parts of the page around the graph that only need the data once: the legend of the categories this graph
// holds, and the widths of the time breakdown's bar (the server lists the parts; only widths are set here, since
// the page's policy allows no inline style attribute).

export function renderLegend(legend, frameCategories, categories, swatch) {
  const present = new Uint8Array(frameCategories.length);
  for (let i = 0; i < categories.length; i++) {
    present[categories[i]] = 1;
  }
  legend.textContent = '';
  frameCategories.forEach((frameCategory, category) => {
    if (!present[category] || !frameCategory.legend) {
      return;
    }
    const item = document.createElement('li');
    item.dataset.category = frameCategory.id;
    const mark = document.createElement('i');
    mark.className = 'swatch';
    mark.style.background = swatch(category);
    item.appendChild(mark);
    item.appendChild(document.createTextNode(frameCategory.label));
    legend.appendChild(item);
  });
}

export function sizeTimeBar(bar) {
  if (!bar) {
    return;
  }
  const scale = Number(bar.dataset.scale);
  bar.querySelectorAll('.seg').forEach((segment) => {
    const share = scale > 0 ? Number(segment.dataset.nanos) / scale : 0;
    segment.style.width = (100 * share).toFixed(3) + '%';
  });
}
