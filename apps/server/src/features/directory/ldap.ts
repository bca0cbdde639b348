// Client for an external LDAP server or Active Directory: connection test, user import and lookup.
// Every call opens its own short-lived connection; nothing is pooled.
import net from 'node:net';
import type tls from 'node:tls';
import type { DirectoryUser, LdapSettings, LdapTestResult } from '@centralino/contract';
import {
  AndFilter,
  Client,
  type Entry,
  EqualityFilter,
  type Filter,
  FilterParser,
  InvalidCredentialsError,
  ResultCodeError,
  SizeLimitExceededError,
} from 'ldapts';

export type LdapFailureCode =
  | 'directory_unreachable'
  | 'directory_bind_failed'
  | 'directory_tls_failed'
  | 'directory_search_failed';

export class LdapFailure extends Error {
  constructor(
    readonly code: LdapFailureCode,
    message: string,
    options?: { cause?: unknown; italian?: string },
  ) {
    super(message, options);
    this.name = 'LdapFailure';
    this.italian = options?.italian;
  }
  /** The message in Italian, where one exists. */
  readonly italian: string | undefined;
}

/** Connect and per-operation timeout: an unreachable or stuck server must fail fast, not hang a request. */
const TIMEOUT_MS = 5000;
/** Below Active Directory's MaxPageSize (1000); the server's size limit then only bounds a page. */
const PAGE_SIZE = 200;
const SAMPLE_SIZE = 5;

type Step = 'connect' | 'starttls' | 'bind' | 'search';

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
  'EPIPE',
]);

function isTlsError(code: string, message: string): boolean {
  return (
    /^(ERR_TLS_|ERR_SSL_)/.test(code) ||
    /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER|HOSTNAME_MISMATCH/.test(code) ||
    /certificate|SSL routines|TLS/i.test(message)
  );
}

function toFailure(error: unknown, step: Step, settings: LdapSettings): LdapFailure {
  if (error instanceof LdapFailure) return error;
  const code = String((error as { code?: unknown } | null)?.code ?? '');
  // ldapts result errors often carry no server text, only "Code: 0x31"; the class name says more.
  const reason =
    error instanceof ResultCodeError
      ? `${error.name} (${error.message.trim()})`
      : error instanceof Error
        ? error.message || error.name
        : String(error);
  const where = `${settings.host}:${settings.port}`;
  const fail = (failure: LdapFailureCode, message: string) =>
    new LdapFailure(failure, `${message}: ${reason}`, { cause: error });
  // Whatever the socket said (refused, reset, timed out, no such host): the same words, so the test of
  // a directory cannot be used to tell open from closed ports on other hosts.
  const unreachable = () =>
    new LdapFailure('directory_unreachable', `Cannot reach the directory at ${where}`, {
      cause: error,
      italian: `Impossibile raggiungere la directory su ${where}`,
    });

  if (error instanceof InvalidCredentialsError) {
    return fail('directory_bind_failed', `Bind as "${settings.bindDn}" refused`);
  }
  if (error instanceof ResultCodeError) {
    if (step === 'starttls') return fail('directory_tls_failed', `${where} refused StartTLS`);
    if (step === 'bind') return fail('directory_bind_failed', `Bind as "${settings.bindDn}" refused`);
    if (error instanceof SizeLimitExceededError) {
      // A partial list would make an import drop users, so this is an error, not a short result.
      return fail('directory_search_failed', 'The server caps paged searches below the number of users');
    }
    return fail('directory_search_failed', `Search under "${settings.baseDn}" failed`);
  }
  if (isTlsError(code, reason)) return fail('directory_tls_failed', `TLS with ${where} failed`);
  // Socket errors keep their code only while connecting: a reset then means the server dropped the handshake.
  if (code === 'ECONNRESET' && settings.security !== 'none') return unreachable();
  if (NETWORK_CODES.has(code) || /time(d)? ?out|socket error|connection closed/i.test(reason)) {
    return unreachable();
  }
  if (step === 'starttls') return fail('directory_tls_failed', `TLS with ${where} failed`);
  if (step === 'search') return fail('directory_search_failed', `Search under "${settings.baseDn}" failed`);
  return unreachable();
}

/** The filter is typed by an administrator: parse it up front so a typo is a clear error, not a crash. */
function parseUserFilter(settings: LdapSettings): Filter {
  try {
    return FilterParser.parseString(settings.userFilter);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new LdapFailure('directory_search_failed', `The user filter is not a valid LDAP filter: ${reason}`, {
      cause: error,
    });
  }
}

