// A year of a 200-extension office's call records, as Asterisk writes them into `cdr` (for bench/call-history.ts):
// internal calls, inbound calls on a DID straight to a phone or through a queue, outbound calls through a trunk;
// answered, missed, busy, failed, voicemail; the legs of a call (1 to 3) share a linked id, and about 5% are records
// copied from an older system (no linked id, a call each); half the outside numbers are contacts of a 100,000-contact
// central phonebook. Deterministic (seeded), in start order.

export const CDR_COLUMNS = [
  'calldate',
  'clid',
  'src',
  'dst',
  'dcontext',
  'channel',
  'dstchannel',
  'lastapp',
  'lastdata',
  'duration',
  'billsec',
  'disposition',
  'amaflags',
  'accountcode',
  'uniqueid',
  'userfield',
  'linkedid',
  'sequence',
  'did',
  'recordingfile',
] as const;

export type CdrRow = (string | number)[];

/** 200 extensions from 201, without 270–289 (*27 and *28 are feature codes, so the console refuses them). */
export const EXTENSIONS = Array.from({ length: 220 }, (_, i) => 201 + i)
  .filter((n) => n < 270 || n >= 290)
  .map(String);
export const TRUNKS = ['vivavox', 'telecom', 'gw-isdn'];
export const QUEUES = ['601', '602', '603', '604', '605'];
const DIDS = ['0721123456', '0721123457', '0721123458', '0721123459'];

export const CONTACTS = 100_000;
export const CONTACT_COLUMNS = ['source_id', 'name', 'company', 'workphone', 'cellphone'] as const;

/** The central phonebook: contact n is 'Contact n Surname(n % 997)', office 0721 + n, a mobile on two of three. */
export function* phonebookContacts(): Generator<(string | null)[]> {
  for (let n = 0; n < CONTACTS; n++) {
    yield [
      'bench',
      `Contact ${n} Surname${n % 997}`,
      `Company ${n % 5000}`,
      `0721${String(n).padStart(6, '0')}`,
      n % 3 ? `333${String(n).padStart(7, '0')}` : null,
    ];
  }
}

