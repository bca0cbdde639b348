import type { AstExtension, AstTrunk, CtiUserEndpoints, PresenceRequest } from '@centralino/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { AppError } from '../errors.ts';
import type { AmiClient } from './ami/client.ts';
import { family, type LiveSnapshot, type LiveState, pbxNotConnected } from './live-state.ts';
import { sendNotify } from './notify.ts';
import { DEVICE_CODEC_LIST, WEBRTC_CODEC_LIST } from './render/pjsip.ts';

/** Live state read over AMI (contract asterisk §6); without a connection every call answers 503. */

type ExtensionStatus = AstExtension['status'];

/** DeviceState text → extension status (contract §6.3). */
export function deviceStatus(state: string | undefined): ExtensionStatus {
  switch ((state ?? '').toLowerCase()) {
    case 'not in use':
      return 'online';
    case 'in use':
    case 'busy':
      return 'busy';
    case 'ringing':
      return 'ringing';
    case 'ring+inuse':
      return 'busy_ringing';
    case 'on hold':
      return 'onhold';
    default:
      return 'offline';
  }
}

/**
 * DeviceState text → the number AMI's ExtensionState answers for a hint on that device, as Asterisk maps
 * them (unknown counts as idle); -1 is Asterisk's "no such extension".
 */
export function extensionStateOf(state: string | undefined): number {
  switch ((state ?? '').toLowerCase()) {
    case '':
      return -1;
    case 'in use':
      return 1;
    case 'busy':
      return 2;
    case 'unavailable':
    case 'invalid':
      return 4;
    case 'ringing':
      return 8;
    case 'ring+inuse':
      return 9;
    case 'on hold':
      return 16;
    default:
      return 0;
  }
}

/** OutboundRegistrationDetail Status → registration (contract §6.5). */
export function registrationStatus(status: string | undefined): AstTrunk['registration'] {
  const s = (status ?? '').toLowerCase();
  if (s === 'registered' || s === 'unregistered' || s === 'rejected' || s === 'failed') return s;
  if (s === 'auth. sent' || s === 'request sent') return 'sent';
  if (s === 'no authentication') return 'noauth';
  return 'unmonitored';
}

export interface Account {
  number: string;
  main: string;
  type: string;
  user: {
    username: string;
    name: string;
    profileId: number | null;
    mobile: string | null;
    email: string | null;
    voicemail: boolean;
  };
}

/**
 * A trunk's status: its endpoint's device state, except that a provider that accepted our registration
 * is reachable even before Asterisk's first qualify of its contact (up to qualify_frequency after a start).
 */
export function trunkStatus(state: string | undefined, registration: AstTrunk['registration']): AstTrunk['status'] {
  const status = state === undefined ? 'unmonitored' : deviceStatus(state);
  return registration === 'registered' && (status === 'offline' || status === 'unmonitored') ? 'online' : status;
}

