import { voipProviders } from '@centralino/contract';
import { describe, expect, it } from 'vitest';
import { buildTrunkSettings } from '../src/features/trunks/settings.ts';
import { callAs, DB_KINDS, expectError, useTestApp } from './helpers.ts';

const provider = (key: string) => {
  const found = voipProviders.find((p) => p.provider === key);
  if (!found) throw new Error(key);
  return found;
};
const request = {
  name: 'line1',
  username: 'u123',
  password: 'pw',
  phone: '0721123456',
  codecs: ['alaw'],
  forceCodec: true,
};

describe('VoIP provider templates', () => {
  it('has the 32 providers of the contract with unique keys', () => {
    expect(voipProviders).toHaveLength(32);
    expect(new Set(voipProviders.map((p) => p.provider)).size).toBe(32);
  });

  it('applies baseline, provider differences and the account', () => {
    const built = buildTrunkSettings(provider('clouditalia'), request);
    expect(built.settings).toMatchObject({
      sip_server: 'voip.eutelia.it',
      sip_server_port: '5060',
      registration: 'send',
      rewrite_contact: 'no',
      contact_user: 'u123',
      from_user: 'u123',
      context: 'from-pstn-toheader',
    });
    expect(built).toMatchObject({ username: 'u123', secret: 'pw', codecs: 'alaw' });
    expect(built.settings).not.toHaveProperty('secret');
  });

  it('puts the chosen codecs first and keeps the provider ones unless forced', () => {
    expect(buildTrunkSettings(provider('voiptel'), { ...request, forceCodec: false }).codecs).toBe('alaw,g729,ulaw');
    expect(buildTrunkSettings(provider('voiptel'), request).codecs).toBe('alaw');
  });

  it('applies special options with $PHONE and $USERNAME, and removes absent keys', () => {
    const wic = buildTrunkSettings(provider('wic-voip'), request);
    expect(wic.username).toBe('0721123456');
    expect(wic.settings).toMatchObject({ auth_username: 'u123', contact_user: '0721123456', from_user: '0721123456' });
    const gnr = buildTrunkSettings(provider('opensolution_gnr'), request);
    expect(gnr).toMatchObject({ username: '', secret: '' });
    expect(gnr.settings.registration).toBe('none');
    const oval = buildTrunkSettings(provider('oval'), request);
    expect(oval.settings).not.toHaveProperty('pjsip_line');
    expect(oval.settings.expiration).toBe('330');
  });
});

