import { Body, Controller, Delete, Get, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  CreateTemplateRequest,
  ImageEditorTemplate,
  ImageEditorTemplateList,
  ListTemplatesQuery,
  TemplateOperations,
} from '@social/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DocumentBody } from '../http/body-limits.js';
import { Refuses, Returns, ReturnsNothing } from '../http/returns.decorator.js';
import { ValidBody } from '../http/valid-body.pipe.js';
import { ValidQuery } from '../http/valid-query.pipe.js';
import { Forwarder } from '../rpc/forwarder.js';

@ApiTags('Image editor')
@ApiBearerAuth()
@Controller('image-editor/templates')
export class TemplatesController {
  constructor(private readonly forward: Forwarder) {}

  @Get()
  @ApiOperation({
    summary: "The built-in templates, then the workspace's, newest first",
    description:
      'Built-in: instagram-square 1080×1080, instagram-portrait 1080×1350, story-reel-slide 1080×1920, linkedin-square 1200×1200, ' +
      'linkedin-landscape 1200×627, x-landscape 1600×900, youtube-thumbnail 1280×720 (`id` = `preset_key`, `workspace_id` ""). ' +
      '`can_edit` is true for editors and admins of the workspace.',
  })
  @Returns(ImageEditorTemplateList)
  @Refuses(403, 422)
  list(@Req() req: FastifyRequest, @Query(new ValidQuery(ListTemplatesQuery)) query: ListTemplatesQuery): Promise<ImageEditorTemplateList> {
    return this.forward.send(TemplateOperations.list, req, { query: { ...query } });
  }

  @Get(':id')
  @ApiOperation({ summary: 'One template: a built-in one by its preset key, or a workspace template by id' })
  @Returns(ImageEditorTemplate)
  @Refuses(404)
  get(@Req() req: FastifyRequest, @Param('id') id: string): Promise<ImageEditorTemplate> {
    return this.forward.send(TemplateOperations.get, req, { params: { id } });
  }

  @Post()
  @DocumentBody()
  @ApiOperation({
    summary: 'Create a workspace template (editors)',
    description:
      "The document is checked as a design's, and is at most 81 KiB as stored (422 at `body.document`): the whole list crosses " +
      'the service bus in one message. At most 50 templates per workspace (409 `too_many_templates`). The body may be up to 5 MiB ' +
      '(`DOCUMENT_BODY_LIMIT_BYTES`; 413 beyond).',
  })
  @Returns(ImageEditorTemplate, 201)
  @Refuses(400, 403, 409, 413, 415, 422, 'too_many_templates')
  async create(
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Body(new ValidBody(CreateTemplateRequest)) body: CreateTemplateRequest,
  ): Promise<ImageEditorTemplate> {
    const template = await this.forward.send(TemplateOperations.create, req, { body });
    reply.header('location', `/image-editor/templates/${template.id}`);
    return template;
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a workspace template (editors); a built-in one is 409 `template_built_in`' })
  @ReturnsNothing()
  @Refuses(403, 404, 409, 'template_built_in')
  async remove(@Req() req: FastifyRequest, @Param('id') id: string): Promise<void> {
    await this.forward.send(TemplateOperations.delete, req, { params: { id } });
  }
}
