import type { CallDirection } from '@centralino/contract';
import { type Kysely, type RawBuilder, type SqlBool, SqliteAdapter, sql } from 'kysely';
import type { Database } from '../../../db/schema.ts';

/**
 * The report's aggregates, each one GROUP BY over a time range of an indexed table (`calls_at`, `queue_log_at`), in
 * SQL both SQLite and PostgreSQL run: integer division for the time slots, CASE sums for the counts, window functions
 * for the percentile and the concurrency. A 30-day report reads the range's rows once per figure and sends back at
 * most a few thousand grouped rows. Every figure reads only the columns of a covering index (`calls_report`,
 * `queue_log_report`, migration 0036), so the index alone answers it.
 */

export interface Range {
  /** Milliseconds since the epoch, both included. */
  from: number;
  to: number;
  direction?: CallDirection;
}

export interface SlotRow {
  slot: number;
  direction: CallDirection;
  answered: number;
  calls: number;
}

/** The events after which a caller has left the queue, and the wait they carry. */
const WAITED = ['CONNECT', 'ABANDON', 'EXITWITHTIMEOUT', 'EXITEMPTY', 'EXITWITHKEY'];
const TALKED = ['COMPLETEAGENT', 'COMPLETECALLER', 'ATTENDEDTRANSFER', 'BLINDTRANSFER'];

const n = (v: unknown) => Number(v ?? 0);

export class ReportsRepository {
  /** `calls`, read through its covering index: SQLite's planner, told nothing, skip-scans calls_direction_at. */
  private readonly calls: RawBuilder<unknown>;

  constructor(private readonly db: Kysely<Database>) {
    this.calls = db.getExecutor().adapter instanceof SqliteAdapter ? sql`calls indexed by calls_report` : sql`calls`;
  }

  private callsIn(range: Range) {
    return sql<SqlBool>`at >= ${range.from} and at <= ${range.to}${
      range.direction ? sql` and direction = ${range.direction}` : sql``
    }`;
  }

  /** Calls per time slot of `slotMs` (slot = at / slotMs), direction and answered or not. */
  async slots(range: Range, slotMs: number): Promise<SlotRow[]> {
    const slot = sql.lit(slotMs);
    const { rows } = await sql<{ slot: unknown; direction: CallDirection; answered: unknown; calls: unknown }>`
      select at / ${slot} as slot, direction, case when result = 'answered' then 1 else 0 end as answered,
        count(*) as calls
      from ${this.calls} where ${this.callsIn(range)}
      group by 1, 2, 3`.execute(this.db);
    return rows.map((r) => ({ slot: n(r.slot), direction: r.direction, answered: n(r.answered), calls: n(r.calls) }));
  }

  /**
   * Per trunk: calls, by direction, seconds of conversation, and the most calls at one instant. One scan of the
   * range's trunk calls, the peak swept in memory: each call a +1 at its start and a -1 at its end (start + wait +
   * talk), in time order; at one instant an end comes before a start, so back-to-back calls do not overlap. A call
   * that began before the range is not counted. (In SQL, a window sum over the union of starts and ends, the peak took
   * 40 % of a 30-day report and 4 s of a year's on SQLite.)
   */
  async trunks(range: Range) {
    const { rows } = await sql<{
      trunk: string;
      direction: CallDirection;
      at: unknown;
      length: unknown;
      talk: unknown;
    }>`
      select trunk, direction, at, wait + talk as length, talk
      from ${this.calls} where ${this.callsIn(range)} and trunk <> ''`.execute(this.db);
    const byTrunk = new Map<
      string,
      { calls: number; inbound: number; outbound: number; talk: number; edges: number[] }
    >();
    for (const r of rows) {
      let t = byTrunk.get(r.trunk);
      if (!t) {
        t = { calls: 0, inbound: 0, outbound: 0, talk: 0, edges: [] };
        byTrunk.set(r.trunk, t);
      }
      t.calls++;
      if (r.direction === 'inbound') t.inbound++;
      else if (r.direction === 'outbound') t.outbound++;
      t.talk += n(r.talk);
      const at = n(r.at);
      // A start as 2t + 1 and an end as 2t: sorted as numbers, an end comes before a start at the same instant.
      t.edges.push(at * 2 + 1, (at + n(r.length) * 1000) * 2);
    }
    return [...byTrunk].map(([trunk, t]) => {
      const edges = Float64Array.from(t.edges).sort();
      let running = 0;
      let peak = 0;
      for (const edge of edges) {
        running += edge % 2 === 1 ? 1 : -1;
        if (running > peak) peak = running;
      }
      return { trunk, calls: t.calls, inbound: t.inbound, outbound: t.outbound, talk: t.talk, peak };
    });
  }

