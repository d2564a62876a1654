/** Every migration of the insights schema, oldest first. */
export const insightsMigrations = [];
