import { shortName } from './names.mjs';
import { percent } from './format.mjs';

// The line above the graph: the zoom's path as buttons (a long path keeps the root and the last five, a gap
// between), or in a sandwich, which function it shows and a button to close it. Built with DOM calls, never
// markup, since names come from the profiled application.

const SHOWN = 7;

// The nodes of a path to show, -1 standing for the gap.
export function breadcrumbNodes(path) {
  return path.length > SHOWN ? [path[0], -1].concat(path.slice(path.length - (SHOWN - 2))) : path;
}

export function renderBreadcrumb(breadcrumb, path, g, names, samplesText, onZoom) {
  breadcrumb.textContent = '';
  breadcrumbNodes(path).forEach((node, index) => {
    if (index > 0) {
      breadcrumb.appendChild(separator('›'));
    }
    if (node === -1) {
      breadcrumb.appendChild(separator('…'));
      return;
    }
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = shortName(names[g.n[node]]);
    button.title = names[g.n[node]] + ' — ' + samplesText(g.total[node]);
    button.addEventListener('click', () => onZoom(node));
    breadcrumb.appendChild(button);
  });
}

export function renderSandwichLabel(breadcrumb, sandwich, whole, samplesText, back, onClose) {
  breadcrumb.textContent = '';
  const label = document.createElement('span');
  label.id = 'sandwich-label';
  label.textContent = 'Sandwich of ' + shortName(sandwich.name) + ': ' + samplesText(sandwich.total) + ', '
    + percent(sandwich.total, whole) + ' of all — callers above, callees below ';
  label.title = sandwich.name;
  const close = document.createElement('button');
  close.type = 'button';
  close.id = 'sandwich-close';
  close.textContent = '✕ close';
  close.title = 'Back to the ' + back + ' graph (Esc)';
  close.addEventListener('click', onClose);
  breadcrumb.appendChild(label);
  breadcrumb.appendChild(close);
}

function separator(text) {
  const sep = document.createElement('span');
  sep.className = 'sep';
  sep.textContent = text;
  return sep;
}
