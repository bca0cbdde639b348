// Queue-log rows for the call-reports bench (bench/call-history.ts): a year of five queues' callers, as
// pbx/queue-log.ts would have taken them in from Asterisk's queue log. Per caller an ENTERQUEUE, then 80% a CONNECT
// and a COMPLETEAGENT or COMPLETECALLER (with a RINGNOANSWER now and then), else an ABANDON or an EXITWITHTIMEOUT:
// about four rows a caller, so 250,000 callers are a million rows.
import { QUEUES } from './call-records.ts';

export const QUEUE_LOG_COLUMNS = ['at', 'callid', 'queue', 'agent', 'event', 'wait', 'talk', 'data'] as const;
type Row = [number, string, string, string, string, number, number, string];

/** A small fixed-seed generator (mulberry32): the same rows on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const AGENTS = Array.from({ length: 20 }, (_, i) => `Person ${201 + i} Surname`);

/** Rows until `total`, over the `days` before `end`, callers in office hours. */
export function* queueLogRows(total: number, days = 365, end = Date.now()): Generator<Row> {
  const rnd = random(26);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rnd() * list.length)] as T;
  const first = new Date(end - days * 86_400_000);
  first.setHours(0, 0, 0, 0);
  let written = 0;
  for (let i = 0; written < total; i++) {
    const day = Math.floor(rnd() * days);
    const at = Math.min(first.getTime() + day * 86_400_000 + (8 + rnd() * 11) * 3_600_000, end - 3_600_000);
    const s = Math.floor(at / 1000);
    const callid = `${s}.${i}`;
    const queue = pick(QUEUES);
    const rows: Row[] = [[s * 1000, callid, queue, 'NONE', 'ENTERQUEUE', 0, 0, '|3331234567|1']];
    const wait = Math.floor(rnd() * rnd() * 120);
    const outcome = rnd();
    if (outcome < 0.8) {
      const agent = pick(AGENTS);
      if (rnd() < 0.2) rows.push([(s + 15) * 1000, callid, queue, pick(AGENTS), 'RINGNOANSWER', 0, 0, '15000']);
      const talk = 20 + Math.floor(rnd() * 400);
      rows.push([(s + wait) * 1000, callid, queue, agent, 'CONNECT', wait, 0, `${wait}|${callid}.1|3`]);
      const ended = rnd() < 0.5 ? 'COMPLETEAGENT' : 'COMPLETECALLER';
      rows.push([(s + wait + talk) * 1000, callid, queue, agent, ended, 0, talk, `${wait}|${talk}|1`]);
    } else {
      const event = outcome < 0.95 ? 'ABANDON' : 'EXITWITHTIMEOUT';
      rows.push([(s + wait) * 1000, callid, queue, 'NONE', event, wait, 0, `1|1|${wait}`]);
    }
    for (const row of rows) {
      if (written++ >= total) return;
      yield row;
    }
  }
}
