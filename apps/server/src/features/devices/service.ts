import { randomBytes, randomInt } from 'node:crypto';
import {
  type DeviceType,
  MAX_DEVICES_PER_USER,
  normalizeMobile,
  type PhysicalExtensionCreate,
  type UserDevice,
} from '@centralino/contract';
import type { Kysely, Selectable } from 'kysely';
import type { Database, DevicesTable } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { describeReferences, referencesTo, voicemailDestinations } from '../destinations/catalogue.ts';
import { DEVICE_PREFIXES, takeDeviceNumber } from '../numbering/allocate.ts';

export type DeviceRow = Selectable<DevicesTable>;

/** The account a linked phone registers with (the provisioning engine's PhoneAccount, minimal form). */
export interface PhoneAccountOfDevice {
  extension: string;
  secret: string;
  displayName: string;
  srtp: boolean;
}

/** Device secrets are random and long: phones and softphones store them, people never type them. */
export function deviceSecret(): string {
  return randomBytes(18).toString('base64url');
}

export function toDevice(row: DeviceRow, registered = false): UserDevice {
  return {
    id: Number(row.id),
    type: row.type,
    extension: row.extension,
    mac: row.mac,
    vendor: row.vendor,
    model: row.model,
    line: row.line === null ? null : Number(row.line),
    web_user: row.web_user,
    srtp: row.srtp === null ? null : Number(row.srtp) === 1 ? '1' : '0',
    registered,
  };
}

const devicesLimit = () =>
  new AppError(409, 'devices_limit', (lang) =>
    lang === 'it'
      ? 'Limite di dispositivi raggiunto. Un utente può avere fino a 7 dispositivi associati'
      : 'Devices limit reached. An user can have up to 7 devices associated',
  );

/**
 * Devices of users (contract api-core §11–§14): the first device uses the main extension N, the others
 * P‖N with P from 91 to 98; at most 7 per user. Every change happens in one transaction.
 */
