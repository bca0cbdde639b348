import { parkingSlots } from '@centralino/contract';
import { type Kysely, PostgresAdapter, sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';

/**
 * Everything in the PBX that holds a number of the internal numbering plan: a user's main extension,
 * a device's number (N or 9xN), a gateway FXS port's device number, and a trunk's channel
 * name (which names PJSIP sections, like device numbers do). A gateway port's trunk number is only a
 * prefix dialled through that trunk, never an endpoint or an extension, so it takes no number here. Feature codes are the
 * rules' business (rules.ts). A call queue, a ring group and a conference room hold their numbers like an extension;
 * a parking lot holds its number and every one of its slots.
 */
export type HolderKind = 'user' | 'device' | 'fxs_port' | 'trunk' | 'queue' | 'ringgroup' | 'conference' | 'parking';

export interface NumberHolder {
  number: string;
  kind: HolderKind;
  /** The user the number belongs to (their main extension, device or linked FXS port). */
  userId: number | null;
  /** Names the holder in messages: username, gateway name, trunk name. */
  name: string;
  /** Device type, or 1-based FXS port position. */
  detail?: string;
}

type Db = Kysely<Database> | Transaction<Database>;

/** Any 64-bit number: it names the lock that keeps number-taking writes of several servers apart. */
const NUMBERING_LOCK = 7_205_310_002;

/**
 * Serialises writes that take numbers until the end of the transaction. SQLite runs one write
 * transaction at a time anyway; on PostgreSQL two transactions could otherwise both see a number free.
 */
export async function lockNumbering(trx: Db): Promise<void> {
  if (trx.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`select pg_advisory_xact_lock(${NUMBERING_LOCK})`.execute(trx);
  }
}

/**
 * Holders of these numbers (all of them when `numbers` is undefined: bulk imports check in memory),
 * of every kind or only of `kinds`.
 */
export async function holdersOf(db: Db, numbers?: string[], kinds?: HolderKind[]): Promise<NumberHolder[]> {
  if (numbers && numbers.length === 0) return [];
  const wants = (kind: HolderKind) => !kinds || kinds.includes(kind);
  const out: NumberHolder[] = [];
  // Well under the bound parameters either database takes in one statement.
  const chunks = numbers ? chunk([...new Set(numbers)], 4000) : [undefined];
  for (const part of chunks) {
    if (wants('user')) await usersHolding(db, part, out);
    if (wants('device')) await devicesHolding(db, part, out);
    if (wants('fxs_port')) await portsHolding(db, part, out);
    if (wants('trunk')) await trunksHolding(db, part, out);
    if (wants('queue')) await queuesHolding(db, part, out);
    if (wants('ringgroup')) await ringGroupsHolding(db, part, out);
    if (wants('conference')) await conferencesHolding(db, part, out);
    if (wants('parking')) await parkingHolding(db, part, out);
  }
  return out;
}

async function usersHolding(db: Db, part: string[] | undefined, out: NumberHolder[]): Promise<void> {
  let users = db
    .selectFrom('users')
    .select(['id', 'username', 'default_extension'])
    .where('default_extension', 'is not', null);
  if (part) users = users.where('default_extension', 'in', part);
  for (const u of await users.execute()) {
    out.push({ number: u.default_extension as string, kind: 'user', userId: Number(u.id), name: u.username });
  }
}

async function devicesHolding(db: Db, part: string[] | undefined, out: NumberHolder[]): Promise<void> {
  let devices = db
    .selectFrom('devices')
    .leftJoin('users', 'users.id', 'devices.user_id')
    .select(['devices.extension', 'devices.user_id', 'devices.type', 'users.username'])
    .where('devices.extension', 'is not', null);
  if (part) devices = devices.where('devices.extension', 'in', part);
  for (const d of await devices.execute()) {
    out.push({
      number: d.extension as string,
      kind: 'device',
      userId: d.user_id === null ? null : Number(d.user_id),
      name: d.username ?? '',
      detail: d.type,
    });
  }
}

async function portsHolding(db: Db, part: string[] | undefined, out: NumberHolder[]): Promise<void> {
  let ports = db
    .selectFrom('gateway_ports')
    .innerJoin('gateways', 'gateways.id', 'gateway_ports.gateway_id')
    .leftJoin('users', 'users.default_extension', 'gateway_ports.extension')
    .select([
      'gateway_ports.physical_extension',
      'gateway_ports.port_type',
      'gateway_ports.port_index',
      'gateways.name',
      'users.id as user_id',
    ])
    .where('physical_extension', 'is not', null);
  if (part) ports = ports.where('physical_extension', 'in', part);
  for (const p of await ports.execute()) {
    out.push({
      number: p.physical_extension as string,
      kind: 'fxs_port',
      userId: p.user_id === null ? null : Number(p.user_id),
      name: p.name,
      detail: String(Number(p.port_index) + 1),
    });
  }
}

async function trunksHolding(db: Db, part: string[] | undefined, out: NumberHolder[]): Promise<void> {
  // A trunk's sections are named after it, a device's after N and N-auth: either name takes N.
  let trunks = db.selectFrom('trunks').select(['name']);
  if (part) trunks = trunks.where('name', 'in', [...part, ...part.map((n) => `${n}-auth`)]);
  for (const t of await trunks.execute()) {
    out.push({ number: t.name.replace(/-auth$/, ''), kind: 'trunk', userId: null, name: t.name });
  }
}

async function queuesHolding(db: Db, part: string[] | undefined, out: NumberHolder[]): Promise<void> {
  // A queue is dialled at its number from every phone (ext-queues is included beside ext-local).
  let queues = db.selectFrom('queues').select(['id', 'extension', 'name']);
  if (part) queues = queues.where('extension', 'in', part);
  for (const q of await queues.execute()) {
    out.push({ number: q.extension, kind: 'queue', userId: null, name: q.name, detail: String(q.id) });
  }
}

async function conferencesHolding(db: Db, part: string[] | undefined, out: NumberHolder[]): Promise<void> {
  // A room is dialled at its number from every phone (ext-meetme is included beside ext-local).
  let rooms = db.selectFrom('conferences').select(['id', 'extension', 'name']);
  if (part) rooms = rooms.where('extension', 'in', part);
  for (const r of await rooms.execute()) {
    out.push({ number: r.extension, kind: 'conference', userId: null, name: r.name, detail: String(r.id) });
  }
}

async function ringGroupsHolding(db: Db, part: string[] | undefined, out: NumberHolder[]): Promise<void> {
  // Dialled at its number from every phone too (ext-group is included beside ext-local).
  let groups = db.selectFrom('ring_groups').select(['id', 'extension', 'name']);
  if (part) groups = groups.where('extension', 'in', part);
  for (const g of await groups.execute()) {
    out.push({ number: g.extension, kind: 'ringgroup', userId: null, name: g.name, detail: String(g.id) });
  }
}

async function parkingHolding(db: Db, part: string[] | undefined, out: NumberHolder[]): Promise<void> {
  // A lot's slots are a range, not rows: the lots are few, so each is expanded here and matched in memory.
  const wanted = part ? new Set(part) : undefined;
  const lots = await db.selectFrom('parking_lots').select(['id', 'extension', 'name', 'first_slot', 'slots']).execute();
  for (const l of lots) {
    for (const number of [l.extension, ...parkingSlots(l.first_slot, Number(l.slots))]) {
      if (wanted && !wanted.has(number)) continue;
      out.push({ number, kind: 'parking', userId: null, name: l.name, detail: String(l.id) });
    }
  }
}

function chunk<T>(list: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}