/** mulberry32: a small seeded generator, so every run seeds the same records. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pad = (n: number) => String(n).padStart(2, '0');
/** Asterisk's local time without a zone, as the spool writes it. */
function localTime(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** Records until `total` (a call's legs are never split), over the `days` before `end`. */
export function* callRecords(total: number, days = 365, end = Date.now()): Generator<CdrRow> {
  const rnd = random(41);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rnd() * list.length)] as T;
  const between = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  // About 1.28 records a call: start times for a few more calls than that makes (the records stop at `total`, so the
  // last day or two run short, not the last weeks: a 30-day report reads a month as busy as any), office hours
  // mostly, sorted.
  const calls = Math.ceil(total / 1.27);
  const starts = new Float64Array(calls);
  const dayMs = 86_400_000;
  const first = new Date(end - days * dayMs);
  first.setHours(0, 0, 0, 0);
  for (let i = 0; i < calls; i++) {
    const day = Math.floor(rnd() * days);
    const officeHours = rnd() < 0.92;
    const hour = officeHours ? 8 + rnd() * 11 : rnd() * 24;
    starts[i] = first.getTime() + day * dayMs + hour * 3_600_000;
  }
  starts.sort();
  let channelNo = 0;
  const channel = (endpoint: string) => `PJSIP/${endpoint}-${(channelNo++).toString(16).padStart(8, '0')}`;
  let written = 0;
  for (let i = 0; i < calls && written < total; i++) {
    const at = Math.min(starts[i] as number, end - 3_600_000);
    const linkedid = `${Math.floor(at / 1000)}.${i}`;
    const legs: CdrRow[] = [];
    const leg = (l: {
      offset?: number;
      clid?: string;
      src: string;
      dst: string;
      dcontext?: string;
      channel: string;
      dstchannel?: string;
      lastapp?: string;
      lastdata?: string;
      duration: number;
      billsec: number;
      disposition: string;
      did?: string;
      recording?: boolean;
      migrated?: boolean;
    }) => {
      const sequence = legs.length + 1;
      legs.push([
        localTime(at + (l.offset ?? 0) * 1000),
        l.clid ?? `"${l.src}" <${l.src}>`,
        l.src,
        l.dst,
        l.dcontext ?? 'from-internal',
        l.channel,
        l.dstchannel ?? '',
        l.lastapp ?? 'Dial',
        l.lastdata ?? '',
        l.duration,
        l.billsec,
        l.disposition,
        3,
        '',
        `${linkedid}-${sequence}`,
        '',
        l.migrated ? '' : linkedid,
        sequence,
        l.did ?? '',
        l.recording ? `${localTime(at).slice(0, 10)}/${linkedid}.wav` : '',
      ]);
    };
    // Half the outside numbers are the central phonebook's (phonebookContacts), so the history names them.
    const outside = () => {
      if (rnd() < 0.5) return `3${between(100000000, 999999999)}`;
      const n = between(0, CONTACTS - 1);
      return n % 3 ? `333${String(n).padStart(7, '0')}` : `0721${String(n).padStart(6, '0')}`;
    };
    const talk = () => between(10, 900);
    const ring = () => between(2, 25);
    const kind = rnd();
    if (kind < 0.05) {
      // Copied from an older system: one record, no linked id.
      const ext = pick(EXTENSIONS);
      const answered = rnd() < 0.7;
      const r = ring();
      const t = answered ? talk() : 0;
      leg({
        src: outside(),
        dst: ext,
        channel: `SIP/old${pick(TRUNKS)}-${(channelNo++).toString(16)}`,
        dstchannel: `SIP/${ext}-${(channelNo++).toString(16)}`,
        duration: r + t,
        billsec: t,
        disposition: answered ? 'ANSWERED' : 'NO ANSWER',
        migrated: true,
      });
    } else if (kind < 0.32) {
      // Internal.
      const from = pick(EXTENSIONS);
      let to = pick(EXTENSIONS);
      if (to === from) to = EXTENSIONS[(EXTENSIONS.indexOf(from) + 1) % EXTENSIONS.length] as string;
      const outcome = rnd();
      const r = ring();
      const base = { clid: `"User ${from}" <${from}>`, src: from, dst: to, channel: channel(from) };
      if (outcome < 0.7) {
        const t = talk();
        leg({
          ...base,
          dstchannel: channel(to),
          lastdata: `PJSIP/${to},30`,
          duration: r + t,
          billsec: t,
          disposition: 'ANSWERED',
        });
      } else if (outcome < 0.8) {
        leg({ ...base, dstchannel: channel(to), duration: 0, billsec: 0, disposition: 'BUSY' });
      } else {
        leg({ ...base, dstchannel: channel(to), duration: 20, billsec: 0, disposition: 'NO ANSWER' });
        if (outcome < 0.9) {
          leg({
            ...base,
            dst: `vmu${to}`,
            offset: 20,
            lastapp: 'VoiceMail',
            lastdata: `${to}@default,u`,
            duration: 25,
            billsec: 25,
            disposition: 'ANSWERED',
          });
        }
      }
    } else if (kind < 0.55) {
      // Inbound on a DID, straight to a phone; unanswered, voicemail half of the time.
      const ext = pick(EXTENSIONS);
      const trunk = pick(TRUNKS);
      const caller = outside();
      const did = pick(DIDS);
      const inbound = channel(trunk);
      const base = { src: caller, dst: ext, channel: inbound, did, dcontext: 'from-trunk' };
      const outcome = rnd();
      const r = ring();
      if (outcome < 0.65) {
        const t = talk();
        leg({
          ...base,
          dstchannel: channel(ext),
          duration: r + t,
          billsec: t,
          disposition: 'ANSWERED',
          recording: rnd() < 0.1,
        });
      } else if (outcome < 0.72) {
        leg({ ...base, dstchannel: channel(ext), duration: 0, billsec: 0, disposition: 'BUSY' });
      } else {
        leg({ ...base, dstchannel: channel(ext), duration: 20, billsec: 0, disposition: 'NO ANSWER' });
        if (outcome < 0.86) {
          leg({
            ...base,
            dst: `vmu${ext}`,
            offset: 20,
            lastapp: 'VoiceMail',
            lastdata: `${ext}@default,u`,
            duration: 30,
            billsec: 30,
            disposition: 'ANSWERED',
          });
        }
      }
    } else if (kind < 0.75) {
      // Inbound through a queue: the caller's leg, then the member's Local leg; one in three rings a first member
      // who does not answer; some callers hang up waiting.
      const queue = pick(QUEUES);
      const trunk = pick(TRUNKS);
      const caller = outside();
      const did = pick(DIDS);
      const inbound = channel(trunk);
      const wait = between(3, 90);
      const local = `Local/${pick(EXTENSIONS)}@from-queue-${(channelNo++).toString(16).padStart(8, '0')}`;
      const queueLeg = {
        src: caller,
        dst: queue,
        dcontext: 'ext-queues',
        channel: inbound,
        lastapp: 'Queue',
        lastdata: `${queue},t,,,300`,
        did,
      };
      if (rnd() < 0.18) {
        leg({ ...queueLeg, dstchannel: `${local};1`, duration: wait, billsec: 0, disposition: 'NO ANSWER' });
      } else {
        const t = talk();
        const member = pick(EXTENSIONS);
        leg({
          ...queueLeg,
          dstchannel: `Local/${member}@from-queue-x;1`,
          duration: wait + t,
          billsec: t,
          disposition: 'ANSWERED',
          recording: rnd() < 0.2,
        });
        if (rnd() < 0.33) {
          const other = pick(EXTENSIONS);
          leg({
            src: caller,
            dst: other,
            dcontext: 'from-queue',
            channel: `Local/${other}@from-queue-y;2`,
            dstchannel: channel(other),
            offset: 2,
            duration: 15,
            billsec: 0,
            disposition: 'NO ANSWER',
          });
        }
        leg({
          src: caller,
          dst: member,
          dcontext: 'from-queue',
          channel: `Local/${member}@from-queue-x;2`,
          dstchannel: channel(member),
          offset: wait - 4,
          duration: t + 4,
          billsec: t,
          disposition: 'ANSWERED',
        });
      }
    } else {
      // Outbound through a trunk.
      const ext = pick(EXTENSIONS);
      const trunk = pick(TRUNKS);
      const number = rnd() < 0.5 ? outside() : `0${between(200000000, 999999999)}`;
      const base = {
        clid: `"User ${ext}" <${ext}>`,
        src: ext,
        dst: number,
        dcontext: 'outrt-1',
        channel: channel(ext),
        dstchannel: channel(trunk),
        lastdata: `PJSIP/${number}@${trunk},300`,
      };
      const outcome = rnd();
      if (outcome < 0.65) {
        const t = talk();
        leg({ ...base, duration: ring() + t, billsec: t, disposition: 'ANSWERED' });
      } else if (outcome < 0.8) {
        leg({ ...base, duration: 3, billsec: 0, disposition: 'BUSY' });
      } else if (outcome < 0.95) {
        leg({ ...base, duration: 30, billsec: 0, disposition: 'NO ANSWER' });
      } else {
        leg({ ...base, duration: 0, billsec: 0, disposition: 'FAILED' });
      }
    }
    for (const row of legs) {
      if (written >= total) break;
      written++;
      yield row;
    }
  }
}
