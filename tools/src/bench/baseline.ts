/**
 * The benchmark's yardstick: the least a server can do to answer the same
 * question as `GET /auth/me` (one user row by primary key, as JSON), in one
 * process, without Nest, NATS or auth. Gateway paths are reported as a ratio
 * of this, measured in the same run on the same machine.
 *
 * Started by run.ts with fork(); listens on a free port and reports it over IPC.
 */
import Fastify from 'fastify';
import pg from 'pg';

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) {
  process.stderr.write('baseline: DATABASE_URL is not set\n');
  process.exit(1);
}

// Same pool size and search_path as a service's DataSource (libs/platform database.ts).
const pool = new pg.Pool({ connectionString: databaseUrl, max: 10, options: '-c search_path=accounts' });

// The statement TypeORM's findOneBy({ id }) sends: aliased columns, one
// parameter, LIMIT 1. No `name`, so pg sends it unnamed (parsed on every call),
// as TypeORM does; a named statement would flatter the baseline by ~30%.
const SELECT_USER = `SELECT "u"."id" AS "u_id", "u"."email" AS "u_email", "u"."email_verified" AS "u_email_verified",
  "u"."password_hash" AS "u_password_hash", "u"."display_name" AS "u_display_name", "u"."username" AS "u_username",
  "u"."avatar_url" AS "u_avatar_url", "u"."composer_experience" AS "u_composer_experience", "u"."is_admin" AS "u_is_admin",
  "u"."public_profile_enabled" AS "u_public_profile_enabled",
  "u"."public_profile_visible_fields" AS "u_public_profile_visible_fields",
  "u"."created_at" AS "u_created_at", "u"."updated_at" AS "u_updated_at"
  FROM "accounts"."users" "u" WHERE (("u"."id" = $1)) LIMIT 1`;

const app = Fastify({ logger: false });

app.get<{ Params: { id: string } }>('/users/:id', async (req, reply) => {
  const { rows } = await pool.query(SELECT_USER, [req.params.id]);
  const u = rows[0];
  if (!u) return reply.code(404).send({ status: 404, title: 'Not Found' });
  // The UserProfile shape (apps/accounts user-profile.mapper.ts), so the body is the same size.
  return {
    id: u.u_id,
    email: u.u_email,
    email_verified: u.u_email_verified,
    display_name: u.u_display_name,
    username: u.u_username ?? '',
    avatar_url: u.u_avatar_url,
    composer_experience: u.u_composer_experience,
    created_at: (u.u_created_at as Date).toISOString(),
    has_password: u.u_password_hash !== null,
    password_usable: u.u_password_hash !== null,
    is_admin: u.u_is_admin,
    is_managed: false,
    managed_organization_name: '',
    legal_acceptance_required: false,
    legal_accepted_at: null,
    privacy_version: '',
    terms_version: '',
    public_profile_enabled: u.u_public_profile_enabled,
    public_profile_visible_fields: u.u_public_profile_visible_fields,
  };
});

const address = await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
const port = Number(new URL(address).port);
if (process.send) process.send({ port });
else process.stdout.write(`baseline listening on ${address}\n`);

// Stop cleanly when the parent goes away or asks us to.
const stop = (): void =>
  void app
    .close()
    .then(() => pool.end())
    .finally(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
process.on('disconnect', stop);
