import { millisText } from './format.mjs';
import { PAD, axisTimes } from './scale.mjs';
import { AXIS, BAR, LABEL, fitText, laneTop, placeEntries, waitColour } from './lanes.mjs';

// Paints the timeline: the axis, a lane per thread, waits with their labels, then sample ticks over them (a sample
// taken during a wait, of another kind, stays visible), and the selected stretch. Returns what it placed where.

const FONT = '11px system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif';
const CPU = '#e8772e';
const OTHER = '#9aa3b2';

export function drawTimeline(ctx, view) {
  const { width, height, ratio, scale, lanes, entries, shown } = view;
  const measure = (text) => ctx.measureText(text).width;
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, width, height);
  ctx.font = FONT;
  ctx.textBaseline = 'middle';
  ctx.fillStyle = '#5b6475';
  ctx.strokeStyle = '#e4e7ec';
  ctx.lineWidth = 1;
  for (const t of axisTimes(scale.duration, width)) {
    const tx = Math.round(scale.x(t)) + 0.5;
    ctx.beginPath();
    ctx.moveTo(tx, AXIS - 4);
    ctx.lineTo(tx, height);
    ctx.stroke();
    const text = t === 0 ? '0' : millisText(t);
    const textWidth = measure(text);
    ctx.fillText(text, Math.min(width - textWidth - 2, Math.max(2, tx - textWidth / 2)), AXIS / 2);
  }
  lanes.forEach((lane, index) => {
    const top = laneTop(index);
    ctx.fillStyle = '#5b6475';
    ctx.fillText(fitText(lane.thread, width - 2 * PAD, measure), PAD, top + LABEL / 2);
    ctx.fillStyle = '#f5f6f8';
    ctx.fillRect(PAD, top + LABEL, width - 2 * PAD, BAR);
  });
  const placed = placeEntries(entries, scale);
  for (const wait of placed.waits) {
    ctx.fillStyle = waitColour(wait.label);
    ctx.fillRect(wait.x, wait.y, wait.width, BAR);
    const fitted = wait.width > 24 ? fitText(wait.label || '', wait.width - 6, measure) : '';
    if (fitted) {
      ctx.fillStyle = '#17191e';
      ctx.fillText(fitted, wait.x + 3, wait.y + BAR / 2);
    }
  }
  for (const tick of placed.ticks) {
    const top = laneTop(tick.lane) + LABEL;
    const cpu = tick.kind === 'cpu';
    ctx.fillStyle = cpu ? CPU : OTHER;
    ctx.fillRect(tick.x - 0.75, cpu ? top : top + BAR * 2 / 3, 1.5, cpu ? BAR : BAR / 3);
  }
  if (shown) {
    const sx = scale.x(shown[0]);
    const sw = Math.max(1, scale.x(shown[1]) - sx);
    ctx.fillStyle = 'rgba(11, 98, 196, 0.14)';
    ctx.fillRect(sx, AXIS, sw, height - AXIS);
    ctx.strokeStyle = '#0b62c4';
    ctx.strokeRect(sx + 0.5, AXIS + 0.5, sw - 1, height - AXIS - 1);
  }
  return placed;
}
