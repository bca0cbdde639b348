import {
  ADMIN_PASSWORD_MIN_LENGTH,
  errorBodySchema,
  loginChallengeSchema,
  loginRequestSchema,
  loginResponseSchema,
  ownPasswordChangeSchema,
  pickUiLanguage,
  recoveryCodesSchema,
  secondFactorRequestSchema,
  sessionInfoSchema,
  twoFactorEnableSchema,
  twoFactorSetupSchema,
  twoFactorStatusSchema,
  type UiLanguage,
} from '@centralino/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../errors.ts';
import { secretKeyOf } from '../../plugins/auth.ts';
import type { AuditService } from '../audit/service.ts';
import type { AuthService } from './service.ts';

/** When a locked account may try again: in how many seconds/minutes, and the UTC time of day. */
function lockedDetail(retryAt: number, now: number): (lang: UiLanguage) => string {
  const seconds = Math.max(1, Math.ceil((retryAt - now) / 1000));
  const minutes = Math.ceil(seconds / 60);
  const at = new Date(retryAt).toISOString().slice(11, 16);
  return (lang) => {
    if (lang === 'it') {
      const wait = seconds < 120 ? `${seconds} secondi` : `${minutes} minuti`;
      return `Troppi tentativi di accesso non riusciti con questo nome utente: gli accessi sono sospesi. Riprova tra ${wait} (alle ${at} UTC).`;
    }
    const wait = seconds < 120 ? `${seconds} seconds` : `${minutes} minutes`;
    return `Too many failed sign-ins with this user name: sign-ins are paused. Try again in ${wait} (at ${at} UTC).`;
  };
}

const tooShort: Record<UiLanguage, string> = {
  en: `The administrator password must be at least ${ADMIN_PASSWORD_MIN_LENGTH} characters long.`,
  it: `La password dell'amministratore deve contenere almeno ${ADMIN_PASSWORD_MIN_LENGTH} caratteri.`,
};

