import {
  CARD_PERMISSION_BASE,
  type CtiContext,
  type CtiGroup,
  type CtiMacro,
  type CtiProfile,
  type CtiProfileWrite,
  ctiMacros,
  ctiProfileProblems,
  ctiStaticPermissions,
  groupPermission,
  groupPermissionName,
  STREAMING_PERMISSION_BASE,
} from '@centralino/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { describeReferences, groupDestination, referencesTo } from '../destinations/catalogue.ts';
import { outboundRouteRefs } from '../routes/outbound.ts';
import { isUniqueViolation } from '../users/service.ts';

interface CatalogueEntry {
  id: number;
  name: string;
  displayname: string;
  description: string;
  macro: string;
}

/** CTI profiles, their permissions and the CTI groups (contract api-admin §5). */
export class CtiService {
  constructor(
    private readonly db: Kysely<Database>,
    readonly ctx: CtiContext,
    /** Called after every change that the PBX configuration depends on (contexts, ring groups). */
    private readonly changed: () => void = () => {},
  ) {}

  /** Outbound routes a profile may allow, in priority order. */
  private routes() {
    return outboundRouteRefs(this.db);
  }

  // ---- groups ----

  async groups(): Promise<CtiGroup[]> {
    const rows = await this.db.selectFrom('cti_groups').select(['id', 'name']).orderBy('id').execute();
    return rows.map((r) => ({ id: Number(r.id), name: r.name }));
  }

  /**
   * Creates a group and its presence-panel permission. A name that exists is refused (the original answered
   * its id and the console said 'Group saved with success' having saved nothing); so is one differing only in
   * case, which would share the grp_ permission.
   */
  async createGroup(name: string): Promise<{ id: number }> {
    const groups = await this.groups();
    if (groups.some((g) => groupPermissionName(g.name) === groupPermissionName(name))) {
      throw new AppError(409, 'group_exists', undefined, { name: 'exists' });
    }
    try {
      const row = await this.db.insertInto('cti_groups').values({ name }).returning('id').executeTakeFirstOrThrow();
      this.changed();
      return { id: Number(row.id) };
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError(409, 'group_exists', undefined, { name: 'exists' });
      throw error;
    }
  }

