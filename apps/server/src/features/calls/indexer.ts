import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Log } from '../../log.ts';
import { type CallSummary, callKey, LEG_COLUMNS, type Leg, legOf, summarize, trunkTest } from './summary.ts';

/** Records read per transaction. */
const BATCH = 2000;
/** Rows per INSERT, within both databases' limits on bound values (16 columns). */
const INSERT = 500;

/**
 * Keeps `calls` (one row per call) up to date with `cdr` (one row per leg), whatever wrote the records: Asterisk's
 * spool (pbx/call-records.ts) or the migration's copy. It reads the records past its position in id order, and for
 * each call they touch sums up all that call's legs again (a call's legs may arrive over several passes: a
 * transferred leg ends later), writing the calls and its new position in one transaction. Replaying a batch gives
 * the same rows, so a crash in between costs nothing; with several processes the position's conditional move lets
 * one of them write a batch.
 */
export class CallIndexer {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private closed = false;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly log?: Pick<Log, 'error'>,
    private readonly intervalMs = 1000,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.drain(), this.intervalMs);
    this.timer.unref();
    void this.drain();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.running;
  }

  /** Takes in every record written so far; passes never overlap. */
  drain(): Promise<void> {
    this.running ??= this.pass()
      .catch((error) => this.log?.error({ err: error }, 'call history: indexing the call records failed'))
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  /** How many records are not in the history yet (the screen says so while a migrated million is taken in). */
  async backlog(): Promise<number> {
    const [position, last] = await Promise.all([
      this.position(),
      this.db
        .selectFrom('cdr')
        .select((eb) => eb.fn.max('id').as('id'))
        .executeTakeFirst(),
    ]);
    const top = Number(last?.id ?? 0);
    if (top <= position) return 0;
    const row = await this.db
      .selectFrom('cdr')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('id', '>', position)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  private async position(): Promise<number> {
    const row = await this.db.selectFrom('call_index').select('last_cdr_id').where('id', '=', 1).executeTakeFirst();
    return Number(row?.last_cdr_id ?? 0);
  }

  private async pass(): Promise<void> {
    // Read once a pass, and only when there is something to index: an idle second costs one query.
    let isTrunk: ReturnType<typeof trunkTest> | undefined;
    for (;;) {
      if (this.closed) return;
      const from = await this.position();
      const batch = (await this.db
        .selectFrom('cdr')
        .select(LEG_COLUMNS)
        .where('id', '>', from)
        .orderBy('id')
        .limit(BATCH)
        .execute()) as Leg[];
      if (batch.length === 0) return;
      isTrunk ??= trunkTest((await this.db.selectFrom('trunks').select('name').execute()).map((t) => t.name));
      const trunk = isTrunk;
      const to = Number((batch[batch.length - 1] as Leg).id);
      const groups = new Map<string, Leg[]>();
      for (const leg of batch) {
        const key = callKey(leg);
        const group = groups.get(key);
        if (group) group.push(leg);
        else groups.set(key, [leg]);
      }
      // The other legs of these calls, written in earlier batches.
      const linked = [...groups.keys()].filter((k) => !k.startsWith('cdr:'));
      for (let i = 0; i < linked.length; i += INSERT) {
        const earlier = (await this.db
          .selectFrom('cdr')
          .select(LEG_COLUMNS)
          .where('linkedid', 'in', linked.slice(i, i + INSERT))
          .where('id', '<=', from)
          .execute()) as Leg[];
        for (const leg of earlier) groups.get(leg.linkedid)?.push(leg);
      }
      const calls: CallSummary[] = [...groups].map(([key, legs]) => summarize(key, legs.map(legOf), trunk));
      const moved = await this.db.transaction().execute(async (trx) => {
        const result = await trx
          .updateTable('call_index')
          .set({ last_cdr_id: to })
          .where('id', '=', 1)
          .where('last_cdr_id', '=', from)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) !== 1) return false;
        for (let i = 0; i < calls.length; i += INSERT) {
          await trx
            .insertInto('calls')
            .values(calls.slice(i, i + INSERT))
            .onConflict((oc) =>
              oc.column('call_key').doUpdateSet((eb) => ({
                at: eb.ref('excluded.at'),
                direction: eb.ref('excluded.direction'),
                caller: eb.ref('excluded.caller'),
                caller_name: eb.ref('excluded.caller_name'),
                called: eb.ref('excluded.called'),
                answered_by: eb.ref('excluded.answered_by'),
                trunk: eb.ref('excluded.trunk'),
                queue: eb.ref('excluded.queue'),
                wait: eb.ref('excluded.wait'),
                talk: eb.ref('excluded.talk'),
                result: eb.ref('excluded.result'),
                recording: eb.ref('excluded.recording'),
                migrated: eb.ref('excluded.migrated'),
                legs: eb.ref('excluded.legs'),
              })),
            )
            .execute();
        }
        return true;
      });
      if (!moved) return;
      // Let requests in between two batches of a large backlog.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}
