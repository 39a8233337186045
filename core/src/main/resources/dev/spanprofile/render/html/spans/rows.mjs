import { durationText, instantText, localTime, millisText } from './format.mjs';

// The row the server renders for a span (SpanIndexPage.appendRow), built with the DOM so that names stay text. What
// goes in it is worked out by the functions before buildRow, which only assembles elements.

// The row's data attributes, which sorting and tests read: exact start nanoseconds, duration in milliseconds.
export function rowAttributes(record, base) {
  return [['start', (base + BigInt(record.startOffset)).toString()], ['duration', durationText(record.durationMicros)],
    ['samples', record.samples], ['allocated', record.allocated], ['lockwait', record.lockwait],
    ['name', record.lowerName], ['status', record.status], ['retained', record.retained]]
    .map(([key, value]) => [key, String(value)]);
}

// The badges after the span's name: running, failed, kept beyond the recent requests.
// Why a request is kept beyond the recent ones, as SpanIndexPage says it.
const KEPT_BECAUSE = {
  slowest: 'among the slowest of its name',
  error: 'the latest failure of its name in its minute',
  forced: 'asked for by its caller (on-demand header or capture)',
};

export function badgesOf(record) {
  const badges = [];
  if (record.inFlight) {
    badges.push({ className: 'in-flight', text: 'in flight' });
  }
  if (record.status === 'ERROR') {
    badges.push({ className: 'error', text: 'error' });
  }
  if (record.retained !== 'recent') {
    badges.push({ className: 'kept', text: 'kept · ' + record.retained, title: 'Kept beyond the recent requests: '
      + (KEPT_BECAUSE[record.retained] ?? KEPT_BECAUSE.error) });
  }
  return badges;
}

// Below this many samples a share says nothing (one sample is "100%"): the count is shown instead, as SpanIndexPage
// does.
export const FEW_SAMPLES = 3;

// The span's top frames by self time: the full name as the title, the short one shown, the share of its samples (of
// a span with few samples, how many).
export function topFrames(record, frames) {
  const top = [];
  for (let i = 0; i < record.top.length; i += 2) {
    const frame = record.top[i];
    const samples = record.top[i + 1];
    const percent = record.samples > 0 ? 100 * samples / record.samples : 0;
    top.push({ title: frames[2 * frame], name: frames[2 * frame + 1],
      percent: record.samples < FEW_SAMPLES ? samples + (samples === 1 ? ' sample' : ' samples')
        : percent.toFixed(0) + '%' });
  }
  return top;
}

export function traceLink(traceId) {
  return { text: traceId.substring(0, Math.min(8, traceId.length)) + '…', href: 'spanprofile/' + traceId,
    title: 'All spans of trace ' + traceId + ' in this process' };
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) {
    node.className = className;
  }
  if (text !== undefined) {
    node.textContent = text;
  }
  return node;
}

// page: data (the block: which weight columns it has, the frame table) and base (BigInt start nanoseconds).
export function buildRow(record, page) {
  const data = page.data;
  const row = document.createElement('tr');
  const attributes = rowAttributes(record, page.base);
  attributes.forEach(([key, value]) => row.setAttribute('data-' + key, value));
  if (record.inFlight) {
    row.className = 'in-flight';
  }
  const instant = instantText(attributes[0][1]);
  const time = element('time', null, localTime(new Date(instant)));
  time.setAttribute('datetime', instant);
  time.title = instant;
  row.appendChild(element('td', 'start')).appendChild(time);
  const span = row.appendChild(element('td', 'span'));
  span.appendChild(element('a', 'span-link', record.name)).setAttribute('href', 'spanprofile/' + record.spanId);
  for (const badge of badgesOf(record)) {
    span.appendChild(document.createTextNode(' '));
    const node = span.appendChild(element('span', 'badge ' + badge.className, badge.text));
    if (badge.title) {
      node.title = badge.title;
    }
  }
  span.appendChild(element('div', 'sub', record.detail));
  row.appendChild(element('td', 'num duration', millisText(record.duration)));
  row.appendChild(element('td', 'num samples', String(record.samples)));
  if (data.allocated) {
    row.appendChild(element('td', 'num allocated', (record.allocated / (1024 * 1024)).toFixed(1) + ' MB'));
  }
  if (data.lockwait) {
    row.appendChild(element('td', 'num lockwait', millisText(record.lockwait / 1e6)));
  }
  const top = row.appendChild(element('td', 'top'));
  if (record.top.length === 0) {
    top.appendChild(element('span', 'none', record.emptyReason));
  }
  else {
    const list = top.appendChild(element('ol'));
    for (const frame of topFrames(record, data.frames)) {
      const item = list.appendChild(element('li'));
      item.title = frame.title;
      item.appendChild(element('span', 'pct', frame.percent));
      item.appendChild(document.createTextNode(' ' + frame.name));
    }
  }
  const link = traceLink(record.traceId);
  const trace = row.appendChild(element('td', 'trace')).appendChild(element('a', null, link.text));
  trace.setAttribute('href', link.href);
  trace.title = link.title;
  return row;
}
