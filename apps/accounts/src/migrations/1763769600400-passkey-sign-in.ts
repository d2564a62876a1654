import { MigrationInterface, QueryRunner } from 'typeorm';

/** Passkey sign-in ceremonies: nobody is known yet, so a challenge belongs to no user or session. */
export class PasskeySignIn1763769600400 implements MigrationInterface {
  name = 'PasskeySignIn1763769600400';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE passkey_sign_in_challenges (
        id uuid PRIMARY KEY,
        challenge_hash text NOT NULL,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        used_at timestamptz
      )`);
    await db.query(`CREATE INDEX passkey_sign_in_challenges_expires_idx ON passkey_sign_in_challenges (expires_at)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE passkey_sign_in_challenges`);
  }
}
