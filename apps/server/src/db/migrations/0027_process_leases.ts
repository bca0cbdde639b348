import type { Kysely, Migration } from 'kysely';

/**
 * Several server processes on one PostgreSQL (issue 28): work that runs in the background names the process that
 * runs it (`owner`) and when that process last said it is alive (`heartbeat_at`), so another process can tell a job
 * that is still running from one whose process died (`jobs/claim.ts`). `exclusive_key` is the kind of a running job
 * that allows no second one of its kind: unique, so two processes starting it together cannot both insert it.
 * `sync_claimed_at` is when a process took a phonebook source's scheduled sync, so the others skip it.
 * `pbx_apply.applied_by` is the process that wrote the Asterisk files last: the others forget what they remember of
 * them (pbx/write-files.ts skips files it believes unchanged) and compare with the disk instead.
 */
export const processLeases: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('jobs').addColumn('owner', 'varchar(64)').execute();
    await db.schema.alterTable('jobs').addColumn('heartbeat_at', 'bigint').execute();
    await db.schema.alterTable('jobs').addColumn('exclusive_key', 'varchar(64)').execute();
    await db.schema.createIndex('jobs_exclusive_running').on('jobs').column('exclusive_key').unique().execute();
    await db.schema.alterTable('migration_cdr').addColumn('owner', 'varchar(64)').execute();
    await db.schema.alterTable('migration_cdr').addColumn('heartbeat_at', 'bigint').execute();
    await db.schema.alterTable('phonebook_sources').addColumn('sync_claimed_at', 'bigint').execute();
    await db.schema.alterTable('pbx_apply').addColumn('applied_by', 'varchar(64)').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('pbx_apply').dropColumn('applied_by').execute();
    await db.schema.alterTable('phonebook_sources').dropColumn('sync_claimed_at').execute();
    await db.schema.alterTable('migration_cdr').dropColumn('heartbeat_at').execute();
    await db.schema.alterTable('migration_cdr').dropColumn('owner').execute();
    await db.schema.dropIndex('jobs_exclusive_running').execute();
    await db.schema.alterTable('jobs').dropColumn('exclusive_key').execute();
    await db.schema.alterTable('jobs').dropColumn('heartbeat_at').execute();
    await db.schema.alterTable('jobs').dropColumn('owner').execute();
  },
};
