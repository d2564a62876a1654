import { Controller } from '@nestjs/common';
import {
  type HttpReply,
  type InputOf,
  type MediaItem,
  type MediaUploadSession,
  type UploadCommitted,
  UploadSessionOperations,
  type UploadTarget,
} from '@social/contracts';
import { Handles, Input } from '@social/platform';
import { UploadSessionsService } from './upload-sessions.service.js';

@Controller()
export class UploadSessionsHandler {
  constructor(private readonly sessions: UploadSessionsService) {}

  /** 201 with an upload target, 200 when deduplicated; Idempotency-Key as for publications. */
  @Handles(UploadSessionOperations.create)
  create(
    @Input() { principal, body, idempotencyKey }: InputOf<typeof UploadSessionOperations.create>,
  ): Promise<HttpReply<MediaUploadSession>> {
    return this.sessions.create(principal, body, idempotencyKey);
  }

  @Handles(UploadSessionOperations.complete)
  complete(@Input() { principal, params, body }: InputOf<typeof UploadSessionOperations.complete>): Promise<MediaItem> {
    return this.sessions.complete(principal, params.id, body);
  }

  /** The gateway's signed upload route asks this (no principal: the URL's token is the credential, checked there). */
  @Handles(UploadSessionOperations.target)
  target(@Input() { params }: InputOf<typeof UploadSessionOperations.target>): Promise<UploadTarget> {
    return this.sessions.uploadTarget(params.id);
  }

  /** The gateway stored a whole upload under its target key: it becomes the session's bytes while the session is pending. */
  @Handles(UploadSessionOperations.commit)
  async commit(@Input() { params, body }: InputOf<typeof UploadSessionOperations.commit>): Promise<UploadCommitted> {
    await this.sessions.commitUpload(params.id, body.object_key);
    return { committed: true };
  }
}
