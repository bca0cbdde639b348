import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { AmiClient } from './ami/client.ts';
import { type AmiMessage, field } from './ami/framing.ts';

interface Log {
  warn(obj: object, msg: string): void;
}

/** Asterisk's column widths (migration 0018): a longer value is cut, never refused with the whole record. */
const WIDTH = { clid: 80, src: 80, dst: 80, dcontext: 80, channel: 80, dstchannel: 80, lastapp: 80, lastdata: 80 };
const text = (value: string | undefined, width: number) => (value ?? '').slice(0, width);
const AMA_FLAGS: Record<string, number> = { OMIT: 1, BILLING: 2, DOCUMENTATION: 3 };

/**
 * The call records the built-in `asteriskcdrdb` source reads (the Last calls card): Asterisk sends each finished
 * call's record over AMI (cdr_manager, loaded and enabled by the renderer), and it is written to the `cdr` table
 * of Centralino's own database, so SQLite and PostgreSQL alike need no database driver in Asterisk. A record that
 * cannot be written is logged and dropped: the call itself is long over.
 */
export class CallRecords {
  constructor(
    private readonly db: Kysely<Database>,
    ami: AmiClient,
    private readonly log?: Log,
  ) {
    ami.on('event', (event: AmiMessage) => {
      if (field(event, 'event') !== 'Cdr') return;
      this.write(event).catch((error) => this.log?.warn({ err: error }, 'could not write a call record'));
    });
  }

  /** One record, as cdr_manager names its fields. */
  async write(event: AmiMessage): Promise<void> {
    const f = (key: string) => field(event, key);
    const start = f('StartTime') ?? '';
    await this.db
      .insertInto('cdr')
      .values({
        // cdr_manager leaves StartTime empty only for a record it never started; the end time is the next best.
        calldate: /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(start) ? start : (f('EndTime') ?? '').slice(0, 19),
        clid: text(f('CallerID'), WIDTH.clid),
        src: text(f('Source'), WIDTH.src),
        dst: text(f('Destination'), WIDTH.dst),
        dcontext: text(f('DestinationContext'), WIDTH.dcontext),
        channel: text(f('Channel'), WIDTH.channel),
        dstchannel: text(f('DestinationChannel'), WIDTH.dstchannel),
        lastapp: text(f('LastApplication'), WIDTH.lastapp),
        lastdata: text(f('LastData'), WIDTH.lastdata),
        duration: Number.parseInt(f('Duration') ?? '0', 10) || 0,
        billsec: Number.parseInt(f('BillableSeconds') ?? '0', 10) || 0,
        disposition: text(f('Disposition'), 45),
        amaflags: AMA_FLAGS[f('AMAFlags') ?? ''] ?? 3,
        accountcode: text(f('AccountCode'), 20),
        uniqueid: text(f('UniqueID'), 150),
        userfield: text(f('UserField'), 255),
      })
      .execute();
  }
}
