import {
  announcementDestination,
  conferenceDestination,
  cqrDestination,
  type DestinationEntry,
  type Destinations,
  dayNightDestination,
  ivrDestination,
  parkingDestination,
  queueDestination,
  ringGroupDestination,
  timeConditionDestination,
  type UiLanguage,
} from '@centralino/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/**
 * Every place the PBX can send a call, keyed as the dialplan names it ('context,exten,priority'), and who
 * points at each. One list for inbound routes, the bulk editor and the user's busy / no-answer / unreachable
 * destinations, so a destination offered anywhere is one the renderer writes.
 */
export const HANGUP_DESTINATION = 'app-blackhole,hangup,1';
export const BUSY_DESTINATION = 'app-blackhole,busy,1';
export const extensionDestination = (ext: string) => `from-did-direct,${ext},1`;
/** A mailbox entered as busy (b), unavailable (u) or without a message (s): contract §4.4. */
export type VoicemailKind = 'vmb' | 'vmu' | 'vms';
export const voicemailDestination = (ext: string, kind: VoicemailKind = 'vmu') => `ext-local,${kind}${ext},1`;
export const voicemailDestinations = (ext: string) =>
  (['vmb', 'vmu', 'vms'] as const).map((k) => voicemailDestination(ext, k));
/** The group's extension in ext-group is named, not numbered: a phone dialling a group id rings nothing. */
export const groupDestination = (groupId: number) => `ext-group,cti-group-${groupId},1`;
/** Destinations that call extension N: the extension itself and its mailbox. */
export const destinationsOfExtension = (ext: string) => [extensionDestination(ext), ...voicemailDestinations(ext)];

/** The extension a destination calls, directly or at its voicemail; undefined for any other destination. */
export function extensionCalledBy(destination: string): string | undefined {
  const match = /^(?:from-did-direct,(\d+)|ext-local,vm[bus](\d+)),1$/.exec(destination);
  return match?.[1] ?? match?.[2];
}

const VOICEMAIL_LABEL: Record<VoicemailKind, string> = { vmb: 'busy', vmu: 'unavailable', vms: 'no message' };

export interface Destination {
  destination: string;
  description: string;
  category: string;
}

/** Every destination that exists now, in the order the pickers show them. */
export async function destinationList(db: Kysely<Database>): Promise<Destination[]> {
  const [users, groups, announcements, ivrs, dayNight, queues, conditions, cqrs, ringGroups] = await Promise.all([
    db
      .selectFrom('users')
      .select(['default_extension', 'displayname', 'voicemail_pin'])
      .where('default_extension', 'is not', null)
      .orderBy('extension_order')
      .execute(),
    db.selectFrom('cti_groups').select(['id', 'name']).orderBy('name').execute(),
    db.selectFrom('announcements').select(['id', 'description']).orderBy('description').execute(),
    db.selectFrom('ivrs').select(['id', 'name']).orderBy('name').execute(),
    db.selectFrom('daynight').select(['ext', 'name']).orderBy('ext').execute(),
    db.selectFrom('queues').select(['extension', 'name']).orderBy('extension').execute(),
    db.selectFrom('time_conditions').select(['id', 'name']).orderBy('name').execute(),
    db.selectFrom('cqrs').select(['id', 'name']).orderBy('name').execute(),
    db.selectFrom('ring_groups').select(['extension', 'name']).orderBy('extension').execute(),
  ]);
  const list: Destination[] = [
    { destination: HANGUP_DESTINATION, description: 'Hangup', category: 'Terminate Call' },
    { destination: BUSY_DESTINATION, description: 'Busy', category: 'Terminate Call' },
  ];
  for (const u of users) {
    const ext = u.default_extension as string;
    list.push({
      destination: extensionDestination(ext),
      description: `${ext} ${u.displayname}`,
      category: 'Extensions',
    });
  }
  for (const u of users) {
    if (u.voicemail_pin === null) continue;
    const ext = u.default_extension as string;
    for (const kind of ['vmb', 'vmu', 'vms'] as const) {
      list.push({
        destination: voicemailDestination(ext, kind),
        description: `<${ext}> ${u.displayname} (${VOICEMAIL_LABEL[kind]})`,
        category: 'Voicemail',
      });
    }
  }
  for (const g of groups) {
    list.push({ destination: groupDestination(Number(g.id)), description: g.name, category: 'Groups' });
  }
  for (const a of announcements) {
    list.push({
      destination: announcementDestination(Number(a.id)),
      description: a.description,
      category: 'Announcements',
    });
  }
  for (const i of ivrs) {
    list.push({ destination: ivrDestination(Number(i.id)), description: i.name, category: 'IVR' });
  }
  for (const d of dayNight) {
    list.push({ destination: dayNightDestination(Number(d.ext)), description: d.name, category: 'Day/Night' });
  }
  for (const q of queues) {
    list.push({
      destination: queueDestination(q.extension),
      description: `${q.extension} ${q.name}`,
      category: 'Queues',
    });
  }
  for (const c of conditions) {
    list.push({
      destination: timeConditionDestination(Number(c.id)),
      description: c.name,
      category: 'Time conditions',
    });
  }
  for (const c of cqrs) {
    list.push({ destination: cqrDestination(Number(c.id)), description: c.name, category: 'Caller query routing' });
  }
  for (const g of ringGroups) {
    list.push({
      destination: ringGroupDestination(g.extension),
      description: `${g.extension} ${g.name}`,
      category: 'Ring groups',
    });
  }
  // Rooms send calls nowhere else: a destination only, never a sender in referencesTo.
  for (const r of await db.selectFrom('conferences').select(['extension', 'name']).orderBy('extension').execute()) {
    list.push({
      destination: conferenceDestination(r.extension),
      description: `${r.extension} ${r.name}`,
      category: 'Conferences',
    });
  }
  // A lot parks the caller; its timeout destination makes it a sender too (flowReferencesTo).
  for (const l of await db.selectFrom('parking_lots').select(['extension', 'name']).orderBy('extension').execute()) {
    list.push({
      destination: parkingDestination(l.extension),
      description: `${l.extension} ${l.name}`,
      category: 'Parking',
    });
  }
  return list;
}

