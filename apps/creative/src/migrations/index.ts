import { CreateImageEditor1764800000000 } from './1764800000000-create-image-editor.js';

/** Every migration of the creative schema, oldest first. */
export const creativeMigrations = [CreateImageEditor1764800000000];