export const authRoutes =
  (
    auth: AuthService,
    loginRateLimit: number,
    now: () => number = Date.now,
    audit?: AuditService,
  ): FastifyPluginAsyncZod =>
  async (app) => {
    /** Sign-ins, refused sign-ins and sign-outs go to the audit log (a typed name only when it is an account). */
    const event = async (request: FastifyRequest, action: string, actor: string) =>
      audit?.record({
        actor,
        address: request.ip,
        action,
        method: request.method,
        path: request.url.split('?')[0] ?? '',
        object: `session/${actor}`,
        status: action === 'login_failed' ? 401 : 200,
        changes: null,
      });
    const typedName = async (username: string, account: string) =>
      (await auth.accountExists(username)) ? username.trim().toLowerCase() : `#${account}`;
    // The decoy hash exists before the first request, so a failed sign-in always costs one hash.
    app.addHook('onReady', () => auth.warmUp());

    app.post(
      '/api/login',
      {
        config: { public: true, rateLimit: { max: loginRateLimit, timeWindow: 60_000 } },
        schema: {
          tags: ['session'],
          summary: 'Sign in: checks the password and issues a secret key',
          body: loginRequestSchema,
          response: {
            200: z.union([loginResponseSchema, loginChallengeSchema]),
            401: errorBodySchema,
            429: errorBodySchema,
          },
        },
      },
      async (request, reply) => {
        const result = await auth.login(request.body.username, request.body.password);
        // Logs name the typed user name by a hash only: it may be a password typed in the wrong field.
        if (!result.ok && result.reason === 'locked') {
          request.log.warn(
            { account: result.account, retryAt: new Date(result.retryAt).toISOString(), refusals: auth.lockedRefusals },
            'login refused: account throttled',
          );
          const current = now();
          await event(request, 'login_failed', await typedName(request.body.username, result.account));
          reply.header('retry-after', String(Math.max(1, Math.ceil((result.retryAt - current) / 1000))));
          throw new AppError(429, 'login_locked', lockedDetail(result.retryAt, current));
        }
        if (result.ok === 'challenge')
          return { user: result.user, second_factor: true as const, challenge: result.challenge };
        if (!result.ok) {
          request.log.warn({ account: result.account }, 'login failed');
          await event(request, 'login_failed', await typedName(request.body.username, result.account));
          throw new AppError(401, 'login_failed');
        }
        request.log.info({ username: result.user }, 'login');
        await event(request, 'login', result.user);
        return { user: result.user, secretkey: result.secretkey };
      },
    );

    app.post(
      '/api/login/code',
      {
        // Same per-address limit as the password step; the per-account throttle counts both steps.
        config: { public: true, rateLimit: { max: loginRateLimit, timeWindow: 60_000 } },
        schema: {
          tags: ['session'],
          summary: 'Second sign-in step: a TOTP code or a recovery code for the pending sign-in',
          body: secondFactorRequestSchema,
          response: { 200: loginResponseSchema, 401: errorBodySchema, 429: errorBodySchema },
        },
      },
      async (request, reply) => {
        const result = await auth.secondFactor(request.body.challenge, request.body.code);
        if (result.ok === true) {
          await event(request, 'login', result.user);
          return { user: result.user, secretkey: result.secretkey };
        }
        if (result.ok === false && result.reason === 'locked') {
          const current = now();
          reply.header('retry-after', String(Math.max(1, Math.ceil((result.retryAt - current) / 1000))));
          throw new AppError(429, 'login_locked', lockedDetail(result.retryAt, current));
        }
        if (result.ok === false && result.reason === 'code') {
          await event(request, 'login_failed', result.user);
          throw new AppError(401, 'second_factor_failed');
        }
        throw new AppError(401, 'login_failed');
      },
    );

    app.get(
      '/api/account/2fa',
      {
        schema: {
          tags: ['session'],
          summary: 'Whether the signed-in account has a second factor',
          response: { 200: twoFactorStatusSchema, 401: errorBodySchema },
        },
      },
      async (request) => ({ enabled: await auth.twoFactor.enabled(request.admin ?? '') }),
    );

    app.post(
      '/api/account/2fa/setup',
      {
        config: { ownAccount: true },
        schema: {
          tags: ['session'],
          summary: 'Starts two-factor enrolment of the signed-in account: a new TOTP secret and its otpauth URI',
          response: { 200: twoFactorSetupSchema, 401: errorBodySchema, 409: errorBodySchema },
        },
      },
      (request) => auth.twoFactor.setup(request.admin ?? ''),
    );

    app.post(
      '/api/account/2fa/enable',
      {
        config: { ownAccount: true },
        schema: {
          tags: ['session'],
          summary:
            'Confirms enrolment with a code from the app; answers the recovery codes, shown once. Signs out every other session of the account',
          body: twoFactorEnableSchema,
          response: { 200: recoveryCodesSchema, 400: errorBodySchema, 401: errorBodySchema, 409: errorBodySchema },
        },
      },
      async (request) => ({
        recovery_codes: await auth.enableTwoFactor(request.admin ?? '', request.body.code, secretKeyOf(request)),
      }),
    );

    app.get(
      '/api/login',
      {
        schema: {
          tags: ['session'],
          summary: 'Checks the User and Secretkey headers (automatic login)',
          response: { 200: sessionInfoSchema, 401: errorBodySchema },
        },
      },
      async (request) => ({
        success: true as const,
        user: request.admin ?? '',
        role: request.role ?? 'readonly',
        listen_recordings: await auth.mayListen(request.admin ?? '', request.role),
      }),
    );

    // The users feature registers POST /api/users/:username/password; this static path wins for admin.
    app.post(
      '/api/users/admin/password',
      {
        // Every account changes its own password here, read-only ones included.
        config: { ownAccount: true },
        schema: {
          tags: ['session'],
          summary:
            "Changes the signed-in account's password, given its current password (or a second-factor code); signs out every other session of that account",
          body: ownPasswordChangeSchema,
          response: {
            201: z.object({ success: z.literal(true) }),
            400: errorBodySchema,
            401: errorBodySchema,
            403: errorBodySchema,
            429: errorBodySchema,
          },
        },
      },
      async (request, reply) => {
        const { password } = request.body;
        if ([...password].length < ADMIN_PASSWORD_MIN_LENGTH) {
          const detail = tooShort[pickUiLanguage(request.headers['accept-language'])];
          throw new AppError(400, 'validation', detail, { password: detail });
        }
        const admin = request.admin ?? '';
        const owner = await auth.confirmOwner(admin, request.body);
        if (owner.ok === false && owner.reason === 'missing') {
          throw new AppError(400, 'current_password_required', undefined, (lang) => ({
            current_password: lang === 'it' ? 'Inserisci la password attuale' : 'Type your current password',
          }));
        }
        if (owner.ok === false && owner.reason === 'locked') {
          request.log.warn({ account: owner.account }, 'own password change refused: account throttled');
          const current = now();
          reply.header('retry-after', String(Math.max(1, Math.ceil((owner.retryAt - current) / 1000))));
          throw new AppError(429, 'login_locked', lockedDetail(owner.retryAt, current));
        }
        if (owner.ok === false) {
          request.log.warn({ account: owner.account }, 'own password change refused: wrong current password');
          throw new AppError(403, 'current_password_wrong', undefined, (lang) => ({
            current_password:
              lang === 'it' ? 'La password attuale non è corretta' : 'The current password is not right',
          }));
        }
        await auth.changePassword(admin, password, secretKeyOf(request));
        request.log.info({ username: admin }, 'administrator password changed');
        return reply.code(201).send({ success: true as const });
      },
    );

    app.get(
      '/api/logout',
      {
        schema: {
          tags: ['session'],
          summary: 'Revokes the secret key sent in the headers',
          response: { 200: z.object({ success: z.literal(true) }), 401: errorBodySchema },
        },
      },
      async (request) => {
        await auth.logout(secretKeyOf(request));
        await event(request, 'logout', request.admin ?? '');
        return { success: true as const };
      },
    );
  };
