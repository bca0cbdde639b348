import {
  canonicalMac,
  MAC_VENDOR_RANGES,
  modelPrefixOfVendor,
  type PhoneListItem,
  type PhoneManufacturers,
  vendorOfMac,
} from '@centralino/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { ProvisioningService } from '../../provisioning/service.ts';
import type { ScanService } from '../phone-actions/scan.ts';

export interface PhoneConfigDeps {
  db: Kysely<Database>;
  scans: ScanService;
  /** The provisioning engine; registered after the routes, hence a getter. */
  provisioning: () => ProvisioningService | undefined;
  /** Hands the engine the SIP accounts of these phones (DevicesService.syncPhones). */
  syncPhones: (macs: string[]) => Promise<void>;
  /** Extensions registered right now. */
  registered: () => Promise<Set<string>>;
}

/** Vendors a scan calls phones (Sangoma makes both; its phones are configured here too). */
const PHONE_VENDORS = MAC_VENDOR_RANGES.filter((v) => v.type !== 'gateway').map((v) => v.vendor);

const unknownModel = (vendor: string) =>
  new AppError(400, 'prov_unknown_model', (lang) =>
    lang === 'it' ? `Questo modello non è un modello ${vendor}` : `This model is not a ${vendor} model`,
  );

/**
 * Phone configuration of the old provisioning mode (contract api-admin §3.3, §3.5, §3.8, §3.9): models by
 * vendor, a phone's model, the list of the PBX's phones with their lines, and preparing a phone's
 * configuration. Models are the provisioning engine's, so a phone set up here is provisioned by the same
 * engine (and templates) as in the new mode.
 */
export class PhoneConfigService {
  constructor(private readonly deps: PhoneConfigDeps) {}

  private engine(): ProvisioningService {
    const engine = this.deps.provisioning();
    if (!engine) throw new Error('provisioning engine not registered');
    return engine;
  }

  /** Vendor → model names, for the vendors that have models; names sorted. */
  async manufacturers(): Promise<PhoneManufacturers> {
    const models = await this.engine().listModels(false);
    const out: PhoneManufacturers = {};
    for (const vendor of PHONE_VENDORS) {
      const prefix = `${modelPrefixOfVendor(vendor)}-`;
      const names = models.filter((m) => m.name.toLowerCase().startsWith(prefix)).map((m) => m.name);
      if (names.length > 0) out[vendor] = names.sort((a, b) => a.localeCompare(b));
    }
    return out;
  }

  /**
   * Sets a phone's model, adding the phone to the inventory when it is new. Unlike the original (which
   * deleted and re-inserted the row, contract §12 note 20) the phone keeps the user it is linked to.
   */
  async setModel(mac: string, vendorInput: string, model: string): Promise<void> {
    const vendor = vendorOfMac(mac);
    if (!vendor || vendor !== vendorInput) {
      throw new AppError(
        400,
        'validation',
        (lang) =>
          vendor
            ? lang === 'it'
              ? `Il MAC ${mac} è di un telefono ${vendor}, non ${vendorInput}`
              : `MAC ${mac} belongs to a ${vendor} phone, not ${vendorInput}`
            : lang === 'it'
              ? `Il MAC ${mac} non è di un produttore di telefoni conosciuto`
              : `MAC ${mac} is not of a known phone vendor`,
        { vendor: 'Vendor does not match the MAC address' },
      );
    }
    const models = (await this.manufacturers())[vendor] ?? [];
    if (!models.includes(model)) throw unknownModel(vendor);

    await this.deps.db.transaction().execute(async (trx) => {
      const existing = await trx.selectFrom('devices').select('id').where('mac', '=', mac).executeTakeFirst();
      if (existing) {
        await trx.updateTable('devices').set({ model, vendor }).where('mac', '=', mac).execute();
      } else {
        await trx
          .insertInto('devices')
          .values({
            user_id: null,
            mac,
            vendor,
            model,
            line: 1,
            extension: null,
            secret: null,
            web_user: null,
            web_password: null,
            type: 'physical',
            srtp: null,
            created_at: Date.now(),
          })
          .execute();
      }
    });
    // The engine's record, when there is one, follows: its files are rendered for the model.
    const engine = this.engine();
    if (await engine.phoneByMac(canonicalMac(mac) as string)) await engine.patchPhone(mac, { model });
  }

