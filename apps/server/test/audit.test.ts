import type { HTTPMethods, RouteOptions } from 'fastify';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { type AuditScope, auditScope } from '../src/features/audit/context.ts';
import { auditCheckReason, isAuditedRoute } from '../src/features/audit/hook.ts';
import { REDACTED, redact } from '../src/features/audit/redact.ts';
import { isProtectedPath } from '../src/plugins/auth.ts';
import { callAs, DB_KINDS, login, useTestApp } from './helpers.ts';

/** Writes under the API that are not audited as changes, with the reason. A new one is added here on purpose. */
const NOT_AUDITED: Record<string, string> = {
  'POST /api/migration/dryrun': 'a dry run writes nothing: every step is rolled back',
  'POST /api/login': 'audited by the sign-in route itself as login / login_failed',
  'POST /api/login/code': 'audited by the second-step route itself as login / login_failed',
  'POST /api/internal/voicemail-transcription':
    "the PBX's loopback call with its own token, no console user: not a change made by a person",
  'POST /api/internal/phone-recording':
    "the PBX's loopback call after *77, no console user: the recording it keeps is named after the phone's extension",
};

/** Routes the walk does not call with an empty body: they would start long work against the machine. */
const NOT_CALLED = new Set<string>([]);

function concrete(url: string): string {
  return url.replace(/:[A-Za-z_]\w*/g, 'dummy1').replace(/\*/g, 'dummy.txt');
}

interface Row {
  actor: string;
  action: string;
  method: string;
  path: string;
  object: string;
  changes: { before: unknown; after: unknown } | null;
}

describe('redaction', () => {
  it('replaces every secret-named field, at any depth, and keeps the rest', () => {
    const secrets = [
      'password',
      'Password',
      'new_password',
      'secret',
      'sip_secret',
      'pwd',
      'web_pwd',
      'pin',
      'vm_pin',
      'key',
      'api_key',
      'apikey',
      'token',
      'access_token',
      'recovery_codes',
      'totp',
      'code',
      'credentials',
      'ldap_password',
      'dbpassword',
    ];
    const input = { name: 'x', nested: [{ ...Object.fromEntries(secrets.map((s) => [s, 'hunter2'])), ok: 1 }] };
    const out = redact(input) as { name: string; nested: Record<string, unknown>[] };
    expect(out.name).toBe('x');
    for (const s of secrets) expect(out.nested[0]?.[s], s).toBe(REDACTED);
    expect(out.nested[0]?.ok).toBe(1);
    expect(JSON.stringify(out)).not.toContain('hunter2');
    // Empty secrets stay empty (the row shows a secret was cleared, not what it was).
    expect(redact({ password: '' })).toEqual({ password: '' });
  });
});

