import { AUTH_KEY_HEADER, AUTH_USER_HEADER } from '@centralino/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { decodedPath, isProtectedPath } from '../../plugins/auth.ts';
import { type AuditScope, auditScope, insertAuditRow, installAuditTransactions, scopeRow } from './context.ts';
import { fieldChanges } from './redact.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set (with the reason as its value) on a write that is deliberately not audited. */
    auditExempt?: string;
  }
  interface FastifyRequest {
    audit?: AuditScope;
  }
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Whether a route's requests are audited as changes (what accounts.test / audit.test walk). */
export function isAuditedRoute(route: {
  method: string | string[];
  url: string;
  config?: { public?: boolean; ownAuth?: unknown; changesState?: boolean; auditExempt?: string };
}): boolean {
  if (!isProtectedPath(route.url) || route.config?.public || route.config?.ownAuth || route.config?.auditExempt) {
    return false;
  }
  const methods = ([] as string[]).concat(route.method);
  return methods.some((m) => !READS.has(m)) || route.config?.changesState === true;
}

/**
 * The object as the API showed it just before the change (PUT/PATCH/DELETE on a path that also answers GET), for
 * the field-level before of the audit row. Read through the API itself, as the caller, so it is exactly what the
 * console shows.
 */
async function readBefore(app: FastifyInstance, request: FastifyRequest, routeUrl: string): Promise<unknown> {
  if (!['PUT', 'PATCH', 'DELETE'].includes(request.method)) return undefined;
  if (!app.hasRoute({ method: 'GET', url: routeUrl })) return undefined;
  const res = await app.inject({
    method: 'GET',
    url: request.url,
    headers: {
      [AUTH_USER_HEADER]: String(request.headers[AUTH_USER_HEADER] ?? ''),
      [AUTH_KEY_HEADER]: String(request.headers[AUTH_KEY_HEADER] ?? ''),
    },
  });
  if (res.statusCode !== 200 || !String(res.headers['content-type']).startsWith('application/json')) return undefined;
  try {
    return res.json();
  } catch {
    return undefined;
  }
}

/**
 * Audits every successful write through the API. Each audited route's handler runs inside an audit scope
 * (AsyncLocalStorage); the first database change the handler makes — a transaction, or a single statement that
 * installAuditTransactions runs in a transaction of its own — inserts the audit row before it commits, so a change
 * in the database and its row are one. A success that changed nothing in the database (an effect outside it, such
 * as a phone reboot) gets its row just before the answer is sent. Register before any route.
 */
export function registerAuditHook(app: FastifyInstance, db: Kysely<Database>, now: () => number): void {
  installAuditTransactions(db, now);
  app.addHook('onRoute', (route) => {
    if (!isAuditedRoute(route)) return;
    const handler = route.handler as RouteHandlerMethod;
    const routeUrl = route.url;
    route.handler = async function audited(this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
      const before = await readBefore(app, request, routeUrl);
      const path = decodedPath(request);
      const scope: AuditScope = {
        actor: request.admin ?? '',
        address: request.ip,
        method: request.method,
        path,
        object: path.replace(/^\/api\//, ''),
        changes: () => fieldChanges(before, request.body, request.method),
        written: false,
        writing: false,
        closed: false,
        status: () => (reply.statusCode >= 400 ? 200 : reply.statusCode),
      };
      request.audit = scope;
      return auditScope.run(scope, () => handler.call(this, request, reply));
    } as typeof route.handler;
  });
  app.addHook('onSend', async (request, reply, payload) => {
    const scope = request.audit;
    if (!scope || scope.closed) return payload;
    scope.closed = true;
    if (!scope.written && reply.statusCode < 400) {
      await insertAuditRow(db, { ...scopeRow(scope), status: reply.statusCode }, now());
      scope.written = true;
    }
    return payload;
  });
}
