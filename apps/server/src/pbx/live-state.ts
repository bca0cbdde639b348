import { EventEmitter } from 'node:events';
import type { PbxConnection } from '@centralino/contract';
import { AppError } from '../errors.ts';
import { type AmiClient, AmiError, AUTH_RETRY_MS } from './ami/client.ts';
import { type AmiMessage, field } from './ami/framing.ts';

/**
 * The 503 of anything that needs Asterisk now, saying why: AMI not configured (the code's own message), the
 * credentials refused (tried again every 30 s), or Asterisk not answering (restarting, down; tried again
 * by itself), with what the last attempt met.
 */
export function pbxNotConnected(ami: AmiClient | null | undefined): AppError {
  if (!ami) return new AppError(503, 'pbx_not_connected');
  const seconds = Math.round(AUTH_RETRY_MS / 1000);
  if (ami.authFailed) {
    return new AppError(503, 'pbx_not_connected', (lang) =>
      lang === 'it'
        ? `Asterisk ha rifiutato l'accesso della console all'interfaccia di gestione (AMI): controlla AMI_USERNAME e AMI_SECRET rispetto a manager.conf. La console riprova ogni ${seconds} s e si ricollega da sola appena sono giusti.`
        : `Asterisk refused the console's login to its manager interface (AMI): check AMI_USERNAME and AMI_SECRET against manager.conf. The console tries again every ${seconds} s and reconnects by itself once they are right.`,
    );
  }
  const why = ami.lastError ? ` (${ami.lastError})` : '';
  return new AppError(503, 'pbx_not_connected', (lang) =>
    lang === 'it'
      ? `Asterisk non risponde ora sulla sua interfaccia di gestione (AMI)${why}, per esempio perché si sta riavviando: lo stato in tempo reale torna appena la console si ricollega, cosa che fa da sola.`
      : `Asterisk is not answering on its manager interface (AMI) right now${why}, for example because it is restarting: live state is back as soon as the console reconnects, which it does by itself.`,
  );
}

/**
 * One copy of what the PBX says about its accounts and trunks, shared by every caller (the dashboard,
 * the astproxy routes, the users list): read whole from AMI once, then kept current from AMI's events,
 * so that a thousand browsers cost Asterisk nothing more than one. A full read again happens after each
 * (re)connection and, while anyone asks, at most every RESYNC_MS as a safety net for a missed event.
 */

export interface Contact {
  ip: string;
  port: string;
  userAgent: string;
  /** PJSIPShowContacts' Status (Reachable, Unavailable, NonQualified, Unknown, …). */
  status: string;
}

export interface LiveSnapshot {
  /** Endpoint name → device state as PJSIPShowEndpoints writes it ('Not in use', 'In use', …). */
  states: Map<string, string>;
  /** AOR → its first registered contact. */
  contactOfAor: Map<string, Contact>;
  dnd: Map<string, string>;
  cf: Map<string, string>;
  cfb: Map<string, string>;
  cfu: Map<string, string>;
  /** Trunk (registration's endpoint) → OutboundRegistrationDetail Status. */
  registrations: Map<string, string>;
}

/** What an open dashboard reloads: 'conferences' when someone joined, left, or was muted in a room. */
export type LiveChange = 'users' | 'trunks' | 'conferences';
/** app_confbridge's events that change who is in a room, or how. */
const CONFERENCE_EVENTS = new Set([
  'ConfbridgeJoin',
  'ConfbridgeLeave',
  'ConfbridgeMute',
  'ConfbridgeUnmute',
  'ConfbridgeEnd',
]);

const RESYNC_MS = 60_000;
/** Changes are announced at most this often: a registration storm is one message, not thousands. */
const ANNOUNCE_MS = 200;

/** AMI's DeviceStateChange State → the text PJSIPShowEndpoints uses for the same state. */
const DEVICE_STATE_TEXT: Record<string, string> = {
  NOT_INUSE: 'Not in use',
  INUSE: 'In use',
  BUSY: 'Busy',
  INVALID: 'Invalid',
  UNAVAILABLE: 'Unavailable',
  RINGING: 'Ringing',
  RINGINUSE: 'Ring+Inuse',
  ONHOLD: 'On Hold',
  UNKNOWN: 'Unknown',
};

