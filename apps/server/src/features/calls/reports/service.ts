import {
  type ByDirection,
  CALL_REPORT_MAX_DAYS,
  type CallReport,
  type CallReportQuery,
  callReportQuerySchema,
} from '@centralino/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { AppError } from '../../../errors.ts';
import { dayEnd, dayStart } from '../repository.ts';
import { ReportsRepository } from './repository.ts';

const HOUR = 3_600_000;
const QUARTER = 900_000;
const pad = (n: number) => String(n).padStart(2, '0');

/** A local day as YYYY-MM-DD (the PBX's time zone, as the history's filters). */
export function localDay(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** Every day from `from` to `to`, both included (by calendar, so a day of 23 or 25 hours is one day). */
export function daysOf(from: string, to: string): string[] {
  const days: string[] = [];
  const d = new Date(`${from}T12:00:00`);
  for (let day = localDay(d.getTime()); day <= to; day = localDay(d.getTime())) {
    days.push(day);
    d.setDate(d.getDate() + 1);
  }
  return days;
}

const zero = (): ByDirection => ({ inbound: 0, outbound: 0, internal: 0 });
const round1 = (v: number) => Math.round(v * 10) / 10;

/** Call reports (issue 41, item 9): the figures of a range of days. */
export class ReportsService {
  private readonly repo: ReportsRepository;

  constructor(db: Kysely<Database>) {
    this.repo = new ReportsRepository(db);
  }

  async report(query: CallReportQuery): Promise<CallReport> {
    const q = callReportQuerySchema.parse(query);
    const to = q.to ?? localDay(Date.now());
    const from = q.from ?? localDay(new Date(`${to}T12:00:00`).getTime() - 29 * 86_400_000);
    if (from > to) throw new AppError(400, 'validation', undefined, { from: 'from after to' });
    const days = daysOf(from, to);
    if (days.length > CALL_REPORT_MAX_DAYS) {
      throw new AppError(400, 'validation', undefined, (lang) => ({
        from:
          lang === 'it'
            ? `Un report copre al massimo ${CALL_REPORT_MAX_DAYS} giorni`
            : `A report covers ${CALL_REPORT_MAX_DAYS} days at most`,
      }));
    }
    const range = { from: dayStart(from), to: dayEnd(to), direction: q.direction };
    // Hours of the range's own time zone: slots of an hour read as local hours where every offset in the range is
    // whole hours, else (India, Nepal, Newfoundland…) quarter hours, which fold into local hours exactly.
    const wholeHours = days.every((d) => new Date(`${d}T12:00:00`).getTimezoneOffset() % 60 === 0);
    const slotMs = wholeHours ? HOUR : QUARTER;
    const [slots, trunks, queues, agents, names] = await Promise.all([
      this.repo.slots(range, slotMs),
      this.repo.trunks(range),
      this.repo.queues({ from: range.from, to: range.to }, q.serviceLevel),
      this.repo.agents({ from: range.from, to: range.to }),
      this.repo.queueNames(),
    ]);

    const hours = Array.from({ length: 24 }, (_, hour) => ({ hour, answered: zero(), missed: zero() }));
    const byDay = new Map(days.map((day) => [day, { day, answered: zero(), missed: zero() }]));
    const totals = { calls: 0, answered: 0, missed: 0 };
    for (const s of slots) {
      const at = new Date(s.slot * slotMs);
      const kind = s.answered ? 'answered' : 'missed';
      (hours[at.getHours()] as (typeof hours)[number])[kind][s.direction] += s.calls;
      const row = byDay.get(localDay(at.getTime()));
      if (row) row[kind][s.direction] += s.calls;
      totals.calls += s.calls;
      totals[kind] += s.calls;
    }

    const byNumber = (a: { queue: string }, b: { queue: string }) =>
      a.queue.localeCompare(b.queue, undefined, { numeric: true });
    return {
      from,
      to,
      serviceLevel: q.serviceLevel,
      totals,
      hours,
      days: [...byDay.values()],
      queues: queues.sort(byNumber).map((r) => ({
        queue: r.queue,
        name: names.get(r.queue) ?? '',
        offered: r.offered,
        answered: r.answered,
        abandoned: r.abandoned,
        timedOut: r.timedOut,
        left: r.left,
        avgWait: r.waited > 0 ? round1(r.waitSum / r.waited) : null,
        p90Wait: r.p90,
        avgAnswerWait: r.answered > 0 ? round1(r.answerWaitSum / r.answered) : null,
        answeredWithin: r.within,
        serviceLevel: r.offered > 0 ? Math.round((r.within / r.offered) * 1000) / 1000 : null,
      })),
      agents: agents.sort((a, b) => byNumber(a, b) || b.answered - a.answered || a.agent.localeCompare(b.agent)),
      trunks: trunks.sort((a, b) => b.calls - a.calls || a.trunk.localeCompare(b.trunk)),
    };
  }
}
