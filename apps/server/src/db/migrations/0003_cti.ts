import { defaultCtiProfiles } from '@centralino/contract';
import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';

export const cti: Migration = {
  async up(db: Kysely<unknown>) {
    const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
    const id = isPostgres ? sql`serial` : sql`integer`;
    await db.schema
      .createTable('cti_profiles')
      .addColumn('id', id, (c) => (isPostgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
      .addColumn('name', 'varchar(64)', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('cti_profile_macros')
      .addColumn('profile_id', 'integer', (c) => c.notNull().references('cti_profiles.id').onDelete('cascade'))
      .addColumn('macro', 'varchar(32)', (c) => c.notNull())
      .addPrimaryKeyConstraint('cti_profile_macros_pk', ['profile_id', 'macro'])
      .execute();
    // Permissions are stored by name: group permissions (grp_<name>) follow the groups table.
    await db.schema
      .createTable('cti_profile_permissions')
      .addColumn('profile_id', 'integer', (c) => c.notNull().references('cti_profiles.id').onDelete('cascade'))
      .addColumn('permission', 'varchar(128)', (c) => c.notNull())
      .addPrimaryKeyConstraint('cti_profile_permissions_pk', ['profile_id', 'permission'])
      .execute();
    await db.schema
      .createTable('cti_profile_routes')
      .addColumn('profile_id', 'integer', (c) => c.notNull().references('cti_profiles.id').onDelete('cascade'))
      .addColumn('route_id', 'integer', (c) => c.notNull())
      .addColumn('permission', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('cti_profile_routes_pk', ['profile_id', 'route_id'])
      .execute();
    await db.schema
      .createTable('cti_groups')
      .addColumn('id', id, (c) => (isPostgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
      .addColumn('name', 'varchar(65)', (c) => c.notNull().unique())
      .execute();
    await db.schema
      .createTable('cti_user_groups')
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('group_id', 'integer', (c) => c.notNull().references('cti_groups.id').onDelete('cascade'))
      .addPrimaryKeyConstraint('cti_user_groups_pk', ['user_id', 'group_id'])
      .execute();
    await db.schema.createIndex('cti_user_groups_group').on('cti_user_groups').column('group_id').execute();
    await db.schema.createIndex('users_profile').on('users').column('profile_id').execute();

    for (const profile of defaultCtiProfiles) {
      await db
        .insertInto('cti_profiles' as never)
        .values({ id: profile.id, name: profile.name } as never)
        .execute();
      for (const macro of profile.macros) {
        await db
          .insertInto('cti_profile_macros' as never)
          .values({ profile_id: profile.id, macro } as never)
          .execute();
      }
      for (const permission of profile.permissions) {
        await db
          .insertInto('cti_profile_permissions' as never)
          .values({ profile_id: profile.id, permission } as never)
          .execute();
      }
    }
    if (isPostgres) {
      // The defaults took ids 1-3 explicitly: the sequence must continue after them.
      await sql`select setval(pg_get_serial_sequence('cti_profiles', 'id'), (select max(id) from cti_profiles))`.execute(
        db,
      );
    }
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('users_profile').execute();
    for (const table of [
      'cti_user_groups',
      'cti_groups',
      'cti_profile_routes',
      'cti_profile_permissions',
      'cti_profile_macros',
      'cti_profiles',
    ]) {
      await db.schema.dropTable(table).execute();
    }
  },
};
