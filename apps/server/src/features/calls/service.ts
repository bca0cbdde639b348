import {
  CALL_CSV_COLUMNS,
  type Call,
  type CallDetail,
  type CallFilters,
  type CallPage,
  type CallQuery,
  callQuerySchema,
} from '@centralino/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { csvCell } from '../csv/cell.ts';
import type { CallIndexer } from './indexer.ts';
import { type CallRow, CallsRepository, type Cursor } from './repository.ts';
import { nameOfClid, pathOf, startOf, trunkTest } from './summary.ts';

/**
 * Rows per read of an export: a million rows pass through in pieces this size. A piece's rows live across the await
 * of their names' lookup, and those a minor GC finds alive go to the old generation: with 1,000 a piece the server's
 * memory grew 15-61 MB over a million-row export on PostgreSQL (bench/call-history.ts, three runs), with 250 by 1.5 MB.
 */
const EXPORT_CHUNK = 250;

function cursorOf(text: string | undefined): Cursor | undefined {
  if (!text) return undefined;
  const [at, id] = text.split('.');
  return { at: Number(at), id: Number(id) };
}

/** The call history (issue 41): a page of calls, one call's legs, the CSV of a filter. */
export class CallsService {
  private readonly repo: CallsRepository;

  constructor(
    private readonly db: Kysely<Database>,
    readonly indexer: CallIndexer,
  ) {
    this.repo = new CallsRepository(db);
  }

  private async numbers(filters: CallFilters): Promise<string[] | undefined> {
    return filters.extension ? this.repo.numbersOf(filters.extension) : undefined;
  }

  private async named(rows: CallRow[]): Promise<Call[]> {
    const numbers = new Set<string>();
    for (const r of rows) for (const n of [r.caller, r.called, r.answered_by]) numbers.add(n);
    const names = await this.repo.names(numbers);
    return rows.map((r) => ({
      id: Number(r.id),
      at: Number(r.at),
      direction: r.direction,
      caller: r.caller,
      callerName: names.get(r.caller) ?? r.caller_name,
      called: r.called,
      calledName: names.get(r.called) ?? '',
      answeredBy: r.answered_by,
      answeredByName: names.get(r.answered_by) ?? '',
      trunk: r.trunk,
      queue: r.queue,
      wait: Number(r.wait),
      talk: Number(r.talk),
      result: r.result,
      recorded: r.recording !== '' && r.recording_deleted_at === null,
      recording: r.recording === '' ? 'none' : r.recording_deleted_at === null ? 'available' : 'deleted',
      migrated: Number(r.migrated) === 1,
    }));
  }

  async page(query: CallQuery): Promise<CallPage> {
    const { cursor, limit, ...filters } = callQuerySchema.parse(query);
    const rows = await this.repo.page(filters, await this.numbers(filters), cursorOf(cursor), limit + 1);
    const more = rows.length > limit;
    const shown = more ? rows.slice(0, limit) : rows;
    const last = shown[shown.length - 1];
    return { rows: await this.named(shown), next: more && last ? `${Number(last.at)}.${Number(last.id)}` : null };
  }

  async detail(id: number): Promise<CallDetail> {
    const row = await this.repo.byId(id);
    if (!row) throw new AppError(404, 'not_found');
    const [call] = await this.named([row]);
    const legs = await this.repo.legs(row.call_key);
    const trunks = await this.db.selectFrom('trunks').select('name').execute();
    const numbers = new Set<string>();
    for (const l of legs) numbers.add(l.src);
    const names = await this.repo.names(numbers);
    return {
      call: call as Call,
      legs: legs.map((l) => ({
        at: startOf(l),
        from: l.src,
        fromName: names.get(l.src) ?? nameOfClid(l.clid, l.src),
        to: l.dst,
        channel: l.channel,
        dstchannel: l.dstchannel,
        app: l.lastapp,
        data: l.lastdata,
        duration: l.duration,
        billsec: l.billsec,
        disposition: l.disposition,
      })),
      path: pathOf(legs, trunkTest(trunks.map((t) => t.name))),
    };
  }

  /** The CSV of every call a filter matches, newest first, read in pieces so memory stays flat. */
  async *csv(query: CallQuery): AsyncGenerator<string> {
    const { cursor: _cursor, limit: _limit, ...filters } = callQuerySchema.parse(query);
    const numbers = await this.numbers(filters);
    yield `${CALL_CSV_COLUMNS.join(',')}\n`;
    let cursor: Cursor | undefined;
    for (;;) {
      const rows = await this.repo.page(filters, numbers, cursor, EXPORT_CHUNK);
      if (rows.length === 0) return;
      let text = '';
      for (const c of await this.named(rows)) {
        const cells = [
          new Date(c.at).toISOString(),
          c.direction,
          c.caller,
          c.callerName,
          c.called,
          c.calledName,
          c.answeredBy,
          c.trunk,
          c.queue,
          String(c.wait),
          String(c.talk),
          c.result,
          c.recorded ? 'yes' : 'no',
        ];
        text += `${cells.map(csvCell).join(',')}\n`;
      }
      yield text;
      if (rows.length < EXPORT_CHUNK) return;
      const last = rows[rows.length - 1] as CallRow;
      cursor = { at: Number(last.at), id: Number(last.id) };
    }
  }

  /** Records not yet in the history (a migration's copy being taken in). */
  backlog(): Promise<number> {
    return this.indexer.backlog();
  }
}
