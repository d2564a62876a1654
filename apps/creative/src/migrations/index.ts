/** Every migration of the creative schema, oldest first. */
export const creativeMigrations = [];
