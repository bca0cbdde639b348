import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, hotp, verifyTotp } from '../src/features/auth/totp.ts';
import { ADMIN_PASSWORD, callAs, DB_KINDS, expectError, login, useTestApp } from './helpers.ts';

/** The test's own RFC 6238 generator (independent of the server's): HMAC-SHA1 over the 30 s step counter. */
async function totpOf(secretBase32: string, atMs: number): Promise<string> {
  const { createHmac } = await import('node:crypto');
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(atMs / 30_000)));
  const mac = createHmac('sha1', base32Decode(secretBase32)).update(counter).digest();
  const offset = (mac.at(-1) ?? 0) & 15;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

describe('TOTP (RFC 6238) and HOTP (RFC 4226)', () => {
  it('matches the RFC 4226 appendix D values', () => {
    const key = Buffer.from('12345678901234567890');
    const expected = [
      '755224',
      '287082',
      '359152',
      '969429',
      '338314',
      '254676',
      '287922',
      '162583',
      '399871',
      '520489',
    ];
    for (const [counter, code] of expected.entries()) expect(hotp(key, counter)).toBe(code);
  });

  it('matches the RFC 6238 appendix B values (SHA-1, SHA-256, SHA-512; 8 digits)', () => {
    const keys = {
      sha1: Buffer.from('12345678901234567890'),
      sha256: Buffer.from('12345678901234567890123456789012'),
      sha512: Buffer.from('1234567890123456789012345678901234567890123456789012345678901234'),
    };
    const vectors: [number, string, string, string][] = [
      [59, '94287082', '46119246', '90693936'],
      [1111111109, '07081804', '68084774', '25091201'],
      [1111111111, '14050471', '67062674', '99943326'],
      [1234567890, '89005924', '91819424', '93441116'],
      [2000000000, '69279037', '90698825', '38618901'],
      [20000000000, '65353130', '77737706', '47863826'],
    ];
    for (const [seconds, sha1, sha256, sha512] of vectors) {
      const step = Math.floor(seconds / 30);
      expect(hotp(keys.sha1, step, 8, 'sha1')).toBe(sha1);
      expect(hotp(keys.sha256, step, 8, 'sha256')).toBe(sha256);
      expect(hotp(keys.sha512, step, 8, 'sha512')).toBe(sha512);
    }
  });

  it('accepts one step of drift, refuses older steps and codes already used', () => {
    const secret = base32Encode(Buffer.from('12345678901234567890'));
    expect(secret).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    const at = 1111111111_000;
    const code = hotp(Buffer.from('12345678901234567890'), Math.floor(at / 30_000));
    expect(verifyTotp(secret, code, at)).toBe(Math.floor(at / 30_000));
    expect(verifyTotp(secret, code, at + 30_000)).toBeDefined();
    expect(verifyTotp(secret, code, at + 90_000)).toBeUndefined();
    expect(verifyTotp(secret, code, at, Math.floor(at / 30_000))).toBeUndefined();
    expect(verifyTotp(secret, 'abcdef', at)).toBeUndefined();
  });
});