const FAMILIES = ['DND', 'CF', 'CFB', 'CFU'] as const;
type Family = (typeof FAMILIES)[number];
const familyKey: Record<Family, 'dnd' | 'cf' | 'cfb' | 'cfu'> = { DND: 'dnd', CF: 'cf', CFB: 'cfb', CFU: 'cfu' };

/**
 * An AMI list action's events. Asterisk answers an error instead of an empty list for some of them
 * (PJSIPShowContacts: 'No Contacts found', PJSIPShowEndpoints: 'No endpoints found'): that is no rows.
 */
export async function listOf(ami: AmiClient, action: string): Promise<AmiMessage[]> {
  try {
    return (await ami.action(action)).events;
  } catch (error) {
    if (error instanceof AmiError && /^No \w+ (found|configured)/i.test(error.message)) return [];
    throw error;
  }
}

/** The AOR a ContactList event belongs to (older Asterisk names it only in ObjectName, 'aor;@hash'). */
export function aorOf(event: AmiMessage): string {
  return field(event, 'aor') ?? (field(event, 'objectname') ?? '').split(';')[0] ?? '';
}

/** ip and port of a registered contact: the Via address, else the host of its URI. */
function contactOf(event: AmiMessage): Contact {
  const via = field(event, 'viaaddress') ?? '';
  let [ip = '', port = ''] = via.includes(':')
    ? [via.slice(0, via.lastIndexOf(':')), via.slice(via.lastIndexOf(':') + 1)]
    : [];
  if (!ip) {
    const match = /@([^:;>]+)(?::(\d+))?/.exec(field(event, 'uri') ?? '');
    ip = match?.[1] ?? '';
    port = match?.[2] ?? '';
  }
  return { ip, port, userAgent: field(event, 'useragent') ?? '', status: field(event, 'status') ?? '' };
}

function contactsOf(events: AmiMessage[]): Map<string, Contact> {
  const out = new Map<string, Contact>();
  for (const c of events) {
    const aor = aorOf(c);
    if (!out.has(aor)) out.set(aor, contactOf(c));
  }
  return out;
}

function registrationsOf(events: AmiMessage[]): Map<string, string> {
  const out = new Map<string, string>();
  // The list also carries an AuthDetail per registration, named like the trunk but without a Status.
  for (const r of events) {
    if (field(r, 'event') !== 'OutboundRegistrationDetail') continue;
    out.set(field(r, 'endpoint') || field(r, 'objectname') || '', field(r, 'status') ?? '');
  }
  return out;
}

/** AstDB family as key → value, read with the CLI (DBGetTree is missing on older Asterisk). */
export async function family(ami: AmiClient, name: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const line of await ami.command(`database show ${name}`)) {
    const match = /^\/([^/]+)\/(\S+)\s*:\s*(.*?)\s*$/.exec(line);
    if (match && match[1] === name) out.set(match[2] as string, match[3] as string);
  }
  return out;
}

/**
 * An AstDB family when Asterisk can be asked, null when it cannot (no AMI connection, or the command failed): the
 * call-flow lists then show the current mode or override as unknown rather than fail.
 */
export async function familyIfConnected(
  ami: AmiClient | null | undefined,
  name: string,
): Promise<Map<string, string> | null> {
  if (ami?.state !== 'connected') return null;
  try {
    return await family(ami, name);
  } catch {
    return null;
  }
}

/** What a dialplan step tells of an AstDB write (contract asterisk §5.3: the two idioms the feature codes keep). */
const DB_SET = /^DB\((DND|CF|CFB|CFU)\/([^)]+)\)=(.*)$/;
const DB_DELETE = /^Deleting: (DND|CF|CFB|CFU)\/(\S+)/;

