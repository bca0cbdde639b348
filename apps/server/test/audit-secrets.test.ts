import { createHash, generateKeyPairSync } from 'node:crypto';
import { fileContent, secret, secretKeys } from '@centralino/contract';
import type { HTTPMethods } from 'fastify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { applyMarks, REDACTED, redactUrl } from '../src/features/audit/redact.ts';
import { callAs, DB_KINDS, POSTGRES_ADMIN_URL, useTestApp } from './helpers.ts';

/** The secret every test sends; no audit row may ever hold it. */
const MARKER = 'MARKER-SECRET-7f3a';
const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');
const dataUrl = (text: string, type = 'application/json') =>
  `data:${type};base64,${Buffer.from(text).toString('base64')}`;

function multipart(files: { field: string; name: string; content: string }[], fields: Record<string, string> = {}) {
  const boundary = '----audit-secrets-boundary';
  const parts = [
    ...Object.entries(fields).map(
      ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
    ),
    ...files.map(
      (f) =>
        `--${boundary}\r\nContent-Disposition: form-data; name="${f.field}"; filename="${f.name}"\r\n` +
        `Content-Type: application/octet-stream\r\n\r\n${f.content}\r\n`,
    ),
  ];
  return {
    payload: `${parts.join('')}--${boundary}--\r\n`,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

interface Row {
  method: string;
  path: string;
  action: string;
  changes: { before: unknown; after: unknown } | null;
}

// ---------------------------------------------------------------------------------------------------------------
// A body for any route of the OpenAPI document: every field the document or its name says is secret, every file
// and every URL carries the marker (a URL in its user info and query); the other fields get plain values that
// pass their pattern where one of a few candidates does.

type Json = Record<string, unknown>;
const SECRET_NAME = /pass(word)?|secret|pwd|pw$|token|(^|_)pin$|(^|_)key$|apikey|credential|recovery|otp|^code$/i;
const PLAIN = ['abc', 'Abc1', '201', '1', 'x', '127.0.0.1', '192.168.1.0', '00:11:22:33:44:55', 'day', '*9', '+39'];
const MARKED = [MARKER, 'MARKERSECRET7f3a'];
const SECRET_VARIABLE_NAMES = ['adminpw', 'userpw', 'ldap_password', 'account_password_1'];

function fits(schema: Json, value: string): boolean {
  if (typeof schema.minLength === 'number' && value.length < schema.minLength) return false;
  if (typeof schema.maxLength === 'number' && value.length > schema.maxLength) return false;
  if (typeof schema.pattern === 'string') {
    try {
      return new RegExp(schema.pattern, 'u').test(value);
    } catch {
      return true;
    }
  }
  return true;
}

class BodyMaker {
  /** Every secret value sent, to look for in the rows (a file's base64 does not contain the marker itself). */
  readonly sent = new Set<string>([MARKER]);
  constructor(private readonly doc: Json) {}

  private deref(schema: Json): Json {
    let s = schema;
    for (let i = 0; i < 10 && typeof s.$ref === 'string'; i++) {
      const name = s.$ref.split('/').pop() ?? '';
      s = ((this.doc.components as Json).schemas as Json)[name] as Json;
    }
    return s ?? {};
  }

  private secretString(schema: Json, name: string): string {
    if (schema['x-file-content']) {
      const file = dataUrl(`{"type":"service_account","private_key":"${MARKER}"}\nusername,password\nu,${MARKER}\n`);
      this.sent.add(file);
      return file;
    }
    return MARKED.find((v) => fits(schema, v)) ?? this.urlOr(schema, name) ?? MARKER;
  }

  private urlOr(schema: Json, name: string): string | undefined {
    if (schema.format !== 'uri' && !/url|uri/i.test(name)) return undefined;
    return `http://user-${MARKER}:${MARKER}@127.0.0.1:9/snapshot.jpg?token=${MARKER}&n=${MARKER}`;
  }

  value(input: Json, name: string, depth = 0): unknown {
    const schema = this.deref(input);
    if (depth > 12) return undefined;
    if (Array.isArray(schema.enum)) return schema.enum.find((v) => v !== '' && v !== null) ?? schema.enum[0];
    if ('const' in schema) return schema.const;
    for (const key of ['anyOf', 'oneOf'] as const) {
      const options = schema[key] as Json[] | undefined;
      if (!options) continue;
      const real = options.map((o) => this.deref(o)).filter((o) => o.type !== 'null' && !('const' in o));
      const chosen = real.find((o) => o.type === 'object') ?? real[real.length - 1] ?? options[0] ?? {};
      return this.value({ ...chosen, ...(schema['x-secret'] ? { 'x-secret': true } : {}) }, name, depth + 1);
    }
    if (Array.isArray(schema.allOf)) {
      return Object.assign({}, ...schema.allOf.map((s) => this.value(s as Json, name, depth + 1)));
    }
    const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
    const secretish = schema['x-secret'] === true || schema.format === 'password' || SECRET_NAME.test(name);
    switch (type) {
      case 'object': {
        const out: Json = {};
        for (const [key, prop] of Object.entries((schema.properties ?? {}) as Json)) {
          out[key] = this.value(prop as Json, key, depth + 1);
        }
        if (typeof schema['x-secret-keys'] === 'string') {
          const pattern = new RegExp(schema['x-secret-keys']);
          for (const key of SECRET_VARIABLE_NAMES.filter((k) => pattern.test(k))) out[key] = MARKER;
        }
        return out;
      }
      case 'array': {
        const item = this.value((schema.items ?? {}) as Json, name, depth + 1);
        return Array.from({ length: Math.max(1, Number(schema.minItems ?? 1)) }, () => item);
      }
      case 'integer':
      case 'number':
        return typeof schema.minimum === 'number' && schema.minimum > 1 ? schema.minimum : 1;
      case 'boolean':
        return false;
      case 'string': {
        if (secretish || schema['x-file-content']) return this.secretString(schema, name);
        const url = this.urlOr(schema, name);
        if (url && fits(schema, url)) return url;
        if (/host|server/i.test(name)) return '127.0.0.1';
        return PLAIN.find((v) => fits(schema, v)) ?? 'abc';
      }
      default:
        return secretish ? MARKER : undefined;
    }
  }
}

describe('redaction by schema marks and of URLs', () => {
  it('hides marked fields through wrappers, unions, arrays and records, and digests file fields', () => {
    const schema = z.object({
      name: z.string(),
      password: secret(z.string()).max(10).optional(),
      either: z.union([z.object({ pin: z.number() }), z.object({ token: secret(z.string()) })]),
      list: z.array(z.object({ key: secret(z.string().nullable()) })),
      vars: secretKeys(z.record(z.string(), z.string().nullable()), /^adminpw$/),
      file: fileContent(z.string()),
    });
    expect(
      applyMarks(schema, {
        name: 'n',
        password: 'p',
        either: { token: 't' },
        list: [{ key: 'k' }, { key: null }],
        vars: { adminpw: 'a', language: 'it' },
        file: dataUrl('hello'),
      }),
    ).toEqual({
      name: 'n',
      password: REDACTED,
      either: { token: REDACTED },
      list: [{ key: REDACTED }, { key: null }],
      vars: { adminpw: REDACTED, language: 'it' },
      file: { size: 5, sha256: sha256('hello') },
    });
  });

  it('drops user info, query and fragment values of a URL and keeps the rest', () => {
    expect(redactUrl('rtsp://cam:pw@10.0.0.9:554/live?user=a&token=b&empty=&flag#frag')).toBe(
      `rtsp://${REDACTED}@10.0.0.9:554/live?user=${REDACTED}&token=${REDACTED}&empty=&${REDACTED}#${REDACTED}`,
    );
    expect(redactUrl('https://example.com/path')).toBe('https://example.com/path');
    expect(redactUrl('not a url: user:pass@host')).toBe('not a url: user:pass@host');
  });
});

/** Routes the walk leaves out: changing the signed-in account's own password would end the walk's session. */
const SKIPPED = new Set(['POST /api/users/admin/password']);

describe.each(DB_KINDS)('audit log: secrets, files and URLs (%s)', (kind) => {
  const t = useTestApp(kind);
  const call = callAs(t);
  const rows = async () =>
    (await call('GET', '/api/admin/audit?pageSize=200')).json() as { total: number; rows: Row[] };
  const lastRow = async (method: string, path: string) =>
    (await rows()).rows.find((r) => r.method === method && r.path === path);
  /** Every column of every audit row, as the database holds it. */
  const everything = async () => JSON.stringify(await t.database.db.selectFrom('audit_log').selectAll().execute());
  const ok = async (method: HTTPMethods, url: string, payload?: unknown) => {
    const res = await call(method, url, payload);
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return res;
  };

  it('keeps the secrets the schemas mark out of the rows: passwords, phone variables, source credentials', async () => {
    await ok('POST', '/api/configuration/mode', { mode: 'legacy' });
    for (let i = 0; i < 100 && (await call('GET', '/api/configuration/userprovider')).json().configured !== 1; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    await ok('POST', '/api/admin/accounts', { username: 'auditor', password: `${MARKER}-1`, role: 'readonly' });
    await ok('POST', '/api/admin/accounts/auditor/password', { password: `${MARKER}-2` });
    await ok('POST', '/api/users', { username: 'mario', fullname: 'Mario Rossi' });
    await ok('POST', '/api/users/mario/password', { password: MARKER });
    expect((await lastRow('POST', '/api/users/mario/password'))?.changes?.after).toEqual({ password: REDACTED });
    await ok('POST', '/api/trunks', {
      provider: 'vivavox',
      name: 'vivavox',
      username: '0721123456',
      password: MARKER,
      phone: '0721123456',
      codecs: ['alaw'],
      forceCodec: false,
    });
    // A phone's admin and user passwords are provisioning variables: marked in the contract by name.
    const mac = '00-15-65-AA-BB-01';
    await ok('POST', '/api/provisioning/v1/phones', { mac, model: 'yealink-T46' });
    const variables = { adminpw: MARKER, userpw: MARKER, ldap_password: MARKER, language: 'en' };
    await ok('PATCH', `/api/provisioning/v1/phones/${mac}`, { variables });
    const patched = await lastRow('PATCH', `/api/provisioning/v1/phones/${mac}`);
    expect(patched?.changes?.after).toMatchObject({
      variables: { adminpw: REDACTED, userpw: REDACTED, ldap_password: REDACTED, language: 'en' },
    });
    await ok('PATCH', '/api/provisioning/v1/defaults', { adminpw: MARKER, userpw: MARKER });
    await ok('POST', '/api/physicalextensions/adminpw', { password: MARKER });
    // The test PostgreSQL trusts its local user: any password connects, so the marker can be saved.
    const pg = new URL(POSTGRES_ADMIN_URL);
    const source = {
      type: 'postgres',
      host: pg.hostname,
      port: Number(pg.port || 5432),
      user: decodeURIComponent(pg.username),
      pass: MARKER,
      name: pg.pathname.slice(1) || 'postgres',
    };
    const card = await ok('POST', '/api/cti/dbconn', source);
    await ok('PUT', `/api/cti/dbconn/${(card.json() as { id: number }).id}`, { ...source, pass: `${MARKER}-2` });
    await ok('DELETE', `/api/cti/dbconn/${(card.json() as { id: number }).id}`);
    await ok('POST', '/api/phonebook/config', {
      dbtype: 'mysql',
      host: '127.0.0.1',
      port: '9',
      user: 'pb',
      password: MARKER,
      dbname: 'contacts',
      query: 'select name from contacts',
      mapping: { name: 'name' },
      type: 'Suppliers',
      interval: 1440,
      enabled: false,
    });
    expect(await everything()).not.toContain(MARKER);
  });

  it('records uploaded files by size and SHA-256: the cloud speech key, the imported CSV, multipart files', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
    const key = JSON.stringify({
      type: 'service_account',
      project_id: MARKER.toLowerCase(),
      private_key_id: MARKER,
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      client_email: 'voicemail@centralino-test.iam.gserviceaccount.com',
      token_uri: 'https://oauth2.googleapis.com/token',
    });
    const keyUpload = dataUrl(key);
    await ok('POST', '/api/configuration/googleauth', { file: keyUpload });
    expect((await lastRow('POST', '/api/configuration/googleauth'))?.changes?.after).toEqual({
      file: { size: Buffer.byteLength(key), sha256: sha256(key) },
    });

    const csv = `username,fullname,extension,password\nluigi,Luigi Verdi,,${MARKER}\n`;
    const csvUpload = dataUrl(csv, 'text/csv');
    await ok('POST', '/api/csv/csvimport', { file: csvUpload });
    expect((await lastRow('POST', '/api/csv/csvimport'))?.changes?.after).toEqual({
      file: { size: Buffer.byteLength(csv), sha256: sha256(csv) },
    });

    const phonebook = `name,workphone\n${MARKER},0721 300\n`;
    const upload = multipart([{ field: '0', name: 'contacts.csv', content: phonebook }]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/phonebook/uploadfile',
      headers: { ...t.headers, ...upload.headers },
      payload: upload.payload,
    });
    expect(res.statusCode, res.body).toBeLessThan(300);
    expect((await lastRow('POST', '/api/phonebook/uploadfile'))?.changes?.after).toEqual({
      0: { name: 'contacts.csv', size: Buffer.byteLength(phonebook), sha256: sha256(phonebook) },
    });
    const ringtone = `RIFF....WAVE${MARKER}`;
    const tone = multipart([{ field: 'file', name: 'tone.wav', content: ringtone }]);
    const res2 = await t.app.inject({
      method: 'POST',
      url: '/api/provisioning/v1/ringtones',
      headers: { ...t.headers, ...tone.headers },
      payload: tone.payload,
    });
    expect(res2.statusCode, res2.body).toBeLessThan(300);
    expect((await lastRow('POST', '/api/provisioning/v1/ringtones'))?.changes?.after).toEqual({
      file: { name: 'tone.wav', size: Buffer.byteLength(ringtone), sha256: sha256(ringtone) },
    });
    const all = await everything();
    for (const sent of [MARKER, keyUpload, csvUpload, Buffer.from(csv).toString('base64')]) {
      expect(all).not.toContain(sent);
    }
  });

  it('keeps the user info and query values of URLs out of the rows: streaming sources, parameterised URLs', async () => {
    const url = `http://cam:${MARKER}@127.0.0.1:9/snapshot.jpg?token=${MARKER}&size=large`;
    await ok('POST', '/api/cti/streaming', { descr: 'Door', url, profiles: [1] });
    expect((await lastRow('POST', '/api/cti/streaming'))?.changes?.after).toMatchObject({
      url: `http://${REDACTED}@127.0.0.1:9/snapshot.jpg?token=${REDACTED}&size=${REDACTED}`,
    });
    await ok('PUT', '/api/cti/streaming/Door', { descr: 'Door', url: `${url}&x=1`, profiles: [1] });
    await ok('DELETE', '/api/cti/streaming/Door');
    const crm = `https://crm.example/call?apikey=${MARKER}&cnumber=$CALLER_NUMBER`;
    const created = await ok('POST', '/api/cti/paramurl', { url: crm, profiles: [1] });
    expect((await lastRow('POST', '/api/cti/paramurl'))?.changes?.after).toMatchObject({
      url: `https://crm.example/call?apikey=${REDACTED}&cnumber=${REDACTED}`,
    });
    const { id } = created.json() as { id: number };
    await ok('PUT', `/api/cti/paramurl/${id}`, { url: `${crm}&more=${MARKER}`, profiles: [1] });
    await ok('POST', '/api/cti/paramurl/delete', { url: `${crm}&more=${MARKER}` });
    expect(await everything()).not.toContain(MARKER);
  });

  it('documents the marks in the OpenAPI document: secrets write-only passwords, files, secret variables', async () => {
    const schemas = ((await ok('GET', '/api/docs/json')).json() as { components: { schemas: Record<string, Json> } })
      .components.schemas;
    const prop = (id: string, name: string) => ((schemas[id]?.properties ?? {}) as Record<string, Json>)[name];
    expect(prop('VoipTrunkCreate', 'password')).toMatchObject({
      'x-secret': true,
      writeOnly: true,
      format: 'password',
    });
    expect(prop('AccountCreate', 'password')).toMatchObject({ 'x-secret': true, writeOnly: true });
    expect(prop('CsvFile', 'file')).toMatchObject({ 'x-file-content': true });
    expect(prop('GoogleAuthUpload', 'file')).toMatchObject({ 'x-file-content': true });
    expect(prop('ProvisioningPhonePatch', 'variables')).toMatchObject({
      'x-secret-keys': expect.stringContaining('adminpw'),
    });
  });

  it('walks every write route of the OpenAPI document with the marker in every secret, file and URL', async () => {
    const doc = (await ok('GET', '/api/docs/json')).json() as Json;
    const maker = new BodyMaker(doc);
    let written = 0;
    let routes = 0;
    for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
      for (const method of ['post', 'put', 'patch', 'delete']) {
        const operation = item[method] as Json | undefined;
        if (!operation || SKIPPED.has(`${method.toUpperCase()} ${path}`)) continue;
        routes++;
        const url = path.replace(/\{[^}]+\}/g, 'dummy1');
        const content = ((operation.requestBody as Json | undefined)?.content ?? {}) as Record<string, Json>;
        const before = (await rows()).total;
        const verb = method.toUpperCase() as HTTPMethods;
        let status: number;
        if (
          (operation.consumes as string[] | undefined)?.includes('multipart/form-data') ||
          content['multipart/form-data']
        ) {
          const body = multipart([{ field: 'file', name: 'walk.csv', content: `name,password\nwalk,${MARKER}\n` }], {
            displayname: 'Walk',
            description: 'walk',
          });
          status = (
            await t.app.inject({ method: verb, url, headers: { ...t.headers, ...body.headers }, payload: body.payload })
          ).statusCode;
        } else {
          const schema = content['application/json']?.schema as Json | undefined;
          status = (await call(verb, url, schema ? maker.value(schema, '') : undefined)).statusCode;
        }
        if (status < 300 && (await rows()).total > before) written++;
        if (process.env.AUDIT_WALK_DEBUG) console.log(verb, url, status);
      }
    }
    expect(routes).toBeGreaterThan(150);
    // Many routes refuse a made-up body or a dummy id; the named routes above are the ones that must succeed.
    expect(written).toBeGreaterThan(15);
    const all = await everything();
    for (const sent of maker.sent) expect(all).not.toContain(sent);
  }, 240_000);
});