  async deleteGroup(id: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const group = await trx.selectFrom('cti_groups').select('name').where('id', '=', id).executeTakeFirst();
      if (!group) throw new AppError(404, 'not_found');
      const refs = await referencesTo(trx, [groupDestination(id)]);
      if (refs.length > 0) {
        throw new AppError(409, 'group_routed', (lang) =>
          lang === 'it'
            ? `Inviano chiamate al gruppo ${group.name}: ${describeReferences(refs, lang)}. Assegna loro prima un'altra destinazione.`
            : `Calls go to group ${group.name} from: ${describeReferences(refs, lang)}. Give them another destination first.`,
        );
      }
      await trx.deleteFrom('cti_user_groups').where('group_id', '=', id).execute();
      await trx.deleteFrom('cti_groups').where('id', '=', id).execute();
      await trx
        .deleteFrom('cti_profile_permissions')
        .where('permission', '=', groupPermissionName(group.name))
        .execute();
    });
    this.changed();
  }

  // ---- catalogue ----

  /** Every permission a profile can hold now: the static ones, one per group, customer card and streaming source. */
  private async catalogue(): Promise<CatalogueEntry[]> {
    const [groups, cards, streams] = await Promise.all([
      this.groups(),
      this.db.selectFrom('customer_cards').select(['id', 'name', 'permission']).orderBy('id').execute(),
      this.db.selectFrom('streaming_sources').select(['id', 'descr', 'permission']).orderBy('id').execute(),
    ]);
    return [
      ...ctiStaticPermissions,
      ...groups.map(groupPermission),
      ...cards.map((card) => ({
        id: CARD_PERMISSION_BASE + Number(card.id),
        name: card.permission,
        displayname: card.name,
        description: `Customer card: ${card.name}`,
        macro: 'customer_card',
      })),
      ...streams.map((source) => ({
        id: STREAMING_PERMISSION_BASE + Number(source.id),
        name: source.permission,
        displayname: source.descr,
        description: `Streaming source: ${source.descr}`,
        macro: 'streaming',
      })),
    ];
  }

  private blankMacros(catalogue: CatalogueEntry[], withTexts: boolean): Record<string, CtiMacro> {
    const out: Record<string, CtiMacro> = {};
    for (const macro of ctiMacros) {
      const permissions = catalogue
        .filter((p) => p.macro === macro.name)
        .map((p) => ({ id: p.id, name: p.name, displayname: p.displayname, description: p.description, value: false }));
      out[macro.name] = {
        value: false,
        ...(withTexts ? { displayname: macro.displayname, description: macro.description } : {}),
        ...(withTexts || permissions.length > 0 ? { permissions } : {}),
      };
    }
    return out;
  }

  /** GET /cti/permissions: the blank template a new profile starts from. */
  async template(): Promise<Record<string, unknown>> {
    const routes = await this.routes();
    return {
      ...this.blankMacros(await this.catalogue(), false),
      outbound_routes: routes.map((r) => ({ route_id: r.id, name: r.name })),
    };
  }

  // ---- profiles ----

  async profiles(): Promise<CtiProfile[]> {
    const [profiles, macros, permissions, routeRows, catalogue, routes] = await Promise.all([
      this.db.selectFrom('cti_profiles').select(['id', 'name']).orderBy('id').execute(),
      this.db.selectFrom('cti_profile_macros').selectAll().execute(),
      this.db.selectFrom('cti_profile_permissions').selectAll().execute(),
      this.db.selectFrom('cti_profile_routes').selectAll().execute(),
      this.catalogue(),
      this.routes(),
    ]);
    return profiles.map((p) => {
      const id = Number(p.id);
      const onMacros = new Set(macros.filter((m) => Number(m.profile_id) === id).map((m) => m.macro));
      const onPermissions = new Set(permissions.filter((m) => Number(m.profile_id) === id).map((m) => m.permission));
      const macroPermissions = this.blankMacros(catalogue, true);
      for (const [name, macro] of Object.entries(macroPermissions)) {
        // Without an active licence the queue manager reads as off (contract §5.2).
        macro.value = onMacros.has(name) && (name !== 'qmanager' || this.ctx.licenceActive);
        for (const permission of macro.permissions ?? []) permission.value = onPermissions.has(permission.name);
      }
      const explicit = new Map(
        routeRows
          .filter((r) => Number(r.profile_id) === id)
          .map((r) => [Number(r.route_id), Number(r.permission) === 1]),
      );
      return {
        id,
        name: p.name,
        macro_permissions: macroPermissions,
        ...(routes.length > 0
          ? {
              outbound_routes_permissions: routes.map((r) => ({
                route_id: r.id,
                name: r.name,
                permission: explicit.get(r.id) ?? true,
              })),
            }
          : {}),
      };
    });
  }

  async profile(id: number): Promise<CtiProfile> {
    const found = (await this.profiles()).find((p) => p.id === id);
    if (!found) throw new AppError(404, 'not_found');
    return found;
  }

  /** What a posted profile switches on, after checking every name against the catalogue and the rules. */
  private async resolve(write: CtiProfileWrite) {
    const catalogue = await this.catalogue();
    const routes = await this.routes();
    const fields: Record<string, string> = {};
    const macros: string[] = [];
    const permissions: string[] = [];
    for (const [name, macro] of Object.entries(write.macro_permissions)) {
      // The blank template lists the routes among the macros; posted back as is, that list says nothing.
      if (Array.isArray(macro)) continue;
      if (!ctiMacros.some((m) => m.name === name)) {
        fields[`macro_permissions.${name}`] = 'Unknown macro permission';
        continue;
      }
      if (macro.value) macros.push(name);
      for (const permission of macro.permissions ?? []) {
        const known = catalogue.find((c) => c.name === permission.name && c.macro === name);
        if (!known) fields[`macro_permissions.${name}.${permission.name}`] = 'Unknown permission';
        else if (permission.value) permissions.push(permission.name);
      }
    }
    const routePermissions = write.outbound_routes_permissions ?? [];
    const seen = new Set<number>();
    for (const route of routePermissions) {
      if (!routes.some((r) => r.id === route.route_id))
        fields[`outbound_routes_permissions.${route.route_id}`] = 'Unknown route';
      else if (seen.has(route.route_id))
        fields[`outbound_routes_permissions.${route.route_id}`] = 'Route listed more than once';
      seen.add(route.route_id);
    }
    if (Object.keys(fields).length > 0) throw new AppError(400, 'validation', undefined, fields);
    const problems = ctiProfileProblems(write, this.ctx);
    if (problems['macro_permissions.qmanager']) throw new AppError(403, 'licence_required', undefined, problems);
    if (Object.keys(problems).length > 0)
      throw new AppError(422, 'validation', Object.values(problems).join('; '), problems);
    return { macros, permissions, routes: routePermissions };
  }

  private async store(trx: Kysely<Database>, id: number, resolved: Awaited<ReturnType<CtiService['resolve']>>) {
    await trx.deleteFrom('cti_profile_macros').where('profile_id', '=', id).execute();
    await trx.deleteFrom('cti_profile_permissions').where('profile_id', '=', id).execute();
    await trx.deleteFrom('cti_profile_routes').where('profile_id', '=', id).execute();
    if (resolved.macros.length > 0) {
      await trx
        .insertInto('cti_profile_macros')
        .values(resolved.macros.map((macro) => ({ profile_id: id, macro })))
        .execute();
    }
    const permissions = [...new Set(resolved.permissions)];
    if (permissions.length > 0) {
      await trx
        .insertInto('cti_profile_permissions')
        .values(permissions.map((permission) => ({ profile_id: id, permission })))
        .execute();
    }
    if (resolved.routes.length > 0) {
      await trx
        .insertInto('cti_profile_routes')
        .values(
          resolved.routes.map((r) => ({ profile_id: id, route_id: r.route_id, permission: r.permission ? 1 : 0 })),
        )
        .execute();
    }
  }

  async createProfile(write: CtiProfileWrite): Promise<number> {
    const resolved = await this.resolve(write);
    const id = await this.db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('cti_profiles')
        .values({ name: write.name })
        .returning('id')
        .executeTakeFirstOrThrow();
      await this.store(trx, Number(row.id), resolved);
      return Number(row.id);
    });
    this.changed();
    return id;
  }

  async updateProfile(id: number, write: CtiProfileWrite): Promise<void> {
    const resolved = await this.resolve(write);
    await this.db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('cti_profiles')
        .set({ name: write.name })
        .where('id', '=', id)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) throw new AppError(404, 'not_found');
      await this.store(trx, id, resolved);
    });
    this.changed();
  }

  /** Refuses while users have the profile: they would silently lose their permissions. */
  async deleteProfile(id: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const profile = await trx.selectFrom('cti_profiles').select('name').where('id', '=', id).executeTakeFirst();
      if (!profile) throw new AppError(404, 'not_found');
      const users = await trx
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('profile_id', '=', id)
        .executeTakeFirstOrThrow();
      const count = Number(users.n);
      if (count > 0) {
        throw new AppError(409, 'profile_in_use', (lang) =>
          lang === 'it'
            ? `Il profilo ${profile.name} è assegnato a ${count} utenti: assegna loro prima un altro profilo.`
            : `Profile ${profile.name} is assigned to ${count} users: assign them another profile first.`,
        );
      }
      await trx.deleteFrom('cti_profiles').where('id', '=', id).execute();
    });
    this.changed();
  }

  // ---- users ----

  private async requireUser(trx: Kysely<Database>, userId: number) {
    const user = await trx.selectFrom('users').select(['id', 'profile_id']).where('id', '=', userId).executeTakeFirst();
    if (!user) throw new AppError(404, 'user_not_found');
    return user;
  }

  async userProfile(userId: number): Promise<number | null> {
    const user = await this.requireUser(this.db, userId);
    return user.profile_id === null ? null : Number(user.profile_id);
  }

  async setUserProfile(userId: number, profileId: number | null): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await this.requireUser(trx, userId);
      if (profileId !== null) {
        const profile = await trx
          .selectFrom('cti_profiles')
          .select('id')
          .where('id', '=', profileId)
          .executeTakeFirst();
        if (!profile) throw new AppError(404, 'not_found', undefined, { profile_id: 'unknown' });
      }
      await trx
        .updateTable('users')
        .set({ profile_id: profileId, updated_at: Date.now() })
        .where('id', '=', userId)
        .execute();
    });
    this.changed();
  }

  async userGroups(userId: number): Promise<number[]> {
    await this.requireUser(this.db, userId);
    const rows = await this.db
      .selectFrom('cti_user_groups')
      .select('group_id')
      .where('user_id', '=', userId)
      .orderBy('group_id')
      .execute();
    return rows.map((r) => Number(r.group_id));
  }

  async setUserGroups(userId: number, groupIds: number[]): Promise<void> {
    const wanted = [...new Set(groupIds)];
    await this.db.transaction().execute(async (trx) => {
      await this.requireUser(trx, userId);
      if (wanted.length > 0) {
        const found = await trx.selectFrom('cti_groups').select('id').where('id', 'in', wanted).execute();
        const missing = wanted.filter((id) => !found.some((f) => Number(f.id) === id));
        if (missing.length > 0) throw new AppError(404, 'not_found', undefined, { groups: missing.join(',') });
      }
      await trx.deleteFrom('cti_user_groups').where('user_id', '=', userId).execute();
      if (wanted.length > 0) {
        await trx
          .insertInto('cti_user_groups')
          .values(wanted.map((group_id) => ({ user_id: userId, group_id })))
          .execute();
      }
    });
    this.changed();
  }

  async groupMembers(groupId: number): Promise<{ user_id: number; name: string }[]> {
    const group = await this.db.selectFrom('cti_groups').select('name').where('id', '=', groupId).executeTakeFirst();
    if (!group) throw new AppError(404, 'not_found');
    const rows = await this.db
      .selectFrom('cti_user_groups')
      .select('user_id')
      .where('group_id', '=', groupId)
      .orderBy('user_id')
      .execute();
    return rows.map((r) => ({ user_id: Number(r.user_id), name: group.name }));
  }
}
