import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateAdmin1763769600100 implements MigrationInterface {
  name = 'CreateAdmin1763769600100';

  async up(db: QueryRunner): Promise<void> {
    // Secret columns hold SecretBox envelopes (AES-256-GCM), never plaintext.
    await db.query(`
      CREATE TABLE provider_apps (
        id uuid PRIMARY KEY,
        provider text NOT NULL,
        instance_url text NOT NULL DEFAULT '',
        name text NOT NULL,
        client_id text NOT NULL,
        sealed_client_secret text,
        sealed_bot_token text,
        sealed_webhook_secret text,
        redirect_uri text NOT NULL DEFAULT '',
        connection_mode text NOT NULL,
        is_active boolean NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        UNIQUE (provider, instance_url)
      )`);
    await db.query(`
      CREATE TABLE instance_settings (
        key text PRIMARY KEY,
        value text,
        sealed_value text,
        updated_at timestamptz NOT NULL,
        updated_by uuid NOT NULL,
        CHECK ((value IS NULL) <> (sealed_value IS NULL))
      )`);
    await db.query(`
      CREATE TABLE ai_prompts (
        key text PRIMARY KEY,
        value text NOT NULL,
        updated_at timestamptz NOT NULL,
        updated_by uuid NOT NULL
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE ai_prompts, instance_settings, provider_apps`);
  }
}
