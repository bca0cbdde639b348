import { type Cqr, type CqrWrite, cqrDestination, cqrWriteSchema } from '@centralino/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { QueryResult } from '../custcards/run-query.ts';
import { checkFlowWrite, namedWrite, refuseWhileUsed } from './service.ts';

type Db = Kysely<Database>;

/** Runs a query on a customer-card source with the caller's number bound (`CustomerCardsService.runOnSource`). */
export type SourceQuery = (sourceId: number, query: string, number: string) => Promise<QueryResult>;

/** What a call-time lookup decided, and why (the reason is logged, the destination is what Asterisk reads). */
export interface CqrDecision {
  destination: string;
  reason: 'match' | 'no_match' | 'timeout' | 'error';
}

/**
 * Saves a CQR and its entries inside the caller's transaction, with the checks the console applies (the source
 * exists, every destination does): the service's writes and the migration's step share it.
 */
export async function writeCqr(trx: Db, id: number | null, input: CqrWrite): Promise<number> {
  const v = cqrWriteSchema.parse(input);
  if (!(await trx.selectFrom('card_sources').select('id').where('id', '=', v.source_id).executeTakeFirst())) {
    throw new AppError(400, 'validation', undefined, (lang) => ({
      source_id: lang === 'it' ? 'Questa sorgente non esiste' : 'This source does not exist',
    }));
  }
  const row = {
    name: v.name,
    source_id: v.source_id,
    query: v.query,
    timeout: v.timeout,
    default_dest: v.default_dest,
  };
  let cqrId: number;
  if (id === null) {
    cqrId = Number((await trx.insertInto('cqrs').values(row).returning('id').executeTakeFirstOrThrow()).id);
  } else {
    const result = await trx.updateTable('cqrs').set(row).where('id', '=', id).executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) throw new AppError(404, 'not_found');
    await trx.deleteFrom('cqr_entries').where('cqr_id', '=', id).execute();
    cqrId = id;
  }
  if (v.entries.length > 0) {
    await trx
      .insertInto('cqr_entries')
      .values(v.entries.map((e, position) => ({ cqr_id: cqrId, position, value: e.value, dest: e.destination })))
      .execute();
  }
  await checkFlowWrite(trx, [
    ['default_dest', v.default_dest],
    ...v.entries.map((e, i): [string, string] => [`entries.${i}.destination`, e.destination]),
  ]);
  return cqrId;
}

/**
 * Caller query routing (issue 26): at call time the dialplan asks the console (`/api/internal/cqr/<id>`), which runs
 * the query with the caller's number bound, compares the first column of the first row with the entries in order and
 * answers the first match's destination, else the default (also on an error or past the timeout).
 */
export class CqrService {
  constructor(
    private readonly db: Db,
    private readonly query: SourceQuery,
  ) {}

  async list(): Promise<Cqr[]> {
    const [rows, entries] = await Promise.all([
      this.db.selectFrom('cqrs').selectAll().orderBy('name').execute(),
      this.db.selectFrom('cqr_entries').selectAll().orderBy('cqr_id').orderBy('position').execute(),
    ]);
    return rows.map((r) => ({
      id: Number(r.id),
      name: r.name,
      source_id: Number(r.source_id),
      query: r.query,
      timeout: Number(r.timeout),
      default_dest: r.default_dest,
      entries: entries
        .filter((e) => Number(e.cqr_id) === Number(r.id))
        .map((e) => ({ value: e.value, destination: e.dest })),
      destination: cqrDestination(Number(r.id)),
    }));
  }

  create(input: CqrWrite): Promise<number> {
    return namedWrite(this.db, input.name, (trx) => writeCqr(trx, null, input));
  }

  async update(id: number, input: CqrWrite): Promise<void> {
    await namedWrite(this.db, input.name, (trx) => writeCqr(trx, id, input));
  }

  async remove(id: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('cqrs').select('name').where('id', '=', id).executeTakeFirst();
      if (!row) throw new AppError(404, 'not_found');
      await refuseWhileUsed(
        trx,
        cqrDestination(id),
        { kind: 'cqr', name: row.name },
        { en: `Caller query routing ${row.name}`, it: `L'instradamento per chiamante ${row.name}` },
      );
      await trx.deleteFrom('cqr_entries').where('cqr_id', '=', id).execute();
      await trx.deleteFrom('cqrs').where('id', '=', id).execute();
    });
  }

  /** The call-time lookup: never throws for a known CQR, so the dialplan always has somewhere to go. */
  async decide(id: number, caller: string): Promise<CqrDecision> {
    const row = await this.db.selectFrom('cqrs').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw new AppError(404, 'not_found');
    const fallback = (reason: CqrDecision['reason']): CqrDecision => ({ destination: row.default_dest, reason });
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), Number(row.timeout) * 1000);
    });
    try {
      // The runner stops the query on the database at its own limit; past ours the call goes on without it.
      const result = await Promise.race([this.query(Number(row.source_id), row.query, caller), late]);
      if (result === 'timeout') return fallback('timeout');
      const first = result.rows[0];
      const column = result.columns[0];
      const cell = first && column !== undefined ? first[column] : undefined;
      if (cell === undefined || cell === null) return fallback('no_match');
      const value = String(cell).trim();
      const entry = await this.db
        .selectFrom('cqr_entries')
        .select('dest')
        .where('cqr_id', '=', id)
        .where('value', '=', value)
        .orderBy('position')
        .executeTakeFirst();
      return entry ? { destination: entry.dest, reason: 'match' } : fallback('no_match');
    } catch {
      return fallback('error');
    } finally {
      clearTimeout(timer);
    }
  }
}
