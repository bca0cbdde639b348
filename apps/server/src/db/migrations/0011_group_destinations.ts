import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Inbound routes to a group were stored as `ext-group,<id>,1`, while the dialplan names the group's
 * extension `cti-group-<id>`: every such route made the PBX configuration invalid. Point them at the name.
 */
export const groupDestinations: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`
      update inbound_routes
      set destination = 'ext-group,cti-group-' || substr(destination, 11)
      where destination like 'ext-group,%' and destination not like 'ext-group,cti-group-%'
    `.execute(db);
  },
  async down() {},
};
