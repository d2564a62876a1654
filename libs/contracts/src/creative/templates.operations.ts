import { checkedByService, nothing, operation } from '../common/operation.js';
import { CreateTemplateRequest, ImageEditorTemplate, ImageEditorTemplateList, ListTemplatesQuery } from './templates.dto.js';

/**
 * The image editor's templates (creative service). A template's `params.id` is a built-in preset key or a
 * workspace template's id, so no path id is declared: the service judges it.
 */
export const TemplateOperations = {
  list: operation({ subject: 'creative.templates.list', query: ListTemplatesQuery, answer: ImageEditorTemplateList }),
  get: operation({ subject: 'creative.templates.get', params: { id: checkedByService }, answer: ImageEditorTemplate }),
  create: operation({ subject: 'creative.templates.create', body: CreateTemplateRequest, answer: ImageEditorTemplate }),
  delete: operation({ subject: 'creative.templates.delete', params: { id: checkedByService }, answer: nothing }),
};
