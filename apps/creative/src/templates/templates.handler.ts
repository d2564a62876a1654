import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  type ImageEditorTemplate,
  type ImageEditorTemplateList,
  type InputOf,
  type RpcRequest,
  TemplateOperations,
} from '@social/contracts';
import { Handles, Input } from '@social/platform';
import { TemplatesService } from './templates.service.js';

/** `params.id` of one template: a built-in preset key or a template id, read as sent (TemplatesService judges it). */
const templateIdOf = (params: RpcRequest['params'] | undefined): string => String(params?.id ?? '');

@Controller()
export class TemplatesHandler {
  constructor(private readonly templates: TemplatesService) {}

  @Handles(TemplateOperations.list)
  list(@Input() { principal, query }: InputOf<typeof TemplateOperations.list>): Promise<ImageEditorTemplateList> {
    return this.templates.list(principal, query);
  }

  @Handles(TemplateOperations.get)
  get(
    @Input() { principal }: InputOf<typeof TemplateOperations.get>,
    @Payload('params') params: RpcRequest['params'] | undefined,
  ): Promise<ImageEditorTemplate> {
    return this.templates.get(principal, templateIdOf(params));
  }

  @Handles(TemplateOperations.create)
  create(@Input() { principal, body }: InputOf<typeof TemplateOperations.create>): Promise<ImageEditorTemplate> {
    return this.templates.create(principal, body);
  }

  @Handles(TemplateOperations.delete)
  async delete(
    @Input() { principal }: InputOf<typeof TemplateOperations.delete>,
    @Payload('params') params: RpcRequest['params'] | undefined,
  ): Promise<null> {
    await this.templates.delete(principal, templateIdOf(params));
    return null;
  }
}
