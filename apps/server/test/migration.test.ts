import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cdrCopyHooks } from '../src/features/migration/cdr.ts';
import { describeDestination } from '../src/features/migration/destinations.ts';
import { memberExtension, rangeOf } from '../src/features/migration/flow-steps.ts';
import { migrationMessages, placeholders, renderMessage } from '../src/features/migration/messages.ts';
import { mainExtensionClash } from '../src/features/numbering/rules.ts';
import { loadPbxModel } from '../src/pbx/load.ts';
import { renderConfiguration } from '../src/pbx/render/index.ts';
import { formatIssue, validateConfiguration } from '../src/pbx/validate.ts';
import { callAs, DB_KINDS, expectError, login, startApp, useTestApp } from './helpers.ts';
import {
  createLegacyDatabases,
  dropLegacyDatabases,
  legacyExtension,
  legacyNames,
  legacySoundsDir,
  legacyTemplatesDir,
} from './support/legacy-pbx.ts';

const CDR_ROWS = 4500;

describe('old queue members and time strings', () => {
  it('reads the member rows FreePBX wrote and refuses what is not an extension', () => {
    expect(memberExtension('Local/201@from-queue/n,0')).toBe('201');
    expect(memberExtension('SIP/305,1')).toBe('305');
    expect(memberExtension('Agent/abc,0')).toBeNull();
  });
  it('turns hh:mm-hh:mm|dow|dom|month into a range Asterisk reads, or nothing', () => {
    expect(rangeOf('8:00-17:30|mon-fri|*|*')).toEqual({
      hours: '08:00-17:30',
      weekdays: 'mon-fri',
      mdays: '*',
      months: '*',
    });
    expect(rangeOf('*|*|1-6|JAN-jan')).toEqual({ hours: '*', weekdays: '*', mdays: '1-6', months: 'jan' });
    expect(rangeOf('25:00-26:00|*|*|*')).toBeNull();
    expect(rangeOf('08:00-12:00|mon')).toBeNull();
  });
});

describe('old destinations named in words (issue 38)', () => {
  const say = (dest: string, lang: 'en' | 'it' = 'en') => renderMessage(describeDestination(dest), lang);
  it('names what each old destination was, never its raw context line when it knows it', () => {
    expect(say('ext-meetme,600,1')).toBe('conference 600 (no such room in the old system)');
    expect(say('ext-meetme,600,1', 'it')).toBe('conferenza 600 (stanza inesistente nel vecchio sistema)');
    expect(say('custom-ctx,s,1')).toBe('the custom destination custom-ctx (not migrated)');
    expect(say('custom-ctx,s,1', 'it')).toBe('la destinazione personalizzata custom-ctx (non migrata)');
    expect(say('from-did-direct,299,1')).toBe('extension 299 (no migrated user has it)');
    expect(say('ext-local,vmb299,1')).toBe('the voicemail of extension 299 (no migrated user has a mailbox there)');
    expect(say('ivr-7,s,1')).toBe('IVR 7 of the old system (not migrated)');
    expect(say('ext-group,610,1')).toBe('ring group 610 (not migrated)');
    expect(say('ext-paging,700,1')).toBe('paging group 700 (paging groups are not migrated yet)');
    expect(say('weird-thing,1,1')).toBe('the old destination weird-thing,1,1, which Centralino has no equivalent for');
  });
});

describe('the migration messages', () => {
  // Texts that read the same in both languages: a bare parameter, or a name and a product word.
  const same = new Set(['text', 'with_reason', 'gateway_label', 'gateway_exists', 'cqr_label']);
  it.each(Object.entries(migrationMessages))('%s exists in English and Italian with the same parameters', (key, m) => {
    expect(m.en.trim()).not.toBe('');
    expect(m.it.trim()).not.toBe('');
    expect(placeholders(m.it)).toEqual(placeholders(m.en));
    if (!same.has(key)) expect(m.it).not.toBe(m.en);
  });
});

