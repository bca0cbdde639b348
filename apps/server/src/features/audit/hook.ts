import { AUTH_KEY_HEADER, AUTH_USER_HEADER } from '@centralino/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod, RouteOptions } from 'fastify';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { Database } from '../../db/schema.ts';
import { decodedPath, isProtectedPath } from '../../plugins/auth.ts';
import { type AuditScope, auditScope, insertAuditRow, installAuditTransactions, scopeRow } from './context.ts';
import { CHECK_ROUTES, OBJECT_READERS, type ObjectRead, type ObjectReader } from './objects.ts';
import { type ChangeSchemas, clean, fieldChanges, fileDigest } from './redact.ts';
import { tapMultipart } from './uploads.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set (with the reason as its value) on a write that is deliberately not audited. */
    auditExempt?: string;
    /** Set (with what it checks) on a POST that only checks or previews: audited only if it changes the database. */
    auditCheck?: string;
    /** How to read the object the write changes, for its before (see objects.ts). */
    auditObject?: ObjectReader;
  }
  interface FastifyRequest {
    audit?: AuditScope;
  }
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

interface RouteLike {
  method: string | string[];
  url: string;
  config?: { public?: boolean; ownAuth?: unknown; changesState?: boolean; auditExempt?: string; auditCheck?: string };
}

/** Whether a route's requests are audited as changes (what accounts.test / audit.test walk). */
export function isAuditedRoute(route: RouteLike): boolean {
  if (!isProtectedPath(route.url) || route.config?.public || route.config?.ownAuth || route.config?.auditExempt) {
    return false;
  }
  const methods = ([] as string[]).concat(route.method);
  return methods.some((m) => !READS.has(m)) || route.config?.changesState === true;
}

/** Why a route only checks (audited only when it does change the database), or undefined. */
export function auditCheckReason(route: RouteLike, method: string): string | undefined {
  return route.config?.auditCheck ?? CHECK_ROUTES[`${method} ${route.url}`];
}

/** A route pattern with its parameter names dropped (`/api/trunks/:id` and `/api/trunks/:tech` are one path). */
const shape = (url: string) => url.replace(/:[^/]+/g, ':');

interface GetRoute {
  url: string;
  changesState: boolean;
  response: z.ZodType | undefined;
}

/** The GET routes and the write bodies of the app, by path shape (filled by onRoute, read per request). */
class RouteIndex {
  readonly gets = new Map<string, GetRoute>();
  readonly bodies = new Map<string, z.ZodType[]>();

