import { type AccountRole, AUTH_KEY_HEADER, AUTH_USER_HEADER } from '@centralino/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthService } from '../features/auth/service.ts';
import { hideCredentials } from './credentials.ts';
import { sendError } from './errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set on the few routes that answer without authentication. */
    public?: boolean;
    /**
     * Set on the routes authenticated by a credential of their own instead of a sign-in key (the voicemail
     * mail command's loopback call and its token): throws the refusal (an AppError) when the request lacks it.
     */
    ownAuth?: (request: FastifyRequest) => Promise<void>;
    /**
     * A write a read-only account may still make because it touches only its own account (its password, its
     * second factor). Everything else that is not GET/HEAD answers 403 `read_only` to such an account.
     */
    ownAccount?: boolean;
    /** A GET that changes state: refused to read-only accounts like a write (and audited). */
    changesState?: boolean;
    /**
     * A route whose purpose is to hand out a credential (a backup, a password, a device's SIP secret): the
     * reason, for the route walk. Administrators only: a read-only account gets 403 `read_only`.
     */
    credentials?: string;
  }
  interface FastifyRequest {
    /** The signed-in administrator, set by the auth hook on protected routes. */
    admin?: string;
    /** The signed-in account's role. */
    role?: AccountRole;
  }
}

// The API documentation page itself is public; the document it loads (/api/docs/json) is not.
const PUBLIC_DOCS_ASSET = /^\/api\/docs(\/static\/.*|\/?|\/index\.html)?$/;

function headerValue(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The request path without query, percent-decoded as the router decodes it (/%61pi/x is /api/x). */
export function decodedPath(request: FastifyRequest): string {
  const raw = request.url.split('?')[0] ?? '';
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** The path the router matched: the route's pattern, or the decoded URL when no route matched. */
function routedPath(request: FastifyRequest): string {
  return request.routeOptions.url ?? decodedPath(request);
}

/**
 * Paths that need a sign-in key: the API, and the original product's paths kept for existing clients and
 * scripts (the provisioning engine API at /tancredi/api/v1, the MAC vendor map under /freepbx/rest).
 */
export const PROTECTED_PREFIXES = ['/api', '/tancredi/api', '/freepbx/rest'] as const;

export function isProtectedPath(path: string): boolean {
  return PROTECTED_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

export function isPublicRequest(request: FastifyRequest): boolean {
  if (request.routeOptions.config?.public) return true;
  // Judge the decoded path the router saw, not the raw URL: /%61pi/... reaches the /api/... routes too.
  const path = routedPath(request);
  if (!isProtectedPath(path)) return true;
  return PUBLIC_DOCS_ASSET.test(path) && request.method === 'GET';
}

/** Every request to a protected path must carry a valid User + Secretkey pair unless its route is public. */
export function registerAuth(app: FastifyInstance, auth: AuthService) {
  app.decorateRequest('admin', undefined);
  app.addHook('onRequest', async (request, reply) => {
    if (request.method === 'OPTIONS' || isPublicRequest(request)) return;
    const ownAuth = request.routeOptions.config?.ownAuth;
    // Such a route never takes a sign-in key: its own credential or nothing.
    if (ownAuth) return ownAuth(request);
    const signedIn = await auth.authenticate(
      headerValue(request, AUTH_USER_HEADER),
      headerValue(request, AUTH_KEY_HEADER),
    );
    if (!signedIn) return sendError(request, reply, 401, 'unauthorized');
    request.admin = signedIn.username;
    request.role = signedIn.role;
    // The one place the read-only role is enforced, for every route present and future.
    if (signedIn.role !== 'admin' && isWrite(request)) return sendError(request, reply, 403, 'read_only');
    if (signedIn.role !== 'admin' && request.routeOptions.config?.credentials) {
      return sendError(request, reply, 403, 'read_only', (lang) => credentialRefusal[lang]);
    }
  });
  // A read-only account sees every setting but no credential: whatever an answer carries under a credential's
  // name (a password, a PIN, a phone's tokens) is blanked for it, so a screen shows the field empty.
  app.addHook('preSerialization', async (request, _reply, payload) =>
    request.role !== undefined && request.role !== 'admin' ? hideCredentials(payload) : payload,
  );
}

/** Why a read-only account may not open a credential, in the reader's language. */
export const credentialRefusal = {
  en: 'Passwords, secrets and backups are shown only to administrators: a read-only account sees the settings without them.',
  it: 'Password, segreti e backup sono visibili solo agli amministratori: un account in sola lettura vede le impostazioni senza di essi.',
} as const;

/** Whether the request's account may read credentials (an administrator). */
export function mayReadCredentials(request: FastifyRequest): boolean {
  return request.role === 'admin';
}

/** A request that may change state: any method but GET/HEAD/OPTIONS, or a GET its route marks as changing state. */
export function isWrite(request: FastifyRequest): boolean {
  const config = request.routeOptions.config;
  if (config?.ownAccount) return false;
  if (request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS') {
    return config?.changesState === true;
  }
  return true;
}

export function secretKeyOf(request: FastifyRequest): string {
  return headerValue(request, AUTH_KEY_HEADER) ?? '';
}
