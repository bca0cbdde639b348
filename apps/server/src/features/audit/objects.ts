/**
 * What the audit needs to know about particular routes, declared in one place (a route may also declare it in its
 * own config: `auditCheck`, `auditObject`).
 *
 * - Checks: POSTs that only test, preview or convert. They are audited only if they do change the database (then
 *   their row is written with that change, as for any route); a check that writes nothing leaves no row.
 * - Object readers: how to read the object a write changes when neither GET on the write's own path nor GET on
 *   its collection (the path without its last parameter, the item found by that parameter) finds it — the object
 *   is named in the body, or it is a delete sent as a POST.
 */

/** `METHOD /url` → why the route is a check. */
export const CHECK_ROUTES: Readonly<Record<string, string>> = {
  'POST /api/dbconn/test': 'tests a customer-card database connection',
  'POST /api/configuration/directory/test': 'binds to the directory server and counts its users',
  'POST /api/phonebook/test': 'tests a phonebook source',
  'POST /api/phonebook/getcolumns': 'reads the column names of a phonebook source',
  'POST /api/cti/sources/test': "fetches a streaming source's snapshot",
  'POST /api/bulk/preview': 'counts what a bulk edit would change',
  'POST /api/bulk/settings': 'reads the settings of the extensions sent in the body',
  'POST /api/custcard/preview': 'renders a customer card',
  'POST /api/cti/customer_card/template/convert': 'converts a template to the current syntax and answers it',
  'POST /api/csv/csvimport/preview': 'answers what an import of the file would do',
  'POST /api/provisioning/connectivitycheck': 'checks that phones could reach an address',
};

export interface ObjectReadContext {
  /** GET through the API as the caller: the JSON answer, or undefined when it is not a 200 JSON answer. */
  get(url: string): Promise<unknown>;
  params: Record<string, string>;
  body: unknown;
}

export interface ObjectRead {
  /** The object as the API showed it before the change. */
  object: unknown;
  /** The write removes the object (a delete sent as a POST): the row keeps the whole object as its before. */
  deletes?: boolean;
}

export type ObjectReader = (context: ObjectReadContext) => Promise<ObjectRead | undefined>;

const record = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

async function inboundRoute(context: ObjectReadContext, extension: unknown, cidnum: unknown): Promise<unknown> {
  const routes = record(await context.get('/api/inboundroutes')).routes;
  if (!Array.isArray(routes)) return undefined;
  const cid = typeof cidnum === 'string' ? cidnum : '';
  return routes.find((r) => record(r).extension === extension && record(r).cidnum === cid);
}

/** `METHOD /url` → how to read its object. */
export const OBJECT_READERS: Readonly<Record<string, ObjectReader>> = {
  'PUT /api/inboundroutes': async (context) => {
    const old = record(record(context.body).old);
    const object = await inboundRoute(context, old.extension, old.cidnum);
    return object === undefined ? undefined : { object };
  },
  'POST /api/inboundroutes/delete': async (context) => {
    const body = record(context.body);
    const object = await inboundRoute(context, body.extension, body.cid);
    return object === undefined ? undefined : { object, deletes: true };
  },
  'POST /api/mainextensions': async (context) => {
    const username = record(context.body).username;
    if (typeof username !== 'string') return undefined;
    const list = await context.get(`/api/users/false?limit=500&search=${encodeURIComponent(username)}`);
    const user = Array.isArray(list) ? list.find((u) => record(u).username === username) : undefined;
    if (user === undefined) return undefined;
    // The body names the main extension `extension`; the user shows it as default_extension.
    return { object: { ...record(user), extension: record(user).default_extension } };
  },
  'DELETE /api/outboundroutes/:routeId/trunks/:trunkId': async (context) => {
    const list = await context.get('/api/outboundroutes');
    const route = Array.isArray(list)
      ? list.find((r) => String(record(r).route_id) === context.params.routeId)
      : undefined;
    const trunks = record(route).trunks;
    const trunk = Array.isArray(trunks)
      ? trunks.find((k) => String(record(k).trunkid) === context.params.trunkId)
      : undefined;
    // What goes is the trunk's place in the route.
    return trunk === undefined
      ? undefined
      : { object: { route_id: record(route).route_id, route: record(route).name, ...record(trunk) }, deletes: true };
  },
  'POST /api/cti/paramurl/delete': async (context) => {
    const url = record(context.body).url;
    const list = await context.get('/api/cti/paramurls');
    const object = Array.isArray(list) ? list.find((u) => record(u).url === url) : undefined;
    return object === undefined ? undefined : { object, deletes: true };
  },
};
