import { CreateVideoProjects1764700000000 } from './1764700000000-create-video-projects.js';

/** Every migration of the creative schema, oldest first. */
export const creativeMigrations = [CreateVideoProjects1764700000000];
