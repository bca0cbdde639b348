import type { PbxDevice, PbxFollowMe, PbxModel, PbxUser } from '../model.ts';
import { BLOCKING_FILE, renderBlockingDialplan } from './blocking.ts';
import { bucketOf, byNumber, HEADER } from './common.ts';
import { CONFBRIDGE_FILE, CONFERENCE_FILE, renderConfbridgeConf, renderConferencesDialplan } from './conferences.ts';
import { RING_GROUPS_FILE, renderDialplanRoot, renderUserDialplan } from './dialplan.ts';
import { FlowsRenderer } from './flows.ts';
import { PARKING_CONF, PARKING_FILE, renderParkingConf, renderParkingDialplan } from './parking.ts';
import { renderPjsipRoot, renderTransports, renderTrunks, renderUserAccounts, userAccounts } from './pjsip.ts';
import { renderQueuesConf } from './queues.ts';
import { renderRingGroupsFile } from './ring-groups.ts';
import {
  renderAsteriskConf,
  renderCdrCustom,
  renderDefaults,
  renderFeatures,
  renderHttp,
  renderIndications,
  renderLogger,
  renderManager,
  renderModules,
  renderMusicOnHold,
  renderPjsipNotify,
  renderRtp,
} from './system.ts';
import { voicemailBox, voicemailHead } from './voicemail.ts';

interface UserParts {
  /** The user object last rendered: the same object again needs no comparison at all. */
  user: PbxUser;
  pjsip: string;
  dialplan: string;
  voicemail: string;
  accounts: string[];
  /** The render that last used it (the others are dropped at the end of a render). */
  generation: number;
}

interface BucketText {
  parts: UserParts[];
  pjsip: string;
  dialplan: string;
  voicemail: string;
}

export type RenderedFiles = Map<string, string>;

/**
 * Whether two user objects hold the same data, field by field (no string is built: this runs for
 * every user on every apply). A test changes each field of a user in turn to keep this complete.
 */
export function sameUser(a: PbxUser, b: PbxUser): boolean {
  if (
    a.username !== b.username ||
    a.name !== b.name ||
    a.extension !== b.extension ||
    a.secret !== b.secret ||
    a.outboundcid !== b.outboundcid ||
    a.email !== b.email ||
    a.mobile !== b.mobile ||
    a.profileId !== b.profileId ||
    a.ringTime !== b.ringTime ||
    a.callWaiting !== b.callWaiting ||
    a.recording !== b.recording ||
    (a.callPermission ?? null)?.join(',') !== (b.callPermission ?? null)?.join(',') ||
    a.callGroup !== b.callGroup ||
    a.pickupGroup !== b.pickupGroup ||
    (a.voicemail === null) !== (b.voicemail === null) ||
    a.voicemail?.pin !== b.voicemail?.pin ||
    a.destinations.busy !== b.destinations.busy ||
    a.destinations.noAnswer !== b.destinations.noAnswer ||
    a.destinations.unavailable !== b.destinations.unavailable ||
    !sameFollowMe(a.followMe, b.followMe) ||
    a.groups.length !== b.groups.length ||
    a.devices.length !== b.devices.length
  ) {
    return false;
  }
  for (let i = 0; i < a.groups.length; i++) if (a.groups[i] !== b.groups[i]) return false;
  for (let i = 0; i < a.devices.length; i++) {
    const x = a.devices[i] as PbxDevice;
    const y = b.devices[i] as PbxDevice;
    if (x.number !== y.number || x.type !== y.type || x.secret !== y.secret || x.encrypted !== y.encrypted)
      return false;
  }
  return true;
}

function sameFollowMe(a: PbxFollowMe | undefined, b: PbxFollowMe | undefined): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  if (
    a.preRing !== b.preRing ||
    a.strategy !== b.strategy ||
    a.confirmExternal !== b.confirmExternal ||
    a.legs.length !== b.legs.length
  )
    return false;
  for (let i = 0; i < a.legs.length; i++) {
    const x = a.legs[i] as PbxFollowMe['legs'][number];
    const y = b.legs[i] as PbxFollowMe['legs'][number];
    if (x.kind !== y.kind || x.number !== y.number || x.ringTime !== y.ringTime) return false;
  }
  return true;
}

