import { createRequire } from 'node:module';
import { createCanvas, GlobalFonts, type Image, loadImage, type SKRSContext2D } from '@napi-rs/canvas';
import type { ImageGradient, ImageLayer } from '@social/contracts';
import type { RenderJob, RenderOutcome } from './render-job.js';

/** The bundled font (Inter, SIL OFL, from @fontsource/inter): text renders the same on every machine, fonts installed or not. */
export const BUNDLED_FONT = 'Inter';
let fontsRegistered = false;

export function registerFonts(): void {
  if (fontsRegistered) return;
  const require = createRequire(import.meta.url);
  for (const weight of ['400', '700']) {
    GlobalFonts.registerFromPath(require.resolve(`@fontsource/inter/files/inter-latin-${weight}-normal.woff2`), BUNDLED_FONT);
  }
  fontsRegistered = true;
}

type Ctx = SKRSContext2D;
const BLEND_MODES: Record<string, Ctx['globalCompositeOperation']> = {
  normal: 'source-over',
  multiply: 'multiply',
  screen: 'screen',
  overlay: 'overlay',
  darken: 'darken',
  lighten: 'lighten',
  'color-dodge': 'color-dodge',
  'color-burn': 'color-burn',
  difference: 'difference',
  exclusion: 'exclusion',
};

/** Renders one page into PNG or JPEG bytes; images are decoded first (the media that cannot be are named). */
export async function renderPage(job: RenderJob): Promise<RenderOutcome> {
  registerFonts();
  const images = new Map<string, Image>();
  const undecodable: string[] = [];
  for (const { mediaId, bytes } of job.images) {
    try {
      images.set(mediaId, await loadImage(Buffer.from(bytes)));
    } catch {
      undecodable.push(mediaId);
    }
  }
  if (undecodable.length > 0) return { ok: false, undecodable };
  const canvas = createCanvas(job.width, job.height);
  const ctx = canvas.getContext('2d');
  if (job.format === 'jpeg') {
    ctx.fillStyle = job.matteColor || '#ffffff';
    ctx.fillRect(0, 0, job.width, job.height);
  }
  paintBackground(ctx, job, images);
  const layers = job.page.layers ?? [];
  const children = new Map<string, ImageLayer[]>();
  for (const layer of layers) {
    const parent = layer.parent_id ?? '';
    children.set(parent, [...(children.get(parent) ?? []), layer]);
  }
  const paintAll = (parent: string, depth: number) => {
    for (const layer of children.get(parent) ?? []) {
      if (layer.visible === false) continue;
      if (layer.type === 'group') {
        ctx.save();
        ctx.globalAlpha *= layer.opacity ?? 1;
        if (depth < 32) paintAll(layer.id, depth + 1);
        ctx.restore();
      } else {
        paintLayer(ctx, layer, images, job);
      }
    }
  };
  paintAll('', 0);
  const bytes = job.format === 'jpeg' ? await canvas.encode('jpeg', Math.round(job.quality * 100)) : await canvas.encode('png');
  return { ok: true, bytes: new Uint8Array(bytes) };
}

function gradientOf(ctx: Ctx, gradient: ImageGradient, x: number, y: number, width: number, height: number): Ctx['fillStyle'] {
  const stops = gradient.stops ?? [];
  if (stops.length === 0) return 'transparent';
  // Points are fractions of the box (0–1); the default runs top to bottom.
  const start = { x: x + (gradient.start?.x ?? 0) * width, y: y + (gradient.start?.y ?? 0) * height };
  const end = { x: x + (gradient.end?.x ?? 0) * width, y: y + (gradient.end?.y ?? 1) * height };
  const fill =
    gradient.type === 'radial'
      ? ctx.createRadialGradient(start.x, start.y, 0, start.x, start.y, Math.hypot(end.x - start.x, end.y - start.y) || 1)
      : ctx.createLinearGradient(start.x, start.y, end.x, end.y);
  for (const stop of stops) {
    const offset = Math.min(1, Math.max(0, stop.offset ?? 0));
    try {
      fill.addColorStop(gradient.reverse ? 1 - offset : offset, stop.color || 'transparent');
    } catch {
      // A colour the rasterizer cannot read is left out.
    }
  }
  return fill;
}

