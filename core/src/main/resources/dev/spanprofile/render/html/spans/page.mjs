import { readRecords } from './records.mjs';
import { createSpanList } from './list.mjs';
import { createScatter } from './scatter.mjs';
import { createCaptures, endpointAddress } from './captures.mjs';

// The span list page: reads the spans from the page's inert JSON block into records, which the table and the
// scatter above it share; a rectangle dragged on the scatter filters the table, and the table's filter fades the
// scatter's points.

const data = JSON.parse(document.getElementById('spans-data').textContent);
const { base, records } = readRecords(data);
let scatter = null;
const list = createSpanList({ data, base, records }, () => {
  if (scatter) {
    scatter.refilter();
  }
});
window.spanprofileIndex = { records, order: list.order, builtRow: list.builtRow };

const capturesSection = document.getElementById('captures');
if (capturesSection) {
  createCaptures(capturesSection, {
    send: (url, init) => fetch(url, init),
    reload: () => location.reload(),
    address: endpointAddress(location)
  });
}

const scatterCanvas = document.getElementById('scatter-canvas');
if (scatterCanvas) {
  scatter = createScatter(scatterCanvas, records, list.brush);
  // Ready once the frame with the scatter and the list's first rows has been drawn.
  requestAnimationFrame(() => setTimeout(() => performance.mark('spanprofile-index-ready')));
  window.spanprofileScatter = scatter.api;
}