/**
 * Renders the whole configuration: file name → text, in name order, byte-identical for identical
 * models. Keeps each user's rendered text and each hundred-block file between calls, so re-rendering
 * after a small change re-renders one user and re-assembles one block. Users are compared with the
 * object rendered last time (the same object again is not even compared): change a user by passing
 * a new object (as loading from the database does), never by mutating one already rendered.
 */
export class ConfigRenderer {
  private users = new Map<string, UserParts>();
  private flows = new FlowsRenderer();
  private generation = 0;
  private buckets = new Map<string, BucketText>();
  /** Each block's users as last given (their extensions) and the order that sorted them. */
  private orders = new Map<string, { extensions: string[]; order: number[] }>();

  /** A block's users by extension: sorted again only when its extensions changed. */
  private sorted(bucket: string, users: PbxUser[]): PbxUser[] {
    const last = this.orders.get(bucket);
    let order = last?.order;
    if (!last || last.extensions.length !== users.length || users.some((u, i) => u.extension !== last.extensions[i])) {
      order = users
        .map((_, i) => i)
        .sort((a, b) => byNumber((users[a] as PbxUser).extension, (users[b] as PbxUser).extension));
      this.orders.set(bucket, { extensions: users.map((u) => u.extension), order });
    }
    return (order as number[]).map((i) => users[i] as PbxUser);
  }

  private userParts(user: PbxUser): UserParts {
    const cached = this.users.get(user.username);
    if (cached && (cached.user === user || sameUser(cached.user, user))) {
      cached.user = user;
      cached.generation = this.generation;
      return cached;
    }
    const parts: UserParts = {
      generation: this.generation,
      user,
      pjsip: renderUserAccounts(user),
      dialplan: renderUserDialplan(user),
      voicemail: voicemailBox(user),
      accounts: userAccounts(user).map((d) => d.number),
    };
    this.users.set(user.username, parts);
    return parts;
  }

  private bucketText(bucket: string, parts: UserParts[]): BucketText {
    const cached = this.buckets.get(bucket);
    if (cached && cached.parts.length === parts.length && cached.parts.every((p, i) => p === parts[i])) return cached;
    const pjsip: string[] = [HEADER];
    const dialplan: string[] = [HEADER, '[ext-local]\n'];
    const voicemail: string[] = [];
    for (const p of parts) {
      pjsip.push(p.pjsip);
      dialplan.push(p.dialplan);
      if (p.voicemail) voicemail.push(p.voicemail);
    }
    const text = { parts, pjsip: pjsip.join(''), dialplan: dialplan.join(''), voicemail: voicemail.join('') };
    this.buckets.set(bucket, text);
    return text;
  }

