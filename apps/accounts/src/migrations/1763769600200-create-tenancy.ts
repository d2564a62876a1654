import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateTenancy1763769600200 implements MigrationInterface {
  name = 'CreateTenancy1763769600200';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE organizations (
        id uuid PRIMARY KEY,
        name text NOT NULL,
        created_at timestamptz NOT NULL
      )`);
    await db.query(`
      CREATE TABLE organization_members (
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        role text NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
        joined_at timestamptz NOT NULL,
        PRIMARY KEY (organization_id, user_id)
      )`);
    await db.query(`CREATE INDEX organization_members_user_idx ON organization_members (user_id)`);
    // Exactly one owner per organization.
    await db.query(`CREATE UNIQUE INDEX organization_members_one_owner ON organization_members (organization_id) WHERE role = 'owner'`);
    await db.query(`
      CREATE TABLE workspaces (
        id uuid PRIMARY KEY,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        name text NOT NULL,
        created_at timestamptz NOT NULL
      )`);
    await db.query(`CREATE UNIQUE INDEX workspaces_name_per_organization ON workspaces (organization_id, lower(name))`);
    await db.query(`
      CREATE TABLE workspace_members (
        workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        role text NOT NULL CHECK (role IN ('admin', 'editor', 'viewer')),
        joined_at timestamptz NOT NULL,
        PRIMARY KEY (workspace_id, user_id)
      )`);
    await db.query(`CREATE INDEX workspace_members_user_idx ON workspace_members (user_id)`);
    await db.query(`
      CREATE TABLE workspace_invitations (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
        email text NOT NULL,
        role text NOT NULL CHECK (role IN ('admin', 'editor', 'viewer')),
        secret_hash text NOT NULL UNIQUE,
        invited_by_user_id uuid NOT NULL,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        last_sent_at timestamptz NOT NULL,
        email_delivery_status text NOT NULL,
        email_delivery_updated_at timestamptz NOT NULL,
        accepted_at timestamptz,
        accepted_by_user_id uuid,
        revoked_at timestamptz
      )`);
    // At most one open (neither accepted nor revoked) invitation per address and workspace.
    await db.query(`
      CREATE UNIQUE INDEX workspace_invitations_open_per_email ON workspace_invitations (workspace_id, lower(email))
      WHERE accepted_at IS NULL AND revoked_at IS NULL`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE workspace_invitations, workspace_members, workspaces, organization_members, organizations`);
  }
}
