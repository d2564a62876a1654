import { type ImageEditorDocument, type ImagePage, RENDER_MAX_LAYERS, RENDER_MAX_PIXELS } from '@social/contracts';
import { Problem } from '@social/platform';

export const renderBudgetExceeded = (detail: string) => new Problem(422, 'render_budget_exceeded', detail);

/** Contract §5, checked before any work: more than 8,192×8,192 px or 200 layers is 422 `render_budget_exceeded`. */
export function checkRenderBudget(document: ImageEditorDocument, page: ImagePage): void {
  if (document.width_px * document.height_px > RENDER_MAX_PIXELS) {
    throw renderBudgetExceeded(`The page is ${document.width_px}×${document.height_px} px; at most 8192×8192 px are rendered.`);
  }
  const layers = page.layers?.length ?? 0;
  if (layers > RENDER_MAX_LAYERS) {
    throw renderBudgetExceeded(`The page has ${layers} layers; at most ${RENDER_MAX_LAYERS} are rendered.`);
  }
}