/** The picker's shape (contract §4.4): categories in alphabetical order, entries keyed "0", "1", …. */
export function byCategory(list: Destination[]): Destinations {
  const out: Record<string, Record<string, DestinationEntry>> = {};
  for (const category of [...new Set(list.map((d) => d.category))].sort()) {
    const entries = list.filter((d) => d.category === category);
    out[category] = Object.fromEntries(
      entries.map((d, i) => [String(i), { ...d, selected: d.destination === HANGUP_DESTINATION }]),
    );
  }
  return out;
}

/** Something that sends calls to a destination: an inbound route, or a user's busy/no-answer/unreachable. */
export interface Reference {
  kind:
    | 'route'
    | 'busy'
    | 'noanswer'
    | 'unavailable'
    | 'announcement'
    | 'ivr'
    | 'daynight'
    | 'queue'
    | 'timecondition'
    | 'cqr'
    | 'ringgroup'
    | 'parking'
    | 'blocked';
  /** The route's DID and description, or the user's name and number. */
  label: string;
  userId?: number;
}

const KIND_TEXT: Record<UiLanguage, Record<Reference['kind'], string>> = {
  en: {
    route: 'inbound route',
    busy: 'busy destination of',
    noanswer: 'no-answer destination of',
    unavailable: 'unreachable destination of',
    announcement: 'announcement',
    ivr: 'IVR',
    daynight: 'day/night switch',
    queue: 'failover of queue',
    timecondition: 'time condition',
    cqr: 'caller query routing',
    ringgroup: 'unanswered calls of ring group',
    parking: 'calls nobody picked up in parking lot',
    blocked: 'blocked caller',
  },
  it: {
    route: 'rotta in entrata',
    busy: 'destinazione su occupato di',
    noanswer: 'destinazione su mancata risposta di',
    unavailable: 'destinazione su non raggiungibile di',
    announcement: 'annuncio',
    ivr: 'IVR',
    daynight: 'commutatore giorno/notte',
    queue: 'destinazione di riserva della coda',
    timecondition: 'condizione oraria',
    cqr: 'instradamento per chiamante',
    ringgroup: 'chiamate senza risposta del gruppo di chiamata',
    parking: 'chiamate non riprese del parcheggio',
    blocked: 'chiamante bloccato',
  },
};
export function describeReferences(refs: Reference[], lang: UiLanguage): string {
  return refs.map((r) => `${KIND_TEXT[lang][r.kind]} ${r.label}`).join(', ');
}

/** Who sends calls to any of these destinations (inbound routes first, then users by number). */
export async function referencesTo(
  db: Kysely<Database>,
  destinations: string[],
  exceptUserId?: number,
): Promise<Reference[]> {
  if (destinations.length === 0) return [];
  const [routes, users, flows] = await Promise.all([
    db
      .selectFrom('inbound_routes')
      .select(['did', 'cid', 'description'])
      .where('destination', 'in', destinations)
      .orderBy('did')
      .execute(),
    db
      .selectFrom('users')
      .select(['id', 'username', 'default_extension', 'busy_dest', 'noanswer_dest', 'unavailable_dest'])
      .where('default_extension', 'is not', null)
      .where((eb) =>
        eb.or([
          eb('busy_dest', 'in', destinations),
          eb('noanswer_dest', 'in', destinations),
          eb('unavailable_dest', 'in', destinations),
        ]),
      )
      .orderBy('extension_order')
      .limit(50)
      .execute(),
    flowReferencesTo(db, destinations),
  ]);
  const refs: Reference[] = routes.map((r) => ({ kind: 'route', label: routeLabel(r) }));
  refs.push(...flows);
  const wanted = new Set(destinations);
  for (const u of users) {
    if (Number(u.id) === exceptUserId) continue;
    const label = `${u.username} (${u.default_extension})`;
    if (u.busy_dest && wanted.has(u.busy_dest)) refs.push({ kind: 'busy', label, userId: Number(u.id) });
    if (u.noanswer_dest && wanted.has(u.noanswer_dest)) refs.push({ kind: 'noanswer', label, userId: Number(u.id) });
    if (u.unavailable_dest && wanted.has(u.unavailable_dest)) {
      refs.push({ kind: 'unavailable', label, userId: Number(u.id) });
    }
  }
  return refs;
}

