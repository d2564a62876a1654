import { nothing, operation, replyOf } from '../common/operation.js';
import { DeliveryAttemptList, PublicationTransitionRequest, PublishNowRequest, SchedulePublicationRequest } from './delivery.dto.js';
import { PreviewPublicationRequest, PublicationPreview } from './publication-preview.dto.js';
import {
  CreatePublicationRequest,
  ListPublicationsQuery,
  Publication,
  PublicationList,
  UpdatePublicationRequest,
} from './publications.dto.js';
import { UpdateRenditionRequest } from './rendition-overrides.dto.js';

/** Publications, their renditions and their delivery (publishing service). */
export const PublicationOperations = {
  /** 201 when created; a repeated Idempotency-Key answers the first answer again (marked replayed). */
  create: operation({
    subject: 'publishing.publications.create',
    body: CreatePublicationRequest,
    answer: replyOf(Publication),
    idempotent: true,
  }),
  list: operation({ subject: 'publishing.publications.list', query: ListPublicationsQuery, answer: PublicationList }),
  get: operation({ subject: 'publishing.publications.get', params: { id: null }, answer: Publication }),
  update: operation({
    subject: 'publishing.publications.update',
    params: { id: null },
    body: UpdatePublicationRequest,
    answer: Publication,
  }),
  delete: operation({ subject: 'publishing.publications.delete', params: { id: null }, answer: nothing }),
  schedule: operation({
    subject: 'publishing.publications.schedule',
    params: { id: null },
    body: SchedulePublicationRequest,
    answer: Publication,
  }),
  publishNow: operation({
    subject: 'publishing.publications.publish-now',
    params: { id: null },
    body: PublishNowRequest,
    answer: Publication,
  }),
  cancel: operation({
    subject: 'publishing.publications.cancel',
    params: { id: null },
    body: PublicationTransitionRequest,
    answer: Publication,
  }),
  retry: operation({
    subject: 'publishing.publications.retry',
    params: { id: null },
    body: PublicationTransitionRequest,
    answer: Publication,
  }),
  listDeliveries: operation({ subject: 'publishing.publications.deliveries', params: { id: null }, answer: DeliveryAttemptList }),
  updateRendition: operation({
    subject: 'publishing.renditions.update',
    params: { id: null, rendition_id: 'No such rendition.' },
    body: UpdateRenditionRequest,
    answer: Publication,
  }),
  preview: operation({
    subject: 'publishing.publications.preview',
    params: { id: null },
    body: PreviewPublicationRequest,
    answer: PublicationPreview,
  }),
};
