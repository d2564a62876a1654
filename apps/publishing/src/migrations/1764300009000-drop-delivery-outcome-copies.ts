import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The Delivery's `external_*` and `error_code`/`error_kind`/`error_http_status`
 * are the rendition's own (publication.mapper.ts derives them): the copies
 * written beside them had started to drift.
 */
export class DropDeliveryOutcomeCopies1764300009000 implements MigrationInterface {
  name = 'DropDeliveryOutcomeCopies1764300009000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE renditions DROP COLUMN delivery_external_id, DROP COLUMN delivery_external_url,
      DROP COLUMN delivery_error_code, DROP COLUMN delivery_error_kind, DROP COLUMN delivery_error_http_status`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE renditions ADD COLUMN delivery_external_id text NOT NULL DEFAULT '',
      ADD COLUMN delivery_external_url text NOT NULL DEFAULT '',
      ADD COLUMN delivery_error_code text NOT NULL DEFAULT '', ADD COLUMN delivery_error_kind text NOT NULL DEFAULT '',
      ADD COLUMN delivery_error_http_status integer NOT NULL DEFAULT 0`);
    await db.query(`UPDATE renditions SET delivery_external_id = external_id, delivery_external_url = external_url,
      delivery_error_code = error_code, delivery_error_kind = error_kind, delivery_error_http_status = error_http_status`);
  }
}
