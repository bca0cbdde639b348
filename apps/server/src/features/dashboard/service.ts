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

/**
 * What the dashboard shows: users with their presence and extensions, trunks with their registration.
 * Everything comes from two shared copies — the accounts of the configuration (PbxLive, read once per
 * change) and the PBX's live state (LiveState, kept current by AMI events) — so a request costs a
 * filter over memory, whatever the number of browsers open on it. Without a connection, users and
 * trunks are still listed, with their state 'unknown'.
 */
export class DashboardService {
  private grouped: { from: readonly Account[]; users: UserEntry[] } | undefined;

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

  async trunksPage(query: PageQuery): Promise<DashboardTrunksPage> {
    const [rows, snap] = await Promise.all([
      this.db.selectFrom('trunks').select(['name', 'kind', 'codecs', 'settings']).orderBy('id').execute(),
      this.snapshot(),
    ]);
    const needle = query.search?.trim().toLowerCase() ?? '';
    const trunks: DashboardTrunk[] = [];
    for (const row of rows) {
      const name = row.name.replace(/[^A-Za-z0-9_-]/g, '_');
      if (needle && !row.name.toLowerCase().includes(needle)) continue;
      const settings = JSON.parse(row.settings || '{}') as Record<string, string>;
      const contact = snap?.contactOfAor.get(name);
      const registration = snap ? registrationStatus(snap.registrations.get(name)) : 'unknown';
      trunks.push({
        name,
        kind: row.kind === 'gateway' ? 'gateway' : 'voip',
        chanType: 'pjsip',
        ip: contact?.ip ?? settings.sip_server ?? '',
        port: contact?.port ?? settings.sip_server_port ?? '',
        status: snap ? trunkStatus(snap.states.get(name), registrationStatus(snap.registrations.get(name))) : 'unknown',
        registration,
        codecs: row.codecs.split(',').filter(Boolean),
      });
    }
    return {
      pbx: this.live.state.connection(),
      total: trunks.length,
      trunks: trunks.slice(query.offset, query.offset + query.limit),
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
