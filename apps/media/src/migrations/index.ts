import { CreateMedia1764400000000 } from './1764400000000-create-media.js';

/** Every migration of the media schema, oldest first. */
export const mediaMigrations = [CreateMedia1764400000000];