export class LiveState extends EventEmitter {
  private snap: LiveSnapshot | undefined;
  private readAt = 0;
  private reading: Promise<LiveSnapshot> | undefined;
  private since: Date | null = null;
  private wasConnected = false;
  private wasRefused = false;
  private pendingChanges = new Set<LiveChange>();
  private announceTimer: NodeJS.Timeout | undefined;
  private refreshing = new Map<'contacts' | 'registrations', Promise<void>>();
  private again = new Set<'contacts' | 'registrations'>();

  constructor(private readonly ami: AmiClient | undefined) {
    super();
    this.setMaxListeners(0);
    if (!ami) return;
    ami.on('state', (state: string) => {
      const connected = state === 'connected';
      const refused = state === 'failed';
      if (connected === this.wasConnected && refused === this.wasRefused && this.since) return;
      // Down for another reason (refused, then restarting): still down since the same time.
      if (connected !== this.wasConnected || !this.since) this.since = new Date();
      this.wasConnected = connected;
      this.wasRefused = refused;
      if (!connected) {
        // What was known is no longer known: nothing is shown as live until the next full read.
        this.snap = undefined;
        this.readAt = 0;
      }
      this.emit('pbx', this.connection());
    });
    ami.on('ready', () => {
      // A (re)connection: Asterisk may have restarted, every state may differ. Read again if anyone looks.
      if (this.snap || this.listenerCount('change') > 0) this.refresh().catch(() => {});
    });
    ami.on('event', (event: AmiMessage) => this.onEvent(event));
  }

  get connected(): boolean {
    return this.ami?.state === 'connected';
  }

  connection(): PbxConnection {
    return {
      connected: this.connected,
      since: this.since?.toISOString() ?? null,
      ...(this.ami?.authFailed ? { loginRefused: true } : {}),
    };
  }

  private client(): AmiClient {
    if (!this.connected) throw pbxNotConnected(this.ami);
    return this.ami as AmiClient;
  }

  /** The shared snapshot; 503 when not connected. Reads it whole the first time and after RESYNC_MS. */
  async current(): Promise<LiveSnapshot> {
    this.client();
    if (this.snap && Date.now() - this.readAt < RESYNC_MS) return this.snap;
    if (this.snap) {
      // Stale but kept current by events: answer now, read again behind.
      this.refresh().catch(() => {});
      return this.snap;
    }
    return this.refresh();
  }

  /** The snapshot if one is held (no AMI traffic): for screens that only annotate their rows. */
  peek(): LiveSnapshot | undefined {
    return this.connected ? this.snap : undefined;
  }

  private refresh(): Promise<LiveSnapshot> {
    this.reading ??= this.readAll().finally(() => {
      this.reading = undefined;
    });
    return this.reading;
  }

  private async readAll(): Promise<LiveSnapshot> {
    const ami = this.client();
    const [endpoints, contacts, registrations, dnd, cf, cfb, cfu] = await Promise.all([
      listOf(ami, 'PJSIPShowEndpoints'),
      listOf(ami, 'PJSIPShowContacts'),
      listOf(ami, 'PJSIPShowRegistrationsOutbound'),
      family(ami, 'DND'),
      family(ami, 'CF'),
      family(ami, 'CFB'),
      family(ami, 'CFU'),
    ]);
    const states = new Map<string, string>();
    for (const e of endpoints) states.set(field(e, 'objectname') ?? '', field(e, 'devicestate') ?? '');
    const snap: LiveSnapshot = {
      states,
      contactOfAor: contactsOf(contacts),
      registrations: registrationsOf(registrations),
      dnd,
      cf,
      cfb,
      cfu,
    };
    const first = !this.snap;
    this.snap = snap;
    this.readAt = Date.now();
    if (!first) this.announce('users', 'trunks');
    return snap;
  }