describe.each(DB_KINDS)('VoIP trunks API (%s)', (kind) => {
  const t = useTestApp(kind);
  const call = callAs(t);
  const body = {
    provider: 'vivavox',
    name: 'vivavox',
    username: '0721123456',
    password: 's3cr3t!',
    phone: '0721123456',
    codecs: ['alaw', 'ulaw'],
    forceCodec: true,
  };

  it('lists providers by description and the codecs', async () => {
    const providers = (await call('GET', '/api/providers')).json();
    expect(providers).toHaveLength(32);
    expect(providers[0]).toEqual({ id: 1, provider: 'activenetwork', description: 'Active Network' });
    expect((await call('GET', '/api/codecs/voip')).json()).toEqual([
      { codec: 'alaw', enabled: true },
      { codec: 'ulaw', enabled: true },
      { codec: 'g729', enabled: true },
    ]);
  });

  it('creates a trunk and never answers its password', async () => {
    const res = await call('POST', '/api/trunks', body);
    expect(res.statusCode, res.body).toBe(200);
    const { trunkid } = res.json();
    expect((await call('GET', '/api/trunks/count')).json()).toBe(1);
    const list = await call('GET', '/api/trunks');
    expect(list.json()).toEqual([
      {
        trunkid,
        name: 'vivavox',
        tech: 'pjsip',
        kind: 'voip',
        provider: 'vivavox',
        outcid: '0721123456',
        username: '0721123456',
        codecs: ['alaw', 'ulaw'],
        forceCodec: true,
        continue: false,
        gateway_id: null,
        server: 'sip.vivavox.it',
        port: 5060,
        music: 'default',
      },
    ]);
    expect(list.body).not.toContain('s3cr3t');
    expect((await call('GET', '/api/trunks/PJSIP')).json()).toHaveLength(1);
    expect((await call('GET', '/api/trunks/iax2')).json()).toEqual([]);
  });

  it.each([
    ['a duplicate name', { ...body }, 409, 'trunk_exists'],
    ['an unknown provider', { ...body, name: 'x1', provider: 'nope' }, 400, 'validation'],
    ['a name with spaces', { ...body, name: 'my line' }, 400, 'validation'],
    ['a password that would break the file', { ...body, name: 'x2', password: 'a;b' }, 400, 'validation'],
    ['a password with a line break', { ...body, name: 'x3', password: 'a\nsecret=x' }, 400, 'validation'],
    ['a missing phone', { ...body, name: 'x4', phone: '' }, 400, 'validation'],
    ['no codec', { ...body, name: 'x5', codecs: [] }, 400, 'validation'],
  ])('refuses %s and stores nothing', async (_, payload, status, code) => {
    expectError(await call('POST', '/api/trunks', payload), status, code);
    expect((await call('GET', '/api/trunks/count')).json()).toBe(1);
  });

  it('changes a trunk, keeping the password when the new one is empty', async () => {
    const [trunk] = (await call('GET', '/api/trunks')).json();
    const res = await call('PATCH', `/api/trunks/${trunk.trunkid}`, {
      username: 'newuser',
      password: '',
      phone: '0721999999',
      codecs: ['g729'],
      forceCodec: true,
    });
    expect(res.statusCode, res.body).toBe(204);
    const secret = await t.database.db.selectFrom('trunks').select(['secret', 'settings']).executeTakeFirstOrThrow();
    expect(secret.secret).toBe('s3cr3t!');
    expect(JSON.parse(secret.settings)).toMatchObject({ contact_user: 'newuser', from_user: 'newuser' });
    const [changed] = (await call('GET', '/api/trunks')).json();
    expect(changed).toMatchObject({ username: 'newuser', outcid: '0721999999', codecs: ['g729'] });
    expect((await call('PATCH', `/api/trunks/${trunk.trunkid}`, { password: 'n3w' })).statusCode).toBe(204);
    expect((await t.database.db.selectFrom('trunks').select('secret').executeTakeFirstOrThrow()).secret).toBe('n3w');
    expectError(await call('PATCH', '/api/trunks/999', { phone: '123' }), 404, 'not_found');
  });

  it('sets whether the route always tries its next trunk after this one (contract continue=on/off)', async () => {
    const [trunk] = (await call('GET', '/api/trunks')).json();
    const settings = async () =>
      JSON.parse(
        (
          await t.database.db
            .selectFrom('trunks')
            .select('settings')
            .where('id', '=', trunk.trunkid)
            .executeTakeFirstOrThrow()
        ).settings,
      );
    expect((await call('PATCH', `/api/trunks/${trunk.trunkid}`, { continue: true })).statusCode).toBe(204);
    expect((await call('GET', '/api/trunks')).json()[0]).toMatchObject({ continue: true });
    expect((await settings()).continue).toBe('on');
    expect((await call('PATCH', `/api/trunks/${trunk.trunkid}`, { continue: false })).statusCode).toBe(204);
    expect((await call('GET', '/api/trunks')).json()[0]).toMatchObject({ continue: false });
    expect((await settings()).continue).toBe('off');
    expectError(await call('PATCH', `/api/trunks/${trunk.trunkid}`, { continue: 'yes' }), 400, 'validation');
    const created = await call('POST', '/api/trunks', { ...body, name: 'always-next', continue: true });
    expect(created.statusCode, created.body).toBe(200);
    const listed = (await call('GET', '/api/trunks')).json().find((x: { name: string }) => x.name === 'always-next');
    expect(listed).toMatchObject({ continue: true });
    expect((await call('DELETE', `/api/trunks/${created.json().trunkid}`)).statusCode).toBe(200);
  });

  it('deletes a trunk', async () => {
    const [trunk] = (await call('GET', '/api/trunks')).json();
    expect((await call('DELETE', `/api/trunks/${trunk.trunkid}`)).json()).toEqual({ status: true });
    expect((await call('GET', '/api/trunks')).json()).toEqual([]);
    expectError(await call('DELETE', `/api/trunks/${trunk.trunkid}`), 404, 'not_found');
  });
});