/** How messages name an inbound route: its DID ('*' for any), caller ID and description. */
export function routeLabel(r: { did: string; cid: string; description: string }): string {
  return [r.did || '*', r.cid ? `/${r.cid}` : '', r.description ? ` (${r.description})` : ''].join('');
}

/** Announcements, IVRs, day/night switches, queues and ring groups that send calls to any of these destinations, by name. */
export async function flowReferencesTo(db: Kysely<Database>, destinations: string[]): Promise<Reference[]> {
  const [announcements, ivrs, entries, dayNight, queues, conditions, cqrs, cqrEntries, ringGroups, lots, blocked] =
    await Promise.all([
      db
        .selectFrom('announcements')
        .select(['description'])
        .where('post_dest', 'in', destinations)
        .orderBy('description')
        .execute(),
      db
        .selectFrom('ivrs')
        .select(['name'])
        .where((eb) =>
          eb.or([eb('invalid_destination', 'in', destinations), eb('timeout_destination', 'in', destinations)]),
        )
        .orderBy('name')
        .execute(),
      db
        .selectFrom('ivr_entries')
        .innerJoin('ivrs', 'ivrs.id', 'ivr_entries.ivr_id')
        .select(['ivrs.name', 'ivr_entries.selection'])
        .where('ivr_entries.dest', 'in', destinations)
        .orderBy('ivrs.name')
        .orderBy('ivr_entries.selection')
        .execute(),
      db
        .selectFrom('daynight')
        .select(['name'])
        .where((eb) => eb.or([eb('day_dest', 'in', destinations), eb('night_dest', 'in', destinations)]))
        .orderBy('ext')
        .execute(),
      db
        .selectFrom('queues')
        .select(['extension', 'name'])
        .where('failover_dest', 'in', destinations)
        .orderBy('extension')
        .execute(),
      db
        .selectFrom('time_conditions')
        .select(['name'])
        .where((eb) => eb.or([eb('true_dest', 'in', destinations), eb('false_dest', 'in', destinations)]))
        .orderBy('name')
        .execute(),
      db.selectFrom('cqrs').select(['name']).where('default_dest', 'in', destinations).orderBy('name').execute(),
      db
        .selectFrom('cqr_entries')
        .innerJoin('cqrs', 'cqrs.id', 'cqr_entries.cqr_id')
        .select(['cqrs.name'])
        .where('cqr_entries.dest', 'in', destinations)
        .orderBy('cqrs.name')
        .execute(),
      db
        .selectFrom('ring_groups')
        .select(['extension', 'name'])
        .where('failover_dest', 'in', destinations)
        .orderBy('extension')
        .execute(),
      db
        .selectFrom('parking_lots')
        .select(['extension', 'name'])
        .where('timeout_dest', 'in', destinations)
        .orderBy('extension')
        .execute(),
      db
        .selectFrom('blocked_callers')
        .select(['match', 'number'])
        .where('destination', 'in', destinations)
        .orderBy('number')
        .execute(),
    ]);
  const refs: Reference[] = announcements.map((a) => ({ kind: 'announcement', label: a.description }));
  const seen = new Set<string>();
  for (const i of ivrs) {
    seen.add(i.name);
    refs.push({ kind: 'ivr', label: i.name });
  }
  for (const e of entries) {
    if (seen.has(e.name)) continue;
    seen.add(e.name);
    refs.push({ kind: 'ivr', label: e.name });
  }
  for (const d of dayNight) refs.push({ kind: 'daynight', label: d.name });
  for (const q of queues) refs.push({ kind: 'queue', label: `${q.extension} ${q.name}` });
  for (const c of conditions) refs.push({ kind: 'timecondition', label: c.name });
  const cqrNames = new Set<string>();
  for (const c of [...cqrs, ...cqrEntries]) {
    if (cqrNames.has(c.name)) continue;
    cqrNames.add(c.name);
    refs.push({ kind: 'cqr', label: c.name });
  }
  for (const g of ringGroups) refs.push({ kind: 'ringgroup', label: `${g.extension} ${g.name}` });
  for (const l of lots) refs.push({ kind: 'parking', label: `${l.extension} ${l.name}` });
  for (const b of blocked) refs.push({ kind: 'blocked', label: b.match === 'anonymous' ? 'anonymous' : b.number });
  return refs;
}
