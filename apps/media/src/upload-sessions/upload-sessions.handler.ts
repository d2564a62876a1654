import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  CommitUploadRequest,
  CompleteUploadSessionRequest,
  CreateUploadSessionRequest,
  HttpReply,
  MediaItem,
  MediaPatterns,
  MediaUploadSession,
  RpcRequest,
  UploadTarget,
} from '@social/contracts';
import { idempotencyKeyOf, pathId, problems, requirePrincipal, validateInput } from '@social/platform';
import { UploadSessionsService } from './upload-sessions.service.js';

type ById = RpcRequest<unknown, unknown, { id: string }>;

@Controller()
export class UploadSessionsHandler {
  constructor(private readonly sessions: UploadSessionsService) {}

  /** E17: 201 with an upload target, 200 when deduplicated; Idempotency-Key as E15. */
  @MessagePattern(MediaPatterns.createUploadSession)
  create(@Payload() req: RpcRequest): Promise<HttpReply<MediaUploadSession>> {
    const principal = requirePrincipal(req);
    const input = validateInput(CreateUploadSessionRequest, req.body, 'body');
    return this.sessions.create(principal, input, idempotencyKeyOf(req.idempotencyKey));
  }

  @MessagePattern(MediaPatterns.completeUploadSession)
  complete(@Payload() req: ById): Promise<MediaItem> {
    const principal = requirePrincipal(req);
    const id = pathId(req.params.id, 'No such upload session.');
    return this.sessions.complete(principal, id, validateInput(CompleteUploadSessionRequest, req.body, 'body'));
  }

  /** The gateway's signed upload route asks this (no principal: the URL's token is the credential, checked there). */
  @MessagePattern(MediaPatterns.uploadTarget)
  target(@Payload() req: ById): Promise<UploadTarget> {
    return this.sessions.uploadTarget(pathId(req?.params?.id, 'No such upload session.'));
  }

  /** The gateway stored a whole upload under its target key: it becomes the session's bytes while the session is pending. */
  @MessagePattern(MediaPatterns.commitUpload)
  async commit(@Payload() req: RpcRequest<CommitUploadRequest, unknown, { id: string }>): Promise<{ committed: true }> {
    const id = pathId(req?.params?.id, 'No such upload session.');
    const key = req?.body?.object_key;
    if (typeof key !== 'string') throw problems.invalid('body.object_key', 'must be a string', key);
    await this.sessions.commitUpload(id, key);
    return { committed: true };
  }
}