  add(route: RouteOptions): void {
    const methods = ([] as string[]).concat(route.method);
    const schema = route.schema as { body?: z.ZodType; response?: Record<string, z.ZodType> } | undefined;
    if (methods.includes('GET')) {
      this.gets.set(shape(route.url), {
        url: route.url,
        changesState: route.config?.changesState === true,
        response: schema?.response?.[200],
      });
    }
    if (schema?.body && methods.some((m) => !READS.has(m))) {
      const list = this.bodies.get(shape(route.url)) ?? [];
      list.push(schema.body);
      this.bodies.set(shape(route.url), list);
    }
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

const squash = (name: string) => name.replace(/_/g, '').toLowerCase();

/** The item of a collection answer named by the parameters: a field of the same name, else one ending in id. */
function findItem(answer: unknown, params: Record<string, string>): unknown {
  const entries = Object.entries(params);
  if (entries.length === 0) return undefined;
  const items = Array.isArray(answer)
    ? answer
    : isRecord(answer)
      ? Object.values(answer).flatMap((v) => (Array.isArray(v) ? v : []))
      : [];
  const matches = (item: unknown) =>
    isRecord(item) &&
    entries.every(([param, value]) => {
      const keys = Object.keys(item);
      const same = keys.filter((k) => squash(k) === squash(param));
      const ids = squash(param).endsWith('id') ? keys.filter((k) => squash(k).endsWith('id')) : [];
      return (same.length > 0 ? same : ids).some((k) => String(item[k]).toLowerCase() === String(value).toLowerCase());
    });
  return items.find(matches);
}

interface Before {
  object: unknown;
  deletes: boolean;
  /** Schemas describing the object (the answer of the GET it came from, writes on the same path). */
  schemas: (z.ZodType | undefined)[];
}

/**
 * The object as the API showed it just before the change, for the field-level before of the audit row. Read
 * through the API itself, as the caller, so it is exactly what the console shows: the route's declared reader;
 * else, for a PUT, PATCH, DELETE or a POST on a path with parameters, GET on the same path (its answer, or the
 * item of it the parameters name when it is a collection), then GET on the collection (the path without its last
 * parameter), the item named by that parameter.
 */
async function readBefore(
  app: FastifyInstance,
  index: RouteIndex,
  request: FastifyRequest,
  routeUrl: string,
  reader: ObjectReader | undefined,
): Promise<Before | undefined> {
  const get = async (url: string): Promise<unknown> => {
    const res = await app.inject({
      method: 'GET',
      url,
      headers: {
        [AUTH_USER_HEADER]: String(request.headers[AUTH_USER_HEADER] ?? ''),
        [AUTH_KEY_HEADER]: String(request.headers[AUTH_KEY_HEADER] ?? ''),
      },
    });
    if (res.statusCode !== 200 || !String(res.headers['content-type']).startsWith('application/json')) {
      return undefined;
    }
    try {
      return res.json();
    } catch {
      return undefined;
    }
  };
  // Parameters as the URL has them (the route's schema may have coerced them to numbers).
  const params = Object.fromEntries(
    Object.entries(isRecord(request.params) ? request.params : {}).map(([k, v]) => [k, String(v)]),
  );
  const writeSchemas = (url: string) => index.bodies.get(shape(url)) ?? [];
  if (reader) {
    const read: ObjectRead | undefined = await reader({ get, params, body: request.body });
    if (!read) return undefined;
    return { object: read.object, deletes: read.deletes === true, schemas: writeSchemas(routeUrl) };
  }
  const hasParams = /\/:/.test(routeUrl);
  if (!['PUT', 'PATCH', 'DELETE'].includes(request.method) && !(request.method === 'POST' && hasParams)) {
    return undefined;
  }
  const concrete = (url: string) =>
    url.replace(/:([A-Za-z_]\w*)/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
  const same = index.gets.get(shape(routeUrl));
  if (same && !same.changesState) {
    const answer = await get(concrete(routeUrl));
    const item = findItem(answer, params);
    if (item !== undefined) return { object: item, deletes: false, schemas: writeSchemas(routeUrl) };
    if (isRecord(answer)) {
      return { object: answer, deletes: false, schemas: [same.response, ...writeSchemas(routeUrl)] };
    }
  }
  const last = /^(.*)\/:([A-Za-z_]\w*)$/.exec(routeUrl);
  const collection = last ? index.gets.get(shape(last[1] ?? '')) : undefined;
  if (last && collection && !collection.changesState) {
    const name = last[2] ?? '';
    const item = findItem(await get(concrete(last[1] ?? '')), { [name]: params[name] ?? '' });
    if (item !== undefined) return { object: item, deletes: false, schemas: writeSchemas(routeUrl) };
  }
  return undefined;
}

/** What the row says changed: the before and after of the fields the body touched, secrets and files hidden. */
function changes(
  request: FastifyRequest,
  before: Before | undefined,
  bodySchema: z.ZodType | undefined,
  multipart: () => Record<string, unknown> | undefined,
): unknown {
  const schemas: ChangeSchemas = { body: bodySchema, object: before?.schemas };
  let body: unknown = request.body;
  if (body === undefined || body === null) body = multipart() ?? body;
  else if (Buffer.isBuffer(body) || (typeof body === 'string' && !bodySchema)) body = fileDigest(body);
  let object = before?.object;
  // An object that has none of the body's fields is not the one the body changes.
  if (isRecord(object) && isRecord(body) && request.method !== 'DELETE' && !before?.deletes) {
    const fields = Object.keys(body);
    if (fields.length > 0 && !fields.some((key) => key in (object as Record<string, unknown>))) object = undefined;
  }
  if (before?.deletes) return { before: clean(object ?? null, [bodySchema, ...(before.schemas ?? [])]), after: null };
  return fieldChanges(object, body, request.method, schemas);
}

/**
 * Audits every successful write through the API. Each audited route's handler runs inside an audit scope
 * (AsyncLocalStorage); the first database change the handler makes — a transaction, or a single statement that
 * installAuditTransactions runs in a transaction of its own — inserts the audit row before it commits, so a change
 * in the database and its row are one. A success that changed nothing in the database (an effect outside it, such
 * as a phone reboot) gets its row just before the answer is sent, unless the route only checks (auditCheck).
 * Register before any route.
 */
export function registerAuditHook(app: FastifyInstance, db: Kysely<Database>, now: () => number): void {
  installAuditTransactions(db, now);
  const index = new RouteIndex();
  app.addHook('onRoute', (route) => {
    index.add(route);
    if (!isAuditedRoute(route)) return;
    const handler = route.handler as RouteHandlerMethod;
    const routeUrl = route.url;
    const bodySchema = (route.schema as { body?: z.ZodType } | undefined)?.body;
    route.handler = async function audited(this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
      const key = `${request.method} ${routeUrl}`;
      const reader = route.config?.auditObject ?? OBJECT_READERS[key];
      // The before is a courtesy of the row: failing to read it never fails the write.
      const before = await readBefore(app, index, request, routeUrl, reader).catch((error: unknown) => {
        request.log.warn({ err: error }, 'audit: the object before the change could not be read');
        return undefined;
      });
      const multipart = tapMultipart(request);
      const path = decodedPath(request);
      const scope: AuditScope = {
        actor: request.admin ?? '',
        address: request.ip,
        method: request.method,
        path,
        object: path.replace(/^\/api\//, ''),
        changes: () => {
          try {
            return changes(request, before, bodySchema, multipart);
          } catch (error) {
            // Never the values (they may hold what failed to be redacted): only that they are missing.
            request.log.error({ err: error }, 'audit: the changes could not be recorded');
            return { before: null, after: null, unrecorded: true };
          }
        },
        written: false,
        writing: false,
        closed: false,
        checkOnly: auditCheckReason(route, request.method) !== undefined,
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
    if (!scope.written && !scope.checkOnly && reply.statusCode < 400) {
      await insertAuditRow(db, { ...scopeRow(scope), status: reply.statusCode }, now());
      scope.written = true;
    }
    return payload;
  });
}