  /** Per queue: the callers and what became of them, their waits and how many were answered within `within` s. */
  async queues(range: Range, within: number) {
    const waited = sql.join(WAITED.map((e) => sql.lit(e)));
    const { rows } = await sql<Record<string, unknown> & { queue: string }>`
      select queue,
        sum(case when event = 'ENTERQUEUE' then 1 else 0 end) as offered,
        sum(case when event = 'CONNECT' then 1 else 0 end) as answered,
        sum(case when event = 'ABANDON' then 1 else 0 end) as abandoned,
        sum(case when event = 'EXITWITHTIMEOUT' then 1 else 0 end) as timed_out,
        sum(case when event in ('EXITEMPTY', 'EXITWITHKEY') then 1 else 0 end) as left_queue,
        sum(case when event in (${waited}) then 1 else 0 end) as waited,
        sum(case when event in (${waited}) then wait else 0 end) as wait_sum,
        sum(case when event = 'CONNECT' then wait else 0 end) as answer_wait_sum,
        sum(case when event = 'CONNECT' and wait <= ${within} then 1 else 0 end) as within
      from queue_log where at >= ${range.from} and at <= ${range.to}
      group by queue`.execute(this.db);
    // Nearest rank: the smallest wait with at least 90% of the waits at or below it (rank >= 0.9 n).
    const p90 = await sql<{ queue: string; p90: unknown }>`
      select queue, min(wait) as p90 from (
        select queue, wait, row_number() over (partition by queue order by wait) as place,
          count(*) over (partition by queue) as total
        from queue_log where at >= ${range.from} and at <= ${range.to} and event in (${waited})
      ) ranked
      where place * 10 >= total * 9
      group by queue`.execute(this.db);
    const p90s = new Map(p90.rows.map((r) => [r.queue, n(r.p90)]));
    return rows.map((r) => ({
      queue: r.queue,
      offered: n(r.offered),
      answered: n(r.answered),
      abandoned: n(r.abandoned),
      timedOut: n(r.timed_out),
      left: n(r.left_queue),
      waited: n(r.waited),
      waitSum: n(r.wait_sum),
      answerWaitSum: n(r.answer_wait_sum),
      within: n(r.within),
      p90: p90s.get(r.queue) ?? null,
    }));
  }

  /** Per queue and agent: calls answered, seconds talked, rings not answered. */
  async agents(range: Range) {
    const talked = sql.join(TALKED.map((e) => sql.lit(e)));
    const { rows } = await sql<{ queue: string; agent: string; answered: unknown; talk: unknown; rna: unknown }>`
      select queue, agent,
        sum(case when event = 'CONNECT' then 1 else 0 end) as answered,
        sum(case when event in (${talked}) then talk else 0 end) as talk,
        sum(case when event = 'RINGNOANSWER' then 1 else 0 end) as rna
      from queue_log
      where at >= ${range.from} and at <= ${range.to} and event in ('CONNECT', 'RINGNOANSWER', ${talked})
        and agent <> 'NONE'
      group by queue, agent`.execute(this.db);
    return rows.map((r) => ({
      queue: r.queue,
      agent: r.agent,
      answered: n(r.answered),
      talk: n(r.talk),
      ringNoAnswer: n(r.rna),
    }));
  }

  /** The console's names of the queues (their numbers are what Asterisk logs). */
  async queueNames(): Promise<Map<string, string>> {
    const rows = await this.db.selectFrom('queues').select(['extension', 'name']).execute();
    return new Map(rows.map((r) => [r.extension, r.name]));
  }
}