function drawFitted(
  ctx: Ctx,
  image: Image,
  fit: string | undefined,
  x: number,
  y: number,
  width: number,
  height: number,
  crop?: { x?: number; y?: number; width?: number; height?: number },
) {
  const sx = crop?.x ?? 0;
  const sy = crop?.y ?? 0;
  const sw = crop?.width || image.width - sx;
  const sh = crop?.height || image.height - sy;
  if (sw <= 0 || sh <= 0 || width <= 0 || height <= 0) return;
  if (fit === 'fill') return ctx.drawImage(image, sx, sy, sw, sh, x, y, width, height);
  const scale = fit === 'contain' ? Math.min(width / sw, height / sh) : Math.max(width / sw, height / sh);
  const dw = sw * scale;
  const dh = sh * scale;
  ctx.save();
  ctx.beginPath();
  ctx.rect(x, y, width, height);
  ctx.clip();
  ctx.drawImage(image, sx, sy, sw, sh, x + (width - dw) / 2, y + (height - dh) / 2, dw, dh);
  ctx.restore();
}

function paintBackground(ctx: Ctx, job: RenderJob, images: Map<string, Image>) {
  const background = job.page.background ?? {};
  ctx.save();
  ctx.globalAlpha = background.opacity ?? 1;
  const type = background.type ?? 'transparent';
  if (type === 'color') {
    ctx.fillStyle = background.color || job.page.background_color || '#ffffff';
    ctx.fillRect(0, 0, job.width, job.height);
  } else if (type === 'gradient' && background.gradient) {
    ctx.fillStyle = gradientOf(ctx, background.gradient, 0, 0, job.width, job.height);
    ctx.fillRect(0, 0, job.width, job.height);
  } else if (type === 'image' && background.image?.media_id) {
    const image = images.get(background.image.media_id);
    if (image) drawFitted(ctx, image, background.image.fit ?? 'cover', 0, 0, job.width, job.height);
  }
  ctx.restore();
}

function paintLayer(ctx: Ctx, layer: ImageLayer, images: Map<string, Image>, job: RenderJob) {
  const t = layer.transform ?? {};
  const width = t.width || job.width;
  const height = t.height || job.height;
  ctx.save();
  ctx.globalAlpha *= layer.opacity ?? 1;
  ctx.globalCompositeOperation = BLEND_MODES[layer.effects?.blend_mode ?? 'normal'] ?? 'source-over';
  ctx.translate((t.x ?? 0) + width / 2, (t.y ?? 0) + height / 2);
  ctx.rotate(((t.rotation ?? 0) * Math.PI) / 180);
  ctx.scale(t.flip_x ? -1 : 1, t.flip_y ? -1 : 1);
  ctx.translate(-width / 2, -height / 2);
  const shadow = layer.effects?.drop_shadow;
  if (shadow && (shadow.opacity ?? 1) > 0 && shadow.color) {
    const angle = ((shadow.angle ?? 90) * Math.PI) / 180;
    ctx.shadowColor = shadow.color;
    ctx.shadowBlur = shadow.blur ?? 0;
    ctx.shadowOffsetX = Math.cos(angle) * (shadow.distance ?? 0);
    ctx.shadowOffsetY = Math.sin(angle) * (shadow.distance ?? 0);
  }
  if (layer.mask) {
    const inset = layer.mask.inset ?? 0;
    ctx.beginPath();
    if (layer.mask.shape === 'ellipse')
      ctx.ellipse(width / 2, height / 2, Math.max(0, width / 2 - inset), Math.max(0, height / 2 - inset), 0, 0, Math.PI * 2);
    else ctx.roundRect(inset, inset, Math.max(0, width - 2 * inset), Math.max(0, height - 2 * inset), layer.mask.radius ?? 0);
    ctx.clip();
  }
  switch (layer.type) {
    case 'shape':
      paintShape(ctx, layer, width, height);
      break;
    case 'text':
      paintText(ctx, layer, width);
      break;
    case 'image': {
      const image = layer.image?.media_id ? images.get(layer.image.media_id) : undefined;
      if (image) {
        const a = layer.image?.adjustments;
        const filters: string[] = [];
        if (a?.brightness) filters.push(`brightness(${Math.max(0, 1 + a.brightness / 100)})`);
        if (a?.contrast) filters.push(`contrast(${Math.max(0, 1 + a.contrast / 100)})`);
        if (a?.saturation) filters.push(`saturate(${Math.max(0, 1 + a.saturation / 100)})`);
        if (a?.hue) filters.push(`hue-rotate(${a.hue}deg)`);
        if (a?.blur) filters.push(`blur(${Math.max(0, a.blur)}px)`);
        if (filters.length > 0) ctx.filter = filters.join(' ');
        drawFitted(ctx, image, layer.image?.fit ?? 'cover', 0, 0, width, height, layer.image?.crop);
      }
      break;
    }
    case 'paint':
      paintStroke(ctx, layer);
      break;
  }
  const stroke = layer.effects?.stroke;
  if (stroke && (stroke.width ?? 0) > 0 && stroke.color) {
    ctx.shadowColor = 'transparent';
    ctx.globalAlpha *= stroke.opacity ?? 1;
    ctx.strokeStyle = stroke.color;
    ctx.lineWidth = stroke.width!;
    ctx.strokeRect(0, 0, width, height);
  }
  ctx.restore();
}

