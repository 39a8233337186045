// The tooltip that follows the pointer: a title line, then labelled rows; kept inside the window and off the
// frame it describes. The status line under the graph repeats it for keyboards and screen readers.

export function showTooltip(tooltip, statusLine, info, clientX, clientY) {
  tooltip.textContent = '';
  const title = document.createElement('div');
  title.className = 'name';
  title.textContent = info.name;
  tooltip.appendChild(title);
  info.lines.forEach((line) => {
    const div = document.createElement('div');
    div.className = line[0];
    div.textContent = line[1];
    tooltip.appendChild(div);
  });
  tooltip.hidden = false;
  const width = tooltip.offsetWidth;
  const height = tooltip.offsetHeight;
  let left = clientX + 14;
  let top = clientY + 18;
  if (left + width > window.innerWidth - 8) {
    left = Math.max(8, clientX - width - 14);
  }
  if (top + height > window.innerHeight - 8) {
    top = Math.max(8, clientY - height - 14);
  }
  tooltip.style.left = left + 'px';
  tooltip.style.top = top + 'px';
  statusLine.textContent = info.name + ' — ' + info.lines.slice(1).map((l) => l[1]).join(' — ');
}
