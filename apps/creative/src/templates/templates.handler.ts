import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  CreateTemplateRequest,
  ImageEditorPatterns,
  ImageEditorTemplate,
  ImageEditorTemplateList,
  ListTemplatesQuery,
  RpcRequest,
} from '@social/contracts';
import { requirePrincipal, validateInput } from '@social/platform';
import { TemplatesService } from './templates.service.js';

@Controller()
export class TemplatesHandler {
  constructor(private readonly templates: TemplatesService) {}

  @MessagePattern(ImageEditorPatterns.listTemplates)
  list(@Payload() req: RpcRequest): Promise<ImageEditorTemplateList> {
    return this.templates.list(requirePrincipal(req), validateInput(ListTemplatesQuery, req.query, 'query'));
  }

  @MessagePattern(ImageEditorPatterns.getTemplate)
  get(@Payload() req: RpcRequest<unknown, Record<string, unknown>, { id: string }>): Promise<ImageEditorTemplate> {
    return this.templates.get(requirePrincipal(req), String(req.params?.id ?? ''));
  }

  @MessagePattern(ImageEditorPatterns.createTemplate)
  create(@Payload() req: RpcRequest): Promise<ImageEditorTemplate> {
    return this.templates.create(requirePrincipal(req), validateInput(CreateTemplateRequest, req.body, 'body'));
  }

  @MessagePattern(ImageEditorPatterns.deleteTemplate)
  async delete(@Payload() req: RpcRequest<unknown, Record<string, unknown>, { id: string }>): Promise<null> {
    await this.templates.delete(requirePrincipal(req), String(req.params?.id ?? ''));
    return null;
  }
}
