import { CreateAdmin1763769600100 } from './1763769600100-create-admin.js';

/** Every migration of the admin schema, oldest first. */
export const adminMigrations = [CreateAdmin1763769600100];
