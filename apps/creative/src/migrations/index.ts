import { CreateVideoProjects1764700000000 } from './1764700000000-create-video-projects.js';
import { CreateImageEditor1764800000000 } from './1764800000000-create-image-editor.js';
import { VideoDocumentsAsJson1764900000000 } from './1764900000000-video-documents-as-json.js';
import { AddOutboxContext1799000000000 } from '@social/platform';

/** Every migration of the creative schema, oldest first. */
export const creativeMigrations = [
  CreateVideoProjects1764700000000,
  CreateImageEditor1764800000000,
  VideoDocumentsAsJson1764900000000,
  AddOutboxContext1799000000000,
];
