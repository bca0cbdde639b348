import {
  defaultDialPatterns,
  type OutboundRoute,
  type OutboundRouteDetail,
  type OutboundSave,
  type RouteLocale,
  routeKeys,
  routeLocales,
} from '@centralino/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { isUniqueViolation } from '../users/service.ts';

function routeExists(name: string): AppError {
  return new AppError(
    409,
    'validation',
    (lang) => (lang === 'it' ? `Esiste già una rotta di nome ${name}.` : `A route named ${name} already exists.`),
    { name: 'exists' },
  );
}

/** Every outbound route's id and name, in priority order (what a CTI profile allows or denies). */
export async function outboundRouteRefs(db: Kysely<Database>): Promise<{ id: number; name: string }[]> {
  const rows = await db.selectFrom('outbound_routes').select(['id', 'name']).orderBy('seq').orderBy('id').execute();
  return rows.map((r) => ({ id: Number(r.id), name: r.name }));
}

/** Outbound routes: dial patterns and trunks in failover order (contract api-admin §2.5–§2.11). */
export class OutboundRoutesService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly changed: () => void = () => {},
  ) {}

  async list(): Promise<OutboundRoute[]> {
    const [routes, links] = await Promise.all([
      this.db.selectFrom('outbound_routes').selectAll().orderBy('seq').orderBy('id').execute(),
      this.db
        .selectFrom('outbound_route_trunks')
        .innerJoin('trunks', 'trunks.id', 'outbound_route_trunks.trunk_id')
        .select(['outbound_route_trunks.route_id', 'outbound_route_trunks.position', 'trunks.id', 'trunks.name'])
        .orderBy('outbound_route_trunks.position')
        .execute(),
    ]);
    return routes.map((r) => ({
      route_id: Number(r.id),
      name: r.name,
      outcid: r.outcid,
      emergency: Number(r.emergency) === 1,
      seq: Number(r.seq),
      trunks: links
        .filter((l) => Number(l.route_id) === Number(r.id))
        .map((l) => ({ trunkid: Number(l.id), name: l.name })),
    }));
  }

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('outbound_routes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** For each language, its four routes, each proposing every trunk (gateway port names decoded). */
  async defaults(): Promise<Record<string, { name: string; trunks: { trunkid: number; name: string }[] }[]>> {
    const trunks = await this.db.selectFrom('trunks').select(['id', 'name']).orderBy('id').execute();
    const all = trunks.map((t) => ({ trunkid: Number(t.id), name: t.name }));
    return Object.fromEntries(
      routeLocales.map((locale) => [locale, routeKeys.map((key) => ({ name: `${key}_${locale}`, trunks: all }))]),
    );
  }

  private async assertTrunks(trx: Kysely<Database>, ids: number[]) {
    if (ids.length === 0) return;
    const found = await trx
      .selectFrom('trunks')
      .select('id')
      .where('id', 'in', [...new Set(ids)])
      .execute();
    const missing = [...new Set(ids)].filter((id) => !found.some((f) => Number(f.id) === id));
    if (missing.length > 0) {
      throw new AppError(404, 'not_found', (lang) =>
        lang === 'it' ? `Fascio inesistente: ${missing.join(', ')}` : `No such trunk: ${missing.join(', ')}`,
      );
    }
  }

  private async setTrunks(trx: Kysely<Database>, routeId: number, trunkIds: number[]) {
    await trx.deleteFrom('outbound_route_trunks').where('route_id', '=', routeId).execute();
    const unique = [...new Set(trunkIds)];
    if (unique.length > 0) {
      await trx
        .insertInto('outbound_route_trunks')
        .values(unique.map((trunk_id, position) => ({ route_id: routeId, trunk_id, position })))
        .execute();
    }
  }

  /**
   * POST /outboundroutes. Routes without route_id create the language's default routes with their
   * dial patterns, in the order given; routes with route_id set the priority and trunk order. All or
   * nothing: one transaction.
   */
  async save(body: OutboundSave): Promise<void> {
    const [locale, list] = Object.entries(body)[0] as [RouteLocale, OutboundSave[RouteLocale]];
    if (!list) return;
    const creating = list[0]?.route_id === undefined;
    const names = list.map((r) => r.name);
    const duplicate = names.find((n, i) => names.indexOf(n) !== i);
    if (duplicate) throw routeExists(duplicate);
    try {
      await this.db.transaction().execute(async (trx) => {
        await this.assertTrunks(
          trx,
          list.flatMap((r) => r.trunks.map((t) => t.trunkid)),
        );
        const now = Date.now();
        if (creating) {
          const existing = await trx
            .selectFrom('outbound_routes')
            .select((eb) => eb.fn.max('seq').as('max'))
            .executeTakeFirst();
          let seq = Number(existing?.max ?? -1) + 1;
          for (const route of list) {
            const row = await trx
              .insertInto('outbound_routes')
              .values({ name: route.name, seq: seq++, outcid: '', emergency: 0, created_at: now, updated_at: now })
              .returning('id')
              .executeTakeFirstOrThrow();
            const id = Number(row.id);
            const key = route.name.endsWith(`_${locale}`) ? route.name.slice(0, -locale.length - 1) : undefined;
            const patterns = defaultDialPatterns[locale].filter((p) => p.key === key);
            if (patterns.length > 0) {
              await trx
                .insertInto('outbound_route_patterns')
                .values(
                  patterns.map((p, position) => ({
                    route_id: id,
                    position,
                    prepend: '',
                    prefix: p.prefix,
                    pattern: p.pattern,
                    cid: '',
                  })),
                )
                .execute();
            }
            await this.setTrunks(
              trx,
              id,
              route.trunks.map((t) => t.trunkid),
            );
          }
          return;
        }
        for (const [index, route] of list.entries()) {
          if (route.route_id === undefined) throw new AppError(400, 'validation', 'Every route needs its route_id');
          const updated = await trx
            .updateTable('outbound_routes')
            .set({ seq: index, updated_at: now })
            .where('id', '=', route.route_id)
            .executeTakeFirst();
          if (Number(updated.numUpdatedRows) === 0) throw new AppError(404, 'not_found');
          await this.setTrunks(
            trx,
            route.route_id,
            route.trunks.map((t) => t.trunkid),
          );
        }
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw routeExists(names.join(', '));
      throw error;
    }
    this.changed();
  }

  async removeTrunk(routeId: number, trunkId: number): Promise<void> {
    await this.db
      .deleteFrom('outbound_route_trunks')
      .where('route_id', '=', routeId)
      .where('trunk_id', '=', trunkId)
      .execute();
    this.changed();
  }

  async detail(id: number): Promise<OutboundRouteDetail & { route_id: number }> {
    const route = await this.db.selectFrom('outbound_routes').selectAll().where('id', '=', id).executeTakeFirst();
    if (!route) throw new AppError(404, 'not_found');
    const [patterns, trunks] = await Promise.all([
      this.db
        .selectFrom('outbound_route_patterns')
        .selectAll()
        .where('route_id', '=', id)
        .orderBy('position')
        .execute(),
      this.db
        .selectFrom('outbound_route_trunks')
        .select('trunk_id')
        .where('route_id', '=', id)
        .orderBy('position')
        .execute(),
    ]);
    return {
      route_id: id,
      name: route.name,
      outcid: route.outcid,
      emergency: Number(route.emergency) === 1,
      patterns: patterns.map((p) => ({
        prepend: p.prepend,
        prefix: p.prefix,
        match_pattern: p.pattern,
        match_cid: p.cid,
      })),
      trunks: trunks.map((t) => Number(t.trunk_id)),
    };
  }

  /** Creates (id undefined) or replaces a route from the Advanced page. */
  async write(id: number | undefined, detail: OutboundRouteDetail): Promise<number> {
    try {
      const routeId = await this.db.transaction().execute(async (trx) => {
        await this.assertTrunks(trx, detail.trunks);
        const now = Date.now();
        let routeId = id;
        const values = {
          name: detail.name,
          outcid: detail.outcid,
          emergency: detail.emergency ? 1 : 0,
          updated_at: now,
        };
        if (routeId === undefined) {
          const last = await trx
            .selectFrom('outbound_routes')
            .select((eb) => eb.fn.max('seq').as('max'))
            .executeTakeFirst();
          const row = await trx
            .insertInto('outbound_routes')
            .values({ ...values, seq: Number(last?.max ?? -1) + 1, created_at: now })
            .returning('id')
            .executeTakeFirstOrThrow();
          routeId = Number(row.id);
        } else {
          const updated = await trx
            .updateTable('outbound_routes')
            .set(values)
            .where('id', '=', routeId)
            .executeTakeFirst();
          if (Number(updated.numUpdatedRows) === 0) throw new AppError(404, 'not_found');
          await trx.deleteFrom('outbound_route_patterns').where('route_id', '=', routeId).execute();
        }
        if (detail.patterns.length > 0) {
          await trx
            .insertInto('outbound_route_patterns')
            .values(
              detail.patterns.map((p, position) => ({
                route_id: routeId as number,
                position,
                prepend: p.prepend,
                prefix: p.prefix,
                pattern: p.match_pattern,
                cid: p.match_cid,
              })),
            )
            .execute();
        }
        await this.setTrunks(trx, routeId, detail.trunks);
        return routeId;
      });
      this.changed();
      return routeId;
    } catch (error) {
      if (isUniqueViolation(error)) throw routeExists(detail.name);
      throw error;
    }
  }

  async remove(id: number): Promise<void> {
    const result = await this.db.deleteFrom('outbound_routes').where('id', '=', id).executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw new AppError(404, 'not_found');
    this.changed();
  }
}
