import type { PbxParkingLot } from '../model.ts';
import { byNumber, type Entry, HEADER, noteText, section } from './common.ts';
import { Context, gotoDestination } from './dialplan.ts';

/**
 * Call parking (issue 42 item 2, res_parking). Each lot is a res_parking lot `park-<id>` whose context
 * `parkedcalls-<id>` res_parking fills itself: the lot number runs Park(), each slot ParkedCall() with a hint
 * (`park:<slot>@parkedcalls-<id>`, for busy lamps). The dialplan only includes those contexts in `ext-parking`, which
 * every phone's context includes: so a phone dials the lot or a slot, and a blind transfer to the lot number (looked
 * up in the transferring phone's context) parks the other party with the phone as parker. A timed-out call goes
 * back to the parker's phone (comebacktoorigin) or, when the lot has a destination, to `park-timeout-<id>`, whose
 * `s` extension (the one res_parking falls back to) goes there. `app-parking,<number>,1` is the lot as a
 * destination of routes and flows: the caller parks themself.
 */

export const PARKING_CONF = 'res_parking.conf';
export const PARKING_FILE = 'extensions.parking.conf';
/** Included by every phone's context. */
export const PARKING_CONTEXT = 'ext-parking';

export const lotName = (id: number) => `park-${id}`;
export const lotContext = (id: number) => `parkedcalls-${id}`;
const timeoutContext = (id: number) => `park-timeout-${id}`;

/** Seconds the parker's phone rings when a call comes back to it. */
const COMEBACK_DIAL_SECONDS = 30;

const sorted = (lots: readonly PbxParkingLot[]) => [...lots].sort((a, b) => byNumber(a.number, b.number));

export function renderParkingConf(lots: readonly PbxParkingLot[]): string {
  // No lots made up by a channel variable: only the console's lots exist.
  let out = `${HEADER}${section('general', [['parkeddynamic', 'no']])}`;
  for (const lot of sorted(lots)) {
    const first = lot.slots[0] ?? lot.number;
    const last = lot.slots.at(-1) ?? first;
    const entries: Entry[] = [
      ['context', lotContext(lot.id)],
      ['parkext', lot.number],
      // The lot number parks in this lot only (another lot's parkext may not share it).
      ['parkext_exclusive', 'yes'],
      ['parkpos', `${first}-${last}`],
      ['parkinghints', 'yes'],
      ['parkingtime', lot.timeout],
      ['findslot', 'first'],
      ['parkedmusicclass', lot.musicClass],
      // Whoever picks up may transfer or park the call again with the phone's own keys.
      ['parkedcalltransfers', 'caller'],
      ['parkedcallreparking', 'caller'],
      ['comebackdialtime', COMEBACK_DIAL_SECONDS],
    ];
    if (lot.timeoutDestination === null) entries.push(['comebacktoorigin', 'yes']);
    else entries.push(['comebacktoorigin', 'no'], ['comebackcontext', timeoutContext(lot.id)]);
    out += section(lotName(lot.id), entries);
  }
  return out;
}

/** ext-parking (always there: phones include it), app-parking and the lots' timeout contexts. */
export function renderParkingDialplan(lots: readonly PbxParkingLot[]): string {
  const ext = new Context(PARKING_CONTEXT, 'Parking lots and their slots (res_parking fills parkedcalls-<id>)');
  const app = new Context('app-parking', 'A lot as a destination: the caller is parked');
  let owned = '';
  let timeouts = '';
  for (const lot of sorted(lots)) {
    ext.include(lotContext(lot.id));
    // Empty here: res_parking adds the lot's extensions to it (a dialplan reload keeps what another module added),
    // and the context exists from the first load on, so the include never points at nothing.
    owned += new Context(lotContext(lot.id), `Lot ${lot.number}: filled by res_parking`).toString();
    app.ext(lot.number, `NoOp(Parking lot ${noteText(lot.name)})`, `Park(${lotName(lot.id)})`, 'Hangup()');
    if (lot.timeoutDestination !== null) {
      timeouts += new Context(timeoutContext(lot.id), `Calls nobody picked up in lot ${lot.number}`)
        .ext('s', `NoOp(Parked call timed out in ${noteText(lot.name)})`, gotoDestination(lot.timeoutDestination))
        .toString();
    }
  }
  return `${HEADER}${ext}${app}${owned}${timeouts}`;
}
