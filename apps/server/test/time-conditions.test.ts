import type { TimeCondition, TimeGroup } from '@centralino/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { loadPbxModel } from '../src/pbx/load.ts';
import { renderConfiguration } from '../src/pbx/render/index.ts';
import { formatIssue, validateConfiguration } from '../src/pbx/validate.ts';
import { callAs, expectError, useTestApp } from './helpers.ts';
import { type AmiPeer, amiPeer } from './support/ami-peer.ts';

/** Time groups and conditions (issue 26); the override is read from and written to an AstDB over AMI. */
const astdb = new Map<string, string>();
const peer: AmiPeer = amiPeer({ secret: 'tc-secret', astdb });
const port = await peer.listen();
afterAll(() => peer.close());

describe.each(['sqlite', 'postgres'] as const)('time conditions API (%s)', (kind) => {
  const t = useTestApp(kind, {
    env: { AMI_HOST: '127.0.0.1', AMI_PORT: String(port), AMI_USERNAME: 'centralino', AMI_SECRET: 'tc-secret' },
  });
  const call = callAs(t);
  const ids = { hours: 0, office: 0, ivr: 0 };
  const office = (group: number) => ({
    name: 'Office',
    time_group_id: group,
    true_dest: 'app-blackhole,busy,1',
    false_dest: 'app-blackhole,hangup,1',
  });

  it('creates a time group of ranges and refuses ranges GotoIfTime would not read', async () => {
    const hours = {
      name: 'Opening hours',
      ranges: [
        { hours: '08:30-12:30', weekdays: 'Mon-Fri' },
        { hours: '14:00-18:00', weekdays: 'mon-thu' },
        // Christmas: a holiday is a day and a month.
        { mdays: '25', months: 'dec' },
      ],
    };
    let res = await call('POST', '/api/timegroups', hours);
    expect(res.statusCode, res.body).toBe(200);
    ids.hours = (res.json() as { id: number }).id;
    const body = expectError(
      await call('POST', '/api/timegroups', { name: 'Bad', ranges: [{ hours: '8-12', weekdays: 'monday' }] }),
      400,
      'validation',
    );
    expect(Object.keys(body.fields ?? {})).toEqual(expect.arrayContaining(['ranges.0.hours', 'ranges.0.weekdays']));
    expectError(await call('POST', '/api/timegroups', { name: 'Empty', ranges: [] }), 400, 'validation');
    res = await call('GET', '/api/timegroups');
    expect(res.json() as TimeGroup[]).toEqual([
      {
        id: ids.hours,
        name: 'Opening hours',
        ranges: [
          { hours: '08:30-12:30', weekdays: 'mon-fri', mdays: '*', months: '*' },
          { hours: '14:00-18:00', weekdays: 'mon-thu', mdays: '*', months: '*' },
          { hours: '*', weekdays: '*', mdays: '25', months: 'dec' },
        ],
        used_by: [],
      },
    ]);
  });

  it('creates a condition: a destination everywhere, its feature code, the override as Asterisk holds it', async () => {
    const res = await call('POST', '/api/timeconditions', office(ids.hours));
    expect(res.statusCode, res.body).toBe(200);
    ids.office = (res.json() as { id: number }).id;
    const list = (await call('GET', '/api/timeconditions')).json() as TimeCondition[];
    expect(list).toEqual([
      {
        id: ids.office,
        ...office(ids.hours),
        destination: `timeconditions,${ids.office},1`,
        feature_code: `*27${ids.office}`,
        override: 'auto',
      },
    ]);
    const destinations = (await call('GET', '/api/destinations')).json() as Record<string, Record<string, unknown>>;
    expect(Object.values(destinations['Time conditions'] ?? {})).toEqual([
      expect.objectContaining({ destination: `timeconditions,${ids.office},1`, description: 'Office' }),
    ]);
    expectError(await call('POST', '/api/timeconditions', office(ids.hours + 99)), 400, 'validation');
    expectError(await call('POST', '/api/timeconditions', office(ids.hours)), 409, 'flow_exists');
  });

  it('sets and clears the override in AstDB, without a reload', async () => {
    let res = await call('POST', `/api/timeconditions/${ids.office}/override`, { override: 'outside' });
    expect(res.statusCode, res.body).toBe(204);
    expect(astdb.get(`TC/${ids.office}`)).toBe('outside');
    let list = (await call('GET', '/api/timeconditions')).json() as TimeCondition[];
    expect(list[0]?.override).toBe('outside');
    res = await call('POST', `/api/timeconditions/${ids.office}/override`, { override: 'auto' });
    expect(res.statusCode, res.body).toBe(204);
    expect(astdb.has(`TC/${ids.office}`)).toBe(false);
    list = (await call('GET', '/api/timeconditions')).json() as TimeCondition[];
    expect(list[0]?.override).toBe('auto');
    expectError(
      await call('POST', `/api/timeconditions/${ids.office}/override`, { override: 'maybe' }),
      400,
      'validation',
    );
    expectError(await call('POST', '/api/timeconditions/999/override', { override: 'inside' }), 404, 'not_found');
  });

  it('refuses a loop through the condition that never ends, and a destination that does not exist', async () => {
    let res = await call('POST', '/api/ivrs', {
      name: 'Menu',
      announcement: null,
      invalid_destination: 'app-blackhole,hangup,1',
      timeout_destination: 'app-blackhole,hangup,1',
    });
    expect(res.statusCode, res.body).toBe(200);
    ids.ivr = (res.json() as { id: number }).id;
    // Inside hours to the menu: fine.
    res = await call('PUT', `/api/timeconditions/${ids.office}`, {
      ...office(ids.hours),
      true_dest: `ivr-${ids.ivr},s,1`,
    });
    expect(res.statusCode, res.body).toBe(204);
    // Outside hours back to itself: callers would go round for ever then.
    const loop = expectError(
      await call('PUT', `/api/timeconditions/${ids.office}`, {
        ...office(ids.hours),
        true_dest: `ivr-${ids.ivr},s,1`,
        false_dest: `timeconditions,${ids.office},1`,
      }),
      400,
      'flow_loop',
    );
    expect(loop.detail).toContain('time condition Office');
    const missing = expectError(
      await call('PUT', `/api/timeconditions/${ids.office}`, { ...office(ids.hours), false_dest: 'ivr-999,s,1' }),
      400,
      'validation',
    );
    expect(missing.detail).toContain('ivr-999,s,1');
    expect(((await call('GET', '/api/timeconditions')).json() as TimeCondition[])[0]?.false_dest).toBe(
      'app-blackhole,hangup,1',
    );
  });

  it('renders GotoIfTime for every range into a configuration the validator accepts', async () => {
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
    // The flow files: extensions.flows.conf and the blocks of IVRs and time conditions it includes.
    const flows = [...files]
      .filter(([name]) => name.startsWith('extensions.flows'))
      .map(([, text]) => text)
      .join('');
    expect(flows).toContain(
      [
        `exten => ${ids.office},1,NoOp(Time condition Office)`,
        ` same => n,GotoIf($["\${DB(TC/${ids.office})}" = "inside"]?inside)`,
        ` same => n,GotoIf($["\${DB(TC/${ids.office})}" = "outside"]?outside)`,
        ' same => n,GotoIfTime(08:30-12:30,mon-fri,*,*?inside)',
        ' same => n,GotoIfTime(14:00-18:00,mon-thu,*,*?inside)',
        ' same => n,GotoIfTime(*,*,25,dec?inside)',
        ' same => n(outside),Goto(app-blackhole,hangup,1)',
        ` same => n(inside),Goto(ivr-${ids.ivr},s,1)`,
      ].join('\n'),
    );
    expect(flows).toContain(`exten => *27${ids.office},1,Answer()`);
  });

  it('refuses to delete what is in use, naming its users', async () => {
    let body = expectError(await call('DELETE', `/api/timegroups/${ids.hours}`), 409, 'flow_in_use');
    expect(body.detail).toContain('time condition Office');
    expect(((await call('GET', '/api/timegroups')).json() as TimeGroup[])[0]?.used_by).toEqual(['Office']);
    body = expectError(await call('DELETE', `/api/ivrs/${ids.ivr}`), 409, 'flow_in_use');
    expect(body.detail).toContain('time condition Office');
    const route = await call('POST', '/api/inboundroutes', {
      extension: '0612340000',
      cidnum: '',
      description: 'Main',
      destination: `timeconditions,${ids.office},1`,
    });
    expect(route.statusCode, route.body).toBe(200);
    body = expectError(
      await call('DELETE', `/api/timeconditions/${ids.office}`, undefined, { 'accept-language': 'it' }),
      409,
      'flow_in_use',
    );
    expect(body.detail).toContain('rotta in entrata 0612340000');
    expect((await call('POST', '/api/inboundroutes/delete', { extension: '0612340000', cid: '' })).statusCode).toBe(
      200,
    );
    expect((await call('DELETE', `/api/timeconditions/${ids.office}`)).statusCode).toBe(204);
    expect((await call('DELETE', `/api/timegroups/${ids.hours}`)).statusCode).toBe(204);
  });

  it('needs a signed-in administrator', async () => {
    for (const url of ['/api/timegroups', '/api/timeconditions']) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    }
  });
});