  /** Re-reads one list (contacts or registrations) after events said it changed: one read at a time, one queued. */
  private reread(what: 'contacts' | 'registrations'): void {
    if (!this.snap || !this.connected) return;
    if (this.refreshing.has(what)) {
      this.again.add(what);
      return;
    }
    const ami = this.client();
    const run = (async () => {
      if (what === 'contacts') {
        const contacts = contactsOf(await listOf(ami, 'PJSIPShowContacts'));
        if (this.snap) this.snap.contactOfAor = contacts;
        this.announce('users', 'trunks');
      } else {
        const registrations = registrationsOf(await listOf(ami, 'PJSIPShowRegistrationsOutbound'));
        if (this.snap) this.snap.registrations = registrations;
        this.announce('trunks');
      }
    })()
      .catch(() => {})
      .finally(() => {
        this.refreshing.delete(what);
        if (this.again.delete(what)) this.reread(what);
      });
    this.refreshing.set(what, run);
  }

  /** Resolves once the re-reads asked for so far are done (tests, and callers that must see them). */
  async settled(): Promise<void> {
    while (this.refreshing.size > 0 || this.reading) {
      await Promise.all([...this.refreshing.values(), this.reading?.catch(() => {})]);
    }
  }

  private onEvent(event: AmiMessage): void {
    const name = field(event, 'event');
    if (name === 'FullyBooted') {
      if (this.snap) this.refresh().catch(() => {});
      return;
    }
    // Not in the snapshot: the dashboard asks for the rooms again, so it needs no snapshot read first.
    if (name && CONFERENCE_EVENTS.has(name)) {
      this.announce('conferences');
      return;
    }
    const snap = this.snap;
    if (!snap) return;
    switch (name) {
      case 'DeviceStateChange': {
        const device = field(event, 'device') ?? '';
        const state = (field(event, 'state') ?? '').toUpperCase();
        if (device.startsWith('PJSIP/')) {
          snap.states.set(device.slice(6), DEVICE_STATE_TEXT[state] ?? 'Unknown');
          this.announce('users', 'trunks');
        } else if (device.startsWith('Custom:DND')) {
          const account = device.slice('Custom:DND'.length);
          if (state === 'BUSY') snap.dnd.set(account, 'YES');
          else snap.dnd.delete(account);
          this.announce('users');
        }
        return;
      }
      case 'ContactStatus': {
        // The event carries no user agent or address: the contacts are read again (coalesced).
        const aor = field(event, 'aor') ?? '';
        if ((field(event, 'contactstatus') ?? '') === 'Removed') snap.contactOfAor.delete(aor);
        this.reread('contacts');
        return;
      }
      case 'Registry':
        this.reread('registrations');
        return;
      case 'Newexten': {
        const data = field(event, 'appdata') ?? '';
        const set = DB_SET.exec(data);
        if (set) {
          snap[familyKey[set[1] as Family]].set(set[2] as string, set[3] as string);
          this.announce('users');
          return;
        }
        const del = DB_DELETE.exec(data);
        if (del) {
          snap[familyKey[del[1] as Family]].delete(del[2] as string);
          this.announce('users');
        }
        return;
      }
    }
  }

  /** Records what a write of ours did to AstDB (presence), so no reader waits for an event to see it. */
  noteAstDb(familyName: Family, key: string, value: string | null): void {
    const map = this.snap?.[familyKey[familyName]];
    if (!map) return;
    if (value === null) map.delete(key);
    else map.set(key, value);
    this.announce('users');
  }

  /**
   * What the lists show changed outside the PBX (a write through the console, here or in another server process):
   * announced like a PBX event, so open dashboards reload.
   */
  configurationChanged(): void {
    this.announce('users', 'trunks');
  }

  private announce(...changes: LiveChange[]): void {
    for (const c of changes) this.pendingChanges.add(c);
    if (this.announceTimer) return;
    this.announceTimer = setTimeout(() => {
      this.announceTimer = undefined;
      const changed = [...this.pendingChanges];
      this.pendingChanges.clear();
      for (const c of changed) this.emit('change', c);
    }, ANNOUNCE_MS);
    this.announceTimer.unref();
  }

  close(): void {
    if (this.announceTimer) clearTimeout(this.announceTimer);
    this.removeAllListeners();
  }
}