function paintShape(ctx: Ctx, layer: ImageLayer, width: number, height: number) {
  const shape = layer.shape ?? {};
  ctx.beginPath();
  if (shape.kind === 'ellipse') ctx.ellipse(width / 2, height / 2, width / 2, height / 2, 0, 0, Math.PI * 2);
  else if (shape.kind === 'line') {
    ctx.moveTo(0, height / 2);
    ctx.lineTo(width, height / 2);
  } else ctx.roundRect(0, 0, width, height, Math.min(shape.radius ?? 0, width / 2, height / 2));
  if (shape.kind !== 'line' && shape.fill) {
    ctx.fillStyle = shape.fill;
    ctx.fill();
  }
  const strokeWidth = shape.stroke_width ?? (shape.kind === 'line' ? 1 : 0);
  if (strokeWidth > 0 && (shape.stroke || shape.kind === 'line')) {
    ctx.shadowColor = 'transparent';
    ctx.strokeStyle = shape.stroke || shape.fill || '#000000';
    ctx.lineWidth = strokeWidth;
    ctx.stroke();
  }
}

function wrapLines(ctx: Ctx, text: string, maxWidth: number, wrap: boolean): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    if (!wrap) {
      lines.push(paragraph);
      continue;
    }
    let line = '';
    for (const word of paragraph.split(/\s+/)) {
      const candidate = line ? `${line} ${word}` : word;
      if (line && ctx.measureText(candidate).width > maxWidth) {
        lines.push(line);
        line = word;
      } else line = candidate;
    }
    lines.push(line);
  }
  return lines;
}

function paintText(ctx: Ctx, layer: ImageLayer, width: number) {
  const t = layer.text ?? {};
  const content = t.text ?? '';
  if (!content) return;
  const size = t.font_size ?? 32;
  const family = t.font_family ? `"${t.font_family.replace(/"/g, '')}", ${BUNDLED_FONT}` : BUNDLED_FONT;
  ctx.font = `${t.font_style === 'italic' ? 'italic ' : ''}${t.font_weight ?? 400} ${size}px ${family}, sans-serif`;
  ctx.textBaseline = 'top';
  const align = (t.align ?? 'left') as Ctx['textAlign'];
  ctx.textAlign = align;
  const x = align === 'center' ? width / 2 : align === 'right' ? width : 0;
  const lineHeight = size * (t.line_height || 1.2);
  if (t.shadow?.color) {
    ctx.shadowColor = t.shadow.color;
    ctx.shadowBlur = t.shadow.blur ?? 0;
    ctx.shadowOffsetX = t.shadow.offset_x ?? 0;
    ctx.shadowOffsetY = t.shadow.offset_y ?? 0;
  }
  const lines = wrapLines(ctx, content, width, (t.wrap ?? 'word') !== 'none');
  lines.forEach((line, index) => {
    const y = index * lineHeight;
    const measured = ctx.measureText(line).width;
    const left = align === 'center' ? x - measured / 2 : align === 'right' ? x - measured : x;
    if (t.highlight_color) {
      ctx.save();
      ctx.fillStyle = t.highlight_color;
      ctx.fillRect(left, y, measured, lineHeight);
      ctx.restore();
    }
    ctx.fillStyle = t.color || '#000000';
    ctx.fillText(line, x, y);
    if ((t.stroke_width ?? 0) > 0 && t.stroke_color) {
      ctx.strokeStyle = t.stroke_color;
      ctx.lineWidth = t.stroke_width!;
      ctx.strokeText(line, x, y);
    }
    for (const [on, at] of [
      [t.underline, size * 1.05],
      [t.strike, size * 0.55],
    ] as const) {
      if (!on) continue;
      ctx.fillRect(left, y + at, measured, Math.max(1, size / 15));
    }
  });
}

function paintStroke(ctx: Ctx, layer: ImageLayer) {
  const paint = layer.paint ?? {};
  const points = paint.points ?? [];
  if (points.length === 0) return;
  ctx.globalAlpha *= paint.opacity ?? 1;
  ctx.strokeStyle = paint.color || '#000000';
  ctx.lineWidth = paint.size ?? 4;
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  ctx.beginPath();
  ctx.moveTo(points[0].x ?? 0, points[0].y ?? 0);
  for (const point of points.slice(1)) ctx.lineTo(point.x ?? 0, point.y ?? 0);
  if (points.length === 1) ctx.lineTo((points[0].x ?? 0) + 0.01, points[0].y ?? 0);
  ctx.stroke();
}
