import { describe, expect, it, jest } from '@jest/globals';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import type { ImageEditorDocument, ImagePage } from '@social/contracts';
import { Problem } from '@social/platform';
import { renderPage } from './page-painter.js';
import { checkRenderBudget } from './render-budget.js';
import { WarmWorkers, WorkerTimeout } from './worker-runner.js';

const page = (layers: number): ImagePage => ({
  id: 'p',
  layers: Array.from({ length: layers }, (_, i) => ({ id: `l${i}`, type: 'shape' })),
});
const document = (width: number, height: number, pages: ImagePage[]): ImageEditorDocument => ({
  width_px: width,
  height_px: height,
  pages,
});

const codeOf = (run: () => void): string | undefined => {
  try {
    run();
  } catch (error) {
    return error instanceof Problem ? `${error.status} ${error.code}` : 'other';
  }
  return undefined;
};

describe('rendering', () => {
  it('checks the budget before any work: 200 layers and 8192×8192 px at most', () => {
    expect(codeOf(() => checkRenderBudget(document(8192, 8192, [page(200)]), page(200)))).toBeUndefined();
    expect(codeOf(() => checkRenderBudget(document(100, 100, [page(201)]), page(201)))).toBe('422 render_budget_exceeded');
    expect(codeOf(() => checkRenderBudget(document(8193, 8192, [page(1)]), page(1)))).toBe('422 render_budget_exceeded');
  });

  it('budgets the area, not the sides: any shape up to 8192² px, not one pixel more', () => {
    expect(codeOf(() => checkRenderBudget(document(16_384, 4_096, [page(1)]), page(1)))).toBeUndefined();
    expect(codeOf(() => checkRenderBudget(document(8192 * 8192 + 1, 1, [page(1)]), page(1)))).toBe('422 render_budget_exceeded');
    expect(codeOf(() => checkRenderBudget(document(10, 10, []), { id: 'p' }))).toBeUndefined();
  });

  it('runs each job in a warm worker, terminates one that outlives its budget, and keeps serving', async () => {
    const workers = new WarmWorkers(
      `const { parentPort } = require('node:worker_threads');
       parentPort.once('message', (job) => {
         if (job === 'forever') for (;;) {}
         if (job === 'throw') throw new Error('broken');
         parentPort.postMessage(job + 1);
       });`,
      { eval: true },
    );
    try {
      const started = Date.now();
      await expect(workers.run('forever', 300)).rejects.toBeInstanceOf(WorkerTimeout);
      expect(Date.now() - started).toBeLessThan(3_000);
      await expect(workers.run(41, 5_000)).resolves.toBe(42);
      await expect(workers.run('throw', 5_000)).rejects.toThrow('broken');
      // Each job gets a worker of its own, even at once.
      await expect(Promise.all([workers.run(1, 5_000), workers.run(2, 5_000), workers.run(3, 5_000)])).resolves.toEqual([2, 3, 4]);
    } finally {
      await workers.close();
    }
  });

  it('paints the background, shapes in z-order, rotated and hidden layers, text with the bundled font, and images', async () => {
    const tile = createCanvas(2, 2);
    const tileCtx = tile.getContext('2d');
    tileCtx.fillStyle = '#00ff00';
    tileCtx.fillRect(0, 0, 2, 2);
    const outcome = await renderPage({
      width: 100,
      height: 60,
      format: 'png',
      quality: 0.9,
      matteColor: '',
      images: [{ mediaId: 'green', bytes: new Uint8Array(tile.toBuffer('image/png')) }],
      page: {
        id: 'p',
        background: { type: 'color', color: '#ff0000' },
        layers: [
          { id: 'under', type: 'shape', transform: { x: 0, y: 0, width: 20, height: 20 }, shape: { fill: '#ffff00' } },
          { id: 'over', type: 'shape', transform: { x: 10, y: 10, width: 20, height: 20 }, shape: { fill: '#0000ff' } },
          { id: 'hidden', type: 'shape', visible: false, transform: { x: 0, y: 0, width: 100, height: 60 }, shape: { fill: '#000000' } },
          { id: 'img', type: 'image', transform: { x: 70, y: 0, width: 30, height: 30 }, image: { media_id: 'green', fit: 'fill' } },
          {
            id: 'txt',
            type: 'text',
            transform: { x: 0, y: 32, width: 100, height: 28 },
            text: { text: 'MMMM', color: '#ffffff', font_size: 24, font_weight: 700 },
          },
        ],
      },
    });
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    const image = await loadImage(Buffer.from(outcome.bytes));
    const canvas = createCanvas(image.width, image.height);
    const ctx = canvas.getContext('2d');
    ctx.drawImage(image, 0, 0);
    const at = (x: number, y: number) => Array.from(ctx.getImageData(x, y, 1, 1).data.slice(0, 3));
    expect([image.width, image.height]).toEqual([100, 60]);
    expect(at(60, 5)).toEqual([255, 0, 0]);
    expect(at(5, 5)).toEqual([255, 255, 0]);
    expect(at(15, 15)).toEqual([0, 0, 255]);
    expect(at(85, 15)).toEqual([0, 255, 0]);
    const glyphs = ctx.getImageData(0, 32, 100, 28).data;
    let white = 0;
    for (let i = 0; i < glyphs.length; i += 4) if (glyphs[i] > 200 && glyphs[i + 1] > 200 && glyphs[i + 2] > 200) white += 1;
    expect(white).toBeGreaterThan(50);
  });

  it('names the images it cannot decode instead of rendering', async () => {
    const outcome = await renderPage({
      width: 10,
      height: 10,
      format: 'jpeg',
      quality: 0.8,
      matteColor: '',
      images: [{ mediaId: 'junk', bytes: new Uint8Array([1, 2, 3]) }],
      page: { id: 'p' },
    });
    expect(outcome).toEqual({ ok: false, undecodable: ['junk'] });
  });
});

describe('render slots', () => {
  it('lets `size` renders run at once, queues the rest in order, and gives up after the wait', async () => {
    const { RenderSlots } = await import('./render-slots.js');
    const slots = new RenderSlots(2);
    const first = await slots.acquire(100);
    const second = await slots.acquire(100);
    expect(first && second).toBeTruthy();
    const order: string[] = [];
    const third = slots.acquire(1_000).then((release) => {
      order.push('third');
      return release;
    });
    const fourth = slots.acquire(1_000).then((release) => {
      order.push('fourth');
      return release;
    });
    expect(await slots.acquire(20)).toBe(false);
    (first as () => void)();
    (first as () => void)(); // releasing twice frees one slot only
    const thirdRelease = await third;
    expect(order).toEqual(['third']);
    (second as () => void)();
    const fourthRelease = await fourth;
    expect(order).toEqual(['third', 'fourth']);
    expect(slots.busy).toBe(2);
    (thirdRelease as () => void)();
    (fourthRelease as () => void)();
    expect(slots.busy).toBe(0);
  });

  it('passes a released slot over a caller that already gave up', async () => {
    jest.useFakeTimers();
    try {
      const { RenderSlots } = await import('./render-slots.js');
      const slots = new RenderSlots(1);
      const first = await slots.acquire(10_000);
      const impatient = slots.acquire(100);
      const patient = slots.acquire(10_000);
      jest.advanceTimersByTime(100);
      expect(await impatient).toBe(false);
      (first as () => void)();
      expect(await patient).toEqual(expect.any(Function));
      expect(slots.busy).toBe(1);
    } finally {
      jest.useRealTimers();
    }
  });
});