  render(model: PbxModel): RenderedFiles {
    const steps = this.steps(model);
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
    }
  }

  /**
   * The same, giving the event loop a turn every few hundred-blocks (and root files), so that requests are served
   * while a large configuration is rendered. onFile hears of each file as soon as it is made (to
   * check it meanwhile), in no set order.
   */
  async renderYielding(
    model: PbxModel,
    onFile?: (name: string, text: string) => void,
    blocksPerTurn = 4,
  ): Promise<RenderedFiles> {
    const steps = this.steps(model, onFile);
    for (let n = 1; ; n++) {
      const step = steps.next();
      if (step.done) return step.value;
      if (n % blocksPerTurn === 0) await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** Renders, stopping after each hundred-block and each large root file. */
  private *steps(model: PbxModel, onFile?: (name: string, text: string) => void): Generator<void, RenderedFiles> {
    const buckets = new Map<string, PbxUser[]>();
    for (const user of model.users) {
      const bucket = bucketOf(user.extension);
      const list = buckets.get(bucket);
      if (list) list.push(user);
      else buckets.set(bucket, [user]);
    }
    const names = [...buckets.keys()].sort(byNumber);
    const made = new Map<string, string>();
    const files = {
      set(name: string, text: string) {
        made.set(name, text);
        onFile?.(name, text);
      },
    };
    const generation = ++this.generation;
    const pjsipUsers: string[] = [];
    const dialplanUsers: string[] = [];
    // Ring groups look up their members' accounts: the map is made only if they do.
    const blocks: UserParts[][] = [];
    let accounts: Map<string, string[]> | undefined;
    const accountsOf = (extension: string) => {
      if (!accounts) {
        accounts = new Map();
        for (const parts of blocks)
          for (const p of parts) if (!accounts.has(p.user.extension)) accounts.set(p.user.extension, p.accounts);
      }
      return accounts.get(extension);
    };
    // Mailboxes in extension order: the blocks are in that order already, and so are their users.
    const voicemail: string[] = [voicemailHead(model.settings.voicemailMailCmd)];
    for (const bucket of names) {
      const users = this.sorted(bucket, buckets.get(bucket) ?? []);
      const parts = users.map((user) => this.userParts(user));
      blocks.push(parts);
      const text = this.bucketText(bucket, parts);
      pjsipUsers.push(`pjsip.users.${bucket}.conf`);
      dialplanUsers.push(`extensions.users.${bucket}.conf`);
      files.set(`pjsip.users.${bucket}.conf`, text.pjsip);
      files.set(`extensions.users.${bucket}.conf`, text.dialplan);
      if (text.voicemail) voicemail.push(text.voicemail);
      yield;
    }
    for (const [username, parts] of this.users) if (parts.generation !== generation) this.users.delete(username);
    for (const bucket of this.buckets.keys()) if (!buckets.has(bucket)) this.buckets.delete(bucket);
    for (const bucket of this.orders.keys()) if (!buckets.has(bucket)) this.orders.delete(bucket);

    const s = model.settings;
    files.set('pjsip.conf', renderPjsipRoot(s, ['pjsip.transports.conf', 'pjsip.trunks.conf', ...pjsipUsers]));
    files.set('pjsip.transports.conf', renderTransports(s));
    yield;
    files.set('pjsip.trunks.conf', renderTrunks(model));
    yield;
    files.set('extensions.conf', renderDialplanRoot(model, dialplanUsers, accountsOf));
    for (const [name, text] of this.flows.render(model)) files.set(name, text);
    files.set('queues.conf', renderQueuesConf(model.queues));
    files.set(RING_GROUPS_FILE, renderRingGroupsFile(model));
    const recordings = Boolean(model.settings.callRecording);
    files.set(CONFBRIDGE_FILE, renderConfbridgeConf(model.conferences ?? [], recordings));
    files.set(CONFERENCE_FILE, renderConferencesDialplan(model.conferences ?? [], recordings));
    files.set(PARKING_CONF, renderParkingConf(model.parkingLots ?? []));
    files.set(PARKING_FILE, renderParkingDialplan(model.parkingLots ?? []));
    files.set(BLOCKING_FILE, renderBlockingDialplan(model));
    yield;
    files.set('voicemail.conf', voicemail.join(''));
    files.set('asterisk.conf', renderAsteriskConf(s));
    files.set('modules.conf', renderModules());
    files.set('logger.conf', renderLogger(s));
    files.set('manager.conf', renderManager(s));
    files.set('cdr_custom.conf', renderCdrCustom(s));
    files.set('rtp.conf', renderRtp(s));
    files.set('features.conf', renderFeatures(Boolean(s.callRecording)));
    files.set('pjsip_notify.conf', renderPjsipNotify());
    files.set('musiconhold.conf', renderMusicOnHold(model.musicClasses ?? []));
    files.set('indications.conf', renderIndications(s));
    files.set('http.conf', renderHttp(s));
    for (const [name, text] of renderDefaults()) files.set(name, text);
    return new Map([...made.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }
}

/** One-shot render without a cache (tests, tools). */
export function renderConfiguration(model: PbxModel): RenderedFiles {
  return new ConfigRenderer().render(model);
}