async function withDirectory<T>(settings: LdapSettings, run: (client: Client, userFilter: Filter) => Promise<T>) {
  const userFilter = parseUserFilter(settings);
  const host = net.isIPv6(settings.host) ? `[${settings.host}]` : settings.host;
  const tlsOptions: tls.ConnectionOptions = {
    ...(settings.allowInvalidCertificate ? { rejectUnauthorized: false } : {}),
    // StartTLS wraps an existing socket, so the name to verify the certificate against must be given.
    ...(settings.security === 'starttls' ? { host: settings.host } : {}),
    ...(settings.security === 'starttls' && !net.isIP(settings.host) ? { servername: settings.host } : {}),
  };
  let step: Step = 'connect';
  let client: Client | undefined;
  try {
    client = new Client({
      url: `${settings.security === 'ldaps' ? 'ldaps' : 'ldap'}://${host}:${settings.port}`,
      connectTimeout: TIMEOUT_MS,
      timeout: TIMEOUT_MS,
      // ldapts speaks TLS from the first byte whenever tlsOptions has a value, even on ldap://.
      tlsOptions: settings.security === 'ldaps' ? tlsOptions : undefined,
    });
    if (settings.security === 'starttls') {
      step = 'starttls';
      await client.startTLS(tlsOptions);
    }
    if (settings.bindDn) {
      step = 'bind';
      await client.bind(settings.bindDn, settings.bindPassword);
    }
    step = 'search';
    return await run(client, userFilter);
  } catch (error) {
    throw toFailure(error, step, settings);
  } finally {
    // Also after a failed bind: an open socket keeps Node from exiting.
    await client?.unbind().catch(() => {});
  }
}

/** Attribute names are case-insensitive, and servers answer with their own spelling (givenName vs givenname). */
function firstValue(entry: Entry, attribute: string): string | null {
  if (!attribute) return null;
  const wanted = attribute.toLowerCase();
  const key = Object.keys(entry).find((name) => name.toLowerCase() === wanted);
  const raw = key === undefined ? undefined : entry[key];
  const first = Array.isArray(raw) ? raw[0] : raw;
  if (first === undefined) return null;
  const text = (Buffer.isBuffer(first) ? first.toString('utf8') : first).trim();
  return text === '' ? null : text;
}

function toUser(entry: Entry, settings: LdapSettings): DirectoryUser | null {
  const { attributes } = settings;
  const username = firstValue(entry, attributes.username)?.toLowerCase();
  if (!username) return null;
  return {
    username,
    displayname: firstValue(entry, attributes.displayname) ?? username,
    fname: firstValue(entry, attributes.fname),
    lname: firstValue(entry, attributes.lname),
    email: firstValue(entry, attributes.email),
  };
}

function requestedAttributes(settings: LdapSettings): string[] {
  return [...new Set(Object.values(settings.attributes).filter(Boolean))];
}

async function searchUsers(client: Client, settings: LdapSettings, userFilter: Filter) {
  const { searchEntries } = await client.search(settings.baseDn, {
    scope: 'sub',
    filter: userFilter,
    attributes: requestedAttributes(settings),
    paged: { pageSize: PAGE_SIZE },
  });
  const users: DirectoryUser[] = [];
  let skipped = 0;
  for (const entry of searchEntries) {
    const user = toUser(entry, settings);
    if (user) users.push(user);
    else skipped++;
  }
  return { users, skipped };
}

async function searchUser(client: Client, settings: LdapSettings, userFilter: Filter, username: string) {
  const name = username.trim();
  if (!name) return null;
  // The name goes into the request as a value, never into filter text, so `*)(uid=*` matches nothing.
  const filter = new AndFilter({
    filters: [userFilter, new EqualityFilter({ attribute: settings.attributes.username, value: name })],
  });
  const { searchEntries } = await client.search(settings.baseDn, {
    scope: 'sub',
    filter,
    attributes: requestedAttributes(settings),
    sizeLimit: 2,
  });
  for (const entry of searchEntries) {
    const user = toUser(entry, settings);
    if (user) return user;
  }
  return null;
}

/** Connects, binds, counts the users the filter selects and shows a few; with `username`, also looks
 * that user up so the administrator can check the attribute mapping. */
export async function testLdap(settings: LdapSettings, username?: string): Promise<LdapTestResult> {
  return withDirectory(settings, async (client, userFilter) => {
    const { users, skipped } = await searchUsers(client, settings, userFilter);
    const result: LdapTestResult = { users: users.length, skipped, sample: users.slice(0, SAMPLE_SIZE) };
    if (username !== undefined) result.found = await searchUser(client, settings, userFilter, username);
    return result;
  });
}

/** Every user the filter selects; entries without a username are counted in `skipped`, not imported. */
export async function readLdapUsers(settings: LdapSettings): Promise<{ users: DirectoryUser[]; skipped: number }> {
  return withDirectory(settings, (client, userFilter) => searchUsers(client, settings, userFilter));
}

/** One user by username (matched by the server, so case-insensitively for uid and sAMAccountName). */
export async function findLdapUser(settings: LdapSettings, username: string): Promise<DirectoryUser | null> {
  return withDirectory(settings, (client, userFilter) => searchUser(client, settings, userFilter, username));
}
