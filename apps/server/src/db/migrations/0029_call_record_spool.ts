import type { Kysely, Migration } from 'kysely';

/**
 * Call records spooled by Asterisk (cdr_custom, issue 27): how far into each spool file the console has read. A
 * position moves in the same transaction as the records it covers, so a crash between two reads neither loses nor
 * repeats one. A row lives as long as its file.
 */
export const callRecordSpool: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('cdr_spool')
      /** The spool file's name, unique: the console names each file it takes aside. */
      .addColumn('name', 'varchar(100)', (c) => c.primaryKey())
      /** The file's identity (device:inode): a name found again on another file starts from its beginning. */
      .addColumn('file_id', 'varchar(60)', (c) => c.notNull())
      /** Bytes read: every record before this offset is in `cdr`. */
      .addColumn('offset', 'bigint', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('cdr_spool').execute();
  },
};