export class PbxLive {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly ami: AmiClient | undefined,
    readonly state: LiveState,
  ) {}

  private client(): AmiClient {
    const ami = this.ami;
    if (ami?.state !== 'connected') throw pbxNotConnected(ami);
    return ami as AmiClient;
  }

  private accountsCache: { generation: number; local: number; value: Promise<Account[]> } | undefined;
  private localChanges = 0;

  /** Told of every configuration change this process makes (the applier's markDirty). */
  configurationChanged = (): void => {
    this.localChanges++;
  };

  /**
   * Every SIP account of the users: main extensions and their devices. Read once per configuration
   * generation (the apply counter every write bumps, in the database so other processes' writes count
   * too), not once per request: 10,000 users are 30,000 rows. Callers must not change what they get.
   */
  async accounts(): Promise<readonly Account[]> {
    const row = await this.db.selectFrom('pbx_apply').select('generation').where('id', '=', 1).executeTakeFirst();
    const generation = Number(row?.generation ?? 0);
    const cached = this.accountsCache;
    if (cached && cached.generation === generation && cached.local === this.localChanges) return cached.value;
    const value = this.readAccounts();
    this.accountsCache = { generation, local: this.localChanges, value };
    value.catch(() => {
      if (this.accountsCache?.value === value) this.accountsCache = undefined;
    });
    return value;
  }

  private async readAccounts(): Promise<Account[]> {
    const [users, devices, fxs] = await Promise.all([
      this.db
        .selectFrom('users')
        .select(['username', 'displayname', 'default_extension', 'profile_id', 'mobile', 'email', 'voicemail_pin'])
        .where('default_extension', 'is not', null)
        .orderBy('extension_order')
        .execute(),
      this.db
        .selectFrom('devices')
        .innerJoin('users', 'users.id', 'devices.user_id')
        .select(['devices.extension', 'devices.type', 'users.default_extension'])
        .where('devices.extension', 'is not', null)
        .orderBy('devices.extension')
        .execute(),
      this.db
        .selectFrom('gateway_ports')
        .select(['extension', 'physical_extension'])
        .where('port_type', '=', 'fxs')
        .where('physical_extension', 'is not', null)
        .execute(),
    ]);
    const out: Account[] = [];
    const byMain = new Map<string, Account['user']>();
    for (const u of users) {
      const user = {
        username: u.username,
        name: u.displayname,
        profileId: u.profile_id === null ? null : Number(u.profile_id),
        mobile: u.mobile,
        email: u.email,
        voicemail: u.voicemail_pin !== null,
      };
      const main = u.default_extension as string;
      byMain.set(main, user);
    }
    // A user's first device shares the main number: the main account is then that device (a web phone
    // on the main number is a web phone), else a bare extension ('main').
    const onMain = new Map<string, string>();
    for (const d of devices) if (d.extension && d.extension === d.default_extension) onMain.set(d.extension, d.type);
    for (const [main, user] of byMain) out.push({ number: main, main, type: onMain.get(main) ?? 'main', user });
    for (const d of devices) {
      const user = d.default_extension ? byMain.get(d.default_extension) : undefined;
      if (user && d.extension && d.extension !== d.default_extension) {
        out.push({ number: d.extension, main: d.default_extension as string, type: d.type, user });
      }
    }
    for (const port of fxs) {
      const user = port.extension ? byMain.get(port.extension) : undefined;
      if (user && port.physical_extension) {
        out.push({ number: port.physical_extension, main: port.extension as string, type: 'physical', user });
      }
    }
    return out;
  }

  private snapshot(): Promise<LiveSnapshot> {
    return this.state.current();
  }

  private toExtension(account: Account, snap: LiveSnapshot): AstExtension {
    const n = account.number;
    const contact = snap.contactOfAor.get(n);
    const split = (value: string | undefined) =>
      value?.startsWith('vmu') ? { to: '', vm: value.slice(3) } : { to: value ?? '', vm: '' };
    const cf = split(snap.cf.get(n));
    const cfb = split(snap.cfb.get(n));
    const cfu = split(snap.cfu.get(n));
    return {
      ip: contact?.ip ?? '',
      port: contact?.port ?? '',
      mac: '',
      name: account.user.name,
      exten: n,
      username: account.user.username,
      dnd: snap.dnd.has(n),
      cf: cf.to,
      cfVm: cf.vm,
      cfb: cfb.to,
      cfbVm: cfb.vm,
      cfu: cfu.to,
      cfuVm: cfu.vm,
      codecs: account.type === 'webrtc' ? WEBRTC_CODEC_LIST : DEVICE_CODEC_LIST,
      status: deviceStatus(snap.states.get(n)),
      context: account.user.profileId === null ? 'from-internal' : `cti-profile-${account.user.profileId}`,
      chanType: 'pjsip',
      useWebsocket: account.type === 'webrtc',
      sipuseragent: contact?.userAgent ?? '',
      conversations: {},
    };
  }

  async extensions(): Promise<Record<string, AstExtension>> {
    const snap = await this.snapshot();
    const out: Record<string, AstExtension> = {};
    for (const account of await this.accounts()) out[account.number] = this.toExtension(account, snap);
    return out;
  }

  /** Every account's extension state as AMI's ExtensionState numbers it (the older API's /phones/state). */
  async extensionStates(): Promise<Record<string, number>> {
    const snap = await this.snapshot();
    const out: Record<string, number> = {};
    for (const account of await this.accounts())
      out[account.number] = extensionStateOf(snap.states.get(account.number));
    return out;
  }

  async extension(id: string): Promise<AstExtension> {
    this.client();
    const account = (await this.accounts()).find((a) => a.number === id);
    if (!account) throw new AppError(404, 'not_found');
    return this.toExtension(account, await this.snapshot());
  }

  /**
   * Accounts with at least one registered contact, for screens that only annotate their rows: without a
   * connection (or when the PBX does not answer) the set is empty and no row claims to be registered.
   */
  async registeredAccounts(): Promise<Set<string>> {
    const snap = this.state.connected ? await this.state.current().catch(() => undefined) : undefined;
    const value = new Set<string>();
    for (const [aor, contact] of snap?.contactOfAor ?? []) {
      const status = contact.status.toLowerCase();
      if (status !== 'unavailable' && status !== 'removed') value.add(aor);
    }
    return value;
  }

  /**
   * Asks a registered phone to fetch its configuration again (contract api-core §13.1): a SIP NOTIFY
   * check-sync through Asterisk. Asterisk reports a failure in the command output, not the response.
   */
  async reconfigure(extension: string): Promise<void> {
    const result = await sendNotify(this.client(), extension, 'generic-reload');
    if (!result.ok) {
      throw result.reason === 'not_connected' ? pbxNotConnected(this.ami) : new AppError(502, 'phone_not_reconfigured');
    }
  }

  async trunks(): Promise<Record<string, AstTrunk>> {
    const [rows, snap] = await Promise.all([
      this.db.selectFrom('trunks').select(['name', 'codecs', 'settings']).orderBy('id').execute(),
      this.snapshot(),
    ]);
    const regByName = snap.registrations;
    const out: Record<string, AstTrunk> = {};
    for (const row of rows) {
      const name = row.name.replace(/[^A-Za-z0-9_-]/g, '_');
      const settings = JSON.parse(row.settings || '{}') as Record<string, string>;
      const contact = snap.contactOfAor.get(name);
      const state = snap.states.get(name);
      out[name] = {
        ip: contact?.ip ?? settings.sip_server ?? '',
        port: contact?.port ?? settings.sip_server_port ?? '',
        name,
        exten: name,
        codecs: row.codecs.split(',').filter(Boolean),
        status: trunkStatus(state, registrationStatus(regByName.get(name))),
        registration: registrationStatus(regByName.get(name)),
        chanType: 'pjsip',
        maxChannels: Number(settings.maxchans) || 0,
        sipuseragent: contact?.userAgent ?? '',
        conversations: {},
      };
    }
    return out;
  }

  async userEndpoints(): Promise<Record<string, CtiUserEndpoints>> {
    const snap = await this.snapshot();
    const accounts = await this.accounts();
    const out: Record<string, CtiUserEndpoints> = {};
    for (const account of accounts) {
      const u = account.user;
      let entry = out[u.username];
      if (!entry) {
        const main = account.main;
        const presenceOf = (value: string | undefined) =>
          value === undefined
            ? 'online'
            : value.startsWith('vmu')
              ? 'voicemail'
              : value === u.mobile
                ? 'cellphone'
                : 'callforward';
        const presence = snap.dnd.has(main) ? 'dnd' : presenceOf(snap.cf.get(main));
        entry = {
          name: u.name,
          username: u.username,
          mainPresence: presence,
          presence,
          presenceOnBusy: presenceOf(snap.cfb.get(main)),
          presenceOnUnavailable: presenceOf(snap.cfu.get(main)),
          recallOnBusy: 'disabled',
          endpoints: {
            email: u.email ? [{ id: u.email }] : [],
            jabber: [],
            extension: [],
            cellphone: u.mobile ? [{ id: u.mobile }] : [],
            voicemail: u.voicemail
              ? [{ id: main, owner: u.username, email: u.email ?? '', maxMessageCount: '100', maxMessageLength: '300' }]
              : [],
            mainextension: [{ id: main, description: snap.contactOfAor.get(main)?.userAgent ?? '' }],
          },
        };
        out[u.username] = entry;
      }
      if (account.number !== account.main) {
        entry.endpoints.extension.push({
          id: account.number,
          type: account.type,
          description: snap.contactOfAor.get(account.number)?.userAgent ?? '',
        });
      }
    }
    // With 'online' presence the user's phones tell the story (contract §3.3 mainPresence).
    for (const entry of Object.values(out)) {
      if (entry.presence !== 'online') continue;
      const ids = [entry.endpoints.mainextension[0]?.id, ...entry.endpoints.extension.map((e) => e.id)];
      const statuses = ids.map((id) => deviceStatus(snap.states.get(id ?? '')));
      entry.mainPresence = statuses.some((s) => s === 'busy' || s === 'busy_ringing' || s === 'onhold')
        ? 'busy'
        : statuses.includes('ringing')
          ? 'ringing'
          : statuses.includes('online')
            ? 'online'
            : 'offline';
    }
    return out;
  }

  /** Sets a user's presence for the main extension and every device (contract §3.3). */
  async setPresence(request: PresenceRequest, caller: string): Promise<void> {
    const ami = this.client();
    const username = request.username ?? caller;
    const accounts = (await this.accounts()).filter((a) => a.user.username === username);
    const user = accounts[0]?.user;
    const main = accounts[0]?.main;
    if (!user || !main) throw new AppError(404, 'user_not_found');
    const invalid = (field: string, message: string) => new AppError(400, 'validation', message, { [field]: message });
    let forward: string | null = null;
    let state = 'AVAILABLE';
    switch (request.status) {
      case 'dnd':
        state = 'DND';
        break;
      case 'callforward':
        if (!request.to) throw invalid('to', 'A number to forward to is required');
        forward = request.to;
        state = 'AWAY,NUMBER';
        break;
      case 'cellphone':
        if (!user.mobile) throw invalid('status', 'The user has no mobile number');
        forward = user.mobile;
        state = 'AWAY,CELLPHONE';
        break;
      case 'voicemail':
        if (!user.voicemail) throw invalid('status', 'The user has no voicemail box');
        forward = `vmu${main}`;
        state = 'XA,VOICEMAIL';
        break;
    }
    // Only keys that are there: Asterisk logs a warning for each DBDel of a missing key. The snapshot is
    // read whole first, so it holds every key.
    const snap = await this.state.current();
    const present = { DND: snap.dnd, CF: snap.cf };
    const del = async (key: string) => {
      const [family = '', k = ''] = key.split('/');
      if (!present[family as keyof typeof present]?.has(k)) return;
      await ami.action('DBDel', { Family: family, Key: k }).catch(() => {});
      this.state.noteAstDb(family as 'DND' | 'CF', k, null);
    };
    for (const account of accounts) {
      const x = account.number;
      if (request.status === 'dnd') {
        await del(`CF/${x}`);
        await ami.action('DBPut', { Family: 'DND', Key: x, Val: 'YES' });
        this.state.noteAstDb('DND', x, 'YES');
        await ami.command(`devstate change Custom:DND${x} BUSY`);
      } else {
        await del(`DND/${x}`);
        await ami.command(`devstate change Custom:DND${x} NOT_INUSE`);
        if (forward) {
          await ami.action('DBPut', { Family: 'CF', Key: x, Val: forward });
          this.state.noteAstDb('CF', x, forward);
        } else await del(`CF/${x}`);
      }
    }
    await ami.command(`presencestate change CustomPresence:${main} ${state}`);
  }

  /**
   * Takes back what phones said with *70/*71 on these accounts, so the call waiting the console just
   * configured applies. Best effort: without a connection the phones' choice stays until they change it.
   * Only keys that exist are deleted (Asterisk warns for each missing one). Answers how many were removed.
   */
  async clearCallWaitingOverrides(accounts: Iterable<string>): Promise<number> {
    const ami = this.ami;
    if (ami?.state !== 'connected') return 0;
    const present = await family(ami, 'CW');
    const wanted = [...accounts].filter((a) => present.has(a));
    await Promise.all(wanted.map((k) => ami.action('DBDel', { Family: 'CW', Key: k }).catch(() => {})));
    return wanted.length;
  }
}
