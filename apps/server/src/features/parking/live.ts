import type { ParkedCall } from '@centralino/contract';
import { AppError } from '../../errors.ts';
import type { AmiClient } from '../../pbx/ami/client.ts';
import { type AmiMessage, field } from '../../pbx/ami/framing.ts';
import { pbxNotConnected } from '../../pbx/live-state.ts';
import { lotName } from '../../pbx/render/parking.ts';

interface Held {
  call: Omit<ParkedCall, 'seconds' | 'remaining'>;
  /** When it was parked and when it times out, in this process's clock. */
  since: number;
  until: number;
}

const GONE = new Set(['unparkedcall', 'parkedcalltimeout', 'parkedcallgiveup']);

/**
 * The calls parked now, over AMI: read whole with ParkedCalls after each (re)connection, kept current by the
 * ParkedCall, UnParkedCall, ParkedCallTimeOut, ParkedCallGiveUp and ParkedCallSwap events in between, so a
 * dashboard polling it costs Asterisk nothing. Runtime state only; "Pick up on…" originates a user's phone to the slot.
 */
export class ParkingLive {
  private readonly held = new Map<string, Held>();
  private loaded: Promise<void> | null = null;
  private watched: AmiClient | undefined;

  constructor(
    private readonly ami: () => AmiClient | undefined,
    private readonly now: () => number = Date.now,
  ) {}

  private client(): AmiClient {
    const ami = this.ami();
    if (ami?.state !== 'connected') throw pbxNotConnected(ami);
    if (this.watched !== ami) this.watch(ami);
    return ami;
  }

  private watch(ami: AmiClient): void {
    this.watched = ami;
    ami.on('event', (e: AmiMessage) => this.onEvent(e));
    // A new connection may have missed anything: read the list again.
    ami.on('ready', () => {
      this.loaded = null;
    });
    ami.on('disconnected', () => {
      this.loaded = null;
    });
  }

  private onEvent(e: AmiMessage): void {
    const name = (field(e, 'event') ?? '').toLowerCase();
    if (name === 'parkedcall' && !field(e, 'actionid')) this.add(e);
    else if (name === 'parkedcallswap') this.add(e);
    else if (GONE.has(name)) this.held.delete(field(e, 'parkeechannel') ?? '');
  }

  private add(e: AmiMessage): void {
    const channel = field(e, 'parkeechannel') ?? '';
    if (!channel) return;
    const now = this.now();
    const duration = Number(field(e, 'parkingduration') ?? 0) || 0;
    const timeout = Number(field(e, 'parkingtimeout') ?? 0) || 0;
    const lot = field(e, 'parkinglot') ?? '';
    const lotId = /^park-(\d+)$/.exec(lot)?.[1];
    this.held.set(channel, {
      call: {
        lot_id: lotId ? Number(lotId) : null,
        lot,
        slot: field(e, 'parkingspace') ?? '',
        channel,
        caller_number: field(e, 'parkeecalleridnum') ?? '',
        caller_name: field(e, 'parkeecalleridname') ?? '',
        parker_number: parkerNumber(field(e, 'parkerdialstring') ?? '', field(e, 'parkeechannel') ?? ''),
        // Named from the users by the routes (res_parking tells only the parker's dial string).
        parker_name: '',
      },
      since: now - duration * 1000,
      // ParkingTimeout is what is left of it, in the list as in the events.
      until: now + timeout * 1000,
    });
  }

  private async load(ami: AmiClient): Promise<void> {
    const { events } = await ami.action('ParkedCalls');
    this.held.clear();
    for (const e of events) if ((field(e, 'event') ?? '').toLowerCase() === 'parkedcall') this.add(e);
  }

  async calls(): Promise<ParkedCall[]> {
    const ami = this.client();
    if (!this.loaded) {
      this.loaded = this.load(ami).catch((error) => {
        this.loaded = null;
        throw error;
      });
    }
    await this.loaded;
    const now = this.now();
    return [...this.held.values()]
      .map((h) => ({
        ...h.call,
        seconds: Math.max(0, Math.round((now - h.since) / 1000)),
        remaining: Math.max(0, Math.round((h.until - now) / 1000)),
      }))
      .sort((a, b) => a.lot.localeCompare(b.lot) || Number(a.slot) - Number(b.slot));
  }

  /**
   * Rings the phone of main extension `extension` (its PJSIP endpoint) and, once answered, puts it in the slot:
   * ParkedCall() of the lot that has the slot. 404 when no call waits there.
   */
  async pickUp(lotId: number, slot: string, extension: string, callerId: string): Promise<void> {
    const calls = await this.calls();
    if (!calls.some((c) => c.slot === slot && c.lot === lotName(lotId))) {
      throw new AppError(404, 'not_found', (lang) =>
        lang === 'it' ? `Nessuna chiamata parcheggiata al posto ${slot}.` : `No call is parked in slot ${slot}.`,
      );
    }
    await this.client().action('Originate', {
      Channel: `PJSIP/${extension}`,
      Application: 'ParkedCall',
      Data: `${lotName(lotId)},${slot}`,
      CallerID: callerId,
      Timeout: 30_000,
      Async: 'true',
    });
  }
}

/** The parker's number out of its dial string (PJSIP/201); empty when the parked channel parked itself. */
function parkerNumber(dialString: string, parkee: string): string {
  const device = /^[A-Za-z]+\/([^-/@]+)/.exec(dialString)?.[1] ?? '';
  const self = /^[A-Za-z]+\/([^-/@]+)/.exec(parkee)?.[1];
  return device === self ? '' : device;
}
