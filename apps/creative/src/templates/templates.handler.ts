import { Controller } from '@nestjs/common';
import { type ImageEditorTemplate, type ImageEditorTemplateList, type InputOf, TemplateOperations } from '@social/contracts';
import { Handles, Input } from '@social/platform';
import { TemplatesService } from './templates.service.js';

/** `params.id` of one template: a built-in preset key or a template id, read as sent (TemplatesService judges it). */
@Controller()
export class TemplatesHandler {
  constructor(private readonly templates: TemplatesService) {}

  @Handles(TemplateOperations.list)
  list(@Input() { principal, query }: InputOf<typeof TemplateOperations.list>): Promise<ImageEditorTemplateList> {
    return this.templates.list(principal, query);
  }

  @Handles(TemplateOperations.get)
  get(@Input() { principal, params }: InputOf<typeof TemplateOperations.get>): Promise<ImageEditorTemplate> {
    return this.templates.get(principal, params.id);
  }

  @Handles(TemplateOperations.create)
  create(@Input() { principal, body }: InputOf<typeof TemplateOperations.create>): Promise<ImageEditorTemplate> {
    return this.templates.create(principal, body);
  }

  @Handles(TemplateOperations.delete)
  async delete(@Input() { principal, params }: InputOf<typeof TemplateOperations.delete>): Promise<null> {
    await this.templates.delete(principal, params.id);
    return null;
  }
}
