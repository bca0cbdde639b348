import { gatewayCreateSchema, gatewayModels, type MigrationStatus } from '@centralino/contract';
import type { ControlledTransaction, Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { SettingsStore } from '../../db/settings-store.ts';
import type { RecordingsService } from '../flows/service.ts';
import type { GatewaysService } from '../gateways/service.ts';
import { migrateConferences } from './conference-steps.ts';
import { migrateCqrs } from './cqr-steps.ts';
import { DestinationCheck, IDS_KEY, kindsAfter } from './destinations.ts';
import { migrateQueues, migrateTimeConditions, migrateTimeGroups } from './flow-steps.ts';
import { migrateFollowMe } from './followme-steps.ts';
import { migrateRingGroups } from './group-steps.ts';
import { describe, msg, textMessage } from './messages.ts';
import { migrateMusicClasses } from './music-steps.ts';
import { migrateParking } from './parking-steps.ts';
import { addPending, linkPending, type PendingLink } from './pending.ts';
import { migrateCardTemplates, migrateCtiPhonebook } from './post-steps.ts';
import { migrateRecordings } from './recording-steps.ts';
import { StepProgress } from './resume.ts';
import type { LegacySource } from './source.ts';
import { type MigrationState, type StepBody, StepLog } from './state.ts';

export interface StepAnswer {
  code: 200 | 500;
  /** Rendered in the language of the request (Accept-Language). */
  body: StepBody;
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
    private readonly gateways?: GatewaysService,
    private readonly recordings?: Pick<RecordingsService, 'create'>,
    /** A dry run (dryrun.ts): `db` is its outer transaction, each step a savepoint, nothing leaves the database. */
    private readonly dry?: { gateways: string[] },
  ) {}

  /**
   * A step of a dry run: its writes under a savepoint of the dry run's transaction, rolled back to it when the step
   * fails (as the real step's own transaction would be), so the later steps see what the real run would leave.
   */
  private async runDry(
    reportName: string,
    status: MigrationStatus | null,
    body: (trx: Trx, log: StepLog) => Promise<boolean | null | undefined>,
  ): Promise<StepAnswer> {
    const log = new StepLog();
    const trx = this.db as ControlledTransaction<Database>;
    const point = await trx.savepoint('dry_step').execute();
    let outcome: boolean | null | undefined;
    try {
      outcome = await body(point, log);
      if (log.errors.length === 0 && status) await this.state.setStatus(status, point);
    } catch (error) {
      log.errors.push(textMessage(describe(error)));
    }
    if (log.errors.length > 0) await point.rollbackToSavepoint('dry_step').execute();
    await point.releaseSavepoint('dry_step').execute();
    await this.state.record(reportName, log);
    const ok = log.errors.length === 0;
    return { code: ok ? 200 : 500, body: log.result(ok ? (outcome === null ? null : true) : false) };
  }

  /** Runs one step: its writes and the status together, or nothing. */
  private async run(
    reportName: string,
    status: MigrationStatus | null,
    body: (trx: Trx, log: StepLog) => Promise<boolean | null | undefined>,
  ): Promise<StepAnswer> {
    if (this.dry) return this.runDry(reportName, status, body);
    const log = new StepLog();
    let outcome: boolean | null | undefined;
    try {
      // The report's lines commit with the writes they tell of: a server killed after the commit loses neither.
      await this.db.transaction().execute(async (trx) => {
        outcome = await body(trx, log);
        if (log.errors.length > 0) throw new RollBack();
        if (status) await this.state.setStatus(status, trx);
        await this.state.record(reportName, log, trx);
      });
    } catch (error) {
      if (!(error instanceof RollBack)) log.errors.push(textMessage(describe(error)));
    }
    if (log.errors.length > 0) await this.state.record(reportName, log);
    const ok = log.errors.length === 0;
    return { code: ok ? 200 : 500, body: log.result(ok ? (outcome === null ? null : true) : false) };
  }

  /**
   * A step whose writes go through another service, each in that service's own transaction (SQLite has one
   * connection: a service transaction inside the step's would wait for it forever). What it has saved so far is kept
   * (resume.ts), so that a run cut short and run again reports those objects as migrated; its report, its status and
   * the end of that list commit together, after.
   */
  private async runEach(
    reportName: string,
    status: MigrationStatus,
    body: (db: Trx, log: StepLog, progress: StepProgress) => Promise<void>,
  ): Promise<StepAnswer> {
    if (this.dry) {
      return this.runDry(reportName, status, async (trx, log) => {
        await body(trx, log, await StepProgress.load(trx, reportName));
        return true;
      });
    }
    const log = new StepLog();
    const progress = await StepProgress.load(this.db, reportName);
    try {
      await body(this.db, log, progress);
    } catch (error) {
      log.errors.push(textMessage(describe(error)));
    }
    await this.db.transaction().execute(async (trx) => {
      if (log.errors.length === 0) await this.state.setStatus(status, trx);
      await this.state.record(reportName, log, trx);
      await progress.finish(trx);
    });
    const ok = log.errors.length === 0;
    return { code: ok ? 200 : 500, body: log.result(ok) };
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
          log.infos.push(msg('trunk_dynamic', { name: t.name }));
          continue;
        }
        // Accounts such as 2001 are gateway ports: the gateway step recreates them.
        if (/^[2-9]0[0-9][0-9]$/.test(peer.username ?? '')) continue;
        const name = t.name.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 50) || `trunk${t.trunkid}`;
        if (names.has(name)) {
          log.warnings.push(msg('trunk_exists', { name }));
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
        log.infos.push(msg('trunk_migrated', { name }));
      }
      return true;
    });
  }

  /**
   * Physical gateways whose model the catalogue has (an old Vega_50 matches the same Vega_60), recreated through the
   * gateways service — so their port trunks and FXS devices are made as when adding one on the physical lines page.
   * Each gateway is saved whole or not at all.
   */
  gatewaysStep(): Promise<StepAnswer> {
    return this.runEach('getOldGateways', 'gateptrunks', async (trx, log, progress) => {
      if (!this.gateways && !this.dry) throw new Error('gateways are not available');
      const old = await this.source.query<{
        id: number;
        name: string;
        ipv4: string;
        gateway: string;
        mac: string;
        ipv4_new: string;
        model: string;
      }>(
        `SELECT c.id, c.name, c.ipv4, c.gateway, c.mac, c.ipv4_new, m.model
           FROM ${this.source.table('pbx', 'nethgateway_config')} c
           JOIN ${this.source.table('pbx', 'nethgateway_models')} m ON m.id = c.model_id ORDER BY c.id`,
      );
      const fxo = await this.source.query<{ config_id: number; number: string }>(
        `SELECT config_id, number FROM ${this.source.table('pbx', 'nethgateway_config_fxo')} ORDER BY id`,
      );
      const fxs = await this.source.query<{ config_id: number; extension: string }>(
        `SELECT config_id, extension FROM ${this.source.table('pbx', 'nethgateway_config_fxs')} ORDER BY id`,
      );
      const users = new Set(
        (
          await trx.selectFrom('users').select('default_extension').where('default_extension', 'is not', null).execute()
        ).map((u) => String(u.default_extension)),
      );
      const macs = new Set((await trx.selectFrom('gateways').select('mac').execute()).map((g) => g.mac.toUpperCase()));
      for (const g of old) {
        if (!g.mac) continue;
        const model =
          gatewayModels.find((m) => m.model === g.model) ??
          gatewayModels.find((m) => m.model === g.model.replace(/^Vega_50_/, 'Vega_60_'));
        if (!model) {
          log.warnings.push(msg('gateway_model', { name: g.name, model: g.model }));
          continue;
        }
        const as = (description: string) => `${model.manufacturer} ${description}`;
        const migrated = msg('gateway_migrated_model', {
          name: g.name,
          model: { en: as(model.descriptionEn), it: as(model.description) },
        });
        if (macs.has(g.mac.toUpperCase())) {
          // Saved by this step's run that was cut short: what that run would have said.
          if (progress.savedByThisStep(g.mac.toUpperCase())) log.infos.push(migrated);
          else log.warnings.push(msg('gateway_exists', { name: g.name }));
          continue;
        }
        const ports = <T>(n: number, make: (i: number) => T) => Array.from({ length: n }, (_, i) => make(i));
        const ownFxo = fxo.filter((p) => p.config_id === g.id);
        const ownFxs = fxs.filter((p) => p.config_id === g.id);
        const body = gatewayCreateSchema.safeParse({
          model: model.id,
          mac: g.mac,
          ipv4: g.ipv4 || '',
          ipv4_new: g.ipv4_new || g.ipv4,
          netmask_green: '255.255.255.0',
          gateway: g.gateway,
          ipv4_green: '',
          trunks_isdn: ports(model.n_isdn_trunks, () => ({ type: 'pp' })),
          trunks_pri: ports(model.n_pri_trunks, () => ({})),
          trunks_fxo: ports(model.n_fxo_trunks, (i) => ({ number: (ownFxo[i]?.number ?? '').replace(/\D/g, '') })),
          trunks_fxs: ports(model.n_fxs_ext, (i) => {
            const ext = ownFxs[i]?.extension ?? '';
            return { linked_extension: users.has(ext) ? ext : '' };
          }),
        });
        if (!body.success) {
          log.errors.push(
            msg('with_reason', {
              subject: msg('gateway_label', { name: g.name }),
              reason: body.error.issues.map((i) => i.message).join('; '),
            }),
          );
          continue;
        }
        if (this.dry) {
          // The gateways service saves each gateway in a transaction of its own: a dry run only counts it.
          this.dry.gateways.push(g.name);
          log.infos.push(msg('dry_gateway', { name: g.name }));
          continue;
        }
        try {
          await progress.saving(g.mac.toUpperCase());
          await (this.gateways as GatewaysService).create(body.data);
          await progress.saved(g.mac.toUpperCase());
          log.infos.push(migrated);
        } catch (error) {
          log.errors.push(
            msg('with_reason', { subject: msg('gateway_label', { name: g.name }), reason: describe(error) }),
          );
        }
      }
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
        log.warnings.push(msg('iax_trunk', { name: t.name }));
      }
      const n = Number(iaxExtensions[0]?.n ?? 0);
      if (n > 0) log.warnings.push(msg('iax_extensions', { count: n }));
      if (trunks.length === 0 && n === 0) log.infos.push(msg('iax_none'));
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
          log.warnings.push(msg('outbound_exists', { name: r.name }));
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
        log.infos.push(msg('outbound_migrated', { name: r.name }));
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
        log.infos.push(msg('route_trunk_named', { route: l.route, trunk: l.trunk, position: position + 1 }));
      }
      return true;
    });
  }

  /** Ring groups, each with its number (group-steps.ts). */
  ringGroups(): Promise<StepAnswer> {
    return this.run('migrateGroups', 'groups', async (trx, log) => {
      // Music classes (music-steps.ts), then conference rooms (conference-steps.ts): rooms and queues play the
      // classes, and every later step may send calls to the rooms.
      await migrateMusicClasses(trx, this.source, log);
      await migrateConferences(trx, this.source, log);
      await migrateRingGroups(trx, this.source, log);
      // The users' follow-me lists (followme-steps.ts): their users are in since the users step.
      await migrateFollowMe(trx, this.source, log);
      // Parking lots last: their timeout destinations may be the rooms and groups just made (parking-steps.ts).
      await migrateParking(trx, this.source, log);
      return true;
    });
  }

  /** Queues with their static members (flow-steps.ts); before the IVRs, whose keys may lead to them. */
  queues(): Promise<StepAnswer> {
    return this.run('migrateQueues', 'queues', async (trx, log) => {
      await migrateQueues(trx, this.source, log);
      return true;
    });
  }

  /** Time groups (no status of their own: the time conditions step sets it). */
  timeGroups(): Promise<StepAnswer> {
    return this.run('migrateTimegroups', null, async (trx, log) => {
      await migrateTimeGroups(trx, this.source, log);
      return true;
    });
  }

  timeConditions(): Promise<StepAnswer> {
    return this.run('migrateTimeconditions', 'tgroupstcond', async (trx, log) => {
      await migrateTimeConditions(trx, this.source, log);
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
        log.infos.push(msg('daynight_empty'));
        return true;
      }
      const check = await DestinationCheck.load(trx);
      const existing = new Set((await trx.selectFrom('daynight').select('ext').execute()).map((d) => Number(d.ext)));
      const pending: PendingLink[] = [];
      // A time condition is migrated after the switches: its destination is linked by that step.
      const dest = (ext: string, old: string | undefined, column: 'day_dest' | 'night_dest') =>
        check.check(old, log, {
          kinds: ['timecondition'],
          later: (o) => pending.push({ table: 'daynight', id: Number(ext), column, selection: null, old: o }),
        });
      for (const ext of switches) {
        const of = (mode: string) => rows.find((r) => r.ext === ext && r.dmode === mode)?.dest;
        if (existing.has(Number(ext))) {
          log.warnings.push(msg('daynight_exists', { code: ext }));
          continue;
        }
        await trx
          .insertInto('daynight')
          .values({
            ext: Number(ext),
            name: (of('fc_description') || `Day/night ${ext}`).slice(0, 80),
            day_dest: dest(ext, of('day'), 'day_dest'),
            night_dest: dest(ext, of('night'), 'night_dest'),
          })
          .execute();
      }
      await addPending(trx, pending);
      log.infos.push(msg('daynight_migrated'));
      await this.state.setStatus('daynight', trx);
      return true;
    });
  }

  /**
   * IVR menus and their keys. The old menu's recording is not carried over (the audio stays on the old system), so
   * each IVR is created without a greeting and says so; keys leading to announcements are linked when the
   * announcements step has created them.
   */
  ivrs(): Promise<StepAnswer> {
    return this.run('migrateIVRs', 'ivr', async (trx, log) => {
      const ivrs = await this.source.query<{
        id: number;
        name: string;
        description: string;
        directdial: string;
        timeout_time: number;
        invalid_loops: string;
        invalid_destination: string;
        timeout_loops: string;
        timeout_destination: string;
        announcement: number | null;
      }>(`SELECT * FROM ${this.source.table('pbx', 'ivr_details')} ORDER BY id`);
      const entries = await this.source.query<{ ivr_id: number; selection: string; dest: string }>(
        `SELECT ivr_id, selection, dest FROM ${this.source.table('pbx', 'ivr_entries')}`,
      );
      const check = await DestinationCheck.load(trx);
      const settings = new SettingsStore(trx);
      const pending: PendingLink[] = [];
      const names = new Set((await trx.selectFrom('ivrs').select('name').execute()).map((i) => i.name));
      const count = (v: unknown, fallback: number) =>
        Math.min(10, Math.max(0, Number.parseInt(String(v), 10) || fallback));
      for (const old of ivrs) {
        const name = (old.name || `IVR ${old.id}`).slice(0, 80);
        if (names.has(name)) {
          log.warnings.push(msg('ivr_exists', { name }));
          continue;
        }
        const links: Omit<PendingLink, 'id'>[] = [];
        const dest = (value: string, column: PendingLink['column'], selection: string | null) =>
          check.check(value, log, {
            kinds: ['ivr', ...kindsAfter('ivr')],
            later: (o) => links.push({ table: selection === null ? 'ivrs' : 'ivr_entries', selection, column, old: o }),
          });
        const row = await trx
          .insertInto('ivrs')
          .values({
            name,
            description: (old.description ?? '').slice(0, 200),
            announcement: null,
            directdial: old.directdial ? 1 : 0,
            timeout_time: Math.min(60, Math.max(1, Number(old.timeout_time) || 10)),
            invalid_loops: count(old.invalid_loops, 3),
            invalid_destination: dest(old.invalid_destination, 'invalid_destination', null),
            timeout_loops: count(old.timeout_loops, 3),
            timeout_destination: dest(old.timeout_destination, 'timeout_destination', null),
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        const id = Number(row.id);
        check.ids.ivr[String(old.id)] = id;
        const own = entries.filter((e) => e.ivr_id === old.id && /^[0-9*#]$/.test(e.selection));
        for (const e of own) {
          await trx
            .insertInto('ivr_entries')
            .values({ ivr_id: id, selection: e.selection, dest: dest(e.dest, 'dest', e.selection) })
            .execute();
        }
        pending.push(...links.map((l) => ({ ...l, id })));
        // Its greeting (old.announcement, a recording) is linked by the recordings step, which comes next but one.
        names.add(name);
        log.infos.push(msg('ivr_migrated', { name }));
        if (own.length > 0) log.infos.push(msg('ivr_entry_migrated'));
      }
      await settings.set(IDS_KEY, check.ids, trx);
      await addPending(trx, pending);
      // Queue failovers and keys leading to an IVR (this one or a later one) now find it.
      await linkPending(trx, log, kindsAfter('ivr'));
      return true;
    });
  }

  /** Caller query routing (cqr-steps.ts). */
  cqrs(): Promise<StepAnswer> {
    return this.run('migrateCQRs', 'cqr', async (trx, log) => {
      await migrateCqrs(trx, this.source, log);
      return true;
    });
  }

  /** System recordings with their audio, converted as uploads are (recording-steps.ts). */
  recordingsStep(): Promise<StepAnswer> {
    return this.runEach('migrateRecordings', 'recordings', async (db, log, progress) => {
      if (!this.recordings) throw new Error('recordings are not available');
      await migrateRecordings(db, this.source, this.recordings, this.source.config.soundsDir, log, progress);
    });
  }

  /** Announcements with the recording migrated for each, then whatever waited for them. */
  announcements(): Promise<StepAnswer> {
    return this.run('migrateAnnouncements', 'announcements', async (trx, log) => {
      const rows = await this.source.query<{
        announcement_id: number;
        description: string;
        allow_skip: number;
        post_dest: string;
        return_ivr: number;
        noanswer: number;
        repeat_msg: string;
        recording_id: number | null;
      }>(`SELECT * FROM ${this.source.table('pbx', 'announcement')} ORDER BY announcement_id`);
      const check = await DestinationCheck.load(trx);
      const settings = new SettingsStore(trx);
      const names = new Set(
        (await trx.selectFrom('announcements').select('description').execute()).map((a) => a.description),
      );
      const pending: PendingLink[] = [];
      let waiting: string | null = null;
      for (const a of rows) {
        waiting = null;
        const description = (a.description || `Announcement ${a.announcement_id}`).slice(0, 80);
        if (names.has(description)) {
          log.warnings.push(msg('announcement_exists', { description }));
          continue;
        }
        const row = await trx
          .insertInto('announcements')
          .values({
            description,
            recording_id: a.recording_id ? (check.ids.recording[String(a.recording_id)] ?? null) : null,
            allow_skip: a.allow_skip ? 1 : 0,
            post_dest: check.check(a.post_dest, log, {
              kinds: ['announcement', ...kindsAfter('announcement')],
              later: (o) => {
                waiting = o;
              },
            }),
            return_ivr: a.return_ivr ? 1 : 0,
            noanswer: a.noanswer ? 1 : 0,
            repeat_msg: /^[0-9*#]$/.test(a.repeat_msg ?? '') ? a.repeat_msg : '',
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        check.ids.announcement[String(a.announcement_id)] = Number(row.id);
        if (waiting)
          pending.push({
            table: 'announcements',
            id: Number(row.id),
            column: 'post_dest',
            selection: null,
            old: waiting,
          });
        if (a.recording_id && check.ids.recording[String(a.recording_id)] === undefined) {
          log.warnings.push(msg('announcement_no_recording', { description }));
        }
        names.add(description);
        log.infos.push(msg('announcement_migrated', { description }));
      }
      await settings.set(IDS_KEY, check.ids, trx);
      await addPending(trx, pending);
      // What led to an announcement now finds it, or gets its warning; what leads to a time condition waits for it.
      await linkPending(trx, log, kindsAfter('announcement'));
      return true;
    });
  }

  /**
   * Post-migration: the old CTI phonebook and customer-card templates (post-steps.ts), in one transaction. The
   * objects Centralino has no home for are named in a warning, never dropped silently. The templates it saves are
   * listed (resume.ts) until the apply that follows has recorded its verdict (MigrationService.postMigration): run
   * again after a kill during that apply, the step says what it said the first time.
   */
  postMigration(): Promise<StepAnswer> {
    return this.run('postMigration', 'postmig', async (trx, log) => {
      await migrateCtiPhonebook(trx, this.source, log);
      await migrateCardTemplates(
        trx,
        this.source.config.templatesDir,
        log,
        await StepProgress.load(trx, 'postMigration'),
      );
      log.warnings.push(msg('postmig_by_hand'));
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
          log.warnings.push(msg('inbound_exists', { description }));
          continue;
        }
        await trx
          .insertInto('inbound_routes')
          .values({ did, cid, description, destination: check.check(r.destination, log) })
          .execute();
        taken.add(`${did}/${cid}`);
        log.infos.push(msg('inbound_migrated', { description }));
      }
      return true;
    });
  }
}

class RollBack extends Error {}
