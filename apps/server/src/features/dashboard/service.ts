import type {
  DashboardExtensionStatus,
  DashboardPresence,
  DashboardTrunk,
  DashboardTrunksPage,
  DashboardUser,
  DashboardUsersPage,
} from '@centralino/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { type Account, deviceStatus, type PbxLive, registrationStatus, trunkStatus } from '../../pbx/live.ts';
import type { LiveSnapshot } from '../../pbx/live-state.ts';

export interface PageQuery {
  search?: string;
  offset: number;
  limit: number;
}

/** Endpoint types drawn as headsets (spec §2: web phones and the desktop client). */
const HEADSET_TYPES = new Set(['webrtc', 'nethlink']);

interface UserEntry {
  username: string;
  name: string;
  main: string;
  mobile: string | null;
  accounts: Account[];
  /** Lower-case text a search looks in: name, username, every number. */
  haystack: string;
}

interface TrunkEntry {
  name: string;
  /** Lower-case name a search looks in. */
  haystack: string;
  kind: DashboardTrunk['kind'];
  /** From the trunk's settings: shown until a registered contact says where the provider is. */
  server: string;
  serverPort: string;
  codecs: string[];
}

/**
 * What the dashboard shows: users with their presence and extensions, trunks with their registration.
 * Everything comes from two shared copies — the accounts of the configuration (PbxLive, read once per
 * change) and the PBX's live state (LiveState, kept current by AMI events) — so a request costs a
 * filter over memory, whatever the number of browsers open on it. Without a connection, users and
 * trunks are still listed, with their state 'unknown'.
 */
export class DashboardService {
  private grouped: { from: readonly Account[]; users: UserEntry[] } | undefined;
  private trunkList: { from: readonly Account[]; trunks: TrunkEntry[] } | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly live: PbxLive,
  ) {}

  private async users(): Promise<UserEntry[]> {
    const accounts = await this.live.accounts();
    if (this.grouped?.from === accounts) return this.grouped.users;
    const byUser = new Map<string, UserEntry>();
    for (const account of accounts) {
      let entry = byUser.get(account.user.username);
      if (!entry) {
        entry = {
          username: account.user.username,
          name: account.user.name,
          main: account.main,
          mobile: account.user.mobile,
          accounts: [],
          haystack: `${account.user.name}\n${account.user.username}`.toLowerCase(),
        };
        byUser.set(account.user.username, entry);
      }
      entry.accounts.push(account);
      entry.haystack += `\n${account.number}`;
    }
    const users = [...byUser.values()];
    this.grouped = { from: accounts, users };
    return users;
  }

  private async snapshot(): Promise<LiveSnapshot | undefined> {
    if (!this.live.state.connected) return undefined;
    return this.live.state.current().catch(() => undefined);
  }

  async usersPage(query: PageQuery): Promise<DashboardUsersPage> {
    const [all, snap] = await Promise.all([this.users(), this.snapshot()]);
    const needle = query.search?.trim().toLowerCase() ?? '';
    const matching = needle ? all.filter((u) => u.haystack.includes(needle)) : all;
    return {
      pbx: this.live.state.connection(),
      total: matching.length,
      users: matching.slice(query.offset, query.offset + query.limit).map((u) => toUser(u, snap)),
    };
  }

  /**
   * The trunks as the configuration has them, read and parsed once per configuration change (the accounts'
   * generation: every write marks the configuration, trunks' too), not once per request.
   */
  private async trunks(): Promise<TrunkEntry[]> {
    const accounts = await this.live.accounts();
    if (this.trunkList?.from === accounts) return this.trunkList.trunks;
    const rows = await this.db
      .selectFrom('trunks')
      .select(['name', 'kind', 'codecs', 'settings'])
      .orderBy('id')
      .execute();
    const trunks = rows.map((row): TrunkEntry => {
      const settings = JSON.parse(row.settings || '{}') as Record<string, string>;
      return {
        name: row.name.replace(/[^A-Za-z0-9_-]/g, '_'),
        haystack: row.name.toLowerCase(),
        kind: row.kind === 'gateway' ? 'gateway' : 'voip',
        server: settings.sip_server ?? '',
        serverPort: settings.sip_server_port ?? '',
        codecs: row.codecs.split(',').filter(Boolean),
      };
    });
    this.trunkList = { from: accounts, trunks };
    return trunks;
  }

  async trunksPage(query: PageQuery): Promise<DashboardTrunksPage> {
    const [all, snap] = await Promise.all([this.trunks(), this.snapshot()]);
    const needle = query.search?.trim().toLowerCase() ?? '';
    const matching = needle ? all.filter((t) => t.haystack.includes(needle)) : all;
    return {
      pbx: this.live.state.connection(),
      total: matching.length,
      trunks: matching.slice(query.offset, query.offset + query.limit).map((t): DashboardTrunk => {
        const contact = snap?.contactOfAor.get(t.name);
        const registration = snap ? registrationStatus(snap.registrations.get(t.name)) : undefined;
        return {
          name: t.name,
          kind: t.kind,
          chanType: 'pjsip',
          ip: contact?.ip ?? t.server,
          port: contact?.port ?? t.serverPort,
          status: snap && registration ? trunkStatus(snap.states.get(t.name), registration) : 'unknown',
          registration: registration ?? 'unknown',
          codecs: t.codecs,
        };
      }),
    };
  }
}

function toUser(user: UserEntry, snap: LiveSnapshot | undefined): DashboardUser {
  let presence: DashboardPresence = 'unknown';
  let forwardTo = '';
  if (snap) {
    const cf = snap.cf.get(user.main);
    if (snap.dnd.has(user.main)) presence = 'dnd';
    else if (cf === undefined) presence = 'online';
    else if (cf.startsWith('vmu')) {
      presence = 'voicemail';
      forwardTo = cf.slice(3);
    } else {
      presence = cf === user.mobile ? 'cellphone' : 'callforward';
      forwardTo = cf;
    }
  }
  return {
    username: user.username,
    name: user.name,
    presence,
    forwardTo,
    extensions: user.accounts.map((a) => ({
      id: a.number,
      type: a.type,
      status: (snap ? deviceStatus(snap.states.get(a.number)) : 'unknown') satisfies DashboardExtensionStatus,
      headset: HEADSET_TYPES.has(a.type),
    })),
  };
}