describe.each(DB_KINDS)('audit log (%s)', (kind) => {
  const routes: { method: string; url: string; config: RouteOptions['config'] }[] = [];
  const t = useTestApp(kind, {
    onRoute: (route: RouteOptions) => {
      for (const method of ([] as HTTPMethods[]).concat(route.method)) {
        routes.push({ method, url: route.url, config: route.config });
      }
    },
  });
  const call = callAs(t);
  const rows = async (query = '') =>
    (await call('GET', `/api/admin/audit?pageSize=200${query}`)).json() as { total: number; rows: Row[] };

  it('records a change with who, where, what and a field-level before/after, secrets redacted', async () => {
    expect(
      (await call('POST', '/api/admin/accounts', { username: 'eve', password: 'eve-secret-1', role: 'readonly' }))
        .statusCode,
    ).toBe(201);
    expect((await call('PUT', '/api/admin/audit/settings', { retention_days: 30 })).statusCode).toBe(200);
    const { rows: all } = await rows();
    const created = all.find((r) => r.path === '/api/admin/accounts' && r.method === 'POST');
    expect(created).toMatchObject({ actor: 'admin', action: 'change', object: 'admin/accounts' });
    expect(created?.changes?.after).toEqual({
      username: 'eve',
      password: REDACTED,
      role: 'readonly',
      listen_recordings: false,
    });
    expect(JSON.stringify(all)).not.toContain('eve-secret-1');
    const setting = all.find((r) => r.path === '/api/admin/audit/settings');
    expect(setting?.changes).toEqual({ before: { retention_days: 365 }, after: { retention_days: 30 } });
    // The address is the caller's.
    const raw = (await call('GET', '/api/admin/audit?pageSize=1')).json().rows[0];
    expect(raw.address).toBe('127.0.0.1');
  });

  it('records sign-ins, refused sign-ins and sign-outs', async () => {
    const eve = await login(t.app, 'eve', 'eve-secret-1');
    await t.app.inject({ method: 'POST', url: '/api/login', payload: { username: 'eve', password: 'wrong-one' } });
    await t.app.inject({ method: 'POST', url: '/api/login', payload: { username: 'nobody', password: 'x' } });
    await t.app.inject({ method: 'GET', url: '/api/logout', headers: eve });
    const { rows: eveRows } = await rows('&user=eve');
    expect(eveRows.map((r) => r.action).slice(0, 3)).toEqual(['logout', 'login_failed', 'login']);
    // An unknown typed name is not stored in clear (it may be a password typed in the wrong field).
    const failed = (await rows('&q=login_failed')).rows.map((r) => r.actor);
    expect(failed).toContain('eve');
    expect(failed).not.toContain('nobody');
    expect(failed.some((a) => /^#[0-9a-f]{16}$/.test(a))).toBe(true);
  });

  it('searches by text, user, object and date range, paged on the server, and exports CSV', async () => {
    const page1 = (await call('GET', '/api/admin/audit?pageSize=2&page=1')).json();
    const page2 = (await call('GET', '/api/admin/audit?pageSize=2&page=2')).json();
    expect(page1.rows).toHaveLength(2);
    expect(page1.total).toBeGreaterThan(4);
    expect(page2.rows[0].id).not.toBe(page1.rows[0].id);
    expect((await rows('&object=audit%2Fsettings')).rows.every((r) => r.object.includes('audit/settings'))).toBe(true);
    expect((await rows('&q=RETENTION_DAYS')).total).toBe(1);
    expect((await rows(`&from=${Date.now() + 60_000}`)).total).toBe(0);
    expect((await rows('&to=1')).total).toBe(0);
    const csv = await call('GET', '/api/admin/audit/export?user=eve');
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const lines = csv.body.trim().split('\n');
    expect(lines[0]).toBe('time,user,address,action,method,path,object,status,changes');
    expect(lines.length).toBe((await rows('&user=eve')).total + 1);
  });

  it('writes the row in the same transaction as the change: both commit or neither', async () => {
    const db = t.database.db;
    const scope = (): AuditScope => ({
      actor: 'admin',
      address: '127.0.0.1',
      method: 'PUT',
      path: '/api/test/tx',
      object: 'test/tx',
      changes: () => ({ before: null, after: { x: 1 } }),
      written: false,
      writing: false,
      closed: false,
      status: () => 200,
    });
    const count = async () => (await rows('&object=test%2Ftx')).total;
    await expect(
      auditScope.run(scope(), () =>
        db.transaction().execute(async (trx) => {
          await trx.insertInto('settings').values({ key: 'tx-test', value: '1' }).execute();
          throw new Error('the change fails after its first statement');
        }),
      ),
    ).rejects.toThrow('fails');
    expect(await count()).toBe(0);
    expect(await db.selectFrom('settings').selectAll().where('key', '=', 'tx-test').executeTakeFirst()).toBeUndefined();
    await auditScope.run(scope(), () =>
      db.transaction().execute((trx) => trx.insertInto('settings').values({ key: 'tx-test', value: '1' }).execute()),
    );
    expect(await count()).toBe(1);
  });

  /** Makes the database refuse audit rows for these objects, as a full disk or a broken table would. */
  const refuseAuditRows = async (objects: string[]) => {
    const db = t.database.db;
    const list = sql.join(objects.map((o) => sql.lit(o)));
    if (kind === 'sqlite') {
      await sql`create trigger audit_refuse before insert on audit_log when new.object in (${list})
        begin select raise(abort, 'audit row refused'); end`.execute(db);
      return () => sql`drop trigger audit_refuse`.execute(db);
    }
    await sql`create function audit_refuse() returns trigger language plpgsql as
      $$ begin raise exception 'audit row refused'; end $$`.execute(db);
    await sql`create trigger audit_refuse before insert on audit_log for each row
      when (new.object in (${list})) execute function audit_refuse()`.execute(db);
    return async () => {
      await sql`drop trigger audit_refuse on audit_log`.execute(db);
      await sql`drop function audit_refuse()`.execute(db);
    };
  };

  it('rolls the change back when its audit row cannot be written: single statements and transactions alike', async () => {
    const db = t.database.db;
    const scope = (): AuditScope => ({
      actor: 'admin',
      address: '127.0.0.1',
      method: 'POST',
      path: '/api/test/refuse',
      object: 'test/refuse',
      changes: () => ({ before: null, after: { x: 1 } }),
      written: false,
      writing: false,
      closed: false,
      status: () => 200,
    });
    const setting = (key: string) => db.selectFrom('settings').selectAll().where('key', '=', key).executeTakeFirst();
    const accounts = async () => (await call('GET', '/api/admin/accounts')).body;
    const retention = async () => (await call('GET', '/api/admin/audit/settings')).json().retention_days;
    const retentionBefore = await retention();
    const allow = await refuseAuditRows(['test/refuse', 'admin/accounts', 'admin/audit/settings']);
    try {
      // A single statement on the database itself, outside any transaction.
      await expect(
        auditScope.run(scope(), () => db.insertInto('settings').values({ key: 'refuse-1', value: '1' }).execute()),
      ).rejects.toThrow(/refused/);
      expect(await setting('refuse-1')).toBeUndefined();
      // Raw SQL writes too.
      await expect(
        auditScope.run(scope(), () => sql`insert into settings (key, value) values ('refuse-2', '1')`.execute(db)),
      ).rejects.toThrow(/refused/);
      expect(await setting('refuse-2')).toBeUndefined();
      // A transaction.
      await expect(
        auditScope.run(scope(), () =>
          db
            .transaction()
            .execute((trx) => trx.insertInto('settings').values({ key: 'refuse-3', value: '1' }).execute()),
        ),
      ).rejects.toThrow(/refused/);
      expect(await setting('refuse-3')).toBeUndefined();
      // Through the API: creating an account is one statement, the retention setting a transaction.
      const create = await call('POST', '/api/admin/accounts', {
        username: 'mallory',
        password: 'mallory-pw-12',
        role: 'readonly',
      });
      expect(create.statusCode).toBe(500);
      expect(await accounts()).not.toContain('mallory');
      expect((await call('PUT', '/api/admin/audit/settings', { retention_days: 99 })).statusCode).toBe(500);
      expect(await retention()).toBe(retentionBefore);
    } finally {
      await allow();
    }
    // With the audit table healthy again the same write succeeds, with exactly one row.
    const before = (await rows()).total;
    const create = await call('POST', '/api/admin/accounts', {
      username: 'mallory',
      password: 'mallory-pw-12',
      role: 'readonly',
    });
    expect(create.statusCode).toBe(201);
    expect(await accounts()).toContain('mallory');
    const after = await rows();
    expect(after.total).toBe(before + 1);
    expect(after.rows[0]).toMatchObject({ method: 'POST', path: '/api/admin/accounts' });
  });

  it('purges rows older than the retention', async () => {
    await t.database.db
      .insertInto('audit_log')
      .values({
        id: 'old-row',
        at: Date.now() - 40 * 86_400_000,
        actor: 'admin',
        address: '127.0.0.1',
        action: 'change',
        method: 'POST',
        path: '/api/x',
        object: 'x',
        status: 200,
        changes: 'null',
      })
      .execute();
    const { AuditService } = await import('../src/features/audit/service.ts');
    // Retention is 30 days (set above).
    expect(await new AuditService(t.database.db).purge()).toBe(1);
  });

  it('walks the route table: every successful write writes an audit row, or is listed as not audited', async () => {
    const writes = routes.filter((r) => isProtectedPath(r.url) && !['GET', 'HEAD', 'OPTIONS'].includes(r.method));
    const exempt = writes.filter((r) => !isAuditedRoute(r)).map((r) => `${r.method} ${r.url}`);
    expect(exempt.sort()).toEqual(Object.keys(NOT_AUDITED).sort());
    let succeeded = 0;
    for (const route of writes.filter((r) => isAuditedRoute(r))) {
      if (NOT_CALLED.has(`${route.method} ${route.url}`)) continue;
      const url = concrete(route.url);
      const before = (await rows()).total;
      const res = await call(route.method as HTTPMethods, url, {});
      const after = await rows();
      const what = `${route.method} ${route.url} → ${res.statusCode}`;
      if (res.statusCode < 400 && auditCheckReason(route, route.method) !== undefined) {
        // A check or preview writes nothing and records nothing (one that did change the database would).
        expect(after.total, what).toBe(before);
      } else if (res.statusCode < 400) {
        succeeded++;
        expect(after.total, what).toBe(before + 1);
        expect(after.rows[0], what).toMatchObject({ method: route.method, actor: 'admin', action: 'change' });
      } else {
        // A refused write changes nothing and records nothing.
        expect(after.total, what).toBe(before);
      }
    }
    expect(succeeded).toBeGreaterThan(5);
  }, 240_000);
});
