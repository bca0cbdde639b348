import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';

/**
 * A profile's outbound-route permissions point at their route: deleting a route deletes its rows.
 * 0003 made the table before outbound routes existed, so route_id had no foreign key, and a removed
 * route left rows behind. Rows of routes already gone are dropped here.
 */
export const profileRouteLinks: Migration = {
  async up(db: Kysely<unknown>) {
    const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
    await sql`delete from cti_profile_routes where route_id not in (select id from outbound_routes)`.execute(db);
    if (isPostgres) {
      await db.schema
        .alterTable('cti_profile_routes')
        .addForeignKeyConstraint('cti_profile_routes_route_fk', ['route_id'], 'outbound_routes', ['id'], (c) =>
          c.onDelete('cascade'),
        )
        .execute();
    } else {
      // SQLite cannot add a foreign key to a table: copy it into one that has it.
      await db.schema
        .createTable('cti_profile_routes_next')
        .addColumn('profile_id', 'integer', (c) => c.notNull().references('cti_profiles.id').onDelete('cascade'))
        .addColumn('route_id', 'integer', (c) => c.notNull().references('outbound_routes.id').onDelete('cascade'))
        .addColumn('permission', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('cti_profile_routes_next_pk', ['profile_id', 'route_id'])
        .execute();
      await sql`insert into cti_profile_routes_next (profile_id, route_id, permission)
        select profile_id, route_id, permission from cti_profile_routes`.execute(db);
      await db.schema.dropTable('cti_profile_routes').execute();
      await db.schema.alterTable('cti_profile_routes_next').renameTo('cti_profile_routes').execute();
    }
    // Deleting a route looks its rows up by route.
    await db.schema.createIndex('cti_profile_routes_route').on('cti_profile_routes').column('route_id').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('cti_profile_routes_route').execute();
    if (db.getExecutor().adapter instanceof PostgresAdapter) {
      await db.schema.alterTable('cti_profile_routes').dropConstraint('cti_profile_routes_route_fk').execute();
    }
  },
};
