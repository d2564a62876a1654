import { CreateVideoProjects1764700000000 } from './1764700000000-create-video-projects.js';
import { CreateImageEditor1764800000000 } from './1764800000000-create-image-editor.js';
import { AddOutboxContext1799000000000 } from './1799000000000-add-outbox-context.js';

/** Every migration of the creative schema, oldest first. */
export const creativeMigrations = [CreateVideoProjects1764700000000, CreateImageEditor1764800000000, AddOutboxContext1799000000000];
