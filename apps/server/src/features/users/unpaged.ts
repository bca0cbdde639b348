import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { type UserListQuery, userSchema } from '@centralino/contract';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { UsersService } from './service.ts';

/** How many query variants (search, filter, sort) keep a body; the older console asks for one or two. */
const VARIANTS = 4;
/** Same settings as plugins/compress.ts: brotli at quality 4, gzip at 6. */
const BROTLI = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } };
const GZIP = { level: 6 };

export type Encoding = 'br' | 'gzip';

/** Users put through the list schema and JSON between two turns of the event loop (a few milliseconds). */
const SERIALISE_SLICE = 500;
/** How much of a body goes to the socket in one write: a 10 MB write would hold the event loop for its copy. */
const SLICE = 64 * 1024;

/** The bytes as a stream of SLICE-sized pieces, written as the socket takes them. */
export function slices(bytes: Buffer): Readable {
  return Readable.from(
    (function* () {
      for (let at = 0; at < bytes.length; at += SLICE) yield bytes.subarray(at, at + SLICE);
    })(),
    { objectMode: false },
  );
}

/** One variant's answer as it was at `stamp`: the JSON bytes, how many users, and its compressed forms once asked. */
interface Body {
  stamp: string;
  json: Promise<{ bytes: Buffer; total: number }>;
  compressed: Partial<Record<Encoding, Promise<Buffer>>>;
}

/**
 * An order-independent digest of the registered accounts (each device in the list says whether it is registered):
 * a change of registrations makes a new body, a repeat of the same set does not. Linear, no sorting.
 */
export function registeredDigest(accounts: Set<string>): string {
  let sum = 0;
  let mix = 0;
  for (const account of accounts) {
    let h = 0x811c9dc5;
    for (let i = 0; i < account.length; i++) h = Math.imul(h ^ account.charCodeAt(i), 0x01000193);
    sum = (sum + h) | 0;
    mix ^= Math.imul(h, 0x9e3779b1);
  }
  return `${accounts.size}.${sum >>> 0}.${mix >>> 0}`;
}

function compress(bytes: Buffer, encoding: Encoding): Promise<Buffer> {
  // On libuv's thread pool: a 10 MB body never holds up the event loop.
  return new Promise((resolve, reject) => {
    const done = (error: Error | null, result: Buffer) => (error ? reject(error) : resolve(result));
    if (encoding === 'br') zlib.brotliCompress(bytes, BROTLI, done);
    else zlib.gzip(bytes, GZIP, done);
  });
}

/**
 * The unpaged users list (GET /api/users/{arg} without limit, what the older console asks for: every user, about
 * 10 MB at 50,000). Made once per state of the data and kept: its JSON and its brotli and gzip forms, keyed by
 * `users_version` and the `devices` counter (moved by triggers in every writer's transaction, whoever the writer,
 * another process included) and by the registered accounts. The stamp is read before the body is made, so a write
 * landing while it is made moves the stamp past it and the next request makes it again. Making it reads the users a
 * chunk at a time (UsersService.allPages) and passes each through the list schema, so no field outside it, and so
 * no secret, reaches the answer; concurrent requests for one stamp share one making.
 */
export class UnpagedUsers {
  private readonly bodies = new Map<string, Body>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly users: UsersService,
  ) {}

  private async stamp(): Promise<string> {
    const [counters, registered] = await Promise.all([
      sql<{ users: number | string | null; devices: number | string | null }>`select
          (select n from users_version where id = 1) as users,
          (select n from table_versions where name = 'devices') as devices`.execute(this.db),
      this.users.registeredAccounts(),
    ]);
    const row = counters.rows[0];
    return `${row?.users ?? 0}.${row?.devices ?? 0}.${registeredDigest(registered)}`;
  }

  private make(query: UserListQuery): Promise<{ bytes: Buffer; total: number }> {
    return (async () => {
      const parts: Buffer[] = [Buffer.from('[')];
      let total = 0;
      for await (const page of this.users.allPages(query)) {
        for (let at = 0; at < page.length; at += SERIALISE_SLICE) {
          // SQLite answers synchronously, so without this the whole making would be one turn of the event loop
          // (about a second at 50,000 users): other requests get their turn between the reads and each slice.
          await new Promise((resolve) => setImmediate(resolve));
          let text = '';
          for (const user of page.slice(at, at + SERIALISE_SLICE)) {
            text += (total === 0 ? '' : ',') + JSON.stringify(userSchema.parse(user));
            total++;
          }
          parts.push(Buffer.from(text));
        }
      }
      parts.push(Buffer.from(']'));
      return { bytes: Buffer.concat(parts), total };
    })();
  }

  /** The answer for the query (JSON, or compressed as asked) and how many users it lists. */
  async answer(query: UserListQuery, encoding: Encoding | undefined): Promise<{ body: Buffer; total: number }> {
    const key = JSON.stringify([query.search ?? '', query.filter ?? '', query.sort ?? '']);
    const stamp = await this.stamp();
    let body = this.bodies.get(key);
    if (body?.stamp !== stamp) {
      const made: Body = { stamp, json: this.make(query), compressed: {} };
      body = made;
      this.bodies.delete(key);
      this.bodies.set(key, made);
      // The oldest variant goes first; a failed making is not kept.
      while (this.bodies.size > VARIANTS) this.bodies.delete(this.bodies.keys().next().value as string);
      made.json.catch(() => {
        if (this.bodies.get(key) === made) this.bodies.delete(key);
      });
    }
    const { bytes, total } = await body.json;
    if (!encoding) return { body: bytes, total };
    const kept = body;
    let compressed = kept.compressed[encoding];
    if (!compressed) {
      compressed = compress(bytes, encoding);
      kept.compressed[encoding] = compressed;
      compressed.catch(() => {
        if (kept.compressed[encoding] === compressed) delete kept.compressed[encoding];
      });
    }
    return { body: await compressed, total };
  }
}
