import { MARGIN, clockText, decadeText, scatterRange, scatterScale } from './scatter-scale.mjs';
import { brushOf, describePoint, dragMoved, nearest, pointsOf } from './scatter-points.mjs';
import { paintDots } from './dots.mjs';

// The listed spans as points: start time across, duration up on a log scale. Read from the list's own records
// (all of them, not only the rows in the table), so the picture and the list can never disagree. A click opens a
// span; a drag keeps only the spans inside it (onBrush tells the list).

export function createScatter(canvas, records, onBrush) {
  const status = document.getElementById('scatter-status');
  const clear = document.getElementById('scatter-clear');
  const points = pointsOf(records);
  const range = scatterRange(points);
  let layout = null;
  let scale = null;
  let drag = null;
  let brush = null;
  // The points' pixels, kept until the size or the filter changes, so a drag's rectangle redraws over it without
  // repainting the points.
  let layer = null;

  function measure() {
    const width = Math.max(240, canvas.parentElement.clientWidth);
    const height = width < 600 ? 180 : 220;
    const ratio = window.devicePixelRatio || 1;
    canvas.style.height = height + 'px';
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
    layout = { width, height, ratio };
    scale = scatterScale(range, width, height);
    layer = null;
    for (const p of points) {
      p.x = scale.xOf(p.start);
      p.y = scale.yOf(p.duration);
    }
  }

  function paintLayer() {
    const image = paintDots(new ImageData(canvas.width, canvas.height), points, layout.ratio);
    const target = document.createElement('canvas');
    target.width = canvas.width;
    target.height = canvas.height;
    target.getContext('2d').putImageData(image, 0, 0);
    return target;
  }

  function draw() {
    const ctx = canvas.getContext('2d');
    const { width, height, ratio } = layout;
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, width, height);
    ctx.font = '11px system-ui, sans-serif';
    ctx.fillStyle = '#5b6475';
    ctx.strokeStyle = '#e4e7ec';
    ctx.lineWidth = 1;
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    for (let decade = range.l0; decade <= range.l1; decade++) {
      const y = Math.round(scale.yOf(Math.pow(10, decade))) + 0.5;
      ctx.beginPath();
      ctx.moveTo(MARGIN.left, y);
      ctx.lineTo(width - MARGIN.right, y);
      ctx.stroke();
      ctx.fillText(decadeText(Math.pow(10, decade)), MARGIN.left - 4, y);
    }
    ctx.textBaseline = 'top';
    for (let i = 0; i <= 4; i++) {
      const t = range.t0 + (range.t1 - range.t0) * i / 4;
      ctx.textAlign = i === 0 ? 'left' : i === 4 ? 'right' : 'center';
      ctx.fillText(clockText(t), scale.xOf(t), height - MARGIN.bottom + 6);
    }
    if (!layer) {
      layer = paintLayer();
    }
    ctx.save();
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.drawImage(layer, 0, 0);
    ctx.restore();
    ctx.beginPath();
    for (const p of points) {
      if (p.kept && !p.hidden) {
        ctx.moveTo(p.x + 6, p.y);
        ctx.arc(p.x, p.y, 6, 0, 2 * Math.PI);
      }
    }
    ctx.strokeStyle = '#1d2330';
    ctx.lineWidth = 1.5;
    ctx.stroke();
    const box = drag && drag.moved ? drag : brush
      ? { x0: scale.xOf(brush.t0), x1: scale.xOf(brush.t1), y0: scale.yOf(brush.d1), y1: scale.yOf(brush.d0) } : null;
    if (box) {
      ctx.save();
      ctx.setLineDash([4, 3]);
      ctx.strokeStyle = '#0b62c4';
      ctx.lineWidth = 1.5;
      ctx.strokeRect(Math.min(box.x0, box.x1), Math.min(box.y0, box.y1), Math.abs(box.x1 - box.x0),
        Math.abs(box.y1 - box.y0));
      ctx.restore();
    }
  }

  function local(event) {
    const box = canvas.getBoundingClientRect();
    return { x: event.clientX - box.left, y: event.clientY - box.top };
  }

  function setBrush(next) {
    brush = next;
    clear.hidden = !brush;
    onBrush(brush);
    draw();
  }

  canvas.addEventListener('pointerdown', (event) => {
    const at = local(event);
    drag = { x0: at.x, y0: at.y, x1: at.x, y1: at.y, moved: false };
    canvas.setPointerCapture(event.pointerId);
  });
  canvas.addEventListener('pointermove', (event) => {
    const at = local(event);
    if (drag) {
      drag.x1 = at.x;
      drag.y1 = at.y;
      drag.moved = dragMoved(drag);
      draw();
      return;
    }
    const p = nearest(points, at.x, at.y);
    canvas.style.cursor = p ? 'pointer' : 'crosshair';
    status.textContent = p ? describePoint(p) : '';
  });
  canvas.addEventListener('pointerup', () => {
    if (!drag) {
      return;
    }
    const done = drag;
    drag = null;
    if (!done.moved) {
      const p = nearest(points, done.x0, done.y0);
      if (p && p.href) {
        window.location.href = p.href;
      }
      draw();
      return;
    }
    setBrush(brushOf(done, scale));
  });
  canvas.addEventListener('pointercancel', () => {
    drag = null;
    draw();
  });
  clear.addEventListener('click', () => setBrush(null));
  // The canvas's width changes without a window resize too (a scroll bar appearing as the page grows).
  new ResizeObserver(() => {
    if (points.length > 0) {
      measure();
      draw();
    }
  }).observe(canvas.parentElement);

  let drawMillis = 0;
  if (points.length === 0) {
    canvas.hidden = true;
  }
  else {
    const began = performance.now();
    measure();
    draw();
    drawMillis = performance.now() - began;
    performance.mark('spanprofile-scatter-drawn');
  }

  return {
    // The list kept other spans: hidden ones turn faint.
    refilter() {
      for (const p of points) {
        p.hidden = !p.record.match;
      }
      layer = null;
      if (layout) {
        draw();
      }
    },
    // For tests and tools: where each listed span is drawn, in CSS pixels on the canvas.
    api: {
      points: () => points.map((p) => ({ x: p.x, y: p.y, kind: p.kind, kept: !!p.kept, href: p.href,
        hidden: p.hidden })),
      brush: () => brush,
      drawMillis: () => drawMillis,
      yOf: (durationMillis) => (layout ? scale.yOf(durationMillis) : null)
    }
  };
}
