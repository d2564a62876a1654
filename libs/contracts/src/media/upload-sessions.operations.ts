import { operation, replyOf } from '../common/operation.js';
import {
  CommitUploadRequest,
  CompleteUploadSessionRequest,
  CreateUploadSessionRequest,
  MediaItem,
  MediaUploadSession,
  UploadCommitted,
  UploadTarget,
} from './media.dto.js';

const NO_SUCH_SESSION = 'No such upload session.';

/** Upload sessions: open, write the bytes through the gateway's signed URL, complete (media service). */
export const UploadSessionOperations = {
  /** 201 with an upload target, 200 when deduplicated; a repeated Idempotency-Key answers the first answer again. */
  create: operation({
    subject: 'media.upload-sessions.create',
    body: CreateUploadSessionRequest,
    answer: replyOf(MediaUploadSession),
    idempotent: true,
  }),
  complete: operation({
    subject: 'media.upload-sessions.complete',
    params: { id: NO_SUCH_SESSION },
    body: CompleteUploadSessionRequest,
    answer: MediaItem,
  }),
  /** The gateway's signed upload route: may bytes be written for this session now? (its URL's token is the credential) */
  target: operation({ subject: 'media.upload-sessions.target', caller: 'anyone', params: { id: NO_SUCH_SESSION }, answer: UploadTarget }),
  /** The bytes the gateway wrote under UploadTarget.object_key become the session's, while it is pending. */
  commit: operation({
    subject: 'media.upload-sessions.commit',
    caller: 'anyone',
    params: { id: NO_SUCH_SESSION },
    body: CommitUploadRequest,
    answer: UploadCommitted,
  }),
};
