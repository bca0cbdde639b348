import type { HTTPMethods, RouteOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { isProtectedPath } from '../src/plugins/auth.ts';
import { ADMIN_PASSWORD, callAs, DB_KINDS, expectError, login, useTestApp } from './helpers.ts';

/**
 * Writes a read-only account may still make, with the reason: each touches only the caller's own account.
 * A new entry must be added here on purpose.
 */
const READONLY_ALLOWED_WRITES: Record<string, string> = {
  'POST /api/login': 'signing in (public)',
  'POST /api/users/admin/password': "changes the caller's own password",
  'POST /api/login/code': 'the second sign-in step (public)',
  'POST /api/account/2fa/setup': "starts enrolment of the caller's own second factor",
  'POST /api/account/2fa/enable': "confirms the caller's own second factor",
};

/** Reads refused to a read-only account, with the reason. A new entry must be added here on purpose. */
const READONLY_REFUSED_READS: Record<string, string> = {
  'GET /api/configuration/suggestedip': 'makes the server call an outside service',
};

/** GET routes that change state, refused to read-only accounts like writes (none but the own sign-out today). */
const STATE_CHANGING_GETS: string[] = [];

interface Route {
  method: string;
  url: string;
  config: RouteOptions['config'];
}

function concrete(url: string): string {
  return url.replace(/:[A-Za-z_]\w*/g, 'dummy1').replace(/\*/g, 'dummy.txt');
}

describe.each(DB_KINDS)('console accounts and the read-only role (%s)', (kind) => {
  const routes: Route[] = [];
  const t = useTestApp(kind, {
    onRoute: (route: RouteOptions) => {
      for (const method of ([] as HTTPMethods[]).concat(route.method)) {
        routes.push({ method, url: route.url, config: route.config });
      }
    },
  });
  const call = callAs(t);

  it('adds, lists, changes, resets and removes accounts; one administrator always remains', async () => {
    expect(
      (await call('POST', '/api/admin/accounts', { username: 'Viewer', password: 'viewer-pass-1', role: 'readonly' }))
        .statusCode,
    ).toBe(201);
    expectError(
      await call('POST', '/api/admin/accounts', { username: 'viewer', password: 'another-pass', role: 'admin' }),
      409,
      'account_exists',
    );
    expectError(
      await call('POST', '/api/admin/accounts', { username: 'bad name', password: 'x', role: 'admin' }),
      400,
      'validation',
    );
    const list = (await call('GET', '/api/admin/accounts')).json();
    expect(list).toEqual([
      { username: 'admin', role: 'admin', two_factor: false, listen_recordings: false, created_at: expect.any(Number) },
      {
        username: 'viewer',
        role: 'readonly',
        two_factor: false,
        listen_recordings: false,
        created_at: expect.any(Number),
      },
    ]);
    // No secret in the list.
    expect(JSON.stringify(list)).not.toMatch(/hash|secret|password/i);

    const viewer = await login(t.app, 'viewer', 'viewer-pass-1');
    const me = await t.app.inject({ method: 'GET', url: '/api/login', headers: viewer });
    expect(me.json()).toEqual({ success: true, user: 'viewer', role: 'readonly', listen_recordings: false });

    // The last administrator can be neither removed nor demoted.
    expectError(await call('DELETE', '/api/admin/accounts/admin'), 409, 'last_admin');
    expectError(await call('PUT', '/api/admin/accounts/admin', { role: 'readonly' }), 409, 'last_admin');
    expectError(await call('DELETE', '/api/admin/accounts/nobody'), 404, 'account_not_found');

    // A password reset signs the account out everywhere.
    expect((await call('POST', '/api/admin/accounts/viewer/password', { password: 'viewer-pass-2' })).statusCode).toBe(
      200,
    );
    expect((await t.app.inject({ method: 'GET', url: '/api/login', headers: viewer })).statusCode).toBe(401);
    const again = await login(t.app, 'viewer', 'viewer-pass-2');

    // Promoted, the account may write; then a second administrator exists and admin may be demoted and back.
    expect((await call('PUT', '/api/admin/accounts/viewer', { role: 'admin' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/login', headers: again })).json().role).toBe('admin');
    expect((await call('PUT', '/api/admin/accounts/viewer', { role: 'readonly' })).statusCode).toBe(200);

    // Removing an account revokes its keys.
    expect((await call('DELETE', '/api/admin/accounts/viewer')).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/login', headers: again })).statusCode).toBe(401);
    expect((await call('GET', '/api/admin/accounts')).json()).toHaveLength(1);
  });

  it('answers 403 read_only to every write of a read-only account, from the route table, and lets reads through', async () => {
    await call('POST', '/api/admin/accounts', { username: 'reader', password: 'reader-pass-1', role: 'readonly' });
    const reader = await login(t.app, 'reader', 'reader-pass-1');
    const writes = routes.filter(
      (r) =>
        isProtectedPath(r.url) &&
        (!['GET', 'HEAD'].includes(r.method) || STATE_CHANGING_GETS.includes(`${r.method} ${r.url}`)) &&
        !(`${r.method} ${r.url}` in READONLY_ALLOWED_WRITES),
    );
    expect(writes.length).toBeGreaterThan(100);
    const before = (await call('GET', '/api/admin/accounts')).json();
    for (const route of writes) {
      const res = await t.app.inject({
        method: route.method as HTTPMethods,
        url: concrete(route.url),
        headers: { ...reader, 'accept-language': 'it' },
        ...(route.method === 'GET' ? {} : { payload: {} }),
      });
      const what = `${route.method} ${route.url}`;
      if (route.config?.ownAuth) {
        // Its own credential, not a sign-in key: refused before the role matters.
        expect(res.statusCode, what).not.toBe(200);
        continue;
      }
      const body = expectError(res, 403, 'read_only');
      expect(body.title, what).toBe('Account in sola lettura');
    }
    // Nothing changed, and the one allowed write works: its own password.
    expect((await call('GET', '/api/admin/accounts')).json()).toEqual(before);
    const own = await t.app.inject({
      method: 'POST',
      url: '/api/users/admin/password',
      headers: reader,
      payload: { password: 'reader-pass-2', current_password: 'reader-pass-1' },
    });
    expect(own.statusCode).toBe(201);
    await login(t.app, 'reader', 'reader-pass-2');
    // The administrator's password is untouched.
    await login(t.app, 'admin', ADMIN_PASSWORD);

    // Every screen's reads answer (not 401/403).
    for (const route of routes.filter((r) => isProtectedPath(r.url) && r.method === 'GET')) {
      if (route.url === '/api/logout' || route.url === '/api/dashboard/events') continue;
      // Asterisk's own calls take their own token, never a sign-in key (route-walk.test.ts checks them).
      if (route.url.startsWith('/api/internal/')) continue;
      // The player's link is its own credential (call-recordings.test.ts).
      if (route.config?.ownAuth) continue;
      const res = await t.app.inject({ method: 'GET', url: concrete(route.url), headers: reader });
      // Listening to call recordings is a permission of its own, off for a read-only account until allowed.
      if (route.url.startsWith('/api/calls/:id/recording')) {
        const url = route.url.replace(':id', '1');
        expectError(await t.app.inject({ method: 'GET', url, headers: reader }), 403, 'recording_forbidden');
        continue;
      }
      // A route that exists to hand out a credential is refused too (route-walk.test.ts lists them).
      if (`GET ${route.url}` in READONLY_REFUSED_READS || route.config?.credentials) {
        expectError(res, 403, 'read_only');
        continue;
      }
      expect([401, 403], `GET ${route.url}`).not.toContain(res.statusCode);
    }
  }, 120_000);
});