describe.each(DB_KINDS)('two-factor sign-in (%s)', (kind) => {
  let clock = Date.UTC(2026, 10, 27, 12, 0, 0);
  const t = useTestApp(kind, { now: () => clock });
  const call = callAs(t);
  const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url, payload });
  let secret = '';
  let recovery: string[] = [];

  it('enrols with a code from the app and answers recovery codes once', async () => {
    expect((await call('GET', '/api/account/2fa')).json()).toEqual({ enabled: false });
    const setup = (await call('POST', '/api/account/2fa/setup')).json();
    secret = setup.secret;
    expect(setup.uri).toBe(
      `otpauth://totp/Centralino%3Aadmin?secret=${secret}&issuer=Centralino&algorithm=SHA1&digits=6&period=30`,
    );
    // Sessions of the account signed in before (another browser, or someone who knew the password).
    const others = [await login(t.app), await login(t.app)];
    const alive = async (headers: object) =>
      (await t.app.inject({ method: 'GET', url: '/api/login', headers: headers as Record<string, string> })).statusCode;
    expectError(await call('POST', '/api/account/2fa/enable', { code: '000000' }), 400, 'second_factor_failed');
    // A refused code ends nothing.
    for (const headers of others) expect(await alive(headers)).toBe(200);
    const enabled = await call('POST', '/api/account/2fa/enable', { code: await totpOf(secret, clock) });
    expect(enabled.statusCode).toBe(200);
    // Turning it on ends every other session of the account; this one stays signed in.
    for (const headers of others) expect(await alive(headers)).toBe(401);
    expect(await alive(t.headers)).toBe(200);
    recovery = enabled.json().recovery_codes;
    expect(recovery).toHaveLength(10);
    expect(new Set(recovery).size).toBe(10);
    // Stored hashed only.
    const stored = await t.database.db.selectFrom('admin_recovery_codes').select('code_hash').execute();
    expect(stored.map((r) => r.code_hash)).not.toContain(recovery[0]);
    expect((await call('GET', '/api/account/2fa')).json()).toEqual({ enabled: true });
    expect((await call('GET', '/api/admin/accounts')).json()[0].two_factor).toBe(true);
    expectError(await call('POST', '/api/account/2fa/setup'), 409, 'second_factor_enabled');
    // The audit row of the enrolment does not carry the code.
    const audit = (await call('GET', '/api/admin/audit?q=2fa%2Fenable')).json();
    expect(JSON.stringify(audit.rows[0].changes)).toContain('[redacted]');
  });

  it('changes its own password with a code from the app instead of the current password', async () => {
    clock += 60_000;
    const url = '/api/users/admin/password';
    const other = (
      await post('/api/login/code', {
        challenge: (await post('/api/login', { username: 'admin', password: ADMIN_PASSWORD })).json().challenge,
        code: await totpOf(secret, clock),
      })
    ).json();
    expectError(
      await call('POST', url, { password: 'Changed-by-code-1', code: '000000' }),
      403,
      'current_password_wrong',
    );
    clock += 30_000;
    const byCode = await call('POST', url, { password: 'Changed-by-code-1', code: await totpOf(secret, clock) });
    expect(byCode.statusCode, byCode.body).toBe(201);
    // The password change signed the other session out, not this one.
    expect((await t.app.inject({ method: 'GET', url: '/api/login', headers: other })).statusCode).toBe(401);
    expect((await call('GET', '/api/login')).statusCode).toBe(200);
    // Back, with the current password this time.
    const back = await call('POST', url, { password: ADMIN_PASSWORD, current_password: 'Changed-by-code-1' });
    expect(back.statusCode, back.body).toBe(201);
  });

  it('asks for the code after the password; a used code and a wrong one are refused; a recovery code works once', async () => {
    clock += 60_000;
    const first = await post('/api/login', { username: 'admin', password: ADMIN_PASSWORD });
    expect(first.statusCode).toBe(200);
    const { challenge, second_factor, secretkey } = first.json();
    expect(second_factor).toBe(true);
    expect(secretkey).toBeUndefined();
    expectError(await post('/api/login/code', { challenge, code: '123456' }), 401, 'second_factor_failed');
    const code = await totpOf(secret, clock);
    const ok = await post('/api/login/code', { challenge, code });
    expect(ok.statusCode).toBe(200);
    const key = ok.json();
    expect((await t.app.inject({ method: 'GET', url: '/api/login', headers: key })).statusCode).toBe(200);
    // The challenge is spent, and the same code cannot open a second sign-in.
    expectError(await post('/api/login/code', { challenge, code }), 401, 'login_failed');
    const again = (await post('/api/login', { username: 'admin', password: ADMIN_PASSWORD })).json();
    expectError(await post('/api/login/code', { challenge: again.challenge, code }), 401, 'second_factor_failed');
    const byRecovery = await post('/api/login/code', {
      challenge: again.challenge,
      code: recovery[0]?.toUpperCase() ?? '',
    });
    expect(byRecovery.statusCode).toBe(200);
    const third = (await post('/api/login', { username: 'admin', password: ADMIN_PASSWORD })).json();
    expectError(
      await post('/api/login/code', { challenge: third.challenge, code: recovery[0] ?? '' }),
      401,
      'second_factor_failed',
    );
    // A challenge expires.
    clock += 6 * 60_000;
    expectError(
      await post('/api/login/code', { challenge: third.challenge, code: await totpOf(secret, clock) }),
      401,
      'login_failed',
    );
  });

  it('the sign-in throttle covers the second factor', async () => {
    clock += 60 * 60_000;
    const { challenge } = (await post('/api/login', { username: 'admin', password: ADMIN_PASSWORD })).json();
    const codes = [];
    for (let i = 0; i < 6; i++) codes.push((await post('/api/login/code', { challenge, code: '000001' })).statusCode);
    // Wrong codes count like wrong passwords (this account has a few failures from the test above already).
    expect(codes[0]).toBe(401);
    expect(codes.at(-1)).toBe(429);
    // Even the right code waits for the lock to end.
    expect((await post('/api/login/code', { challenge, code: await totpOf(secret, clock) })).statusCode).toBe(429);
    clock += 60 * 60_000;
  });

  it('another administrator resets it; the command line resets it too', async () => {
    // A second administrator signs in without a second factor.
    await call('POST', '/api/admin/accounts', { username: 'ops', password: 'ops-password-1', role: 'admin' });
    const opsLogin = await post('/api/login', { username: 'ops', password: 'ops-password-1' });
    expect(opsLogin.statusCode, opsLogin.body).toBe(200);
    const ops = opsLogin.json();
    const reset = await t.app.inject({ method: 'DELETE', url: '/api/admin/accounts/admin/2fa', headers: ops });
    expect(reset.statusCode).toBe(200);
    expect((await post('/api/login', { username: 'admin', password: ADMIN_PASSWORD })).json().secretkey).toBeTruthy();

    // Enrol again, then reset from the command line (the built CLI when present, else its source through tsx).
    const setup = (await call('POST', '/api/account/2fa/setup')).json();
    await call('POST', '/api/account/2fa/enable', { code: await totpOf(setup.secret, clock) });
    expect((await post('/api/login', { username: 'admin', password: ADMIN_PASSWORD })).json().second_factor).toBe(true);
    const root = path.resolve(import.meta.dirname, '..');
    const out = execFileSync(
      process.execPath,
      ['--import', 'tsx', path.join(root, 'src/cli.ts'), 'reset-2fa', 'Admin'],
      {
        env: { ...process.env, ...t.testDb.env, LOG_LEVEL: 'silent' },
        encoding: 'utf8',
      },
    );
    expect(out).toMatch(/Two-factor sign-in of admin is off/);
    expect((await post('/api/login', { username: 'admin', password: ADMIN_PASSWORD })).json().secretkey).toBeTruthy();
  }, 60_000);
});
