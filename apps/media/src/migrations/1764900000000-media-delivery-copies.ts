import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Delivery copies: the bytes of an image as a network that fetches media by URL receives them (converted to a type
 * it takes, metadata stripped), stored by publishing under the item's key and served at public URLs of their own.
 * A copy goes with its item.
 */
export class MediaDeliveryCopies1764900000000 implements MigrationInterface {
  name = 'MediaDeliveryCopies1764900000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE media_delivery_copies (
        id uuid PRIMARY KEY,
        media_id uuid NOT NULL REFERENCES media_items (id) ON DELETE CASCADE,
        object_key text NOT NULL,
        mime_type text NOT NULL,
        size bigint NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
    await db.query(`CREATE INDEX media_delivery_copies_media_idx ON media_delivery_copies (media_id)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE media_delivery_copies`);
  }
}
