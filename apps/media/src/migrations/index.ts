import { CreateMedia1764400000000 } from './1764400000000-create-media.js';
import { MergedMediaItems1764500000000 } from './1764500000000-merged-media-items.js';
import { ExpiredMediaSessions1764600000000 } from './1764600000000-expired-media-sessions.js';
import { ProjectAssetMedia1764700000100 } from './1764700000100-project-asset-media.js';
import { MediaAnalysis1764800000000 } from './1764800000000-media-analysis.js';
import { MediaDeliveryCopies1764900000000 } from './1764900000000-media-delivery-copies.js';
import { AddOutboxContext1799000000000 } from '@social/platform';

/** Every migration of the media schema, oldest first. */
export const mediaMigrations = [
  CreateMedia1764400000000,
  MergedMediaItems1764500000000,
  ExpiredMediaSessions1764600000000,
  ProjectAssetMedia1764700000100,
  MediaAnalysis1764800000000,
  MediaDeliveryCopies1764900000000,
  AddOutboxContext1799000000000,
];