export class DevicesService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly changed: () => void = () => {},
    /** Vendor of a MAC from the provisioning catalogue's prefix map. */
    private readonly vendorOf: (mac: string) => string | null = () => null,
    /** Hands a phone the SIP account of the device it is linked to ([] when unlinked). */
    private readonly phoneAccounts?: (mac: string, accounts: PhoneAccountOfDevice[]) => Promise<void>,
    /** The phones' default encryption (default settings, "Encryption"): new phone devices start with it. */
    private readonly defaultSrtp: () => Promise<boolean> = async () => false,
  ) {}

  /** Tells the provisioning engine what a phone should now register as; phones unknown to it are skipped. */
  private async syncPhone(mac: string | null | undefined): Promise<void> {
    if (!mac || !this.phoneAccounts) return;
    const row = await this.db
      .selectFrom('devices')
      .leftJoin('users', 'users.id', 'devices.user_id')
      .select(['devices.extension', 'devices.secret', 'devices.srtp', 'users.displayname'])
      .where('devices.mac', '=', mac)
      .executeTakeFirst();
    const accounts: PhoneAccountOfDevice[] =
      row?.extension && row.secret
        ? [
            {
              extension: row.extension,
              secret: row.secret,
              displayName: row.displayname ?? row.extension,
              srtp: Number(row.srtp) === 1,
            },
          ]
        : [];
    try {
      await this.phoneAccounts(mac, accounts);
    } catch (error) {
      // A phone of our inventory that was never added to the provisioning engine has nothing to update.
      if (!(error instanceof AppError && error.statusCode === 404)) throw error;
    }
  }

  /** Re-sends the accounts of phones whose links changed outside this service (e.g. a user renumbered). */
  async syncPhones(macs: string[]): Promise<void> {
    for (const mac of macs) await this.syncPhone(mac);
  }

  private async userOfMain(trx: Kysely<Database>, main: string) {
    const user = await trx
      .selectFrom('users')
      .select(['id', 'username', 'displayname', 'email', 'default_extension', 'voicemail_pin'])
      .where('default_extension', '=', main)
      .executeTakeFirst();
    if (!user) {
      throw new AppError(404, 'user_not_found', (lang) =>
        lang === 'it' ? `Nessun utente ha l'interno ${main}` : `No user has extension ${main}`,
      );
    }
    return { ...user, id: Number(user.id), default_extension: main };
  }

  /** Devices of these users, by user id, in creation order. */
  async byUser(userIds: number[]): Promise<Map<number, DeviceRow[]>> {
    const out = new Map<number, DeviceRow[]>();
    if (userIds.length === 0) return out;
    const rows = await this.db
      .selectFrom('devices')
      .selectAll()
      .where('user_id', 'in', userIds)
      .orderBy('id')
      .execute();
    for (const row of rows) {
      const list = out.get(Number(row.user_id)) ?? [];
      list.push(row);
      out.set(Number(row.user_id), list);
    }
    return out;
  }

  /** The next number for a device of main extension N (contract §11.1), checked against the limit. */
  private async allocate(trx: Kysely<Database>, userId: number, main: string): Promise<string> {
    const own = await trx.selectFrom('devices').select('extension').where('user_id', '=', userId).execute();
    if (own.length >= MAX_DEVICES_PER_USER) throw devicesLimit();
    const number = await takeDeviceNumber(trx, main, { withMain: true, prefixes: DEVICE_PREFIXES });
    if (!number) throw devicesLimit();
    return number;
  }

  private async create(
    trx: Kysely<Database>,
    main: string,
    type: DeviceType,
    extra: Partial<Pick<DeviceRow, 'mac' | 'vendor' | 'model' | 'web_user' | 'web_password' | 'srtp'>> = {},
  ): Promise<string> {
    const user = await this.userOfMain(trx, main);
    const extension = await this.allocate(trx, user.id, main);
    await trx
      .insertInto('devices')
      .values({
        user_id: user.id,
        mac: extra.mac ?? null,
        vendor: extra.vendor ?? null,
        model: extra.model ?? null,
        line: 1,
        extension,
        secret: deviceSecret(),
        web_user: extra.web_user ?? null,
        web_password: extra.web_password ?? null,
        type,
        srtp: extra.srtp ?? null,
        created_at: Date.now(),
      })
      .execute();
    return extension;
  }

  /** The user's device of a type (webrtc, mobile, nethlink), or null. */
  async deviceOfType(main: string, type: DeviceType): Promise<string | null> {
    const user = await this.userOfMain(this.db, main);
    return (await this.ownDevice(this.db, user.id, type))?.extension ?? null;
  }

  /** The first device of a type a user has (for webrtc, mobile and nethlink there is at most one). */
  private ownDevice(db: Kysely<Database>, userId: number, type: DeviceType) {
    return db
      .selectFrom('devices')
      .select(['id', 'extension'])
      .where('user_id', '=', userId)
      .where('type', '=', type)
      .orderBy('id')
      .executeTakeFirst();
  }

  /** One device of each of these types per user: switching it on twice answers the existing one. */
  async enable(main: string, type: 'webrtc' | 'mobile' | 'nethlink'): Promise<string> {
    const extension = await this.db.transaction().execute(async (trx) => {
      const user = await this.userOfMain(trx, main);
      const existing = await this.ownDevice(trx, user.id, type);
      if (existing?.extension) return existing.extension;
      return this.create(trx, main, type);
    });
    this.changed();
    return extension;
  }

  /**
   * Switches the user's device of a type on or off inside the caller's transaction: the CSV import applies its
   * webrtc and nethlink columns together with the rest of the row.
   */
  async switchInTransaction(
    trx: Kysely<Database>,
    main: string,
    type: 'webrtc' | 'nethlink',
    on: boolean,
  ): Promise<void> {
    const user = await this.userOfMain(trx, main);
    const existing = await this.ownDevice(trx, user.id, type);
    if (on && !existing) await this.create(trx, main, type);
    if (!on && existing)
      await trx.deleteFrom('devices').where('user_id', '=', user.id).where('type', '=', type).execute();
  }

  async disable(main: string, type: 'webrtc' | 'nethlink'): Promise<void> {
    const user = await this.userOfMain(this.db, main);
    await this.db.deleteFrom('devices').where('user_id', '=', user.id).where('type', '=', type).execute();
    this.changed();
  }

  /**
   * Unlinks or deletes a device by its extension (contract §11.4): a phone stays in the inventory without
   * user, extension and secret; other devices disappear.
   */
  async removeExtension(extension: string): Promise<void> {
    const result = await this.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('devices').selectAll().where('extension', '=', extension).executeTakeFirst();
      if (!row) return false;
      if (row.mac) {
        await trx
          .updateTable('devices')
          .set({ user_id: null, extension: null, secret: null, type: 'physical', srtp: null })
          .where('id', '=', row.id)
          .execute();
      } else {
        await trx.deleteFrom('devices').where('id', '=', row.id).execute();
      }
      return { mac: row.mac };
    });
    if (!result) throw new AppError(404, 'not_found');
    await this.syncPhone(result.mac);
    this.changed();
  }

  /** Removes a phone from the inventory (and its device extension, if linked). */
  async removeMac(mac: string): Promise<void> {
    const result = await this.db.deleteFrom('devices').where('mac', '=', mac).executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw new AppError(404, 'not_found');
    await this.syncPhone(mac);
    this.changed();
  }

  /** POST /physicalextensions: add a phone to the inventory, link it to a user, or create a custom device. */
  async physical(body: PhysicalExtensionCreate & { mac?: string | null }): Promise<string | null> {
    const mac = body.mac ?? null;
    const main = body.mainextension || undefined;
    // Read before the transaction (it reads the provisioning defaults over its own connection).
    const srtp = main ? ((await this.defaultSrtp()) ? 1 : 0) : null;
    const result = await this.db.transaction().execute(async (trx) => {
      if (!main) {
        if (!mac) throw new AppError(400, 'validation', undefined, { mac: 'A MAC address is required' });
        const existing = await trx
          .selectFrom('devices')
          .select(['id', 'user_id'])
          .where('mac', '=', mac)
          .executeTakeFirst();
        if (existing) {
          throw new AppError(409, 'phone_exists', (lang) =>
            lang === 'it' ? `Telefono ${mac} già aggiunto` : `Phone ${mac} already added`,
          );
        }
        await trx
          .insertInto('devices')
          .values({
            user_id: null,
            mac,
            vendor: this.vendorOf(mac),
            model: body.model ?? null,
            line: 1,
            extension: null,
            secret: null,
            web_user: body.web_user ?? null,
            web_password: body.web_password ?? null,
            type: 'physical',
            srtp: null,
            created_at: Date.now(),
          })
          .execute();
        return null;
      }
      const user = await this.userOfMain(trx, main);
      if (body.clear_temporary !== undefined && body.clear_temporary !== null) {
        await trx
          .deleteFrom('devices')
          .where('user_id', '=', user.id)
          .where('type', '=', 'temporaryphysical')
          .execute();
      }
      if (!mac) {
        return this.create(trx, main, 'physical', {
          web_user: body.web_user ?? null,
          web_password: body.web_password ?? null,
          srtp,
        });
      }
      const phone = await trx.selectFrom('devices').selectAll().where('mac', '=', mac).executeTakeFirst();
      if (phone?.user_id !== null && phone?.user_id !== undefined) {
        throw new AppError(409, 'phone_linked', (lang) =>
          lang === 'it' ? `Il telefono ${mac} è già associato a un utente` : `Phone ${mac} is already linked to a user`,
        );
      }
      const extension = await this.allocate(trx, user.id, main);
      const values = {
        user_id: user.id,
        extension,
        secret: deviceSecret(),
        web_user: body.web_user ?? null,
        web_password: body.web_password ?? null,
        type: 'physical' as const,
        model: body.model ?? phone?.model ?? null,
        srtp,
      };
      if (phone) await trx.updateTable('devices').set(values).where('id', '=', phone.id).execute();
      else {
        await trx
          .insertInto('devices')
          .values({ ...values, mac, vendor: this.vendorOf(mac), line: 1, created_at: Date.now() })
          .execute();
      }
      return extension;
    });
    await this.syncPhone(mac);
    this.changed();
    return result;
  }

  /**
   * Records the web credentials phones get at their next provisioning (contract api-core §12.7): what
   * the console uses to drive a phone's web interface (click-to-call).
   */
  async setPhonesWebPassword(password: string): Promise<void> {
    await this.db
      .updateTable('devices')
      .set({ web_user: 'admin', web_password: password })
      .where('mac', 'is not', null)
      .where('type', '=', 'physical')
      .execute();
  }

  async setModel(mac: string, model: string | null): Promise<void> {
    const result = await this.db.updateTable('devices').set({ model }).where('mac', '=', mac).executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) throw new AppError(404, 'not_found');
    this.changed();
  }

  async inventory(): Promise<DeviceRow[]> {
    return this.db.selectFrom('devices').selectAll().where('mac', 'is not', null).orderBy('mac').execute();
  }

  /** One device's SIP secret and web login, for the device information (lists carry no secrets). */
  async credentials(
    extension: string,
  ): Promise<{ secret: string | null; web_user: string | null; web_password: string | null } | undefined> {
    return this.db
      .selectFrom('devices')
      .select(['secret', 'web_user', 'web_password'])
      .where('extension', '=', extension)
      .executeTakeFirst();
  }

  async srtp(extension: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('devices')
      .select('srtp')
      .where('extension', '=', extension)
      .executeTakeFirst();
    return Number(row?.srtp) === 1;
  }

  async setSrtp(extension: string, enabled: boolean): Promise<void> {
    const row = await this.db
      .selectFrom('devices')
      .select(['type', 'mac'])
      .where('extension', '=', extension)
      .executeTakeFirst();
    if (!row) throw new AppError(404, 'not_found');
    // A temporary device keeps the old system's settings until a real phone replaces it.
    if (row.type === 'temporaryphysical') {
      throw new AppError(409, 'validation', (lang) =>
        lang === 'it'
          ? 'Un dispositivo temporaneo non ha la cifratura'
          : 'A temporary device has no encryption setting',
      );
    }
    await this.db
      .updateTable('devices')
      .set({ srtp: enabled ? 1 : 0 })
      .where('extension', '=', extension)
      .execute();
    await this.syncPhone(row.mac);
    this.changed();
  }

  // ---- voicemail and mobile (stored with the user) ----

  async voicemail(main: string) {
    const user = await this.userOfMain(this.db, main);
    if (user.voicemail_pin === null) return null;
    return {
      mailbox: main,
      pwd: user.voicemail_pin,
      name: user.displayname,
      email: user.email ?? '',
      pager: '',
      options: { attach: 'yes', saycid: 'no', envelope: 'no', delete: 'no' },
    };
  }

  async setVoicemail(main: string, on: boolean): Promise<void> {
    const user = await this.userOfMain(this.db, main);
    const pin = on ? (user.voicemail_pin ?? String(randomInt(0, 10_000)).padStart(4, '0')) : null;
    if (!on && user.voicemail_pin !== null) {
      // A mailbox that routes or users' destinations send calls to would leave them pointing at nothing.
      const refs = await referencesTo(this.db, voicemailDestinations(main));
      if (refs.length > 0) {
        throw new AppError(409, 'extension_routed', (lang) =>
          lang === 'it'
            ? `Inviano chiamate alla casella vocale ${main}: ${describeReferences(refs, lang)}. Assegna loro prima un'altra destinazione.`
            : `Calls go to the voicemail of ${main} from: ${describeReferences(refs, lang)}. Give them another destination first.`,
        );
      }
    }
    await this.db
      .updateTable('users')
      .set({ voicemail_pin: pin, updated_at: Date.now() })
      .where('id', '=', user.id)
      .execute();
    this.changed();
  }

  async mobile(username: string): Promise<string | null> {
    const user = await this.db.selectFrom('users').select('mobile').where('username', '=', username).executeTakeFirst();
    if (!user) throw new AppError(404, 'user_not_found');
    return user.mobile;
  }

  // ---- whole-system reads of the older API (features/legacy-reads); lists carry no secrets ----

  /** Every user's mobile number (null when none), by username. */
  async mobiles(): Promise<{ mobile: string | null; username: string }[]> {
    return this.db.selectFrom('users').select(['mobile', 'username']).orderBy('username').execute();
  }

  /** Every mailbox keyed by number, without its PIN (read one with voicemail(main)). */
  async voicemails(): Promise<
    Record<string, Omit<NonNullable<Awaited<ReturnType<DevicesService['voicemail']>>>, 'pwd'>>
  > {
    const rows = await this.db
      .selectFrom('users')
      .select(['default_extension', 'displayname', 'email'])
      .where('voicemail_pin', 'is not', null)
      .where('default_extension', 'is not', null)
      .orderBy('extension_order')
      .execute();
    return Object.fromEntries(
      rows.map((r) => [
        r.default_extension as string,
        {
          mailbox: r.default_extension as string,
          name: r.displayname,
          email: r.email ?? '',
          pager: '',
          options: { attach: 'yes', saycid: 'no', envelope: 'no', delete: 'no' },
        },
      ]),
    );
  }

  /**
   * Main extensions no device registers on: the original's "virtual" extensions (contract api-core §10.3).
   * The first device of a user takes the main number, so a user without devices has one.
   */
  async mainExtensionsWithoutDevice(
    extension?: string,
  ): Promise<{ extension: string; name: string; username: string }[]> {
    let query = this.db
      .selectFrom('users')
      .leftJoin('devices', 'devices.extension', 'users.default_extension')
      .select(['users.default_extension', 'users.displayname', 'users.username'])
      .where('users.default_extension', 'is not', null)
      .where('devices.id', 'is', null)
      .orderBy('users.extension_order');
    if (extension !== undefined) query = query.where('users.default_extension', '=', extension);
    return (await query.execute()).map((r) => ({
      extension: r.default_extension as string,
      name: r.displayname,
      username: r.username,
    }));
  }

  /** The device that has this number, if any. */
  async deviceOfExtension(extension: string): Promise<DeviceRow | undefined> {
    return this.db.selectFrom('devices').selectAll().where('extension', '=', extension).executeTakeFirst();
  }

  /** The account a phone is linked to: its number and SIP secret, or {} when it is not linked. */
  async accountOfPhone(mac: string): Promise<{ extension: string; secret: string } | Record<string, never>> {
    const row = await this.db
      .selectFrom('devices')
      .select(['extension', 'secret'])
      .where('mac', '=', mac)
      .where('extension', 'is not', null)
      .executeTakeFirst();
    return row?.extension && row.secret ? { extension: row.extension, secret: row.secret } : {};
  }

  async setMobile(username: string, input: string): Promise<void> {
    const result = await this.db
      .updateTable('users')
      .set({ mobile: normalizeMobile(input), updated_at: Date.now() })
      .where('username', '=', username)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) throw new AppError(404, 'user_not_found');
    this.changed();
  }
}
