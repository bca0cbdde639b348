import type { MigrationStatus, MigrationStepResult } from '@centralino/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { DestinationCheck } from './destinations.ts';
import type { LegacySource } from './source.ts';
import { type MigrationState, StepLog } from './state.ts';

export interface StepAnswer {
  code: 200 | 500;
  body: MigrationStepResult;
}

type Trx = Kysely<Database>;

/** Old chan_sip settings rows of one id (`tr-peer-3` …) as a map. */
function settingsOf(rows: { id: string; keyword: string; data: string }[], id: string): Record<string, string> {
  return Object.fromEntries(rows.filter((r) => r.id === id).map((r) => [r.keyword, r.data]));
}

/**
 * The configuration steps of /migration/config, each in one transaction: a step that fails leaves nothing half
 * migrated and can be run again. Each answers the three lists, stores its errors and warnings in the report under
 * the original's function name, and sets the status the contract names.
 */
export class ConfigMigration {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly source: LegacySource,
    private readonly state: MigrationState,
    private readonly changed: () => void,
  ) {}

  /** Runs one step: its writes and the status together, or nothing. */
  private async run(
    reportName: string,
    status: MigrationStatus | null,
    body: (trx: Trx, log: StepLog) => Promise<boolean | null | undefined>,
  ): Promise<StepAnswer> {
    const log = new StepLog();
    let outcome: boolean | null | undefined;
    try {
      await this.db.transaction().execute(async (trx) => {
        outcome = await body(trx, log);
        if (log.errors.length > 0) throw new RollBack();
        if (status) await this.state.setStatus(status, trx);
      });
    } catch (error) {
      if (!(error instanceof RollBack)) log.errors.push(error instanceof Error ? error.message : String(error));
    }
    await this.state.record(reportName, log);
    if (log.errors.length === 0) this.changed();
    const ok = log.errors.length === 0;
    return { code: ok ? 200 : 500, body: log.result(ok ? (outcome === null ? null : true) : false) };
  }

  /** A step whose objects have no home here yet: said in its answer and in the report, never silently skipped. */
  notYet(reportName: string, status: MigrationStatus | null, what: string): Promise<StepAnswer> {
    return this.run(reportName, status, async (_trx, log) => {
      log.warnings.push(`${what} are not migrated by this version of Centralino: recreate them by hand`);
      return true;
    });
  }

  /** chan_sip trunks → PJSIP VoIP trunks (technology changes: Centralino has only PJSIP). */
  voipTrunks(): Promise<StepAnswer> {
    return this.run('copyOldTrunks', 'vtrunk', async (trx, log) => {
      const trunks = await this.source.query<{ trunkid: number; name: string; outcid: string; tech: string }>(
        `SELECT trunkid, name, outcid, tech FROM ${this.source.table('pbx', 'trunks')} WHERE tech = 'sip' ORDER BY trunkid`,
      );
      const sip = await this.source.query<{ id: string; keyword: string; data: string }>(
        `SELECT id, keyword, data FROM ${this.source.table('pbx', 'sip')} WHERE id LIKE 'tr-%'`,
      );
      const names = new Set((await trx.selectFrom('trunks').select('name').execute()).map((t) => t.name));
      const now = Date.now();
      for (const t of trunks) {
        const peer = settingsOf(sip, `tr-peer-${t.trunkid}`);
        if (peer.host === 'dynamic') {
          log.infos.push(`Trunk "${t.name}" not migrated: it has no fixed address (dynamic)`);
          continue;
        }
        // Accounts such as 2001 are gateway ports: the gateway step recreates them.
        if (/^[2-9]0[0-9][0-9]$/.test(peer.username ?? '')) continue;
        const name = t.name.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 50) || `trunk${t.trunkid}`;
        if (names.has(name)) {
          log.warnings.push(`Trunk "${name}" already migrated`);
          continue;
        }
        const username = peer.username ?? peer.defaultuser ?? '';
        const settings = {
          sip_server: peer.host ?? '',
          sip_server_port: peer.port ?? '5060',
          from_domain: peer.fromdomain ?? peer.host ?? '',
          context: 'from-pstn',
          contact_user: username,
          from_user: peer.fromuser ?? username,
          trunk_name: name,
          sv_trunk_name: name,
          sv_channelid: name,
          registration: settingsOf(sip, `tr-reg-${t.trunkid}`).register ? 'send' : 'none',
          migrated_from: 'chan_sip',
        };
        await trx
          .insertInto('trunks')
          .values({
            name,
            kind: 'voip',
            provider: 'custom',
            username,
            secret: peer.secret ?? '',
            phone: t.outcid || username,
            codecs: (peer.allow ?? 'alaw,ulaw,g729').replace(/&/g, ','),
            force_codec: 0,
            settings: JSON.stringify(settings),
            gateway_id: null,
            port_type: null,
            port: null,
            created_at: now,
            updated_at: now,
          })
          .execute();
        names.add(name);
        log.infos.push(`Trunk "${name}" migrated`);
      }
      return true;
    });
  }

  /** Centralino has no IAX: each IAX trunk is reported, never silently dropped. */
  iax(): Promise<StepAnswer> {
    return this.run('migrateIAX', 'iax', async (_trx, log) => {
      const trunks = await this.source.query<{ name: string }>(
        `SELECT name FROM ${this.source.table('pbx', 'trunks')} WHERE tech IN ('iax', 'iax2') ORDER BY trunkid`,
      );
      const iaxExtensions = await this.source.query<{ n: number }>(
        `SELECT COUNT(DISTINCT id) AS n FROM ${this.source.table('pbx', 'iax')} WHERE id NOT LIKE 'tr-%'`,
      );
      for (const t of trunks) {
        log.warnings.push(`IAX trunk "${t.name}" not migrated: Centralino has no IAX; create it again as a SIP trunk`);
      }
      const n = Number(iaxExtensions[0]?.n ?? 0);
      if (n > 0) log.warnings.push(`${n} IAX extensions not migrated: Centralino has no IAX`);
      if (trunks.length === 0 && n === 0) log.infos.push('No IAX extensions to migrate');
      return true;
    });
  }

  /** Outbound routes with their patterns, in their old priority order (no status change: the assignment follows). */
  outboundRoutes(): Promise<StepAnswer> {
    return this.run('copyOldOutboundRoutes', null, async (trx, log) => {
      const routes = await this.source.query<{
        route_id: number;
        name: string;
        outcid: string;
        emergency_route: string;
        seq: number;
      }>(
        `SELECT r.route_id, r.name, r.outcid, r.emergency_route, s.seq
           FROM ${this.source.table('pbx', 'outbound_routes')} r
           LEFT JOIN ${this.source.table('pbx', 'outbound_route_sequence')} s ON s.route_id = r.route_id
           ORDER BY s.seq, r.route_id`,
      );
      const patterns = await this.source.query<{
        route_id: number;
        match_pattern_prefix: string;
        match_pattern_pass: string;
        match_cid: string;
        prepend_digits: string;
      }>(`SELECT * FROM ${this.source.table('pbx', 'outbound_route_patterns')}`);
      const existing = await trx.selectFrom('outbound_routes').select(['name', 'seq']).execute();
      const names = new Set(existing.map((r) => r.name));
      let seq = existing.reduce((max, r) => Math.max(max, Number(r.seq)), -1);
      const now = Date.now();
      for (const r of routes) {
        if (names.has(r.name)) {
          log.warnings.push(`Outbound route "${r.name}" already migrated`);
          continue;
        }
        const row = await trx
          .insertInto('outbound_routes')
          .values({
            name: r.name,
            seq: ++seq,
            outcid: (r.outcid ?? '').slice(0, 32),
            emergency: r.emergency_route ? 1 : 0,
            created_at: now,
            updated_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        const own = patterns.filter((p) => p.route_id === r.route_id);
        if (own.length > 0) {
          await trx
            .insertInto('outbound_route_patterns')
            .values(
              own.map((p, position) => ({
                route_id: Number(row.id),
                position,
                prepend: p.prepend_digits ?? '',
                prefix: p.match_pattern_prefix ?? '',
                pattern: p.match_pattern_pass ?? '',
                cid: p.match_cid ?? '',
              })),
            )
            .execute();
        }
        names.add(r.name);
        log.infos.push(`Outbound route "${r.name}" migrated`);
      }
      return true;
    });
  }

  /** Each old (route, trunk, order) becomes the same assignment between the routes and trunks of the same names. */
  trunksRoutesAssignments(): Promise<StepAnswer> {
    return this.run('migrateRoutesTrunksAssignements', 'outroutes', async (trx, log) => {
      const links = await this.source.query<{ route: string; trunk: string; seq: number }>(
        `SELECT r.name AS route, t.name AS trunk, rt.seq
           FROM ${this.source.table('pbx', 'outbound_route_trunks')} rt
           JOIN ${this.source.table('pbx', 'outbound_routes')} r ON r.route_id = rt.route_id
           JOIN ${this.source.table('pbx', 'trunks')} t ON t.trunkid = rt.trunk_id
           ORDER BY r.route_id, rt.seq`,
      );
      const routes = new Map(
        (await trx.selectFrom('outbound_routes').select(['id', 'name']).execute()).map((r) => [r.name, Number(r.id)]),
      );
      const trunks = new Map(
        (await trx.selectFrom('trunks').select(['id', 'name']).execute()).map((t) => [t.name, Number(t.id)]),
      );
      const taken = new Set(
        (await trx.selectFrom('outbound_route_trunks').select(['route_id', 'trunk_id']).execute()).map(
          (l) => `${l.route_id}/${l.trunk_id}`,
        ),
      );
      const next = new Map<number, number>();
      for (const l of links) {
        const routeId = routes.get(l.route);
        const trunkId = trunks.get(l.trunk.replace(/[^A-Za-z0-9_.-]/g, '_'));
        if (routeId === undefined || trunkId === undefined || taken.has(`${routeId}/${trunkId}`)) continue;
        const position = next.get(routeId) ?? 0;
        next.set(routeId, position + 1);
        await trx
          .insertInto('outbound_route_trunks')
          .values({ route_id: routeId, trunk_id: trunkId, position })
          .execute();
        taken.add(`${routeId}/${trunkId}`);
        log.infos.push(`${trunkId} used for route ${routeId}`);
      }
      return true;
    });
  }

  /** Day/night switches: one row per switch here, the old day and night rows joined. */
  dayNight(): Promise<StepAnswer> {
    return this.run('daynight', null, async (trx, log) => {
      const rows = await this.source.query<{ ext: string; dmode: string; dest: string }>(
        `SELECT ext, dmode, dest FROM ${this.source.table('pbx', 'daynight')}`,
      );
      const switches = [...new Set(rows.map((r) => r.ext))].filter((e) => /^\d$/.test(e));
      if (switches.length === 0) {
        log.infos.push('DayNight empty');
        return true;
      }
      const check = await DestinationCheck.load(trx);
      const existing = new Set((await trx.selectFrom('daynight').select('ext').execute()).map((d) => Number(d.ext)));
      for (const ext of switches) {
        const of = (mode: string) => rows.find((r) => r.ext === ext && r.dmode === mode)?.dest;
        if (existing.has(Number(ext))) {
          log.warnings.push(`Day/night switch ${ext} already migrated`);
          continue;
        }
        await trx
          .insertInto('daynight')
          .values({
            ext: Number(ext),
            name: (of('fc_description') || `Day/night ${ext}`).slice(0, 80),
            day_dest: check.check(of('day'), log),
            night_dest: check.check(of('night'), log),
          })
          .execute();
      }
      log.infos.push('DayNight migrated');
      await this.state.setStatus('daynight', trx);
      return true;
    });
  }

  /** Inbound routes (DID and caller number), their destinations checked. */
  inboundRoutes(): Promise<StepAnswer> {
    return this.run('migrateInboundRoutes', 'iroutes', async (trx, log) => {
      const rows = await this.source.query<{
        cidnum: string;
        extension: string;
        destination: string;
        description: string;
      }>(`SELECT cidnum, extension, destination, description FROM ${this.source.table('pbx', 'incoming')}`);
      const check = await DestinationCheck.load(trx);
      const taken = new Set(
        (await trx.selectFrom('inbound_routes').select(['did', 'cid']).execute()).map((r) => `${r.did}/${r.cid}`),
      );
      for (const r of rows) {
        const did = r.extension ?? '';
        const cid = r.cidnum ?? '';
        const description = r.description || did || 'any';
        if (taken.has(`${did}/${cid}`)) {
          log.warnings.push(`Inbound route "${description}" already migrated`);
          continue;
        }
        await trx
          .insertInto('inbound_routes')
          .values({ did, cid, description, destination: check.check(r.destination, log) })
          .execute();
        taken.add(`${did}/${cid}`);
        log.infos.push(`${description} inbound route migrated`);
      }
      return true;
    });
  }
}

class RollBack extends Error {}