  /**
   * Prepares a phone's configuration: the engine gets the phone (with its inventory model) if it does not
   * have it, and the SIP account of the device it is linked to. The phone fetches it at its next check.
   */
  async provision(mac: string): Promise<{ mac: string; model: string | null }> {
    const row = await this.deps.db
      .selectFrom('devices')
      .select(['model', 'vendor'])
      .where('mac', '=', mac)
      .executeTakeFirst();
    if (!row) {
      throw new AppError(404, 'not_found', (lang) =>
        lang === 'it' ? `Nessun telefono con MAC ${mac}` : `No phone with MAC ${mac}`,
      );
    }
    // Configuration files are written for a model: without one the phone would get nothing useful.
    if (!row.model) {
      throw new AppError(409, 'validation', (lang) =>
        lang === 'it' ? `Scegli prima il modello del telefono ${mac}` : `Choose the model of phone ${mac} first`,
      );
    }
    const engine = this.engine();
    const dashed = canonicalMac(mac) as string;
    const known = await engine.phoneByMac(dashed);
    if (!known) {
      await engine.createPhone({
        mac: dashed,
        model: row.model,
        display_name: row.vendor ?? vendorOfMac(mac) ?? '',
      });
    } else if (known.model !== row.model) {
      await engine.patchPhone(dashed, { model: row.model });
    }
    await this.deps.syncPhones([mac]);
    return { mac, model: row.model };
  }

  /** The PBX's phones and custom devices with their lines (contract §3.3 without a hash). */
  async list(): Promise<PhoneListItem[]> {
    const { db } = this.deps;
    const rows = await db
      .selectFrom('devices')
      .leftJoin('users', 'users.id', 'devices.user_id')
      .select([
        'devices.id',
        'devices.mac',
        'devices.vendor',
        'devices.model',
        'devices.line',
        'devices.extension',
        'devices.type',
        'users.username',
        'users.displayname',
        'users.default_extension',
      ])
      .where('devices.type', 'in', ['physical', 'temporaryphysical'])
      .orderBy('devices.id')
      .execute();
    const registered = await this.deps.registered();
    const lineOf = (r: (typeof rows)[number]) => {
      const online = r.extension !== null && registered.has(r.extension);
      return {
        extension: r.extension,
        mainextension: r.default_extension ?? null,
        line: String(r.line ?? 1),
        username: r.username ?? null,
        displayname: r.displayname ?? null,
        status: online ? '0' : '4',
        statusText: online ? 'Idle' : 'Unavailable',
      };
    };
    const items: PhoneListItem[] = [];
    for (const r of rows) {
      if (r.mac === null) items.push({ model: 'custom', manufacturer: ' _', lines: [lineOf(r)] });
    }
    const byMac = new Map<string, (typeof rows)[number]>();
    for (const r of rows) if (r.mac !== null && !byMac.has(r.mac)) byMac.set(r.mac, r);
    const listed = new Set<string>();
    for (const scanned of await this.deps.scans.allScannedPhones()) {
      const r = byMac.get(scanned.mac);
      if (!r?.model || listed.has(scanned.mac)) continue;
      listed.add(scanned.mac);
      items.push({
        mac: scanned.mac,
        ipv4: scanned.ipv4,
        type: scanned.type,
        manufacturer: scanned.manufacturer,
        model: r.model,
        lines: r.extension ? [lineOf(r)] : [],
      });
    }
    for (const [mac, r] of byMac) {
      if (listed.has(mac) || r.type !== 'physical') continue;
      items.push({
        mac,
        manufacturer: r.vendor ?? vendorOfMac(mac) ?? '',
        model: r.model,
        lines: r.extension ? [lineOf(r)] : [],
      });
    }
    return items;
  }
}