describe.each(DB_KINDS)('migration from the older system (%s)', (kind) => {
  const prefix = `mig_${process.pid}_${kind}_`;
  const names = legacyNames(prefix);
  const env = {
    MIGRATION_DB_URL: 'mysql://root@127.0.0.1:3306',
    MIGRATION_PBX_DB: names.pbx,
    MIGRATION_CDR_DB: names.cdr,
    MIGRATION_CTI_DB: names.cti,
    MIGRATION_SOUNDS_DIR: legacySoundsDir(prefix),
    MIGRATION_CTI_TEMPLATES_DIR: legacyTemplatesDir(prefix),
  };
  beforeAll(async () => {
    await createLegacyDatabases({ prefix, users: 300, cdr: CDR_ROWS });
  }, 60_000);
  afterAll(() => dropLegacyDatabases(prefix));
  const t = useTestApp(kind, { env });
  const call = callAs(t);
  const get = (url: string) => call('GET', url);
  const post = (url: string, body?: unknown) => call('POST', url, body);

  it('offers the migration while the old system answers and it is not done', async () => {
    expect((await get('/api/migration/ismigration')).json()).toBe(true);
    expect((await get('/api/migration/migrationstatus')).json()).toBe('ready');
    expect((await post('/api/migration/migrationstatus', { status: 'bogus' })).statusCode).toBe(400);
    expect((await get('/api/migration/migrationstatus')).json()).toBe('ready');
  });

  it('lists the old extensions with their CTI accounts, without their SIP secrets', async () => {
    const res = await get('/api/migration/oldusers');
    expect(res.statusCode).toBe(200);
    const list = res.json() as Record<string, string>[];
    expect(list).toHaveLength(300);
    expect(list[0]).toMatchObject({
      extension: '201',
      username: 'mario.rossi',
      name: 'Mario Rossi',
      voicemail: 'default',
    });
    expect(list[0]?.username_from).toBe('cti');
    // Every tenth old extension had no CTI account: it gets a user name from its old name, or — that name taken —
    // one made from its extension number, so that none is left out.
    expect(list[9]).toMatchObject({
      extension: '210',
      username: 'chiara.rossi',
      username_from: 'name',
      profile_id: '',
    });
    expect(list[119]).toMatchObject({
      extension: '320',
      name: 'Chiara Rossi',
      username: 'user320',
      username_from: 'extension',
    });
    expect(new Set(list.map((u) => u.username)).size).toBe(300);
    expect(res.body).not.toContain('OldSecret');
  });

  it('migrates the CTI profiles once, mapping the old permissions', async () => {
    const first = await post('/api/migration/importprofiles');
    expect(first.statusCode, first.body).toBe(200);
    // The new system ships a "Base" profile already: kept as it is, with a warning.
    expect(first.json().infos, first.body).toEqual(['Profile "Reception" migrated', 'Profile "Supervisors" migrated']);
    expect(first.json().warnings).toEqual(['Profile "Base" already migrated']);
    const profiles = (await get('/api/cti/profiles')).json() as {
      name: string;
      macro_permissions: Record<string, { value: boolean; permissions?: { name: string; value: boolean }[] }>;
    }[];
    const advanced = profiles.find((p) => p.name === 'Supervisors');
    expect(advanced?.macro_permissions.phonebook?.value).toBe(true);
    expect(advanced?.macro_permissions.queue_agent?.value).toBe(true);
    const on = Object.values(advanced?.macro_permissions ?? {}).flatMap((m) =>
      (m.permissions ?? []).filter((p) => p.value).map((p) => p.name),
    );
    expect(on).toEqual(expect.arrayContaining(['ad_phone', 'chat', 'spy', 'dnd']));
    const again = await post('/api/migration/importprofiles');
    expect(again.json().warnings).toContain('Profile "Base" already migrated');
    expect((await get('/api/migration/migrationstatus')).json()).toBe('profiles');
  });

  it('imports the users with their old extensions and secrets; a username used twice is refused', async () => {
    expect((await post('/api/configuration/mode', { mode: 'legacy' })).statusCode).toBe(200);
    for (let i = 0; i < 100 && (await get('/api/configuration/userprovider')).json().configured !== 1; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    // As the users step sends them: every old extension but one the administrator removed from the list.
    const all = (await get('/api/migration/oldusers')).json() as Record<string, string>[];
    const old = all.filter((u) => u.extension !== '500');
    const twice = [old[0], { ...old[1], username: old[0]?.username }];
    expectError(await post('/api/migration/importusers', twice), 400, 'validation');
    const res = await post('/api/migration/importusers', old);
    expect(res.statusCode, res.body).toBe(200);
    let status = { result: 0, created: 0, failures: [] as { username: string; message: string }[] };
    for (let i = 0; i < 300 && status.result >= 0 && status.result < 100; i++) {
      await new Promise((r) => setTimeout(r, 50));
      status = (await get('/api/csv/csvimport')).json();
    }
    // The numbering rules hold: e.g. 281–289 would make *281… (their voicemail) reach the day/night code *28,
    // 271… the time-condition override *27, 451… the queue login *45.
    const clashing = old.filter((u) => mainExtensionClash(u.extension as string, []) !== undefined);
    expect(clashing.map((u) => u.extension)).toContain('281');
    // Done, with the clashing ones refused and named: a success with refusals, not a failure.
    expect(status.result).toBe(100);
    expect(status.failures.map((f) => f.username).sort()).toEqual(clashing.map((u) => u.username).sort());
    expect(status.failures.find((f) => f.username === 'anna.colombo')?.message).toMatch(/Extension 281 cannot be used/);
    expect(status.created).toBe(old.length - clashing.length);
    const users = await t.database.db.selectFrom('users').select(['username', 'default_extension']).execute();
    const mario = users.find((u) => u.username === 'mario.rossi');
    expect(mario?.default_extension).toBe('201');
    expect(users.filter((u) => u.default_extension)).toHaveLength(old.length - clashing.length);
    const secret = await t.database.db
      .selectFrom('pbx_secrets')
      .select('secret')
      .where('extension', '=', '201')
      .executeTakeFirst();
    expect(secret?.secret).toBe('OldSecret201x');
    expect((await get('/api/migration/migrationstatus')).json()).toBe('users');
    // The extension without a CTI user name is migrated (issue 38: it was silently dropped) and the report says how;
    // the one left out is listed with the reason; the count adds up to every old extension.
    expect(users.find((u) => u.username === 'chiara.rossi')?.default_extension).toBe('210');
    expect(users.find((u) => u.username === 'user320')?.default_extension).toBe('320');
    const report = await vi.waitFor(async () => {
      const section = (await get('/api/migration/report')).json().csvimport;
      if (!section?.errors) throw new Error('not yet');
      return section as { errors: string[]; warnings: string[]; infos: string[] };
    });
    expect(report.infos).toContain(
      'Extension 210 (Chiara Rossi) had no CTI user name in the old system: it was given the user name chiara.rossi (made from its name)',
    );
    expect(report.infos).toContain(
      'Extension 320 (Chiara Rossi) had no CTI user name in the old system: it was given the user name user320 (made from its extension number)',
    );
    expect(report.warnings).toEqual([
      expect.stringMatching(/^Extension 500 \(.+\) not migrated: it was left without a user on the users step/),
    ]);
    expect(report.infos).toContain(`${status.created} of the 300 old extensions migrated with their user`);
    expect(report.errors).toHaveLength(clashing.length);
    expect(status.created + report.errors.length + report.warnings.length).toBe(300);
  }, 60_000);

  it('migrates trunks, routes, day/night and inbound routes, checking destinations', async () => {
    const trunks = await post('/api/migration/importoldvoiptrunks');
    expect(trunks.statusCode, trunks.body).toBe(200);
    const list = (await get('/api/trunks')).json() as { name: string; server: string }[];
    // The dynamic peer and the gateway account (2001) are not VoIP trunks.
    expect(list.map((x) => x.name).sort()).toEqual(['Eutelia', 'Messagenet']);
    expect(list.find((x) => x.name === 'Eutelia')?.server).toBe('voip.eutelia.example');
    expect((await get('/api/trunks')).body).not.toContain('EuteliaPw1');

    const gw = await post('/api/migration/gateways');
    expect(gw.statusCode, gw.body).toBe(200);
    expect(gw.json().warnings).toEqual(['Gateway "Old Patton" not migrated: model Patton_SN4112_JO is not supported']);
    // Named by their old names and new models, not the new ids (issue 38: 'Gateway "1" migrated').
    expect(gw.json().infos).toEqual([
      'Gateway "Patton office" migrated as a Patton TRINITY Analog 2 FXO ports',
      'Gateway "Vega hall" migrated as a Sangoma Vega 3000 FXS 24 ports',
    ]);
    const ports = await t.database.db
      .selectFrom('gateway_ports')
      .select(['port_type', 'number'])
      .orderBy('gateway_id')
      .orderBy('port_index')
      .execute();
    // The Patton's two analog lines keep their numbers; the Vega 50 became the same Vega 60.
    expect(ports.filter((p) => p.port_type === 'fxo').map((p) => p.number)).toEqual(['0612345681', '0612345682']);
    const fxs = await t.database.db
      .selectFrom('gateway_ports')
      .select('extension')
      .where('extension', 'is not', null)
      .execute();
    expect(fxs.map((p) => p.extension).sort()).toEqual([legacyExtension(5), legacyExtension(6)]);

    const iax = await post('/api/migration/iax');
    expect(iax.statusCode).toBe(200);
    expect(iax.json().warnings[0]).toMatch(/IAX trunk "OldIaxLink" not migrated/);

    expect((await post('/api/migration/importoutboundroutes')).statusCode).toBe(200);
    const assign = await post('/api/migration/trunksroutesassignements');
    expect(assign.statusCode).toBe(200);
    // By the names an administrator knows (it read "1 used for route 1").
    expect(assign.json().infos).toContain('Outbound route "national" uses trunk "Eutelia" (number 1 in its order)');
    expect(assign.json().infos).toContain('Outbound route "mobile" uses trunk "Eutelia" (number 2 in its order)');
    const routes = await t.database.db
      .selectFrom('outbound_routes')
      .innerJoin('outbound_route_trunks', 'outbound_route_trunks.route_id', 'outbound_routes.id')
      .innerJoin('trunks', 'trunks.id', 'outbound_route_trunks.trunk_id')
      .select(['outbound_routes.name as route', 'trunks.name as trunk', 'outbound_route_trunks.position'])
      .orderBy('outbound_routes.seq')
      .orderBy('outbound_route_trunks.position')
      .execute();
    expect(routes.map((r) => `${r.route}:${r.trunk}`)).toEqual([
      'national:Eutelia',
      'national:Messagenet',
      'mobile:Messagenet',
      'mobile:Eutelia',
      'emergency:Eutelia',
    ]);
    const patterns = await t.database.db.selectFrom('outbound_route_patterns').select('pattern').execute();
    expect(patterns.map((p) => p.pattern)).toContain('0XXXXX.');

    // Ring groups: each became a ring group with its number, strategy, time, members and failover, said per group.
    const groups = await post('/api/migration/groups');
    expect(groups.statusCode, groups.body).toBe(200);
    // Music classes and conference rooms come first in this step: rooms and queues play the classes, every later
    // step may send calls to the rooms.
    expect(groups.json().infos).toEqual([
      'Music class hold-tunes migrated',
      'Music class jazz migrated',
      'Conference 700 Weekly meeting migrated',
      'Conference 701 migrated',
      'Ring group 600 - Sales migrated (ringall, 4 members, outside numbers press 1 to accept)',
      'Ring group 601 - Support migrated (memoryhunt, 2 members)',
      // Follow-me: whether it was on lived in the old AstDB, so it comes in switched off, and says so.
      'Follow-me of 201 migrated (ringall, 2 numbers, outside numbers press 1 to accept), switched off: the old ' +
        'system kept whether it was on outside its database; switch it on on the user’s Follow-me',
      'Parking lot 70 Default Lot migrated',
    ]);
    expect(groups.json().warnings).toEqual([
      'Music class Hold Tunes is named hold-tunes here (lower-case letters, digits, - and _)',
      'Music class hold-tunes: its files were not copied (the old music folder is not reachable from here): upload them on the Music on hold page; until then it plays the default music',
      'Music class jazz: its files were not copied (the old music folder is not reachable from here): upload them on the Music on hold page; until then it plays the default music',
      'Music class radio played a program (custom), not files: it was not migrated, what used it plays the default',
      'Conference 700 Weekly meeting: options wc have no counterpart here and were not kept',
      'Conference 700 Weekly meeting: member limit 120 lowered to 100',
      'Ring group 600 - Sales: member 999 not migrated, no user has that extension',
      'Ring group 600 - Sales: caller name prefix SALES: is not kept',
      'Ring group 601 - Support: strategy memoryhunt-prim became memoryhunt',
      'Ring group 601 - Support: the Alert-Info ring tone is not kept',
      'Follow-me of 201: strategy ringallv2-prim became ringall',
      'Follow-me of 202 not migrated: its list has nothing but the user’s own extension',
      'Follow-me of 999 not migrated: no user has extension 999',
      'Parking lot 70 Default Lot: the caller name prefix is not kept',
    ]);
    // The parking lot keeps its numbers and time; a call nobody picks up goes to the ring group migrated before it.
    expect((await get('/api/parking')).json()).toEqual([
      expect.objectContaining({
        extension: '70',
        name: 'Default Lot',
        first_slot: '71',
        slots: 8,
        timeout: 60,
        timeout_dest: 'ext-group,600,1',
      }),
    ]);
    // The list without the own extension, its times, the press-1 leg; switched off.
    expect((await get('/api/users/mario.rossi/followme')).json()).toEqual({
      enabled: false,
      pre_ring: 7,
      strategy: 'ringall',
      confirm_external: true,
      legs: [
        { type: 'extension', number: '202', ring_time: 20 },
        { type: 'external', number: '3331234567', ring_time: 20 },
      ],
    });
    expect((await get('/api/migration/migrationstatus')).json()).toBe('groups');
    const groupsAgain = await post('/api/migration/groups');
    expect(groupsAgain.json().warnings).toContain('Ring group 600 - Sales already migrated');
    expect(groupsAgain.json().warnings).toContain('Conference 700 Weekly meeting already migrated');
    expect(groupsAgain.json().warnings).toContain('Music class jazz already migrated');
    // The classes are named, with their play order; their files are to be uploaded (the report says so).
    expect(
      ((await get('/api/music')).json() as { name: string; play_order: string; files: unknown[] }[]).map(
        (c) => `${c.name} ${c.play_order} ${c.files.length}`,
      ),
    ).toEqual(['default alpha 0', 'hold-tunes alpha 0', 'jazz random 0']);
    // Numbers, names, PINs (never shown), the member limit and the options Centralino has.
    expect((await get('/api/conferences')).json()).toEqual([
      expect.objectContaining({
        extension: '700',
        name: 'Weekly meeting',
        has_user_pin: true,
        has_admin_pin: true,
        max_members: 100,
        music_when_alone: true,
        music_class: 'jazz',
        announce_join_leave: true,
        record: true,
      }),
      expect.objectContaining({
        extension: '701',
        name: 'Conference 701',
        has_user_pin: false,
        has_admin_pin: false,
        max_members: 0,
        music_when_alone: false,
        announce_join_leave: false,
        record: false,
      }),
    ]);
    const pins = await t.database.db
      .selectFrom('conferences')
      .select(['user_pin', 'admin_pin'])
      .orderBy('extension')
      .execute();
    expect(pins).toEqual([
      { user_pin: '1234', admin_pin: '9999' },
      { user_pin: null, admin_pin: null },
    ]);
    const itGroups = await call('POST', '/api/migration/groups', undefined, { 'accept-language': 'it' });
    expect(itGroups.json().warnings).toContain('Gruppo di chiamata 600 - Sales: migrazione già eseguita');
    const migratedGroups = (await get('/api/ringgroups')).json() as Record<string, unknown>[];
    expect(migratedGroups).toEqual([
      expect.objectContaining({
        extension: '600',
        name: 'Sales',
        strategy: 'ringall',
        ring_time: 20,
        members: [
          { type: 'extension', number: legacyExtension(0) },
          { type: 'extension', number: legacyExtension(1) },
          { type: 'extension', number: legacyExtension(2) },
          { type: 'external', number: '0612345999' },
        ],
        confirm_external: true,
        failover_dest: `ext-local,vmb${legacyExtension(0)},1`,
        // 'dontcare': left to *1.
        recording: 'on_demand',
      }),
      // Its failover, queue 801, is migrated after it: hang up until the queues step links it.
      expect.objectContaining({
        extension: '601',
        strategy: 'memoryhunt',
        ring_time: 15,
        members: [
          { type: 'extension', number: legacyExtension(3) },
          { type: 'extension', number: legacyExtension(4) },
        ],
        confirm_external: false,
        failover_dest: 'app-blackhole,hangup,1',
        // 'force': every call recorded.
        recording: 'always',
      }),
    ]);
    // No queue stands in for a ring group any more.
    expect((await get('/api/queues')).json()).toEqual([]);

    // Queues keep their numbers; members no user has, strategies and ring times Centralino lacks are reported.
    const queues = await post('/api/migration/queues');
    expect(queues.statusCode, queues.body).toBe(200);
    expect(queues.json().infos).toEqual(['Queue 801 Support queue migrated', 'Queue 802 Sales queue migrated']);
    expect(queues.body).not.toContain('Destination changed to hang up');
    expect(queues.json().warnings).toEqual([
      'Queue 801 Support queue: member 999 not migrated, no user has that extension',
      'Queue 801 Support queue: caller name prefix SUP: is not kept',
      'Queue 802 Sales queue: strategy linear became ringall',
      'Queue 802 Sales queue: ring time 0 s became 15 s',
      "Dynamic queue agents are not migrated: the old PBX kept them outside its database; add them on each queue's page",
    ]);
    // The ring group's failover found queue 801 once the queues step linked what was waiting.
    const support = ((await get('/api/ringgroups')).json() as { extension: string; failover_dest: string }[]).find(
      (g) => g.extension === '601',
    );
    expect(support?.failover_dest).toBe('ext-queues,801,1');
    const migratedQueues = (await get('/api/queues')).json() as Record<string, unknown>[];
    expect(migratedQueues).toEqual([
      expect.objectContaining({
        extension: '801',
        name: 'Support queue',
        strategy: 'rrmemory',
        members: [legacyExtension(3), legacyExtension(4)],
        ring_time: 20,
        max_wait: 300,
        failover_dest: `ext-local,vmu${legacyExtension(0)},1`,
        // The class migrated in the groups step keeps playing.
        music: 'jazz',
        announce_position: true,
      }),
      expect.objectContaining({
        extension: '802',
        strategy: 'ringall',
        members: [legacyExtension(1)],
        // Its failover is the IVR, migrated after the queues: hang up until then.
        failover_dest: 'app-blackhole,hangup,1',
        music: 'ringing',
      }),
    ]);
    expect((await get('/api/migration/migrationstatus')).json()).toBe('queues');
    // Run again: nothing doubled.
    const queuesAgain = await post('/api/migration/queues');
    expect(queuesAgain.json().warnings).toContain('Queue 801 Support queue already migrated');
    expect((await get('/api/queues')).json()).toHaveLength(2);

    const ivr = await post('/api/migration/ivr');
    expect(ivr.statusCode, ivr.body).toBe(200);
    expect(ivr.json().warnings).toEqual([
      'Destination changed to hang up: the custom destination custom-ctx (not migrated)',
    ]);

    // Caller query routing: the query by caller number is kept (%CID% bound as $NUMBER), its CRM database became a
    // card source; the one that asked for a customer code has no equivalent and is reported.
    const cqr = await post('/api/migration/cqr');
    expect(cqr.statusCode, cqr.body).toBe(200);
    expect(cqr.json().infos).toEqual(['CQR "Customer level" migrated']);
    expect(cqr.json().warnings).toEqual([
      'CQR "Customer level": its database crm on crm.example.com (MySQL) is now a card source; check that it answers from here',
      'CQR "Customer level": an entry without a value was not migrated',
      'CQR "Customer level": the message it played first is not played here',
      'CQR "By customer code" not migrated: it asked for a customer code, which Centralino\'s CQR does not do',
    ]);
    expect((await get('/api/migration/migrationstatus')).json()).toBe('cqr');
    const [level] = (await get('/api/cqr')).json() as Record<string, unknown>[];
    const crm = ((await get('/api/cti/dbconn')).json() as Record<string, unknown>[]).find((c) => c.name === 'crm');
    expect(crm).toMatchObject({
      type: 'mysql',
      host: 'crm.example.com',
      port: 3307,
      user: 'crmreader',
      has_password: true,
    });
    expect(level).toMatchObject({
      name: 'Customer level',
      source_id: crm?.id,
      query: "SELECT level FROM customers WHERE phone LIKE '%$NUMBER' LIMIT 1",
      default_dest: 'ext-queues,801,1',
      entries: [
        { value: 'gold', destination: 'ext-group,600,1' },
        // The announcement is migrated after the CQRs: hang up until then.
        { value: 'blocked', destination: 'app-blackhole,hangup,1' },
        { value: 'vip', destination: `from-did-direct,${legacyExtension(2)},1` },
      ],
    });

    // Recordings: the old audio files, converted as an upload is; a missing file and one that is not audio are said.
    const rec = await post('/api/migration/recordings');
    expect(rec.statusCode, rec.body).toBe(200);
    expect(rec.json().infos).toEqual(['Recording "welcome" migrated', 'Recording "closed" migrated']);
    expect(rec.json().warnings).toEqual([
      'Recording "lost" not migrated: its audio custom/lost is not in the old sounds folder',
      'Recording "broken" not migrated: its file is not WAV, MP3 or OGG audio',
      'Recording "hold" not migrated: its audio is .gsm, which is not converted here; upload it as WAV, MP3 or OGG',
    ]);
    expect((await get('/api/migration/migrationstatus')).json()).toBe('recordings');
    const recordingList = (await get('/api/recordings')).json() as {
      id: number;
      displayname: string;
      duration_ms: number;
    }[];
    const welcome = recordingList.find((r) => r.displayname === 'welcome');
    const closedRec = recordingList.find((r) => r.displayname === 'closed');
    expect(welcome?.duration_ms).toBe(1500);
    expect(closedRec?.duration_ms).toBe(2000);
    // Stored as Asterisk plays it: 8 kHz, mono, 16-bit.
    const wav = await t.database.db
      .selectFrom('recordings')
      .select('audio')
      .where('id', '=', welcome?.id ?? 0)
      .executeTakeFirstOrThrow();
    const header = Buffer.from(wav.audio);
    expect([header.readUInt16LE(22), header.readUInt32LE(24), header.readUInt16LE(34)]).toEqual([1, 8000, 16]);
    // Run again: what was migrated is said, never doubled.
    const recAgain = await post('/api/migration/recordings');
    expect(recAgain.json().warnings).toContain('Recording "welcome" already migrated');
    expect((await get('/api/recordings')).json()).toHaveLength(2);
    // The IVR, migrated before, now plays the greeting its old menu played.
    const greeted = await t.database.db.selectFrom('ivrs').select('announcement').executeTakeFirstOrThrow();
    expect(greeted.announcement).toBe(welcome?.id);
    const ann = await post('/api/migration/announcements');
    expect(ann.statusCode, ann.body).toBe(200);
    expect(ann.json().infos).toEqual([
      'Closed notice announcement migrated',
      'Conference info announcement migrated',
      'After hours announcement migrated',
    ]);
    // 'After hours' leads to a time condition, migrated later: no warning, it waits for that step.
    expect(ann.body).not.toContain('timeconditions,2,1');
    // Each announcement plays the recording migrated for it; the one whose audio was lost says so.
    expect(ann.json().warnings).toContain('After hours: its recording was not migrated, choose one');
    const played = await t.database.db
      .selectFrom('announcements')
      .select(['id', 'description', 'recording_id'])
      .orderBy('id')
      .execute();
    expect(played.map((a) => a.recording_id)).toEqual([closedRec?.id, welcome?.id, null]);
    // The CQR's entry that led to an announcement found it.
    const levelNow = ((await get('/api/cqr')).json() as { entries: { value: string; destination: string }[] }[])[0];
    expect(levelNow?.entries[1]).toEqual({ value: 'blocked', destination: `app-announcement-${played[0]?.id},s,1` });
    expect(ann.json().warnings).toContain(
      'Destination changed to hang up: conference 600 (no such room in the old system)',
    );
    const [menu] = await t.database.db.selectFrom('ivrs').selectAll().execute();
    const info = await t.database.db
      .selectFrom('announcements')
      .select('id')
      .where('description', '=', 'Conference info')
      .executeTakeFirstOrThrow();
    // Key 3 led to an announcement, migrated after the IVRs: linked once it exists.
    const keys = await t.database.db
      .selectFrom('ivr_entries')
      .select(['selection', 'dest'])
      .orderBy('selection')
      .execute();
    expect(keys).toEqual([
      // Key 1 led to ring group 600: the ring group migrated with its number.
      { selection: '1', dest: 'ext-group,600,1' },
      { selection: '2', dest: `from-did-direct,${legacyExtension(3)},1` },
      { selection: '3', dest: `app-announcement-${info.id},s,1` },
      { selection: '4', dest: 'ext-queues,801,1' },
      // Key 5 leads to a time condition: it waits for the time conditions step.
      { selection: '5', dest: 'app-blackhole,hangup,1' },
      // Key 6 led to the CQR, migrated after the IVRs: linked by its step.
      { selection: '6', dest: `nethcqr,${level?.id},1` },
      { selection: '9', dest: 'app-blackhole,hangup,1' },
    ]);

    // The queue's failover found the migrated IVR once the announcements step linked what was waiting.
    const sales = ((await get('/api/queues')).json() as { extension: string; failover_dest: string }[]).find(
      (q) => q.extension === '802',
    );
    expect(sales?.failover_dest).toBe(`ivr-${menu?.id},s,1`);

    const dn = await post('/api/migration/daynight');
    expect(dn.statusCode).toBe(200);
    expect(dn.json().warnings).toEqual([]);
    // The switch leads to the migrated IVR by day and to the migrated announcement by night (new ids).
    const closed = await t.database.db
      .selectFrom('announcements')
      .select('id')
      .where('description', '=', 'Closed notice')
      .executeTakeFirstOrThrow();
    const [sw, warehouse] = await t.database.db.selectFrom('daynight').selectAll().orderBy('ext').execute();
    // Switch 1 by night rings ring group 601; by day it waits for its time condition.
    expect(warehouse).toMatchObject({ ext: 1, name: 'Warehouse', night_dest: 'ext-group,601,1' });
    expect(sw).toMatchObject({
      ext: 0,
      name: 'Office hours',
      day_dest: `ivr-${menu?.id},s,1`,
      night_dest: `app-announcement-${closed.id},s,1`,
    });

    // Time groups: FreePBX time strings become ranges; one that cannot be read is reported.
    const tg = await post('/api/migration/timegroups');
    expect(tg.statusCode, tg.body).toBe(200);
    expect(tg.json().warnings).toEqual(['Time group Holidays: range bogus not migrated, it cannot be read']);
    const timeGroups = (await get('/api/timegroups')).json() as { id: number; name: string; ranges: unknown[] }[];
    expect(timeGroups.find((g) => g.name === 'Working hours')?.ranges).toEqual([
      { hours: '08:30-12:30', weekdays: 'mon-fri', mdays: '*', months: '*' },
      { hours: '14:00-18:00', weekdays: 'mon-fri', mdays: '*', months: '*' },
      { hours: '09:00-12:00', weekdays: 'sat', mdays: '*', months: '*' },
    ]);
    expect(timeGroups.find((g) => g.name === 'Holidays')?.ranges).toEqual([
      { hours: '*', weekdays: '*', mdays: '25', months: 'dec' },
      { hours: '*', weekdays: '*', mdays: '1', months: 'jan' },
    ]);
    const tc = await post('/api/migration/timeconditions');
    expect(tc.statusCode, tc.body).toBe(200);
    expect(tc.json().warnings).toEqual(['Time condition Orphan not migrated: its time group was not migrated']);
    expect((await get('/api/migration/migrationstatus')).json()).toBe('tgroupstcond');
    const conditions = (await get('/api/timeconditions')).json() as Record<string, unknown>[];
    const open = conditions.find((c) => c.name === 'Office open');
    const holiday = conditions.find((c) => c.name === 'Holiday closing');
    // The old ids became new ones: a queue by its number, the announcement and the earlier condition by their new ids.
    expect(open).toMatchObject({
      time_group_id: timeGroups.find((g) => g.name === 'Working hours')?.id,
      true_dest: 'ext-queues,801,1',
      false_dest: `app-announcement-${closed.id},s,1`,
    });
    const key5 = await t.database.db
      .selectFrom('ivr_entries')
      .select('dest')
      .where('selection', '=', '5')
      .executeTakeFirstOrThrow();
    expect(key5.dest).toBe(`timeconditions,${open?.id},1`);
    expect(holiday).toMatchObject({
      time_group_id: timeGroups.find((g) => g.name === 'Holidays')?.id,
      false_dest: `timeconditions,${open?.id},1`,
    });
    // The day/night switch and the announcement that led to a time condition were linked once it existed.
    const linked = await t.database.db
      .selectFrom('daynight')
      .select('day_dest')
      .where('ext', '=', 1)
      .executeTakeFirst();
    expect(linked?.day_dest).toBe(`timeconditions,${open?.id},1`);
    const afterHours = await t.database.db
      .selectFrom('announcements')
      .select('post_dest')
      .where('description', '=', 'After hours')
      .executeTakeFirstOrThrow();
    expect(afterHours.post_dest).toBe(`timeconditions,${holiday?.id},1`);
    expect(tc.body).not.toContain('Destination changed to hang up');

    const inbound = await post('/api/migration/inboundroutes');
    expect(inbound.statusCode).toBe(200);
    const rows = await t.database.db
      .selectFrom('inbound_routes')
      .select(['did', 'destination'])
      .orderBy('did')
      .execute();
    expect(rows).toEqual([
      { did: '0612345678', destination: 'app-daynight,0,1' },
      { did: '0612345679', destination: `from-did-direct,${legacyExtension(0)},1` },
      // The conference line reaches the migrated room (issue 42).
      { did: '0612345680', destination: 'ext-meetme,700,1' },
      { did: '0612345690', destination: `timeconditions,${holiday?.id},1` },
    ]);
    expect((await get('/api/migration/migrationstatus')).json()).toBe('iroutes');

    // Post-migration: the shared CTI contacts join the central phonebook (the private ones are counted, not
    // shared with every phone); the EJS card templates are converted by reading them, the one running code is not.
    const post1 = await post('/api/migration/postmigration');
    expect(post1.statusCode, post1.body).toBe(200);
    // The last configuration step applies the PBX once and says the validator's verdict.
    expect(post1.json().infos).toEqual([
      'CTI phonebook: 150 contacts migrated',
      'Customer-card template crm migrated',
      'The configuration was applied once, at the end, and the PBX validator found it valid',
    ]);
    expect(post1.json().warnings).toEqual([
      "CTI phonebook: 50 private contacts not migrated: Centralino's phonebook is shared by every phone",
      expect.stringMatching(
        /^Customer-card template invoices not migrated: Line 2: .*require\('fs'\).* cannot be converted/,
      ),
      'The queue log, DISA, paging groups and custom contexts are not migrated by this version of Centralino: recreate them by hand',
    ]);
    expect((await get('/api/migration/migrationstatus')).json()).toBe('postmig');
    const contact = await t.database.db
      .selectFrom('phonebook_contacts')
      .selectAll()
      .where('name', '=', 'Contact 3')
      .executeTakeFirstOrThrow();
    expect(contact).toMatchObject({
      company: 'Company 3',
      workphone: '02000021',
      cellphone: '3300000003',
      type: 'public',
    });
    const privateOne = await t.database.db
      .selectFrom('phonebook_contacts')
      .select('id')
      .where('name', '=', 'Contact 4')
      .executeTakeFirst();
    expect(privateOne).toBeUndefined();
    const templates = (await get('/api/cti/customer_card/template')).json() as { name: string; html: string }[];
    const crmTemplate = templates.find((x) => x.name === 'crm');
    expect(Buffer.from(crmTemplate?.html ?? '', 'base64').toString()).toContain('{% for row in results %}');
    expect(templates.find((x) => x.name === 'invoices')).toBeUndefined();
    // Run again: the contacts are replaced, never doubled; the template is already there.
    const post2 = await post('/api/migration/postmigration');
    expect(post2.json().warnings).toContain('Customer-card template crm already migrated');
    const copied = await t.database.db
      .selectFrom('phonebook_contacts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('source_id', '=', 'nethcti-migrated')
      .executeTakeFirstOrThrow();
    expect(Number(copied.n)).toBe(150);

    const report = (await get('/api/migration/report')).json();
    expect(report.pbxConfigurationCheck).toEqual({
      infos: ['The configuration was applied once, at the end, and the PBX validator found it valid'],
    });
    // The conference line reaches the migrated room.
    expect(report.migrateInboundRoutes.warnings ?? []).toEqual([]);
    const line = await t.database.db
      .selectFrom('inbound_routes')
      .select('destination')
      .where('did', '=', '0612345680')
      .executeTakeFirstOrThrow();
    expect(line.destination).toBe('ext-meetme,700,1');
    expect(report.migrateIAX.warnings).toHaveLength(1);
    expect(report.cloneOldCTIProfile.warnings).toContain('Profile "Base" already migrated');
    // The users the numbering rules refused are in the report too (written once the import has ended).
    const refused = await vi.waitFor(async () => {
      const errors = (await get('/api/migration/report')).json().csvimport?.errors as string[] | undefined;
      if (!errors) throw new Error('not yet');
      return errors;
    });
    // As many as the import refused (the first test checks those against the numbering rules).
    const imported = (await get('/api/csv/csvimport')).json() as { failures: unknown[] };
    expect(refused).toHaveLength(imported.failures.length);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused).toContainEqual(expect.stringMatching(/^anna\.colombo: .*Extension 281 cannot be used/));

    // The same report read by an Italian console: every line in Italian, stored once.
    const italian = { 'accept-language': 'it-IT,it;q=0.9,en;q=0.8' };
    const it = (await call('GET', '/api/migration/report', undefined, italian)).json();
    const english = (await get('/api/migration/report')).json();
    expect(Object.keys(it).sort()).toEqual(Object.keys(english).sort());
    for (const [section, lists] of Object.entries(english as Record<string, Record<string, string[]>>)) {
      for (const [type, lines] of Object.entries(lists)) expect(it[section][type]).toHaveLength(lines.length);
    }
    expect(it.cloneOldCTIProfile.warnings).toContain('Profilo "Base" già migrato');
    // The users the import refused too, though the import ran in English.
    expect(it.csvimport.errors).toContainEqual(
      expect.stringMatching(/^anna\.colombo: .*L'interno 281 non può essere usato/),
    );
    expect(it.csvimport.errors).not.toContainEqual(expect.stringMatching(/already in use|cannot be used/));
    expect(it.getOldGateways.warnings).toContain(
      'Gateway "Old Patton" non migrato: il modello Patton_SN4112_JO non è supportato',
    );
    expect(it.migrateIAX.warnings[0]).toMatch(/^Fascio IAX "OldIaxLink" non migrato: Centralino non supporta IAX/);
    expect(it.migrateGroups.warnings).toContain(
      "Gruppo di chiamata 600 - Sales: membro 999 non migrato, nessun utente ha quell'interno",
    );
    expect(it.migrateGroups.warnings).toContain(
      'Gruppo di chiamata 601 - Support: la strategia memoryhunt-prim è diventata memoryhunt',
    );
    expect(it.migrateGroups.warnings).toContain(
      'Gruppo di chiamata 601 - Support: non si mantiene la suoneria Alert-Info',
    );
    expect(it.migrateGroups.infos).toContain(
      'Gruppo di chiamata 600 - Sales migrato (ringall, 4 membri, i numeri esterni premono 1 per accettare)',
    );
    expect(it.migrateQueues.warnings).toContain('Coda 802 Sales queue: il tempo di squillo di 0 s è diventato 15 s');
    expect(it.migrateQueues.warnings).toContain('Coda 801 Support queue: migrazione già eseguita');
    expect(it.migrateIVRs.warnings).toContain(
      'Destinazione cambiata in riaggancio: la destinazione personalizzata custom-ctx (non migrata)',
    );
    expect(it.migrateCQRs.warnings).toContain(
      'CQR "By customer code" non migrato: chiedeva un codice cliente, che il CQR di Centralino non gestisce',
    );
    expect(it.migrateRecordings.warnings).toEqual(
      expect.arrayContaining([
        'Registrazione "lost" non migrata: il suo audio custom/lost non è nella cartella dei suoni del vecchio sistema',
        'Registrazione "broken" non migrata: il file non è audio WAV, MP3 o OGG',
      ]),
    );
    expect(it.migrateTimegroups.warnings).toContain(
      'Gruppo orario Holidays: intervallo bogus non migrato, non è leggibile',
    );
    expect(it.migrateTimeconditions.warnings).toContain(
      'Condizione oraria Orphan non migrata: il suo gruppo orario non è stato migrato',
    );
    expect(it.migrateInboundRoutes.warnings ?? []).toEqual([]);
    expect(it.migrateGroups.warnings).toContain(
      'Conferenza 700 Weekly meeting: limite di partecipanti 120 ridotto a 100',
    );
    expect(it.postMigration.warnings).toContain(
      'Rubrica CTI: 50 contatti privati non migrati: la rubrica di Centralino è condivisa da tutti i telefoni',
    );
    expect(JSON.stringify(it)).not.toContain('already migrated');

    // A step answers in the language it is asked in (run again: what is there stays, and says so).
    const queuesIt = await call('POST', '/api/migration/queues', undefined, italian);
    expect(queuesIt.statusCode, queuesIt.body).toBe(200);
    expect(queuesIt.json().warnings).toContain('Coda 802 Sales queue: migrazione già eseguita');
    expect(queuesIt.json().warnings).toContain(
      'Gli agenti dinamici delle code non vengono migrati: il vecchio centralino li teneva fuori dal suo database; aggiungili nella pagina di ogni coda',
    );
    const postIt = await call('POST', '/api/migration/postmigration', undefined, italian);
    // Its own line, then the verdict of the one apply at the end.
    expect(postIt.json().infos).toEqual([
      'Rubrica CTI: 150 contatti migrati',
      'La configurazione è stata applicata una sola volta, alla fine, e il validatore del PBX la trova valida',
    ]);
    expect(postIt.json().warnings).toContain('Modello di scheda cliente crm già migrato');
    const statusIt = await call('POST', '/api/migration/migrationstatus', { status: 'postmig' }, italian);
    expect(statusIt.json().infos).toEqual(['Stato della migrazione aggiornato']);
    // An unknown language falls back to English.
    const german = await call('POST', '/api/migration/postmigration', undefined, { 'accept-language': 'de' });
    expect(german.json().warnings).toContain('Customer-card template crm already migrated');

    // A line stored before the catalogue existed (text only) still reads, as it was written.
    await t.database.db
      .insertInto('migration_report')
      .values({ step: 'oldRows', type: 'errors', message: 'Old English line', created_at: Date.now() })
      .execute();
    const oldIt = (await call('GET', '/api/migration/report', undefined, italian)).json();
    expect(oldIt.oldRows).toEqual({ errors: ['Old English line'] });
    await t.database.db.deleteFrom('migration_report').where('step', '=', 'oldRows').execute();
  });

  it('renders the migrated system into a configuration the validator accepts', async () => {
    const model = await loadPbxModel(t.database.db, {
      soundsDir: t.config.pbx.soundsDir,
      tls: { certFile: '/k/c.pem', keyFile: '/k/k.pem', caFile: null },
      ami: { port: 5038, bindAddress: '127.0.0.1', users: [] },
      system: {
        runUser: null,
        runGroup: null,
        directories: { config: '/c', modules: '/m', varlib: '/v', data: '/d', spool: '/s', run: '/r', log: '/l' },
      },
      version: 'test',
    });
    const files = renderConfiguration(model);
    expect(validateConfiguration(files).map(formatIssue)).toEqual([]);
    // The migrated trunk, with its old provider account, is in the PJSIP configuration.
    expect([...files.values()].join('\n')).toContain('voip.eutelia.example');
  });

  it('copies the call records in the background, resumes after a restart and never duplicates', async () => {
    const count = await get('/api/migration/cdrrowcount');
    expect(count.json()).toMatchObject({ count: String(CDR_ROWS), status: true });
    expectError(await get('/api/migration/cdr'), 422, 'no_cdr_migration');
    // The server stops during the copy, after its first batch, as a kill would stop it.
    let stopping: Promise<void> | undefined;
    cdrCopyHooks.afterBatch = async () => {
      if (stopping) return;
      stopping = t.close();
      await new Promise((r) => setTimeout(r, 50));
    };
    expect((await post('/api/migration/cdr')).statusCode).toBe(200);
    for (let i = 0; i < 200 && !stopping; i++) await new Promise((r) => setTimeout(r, 20));
    await stopping;
    cdrCopyHooks.afterBatch = async () => {};
    Object.assign(t, await startApp(t.testDb, { env }));
    t.headers = await login(t.app);
    let progress: { status?: boolean; progress: number } = { progress: 0 };
    for (let i = 0; i < 500 && progress.status !== true; i++) {
      await new Promise((r) => setTimeout(r, 50));
      progress = (await get('/api/migration/cdr')).json();
    }
    expect(progress).toMatchObject({ status: true, progress: 100, copied: CDR_ROWS });
    const rows = await t.database.db
      .selectFrom('cdr')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.count<number>('uniqueid').distinct().as('u')])
      .executeTakeFirstOrThrow();
    expect(Number(rows.n)).toBe(CDR_ROWS);
    expect(Number(rows.u)).toBe(CDR_ROWS);
    const split = await t.database.db
      .selectFrom('cdr')
      .select(['cnum', 'cnam', 'ccompany'])
      .where('cnam', '!=', '')
      .executeTakeFirst();
    expect(split?.ccompany).toMatch(/^Company /);
    // Starting again copies only what is new: nothing.
    expect((await post('/api/migration/cdr')).statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 200));
    const again = await t.database.db
      .selectFrom('cdr')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(again.n)).toBe(CDR_ROWS);
    expect((await get('/api/migration/migrationstatus')).json()).toBe('cdr');
  }, 60_000);

  it('ends: status done, and the migration is no longer offered', async () => {
    expect((await post('/api/migration/endmigration')).json()).toMatchObject({ status: true });
    expect((await get('/api/migration/ismigration')).json()).toBe(false);
  });
});

describe('without a migration source', () => {
  const t = useTestApp('sqlite');
  const call = callAs(t);
  it('is not offered, and its steps say why', async () => {
    expect((await call('GET', '/api/migration/ismigration')).json()).toBe(false);
    expectError(await call('GET', '/api/migration/oldusers'), 409, 'migration_not_configured');
  });
});

describe('with an older system that does not answer', () => {
  const t = useTestApp('sqlite', { env: { MIGRATION_DB_URL: 'mysql://root@127.0.0.1:1' } });
  it('is not offered', async () => {
    expect((await callAs(t)('GET', '/api/migration/ismigration')).json()).toBe(false);
  });
});
