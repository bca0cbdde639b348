import { randomInt } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import {
  firstPortNumber,
  GATEWAY_OUIS,
  type Gateway,
  type GatewayCreateParsed,
  type GatewayManufacturers,
  type GatewayModel,
  type GatewayPortType,
  gatewayConfigName,
  gatewayModel,
  gatewayModels,
  gatewayNameIn,
  gatewayTrunkName,
  type UiLanguage,
} from '@centralino/contract';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database, GatewayPortsTable, GatewaysTable } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { Log } from '../../log.ts';
import { FXS_PREFIXES } from '../numbering/allocate.ts';
import { holdersOf, lockNumbering } from '../numbering/holders.ts';
import { companionNumbers, freeDeviceNumber } from '../numbering/rules.ts';
import { isUniqueViolation } from '../users/service.ts';
import { DialogueError, LoginRefusedError } from './dialogue.ts';
import { canPush, controlPort, pushPlan } from './push.ts';
import { runSshDialogue } from './ssh.ts';
import { answersOnTcp, runTelnetDialogue } from './telnet.ts';
import { type GatewayConfigInput, renderGatewayConfig, sangomaScript, tftpFileName } from './templates.ts';
import { TftpServer } from './tftp.ts';

type GatewayRow = Selectable<GatewaysTable>;
type PortRow = Selectable<GatewayPortsTable>;

export interface GatewayOptions {
  /** UDP port of the TFTP server; 0 disables it (and push). */
  tftpPort: number;
  /** Address the TFTP server binds. */
  tftpHost: string;
  /** Overrides every vendor's console port (port forwarding, tests); 0 keeps the vendors' own. */
  controlPort: number;
  /** The kernel's neighbour table, read for discovery. */
  arpTable?: string;
  log: Pick<Log, 'warn' | 'info'>;
  /** Called after every change the PBX configuration depends on. */
  changed?: () => void;
  /** The PBX's SIP ports (SIP_PORT, SIP_TLS_PORT): what the gateways' files and proxies name. */
  pbxPorts?: { sip: number; tls: number };
}

const SECRET_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
/** Letters and digits only, so a secret never needs quoting in any vendor's file or in PJSIP. */
export function randomSecret(length = 16): string {
  return Array.from({ length }, () => SECRET_ALPHABET[randomInt(SECRET_ALPHABET.length)]).join('');
}

/** The host's first non-internal IPv4 address: what gateways reach the PBX at by default. */
export function defaultPbxAddress(): string {
  for (const addresses of Object.values(os.networkInterfaces())) {
    for (const a of addresses ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  }
  return '127.0.0.1';
}

/** Complete entries of /proc/net/arp whose MAC belongs to a gateway vendor. */
export function parseArpTable(text: string): { ipv4: string; mac: string; manufacturer: string }[] {
  const found: { ipv4: string; mac: string; manufacturer: string }[] = [];
  for (const line of text.split('\n').slice(1)) {
    const [ip, , flags, hw] = line.trim().split(/\s+/);
    if (!ip || !hw || flags === '0x0') continue;
    const mac = hw.toUpperCase();
    const manufacturer = Object.entries(GATEWAY_OUIS).find(([, ouis]) => ouis.some((o) => mac.startsWith(o)))?.[0];
    if (manufacturer) found.push({ ipv4: ip, mac, manufacturer });
  }
  return found;
}

/** Sangoma makes phones too: its gateways say so on their web page (contract §3.1). */
async function isSangomaGateway(ip: string): Promise<boolean> {
  try {
    const res = await fetch(`http://${ip}/index.htm`, { signal: AbortSignal.timeout(2000) });
    const text = await res.text();
    return text.includes('Gateway') || text.includes('Sangoma Vega ');
  } catch {
    return false;
  }
}

function portsOf(rows: PortRow[], type: PortRow['port_type']): PortRow[] {
  return rows.filter((p) => p.port_type === type).sort((a, b) => a.port_index - b.port_index);
}

function badRequest(fields: Record<string, string>): AppError {
  return new AppError(400, 'validation', undefined, fields);
}

export class GatewaysService {
  readonly tftp: TftpServer;
  private readonly changed: () => void;
  /** Language of the last push of each gateway (by MAC): its TFTP fetch follows. */
  private readonly pushLanguage = new Map<string, UiLanguage>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: GatewayOptions,
  ) {
    this.changed = options.changed ?? (() => {});
    this.tftp = new TftpServer(
      options.tftpPort,
      options.tftpHost,
      (file, from) => this.tftpFile(file, from),
      options.log,
    );
  }

  /** The PBX port a gateway's accounts register to. */
  private pbxPort(tls: boolean): number {
    return tls ? (this.options.pbxPorts?.tls ?? 5061) : (this.options.pbxPorts?.sip ?? 5060);
  }

  manufacturers(): GatewayManufacturers {
    const pbx = defaultPbxAddress();
    const out: GatewayManufacturers = {};
    for (const m of gatewayModels) {
      // The answer stays the original's (Italian descriptions); the console translates by model id.
      const { family: _family, descriptionEn: _en, ...rest } = m;
      const list = out[m.manufacturer] ?? [];
      list.push({ ...rest, proxy: `sip:${pbx}:${this.pbxPort(m.tls)};lr`, ipv4_green: pbx });
      out[m.manufacturer] = list;
    }
    return out;
  }

  private consolePort(model: GatewayModel): number {
    return this.options.controlPort || controlPort(model);
  }

  private async discovered(): Promise<{ ipv4: string; mac: string; manufacturer: string }[]> {
    let text: string;
    try {
      text = await fs.readFile(this.options.arpTable ?? '/proc/net/arp', 'utf8');
    } catch {
      return [];
    }
    const found = parseArpTable(text);
    const sangoma = await Promise.all(
      found.map((f) => (f.manufacturer === 'Sangoma' ? isSangomaGateway(f.ipv4) : true)),
    );
    return found.filter((_, i) => sangoma[i]);
  }

  /** Configured gateways and the gateways seen on the network, by manufacturer. */
  async list(): Promise<Gateway[]> {
    const [rows, ports, seen] = await Promise.all([
      this.db.selectFrom('gateways').selectAll().orderBy('id').execute(),
      this.db.selectFrom('gateway_ports').selectAll().execute(),
      this.discovered(),
    ]);
    const trunkIds = ports.map((p) => p.trunk_id).filter((id): id is number => id !== null);
    const trunks = trunkIds.length
      ? await this.db.selectFrom('trunks').select(['id', 'name']).where('id', 'in', trunkIds).execute()
      : [];
    const trunkName = new Map(trunks.map((t) => [Number(t.id), t.name]));
    const seenByMac = new Map(seen.map((s) => [s.mac, s]));

    const configured = await Promise.all(
      rows.map(async (row): Promise<Gateway> => {
        const model = gatewayModel(Number(row.model_id));
        const own = ports.filter((p) => Number(p.gateway_id) === Number(row.id));
        const current = seenByMac.get(row.mac)?.ipv4 || row.ipv4;
        const isConnected = model ? await answersOnTcp(current || row.ipv4_new, this.consolePort(model)) : false;
        const trunk = (p: PortRow) => ({ trunkid: Number(p.trunk_id), name: trunkName.get(Number(p.trunk_id)) ?? '' });
        return {
          id: Number(row.id),
          model_id: Number(row.model_id),
          model: Number(row.model_id),
          name: row.name,
          manufacturer: row.manufacturer,
          description: model?.description ?? null,
          mac: row.mac,
          ipv4: current,
          ipv4_new: row.ipv4_new,
          gateway: row.gateway,
          ipv4_green: row.ipv4_green,
          netmask_green: row.netmask_green,
          proxy: row.proxy,
          isConfigured: true,
          isConnected,
          isGrandStream: row.manufacturer === 'Grandstream',
          canPush: model ? canPush(model) : false,
          trunks_isdn: portsOf(own, 'isdn').map((p) => ({ ...trunk(p), type: p.protocol === 'pmp' ? 'pmp' : 'pp' })),
          trunks_pri: portsOf(own, 'pri').map(trunk),
          trunks_fxo: portsOf(own, 'fxo').map((p) => ({ ...trunk(p), number: p.number ?? '' })),
          trunks_fxs: portsOf(own, 'fxs').map((p) => ({
            name: `FXS ${p.port_index + 1}`,
            linked_extension: p.extension,
            physical_extension: p.physical_extension,
          })),
        };
      }),
    );
    const configuredMacs = new Set(rows.map((r) => r.mac));
    const discovered = seen
      .filter((s) => !configuredMacs.has(s.mac))
      .map(
        (s): Gateway => ({
          id: null,
          model_id: null,
          model: null,
          name: s.manufacturer,
          manufacturer: s.manufacturer,
          description: null,
          mac: s.mac,
          ipv4: s.ipv4,
          ipv4_new: s.ipv4,
          gateway: '',
          ipv4_green: '',
          netmask_green: '',
          proxy: '',
          isConfigured: false,
          // In the neighbour table with a complete entry: it answered the host moments ago.
          isConnected: true,
          isGrandStream: s.manufacturer === 'Grandstream',
          canPush: canPush(s),
          trunks_isdn: [],
          trunks_pri: [],
          trunks_fxo: [],
          trunks_fxs: [],
        }),
      );
    return [...configured, ...discovered].sort(
      (a, b) => a.manufacturer.localeCompare(b.manufacturer) || a.mac.localeCompare(b.mac),
    );
  }

  /** Trunk numbers (dial prefixes) '20' + 3 digits, from trunk count + 1 on, skipping those in use. */
  private async trunkNumbers(trx: Transaction<Database>, count: number): Promise<string[]> {
    const [{ n } = { n: 0 }] = await trx
      .selectFrom('trunks')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .execute();
    const used = new Set(
      (
        await trx.selectFrom('gateway_ports').select('trunk_number').where('trunk_number', 'is not', null).execute()
      ).map((r) => r.trunk_number),
    );
    const out: string[] = [];
    for (let next = Number(n) + 1; out.length < count; next++) {
      const candidate = `20${String(next).padStart(3, '0')}`;
      if (!used.has(candidate)) out.push(candidate);
    }
    return out;
  }

  /** Device numbers for FXS ports: 9N + main extension, the first N from 1 not taken (numbering rules). */
  private async fxsNumbers(trx: Transaction<Database>, mains: (string | null)[]): Promise<(string | null)[]> {
    await lockNumbering(trx);
    const wanted = [...new Set(mains.filter((m): m is string => m !== null))];
    const holders = await holdersOf(
      trx,
      wanted.flatMap((m) => [m, ...companionNumbers(m)]),
    );
    return mains.map((main, k) => {
      if (!main) return null;
      const free = freeDeviceNumber(main, holders, { withMain: false, prefixes: FXS_PREFIXES });
      if (!free) throw badRequest({ [`trunks_fxs.${k}.linked_extension`]: 'No device numbers left for this user' });
      // Two ports of this gateway linked to one user get different numbers.
      holders.push({ number: free, kind: 'fxs_port', userId: null, name: '' });
      return free;
    });
  }

  async create(body: GatewayCreateParsed): Promise<number> {
    const model = gatewayModel(body.model);
    if (!model) throw badRequest({ model: 'Unknown model' });
    const counts: [keyof GatewayCreateParsed, number][] = [
      ['trunks_isdn', model.n_isdn_trunks],
      ['trunks_pri', model.n_pri_trunks],
      ['trunks_fxo', model.n_fxo_trunks],
      ['trunks_fxs', model.n_fxs_ext],
    ];
    const wrongCount = Object.fromEntries(
      counts
        .filter(([key, n]) => (body[key] as unknown[]).length !== n)
        .map(([key, n]) => [key, `${model.model} has ${n} port${n === 1 ? '' : 's'} of this type`]),
    );
    if (Object.keys(wrongCount).length) throw badRequest(wrongCount);

    const links = body.trunks_fxs.map((p) => p.linked_extension || null);
    const wanted = [...new Set(links.filter((l): l is string => l !== null))];
    if (wanted.length) {
      const found = new Set(
        (
          await this.db
            .selectFrom('users')
            .select('default_extension')
            .where('default_extension', 'in', wanted)
            .execute()
        ).map((u) => u.default_extension),
      );
      const missing = Object.fromEntries(
        links.flatMap((l, k) =>
          l && !found.has(l) ? [[`trunks_fxs.${k}.linked_extension`, 'No user has this extension']] : [],
        ),
      );
      if (Object.keys(missing).length) throw badRequest(missing);
    }

    const first = firstPortNumber(model.manufacturer);
    const trunkPorts: { type: GatewayPortType; index: number; name: string; protocol?: string; number?: string }[] = [
      ...body.trunks_isdn.map((p, i) => ({ type: 'isdn' as const, index: i, protocol: p.type })),
      ...body.trunks_pri.map((_, i) => ({ type: 'pri' as const, index: i })),
      ...body.trunks_fxo.map((p, i) => ({ type: 'fxo' as const, index: i, number: p.number })),
    ].map((p) => ({ ...p, name: gatewayTrunkName(model.manufacturer, body.mac, p.type, first + p.index) }));

    if (await this.db.selectFrom('gateways').select('id').where('mac', '=', body.mac).executeTakeFirst()) {
      throw new AppError(409, 'gateway_exists', undefined, { mac: 'exists' });
    }
    const clash = trunkPorts.length
      ? await this.db
          .selectFrom('trunks')
          .select('name')
          .where(
            'name',
            'in',
            trunkPorts.map((p) => p.name),
          )
          .executeTakeFirst()
      : undefined;
    if (clash) throw trunkExists(clash.name);

    const pbx = body.ipv4_green || defaultPbxAddress();
    const now = Date.now();
    try {
      const id = await this.db.transaction().execute(async (trx) => {
        const gateway = await trx
          .insertInto('gateways')
          .values({
            model_id: model.id,
            name: gatewayConfigName(model),
            manufacturer: model.manufacturer,
            mac: body.mac,
            ipv4: body.ipv4,
            ipv4_new: body.ipv4_new,
            gateway: body.gateway,
            ipv4_green: pbx,
            netmask_green: body.netmask_green,
            proxy: `sip:${pbx}:${this.pbxPort(model.tls)};lr`,
            created_at: now,
            updated_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        const gatewayId = Number(gateway.id);
        const numbers = await this.trunkNumbers(trx, trunkPorts.length);
        for (const [k, port] of trunkPorts.entries()) {
          const trunkNumber = numbers[k] as string;
          const trunk = await trx
            .insertInto('trunks')
            .values({
              name: port.name,
              kind: 'gateway',
              provider: model.manufacturer,
              username: port.name,
              secret: randomSecret(),
              phone: port.number || null,
              codecs: 'alaw,ulaw',
              force_codec: 1,
              settings: JSON.stringify(gatewayTrunkSettings(port.name, body.ipv4_new, trunkNumber, model.tls)),
              gateway_id: gatewayId,
              port_type: port.type,
              port: String(first + port.index),
              created_at: now,
              updated_at: now,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          await trx
            .insertInto('gateway_ports')
            .values({
              gateway_id: gatewayId,
              port_type: port.type,
              port_index: port.index,
              trunk_id: Number(trunk.id),
              trunk_number: trunkNumber,
              protocol: port.protocol ?? null,
              number: port.type === 'fxo' ? (port.number ?? '') : null,
              extension: null,
              physical_extension: null,
              secret: null,
            })
            .execute();
        }
        const devices = await this.fxsNumbers(trx, links);
        for (const [k, main] of links.entries()) {
          await trx
            .insertInto('gateway_ports')
            .values({
              gateway_id: gatewayId,
              port_type: 'fxs',
              port_index: k,
              trunk_id: null,
              trunk_number: null,
              protocol: null,
              number: null,
              extension: main,
              physical_extension: devices[k] ?? null,
              secret: main ? randomSecret() : null,
            })
            .execute();
        }
        return gatewayId;
      });
      this.changed();
      return id;
    } catch (error) {
      if (isUniqueViolation(error)) {
        // Lost a race with another save: say which kind of clash it was.
        if (await this.db.selectFrom('gateways').select('id').where('mac', '=', body.mac).executeTakeFirst()) {
          throw new AppError(409, 'gateway_exists', undefined, { mac: 'exists' });
        }
        throw trunkExists(trunkPorts[0]?.name ?? '');
      }
      throw error;
    }
  }

  /** Deletes the gateway with its port trunks and FXS devices; answers false when there is none. */
  async remove(id: number): Promise<boolean> {
    const deleted = await this.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('gateways').select('id').where('id', '=', id).executeTakeFirst();
      if (!row) return false;
      await trx.deleteFrom('trunks').where('kind', '=', 'gateway').where('gateway_id', '=', id).execute();
      await trx.deleteFrom('gateway_ports').where('gateway_id', '=', id).execute();
      await trx.deleteFrom('gateways').where('id', '=', id).execute();
      return true;
    });
    if (deleted) this.changed();
    return deleted;
  }

  private async find(where: { id?: number; name?: string; mac?: string }): Promise<GatewayRow | undefined> {
    let q = this.db.selectFrom('gateways').selectAll();
    if (where.id !== undefined) q = q.where('id', '=', where.id);
    if (where.name !== undefined) q = q.where('name', '=', where.name);
    if (where.mac !== undefined) q = q.where('mac', '=', where.mac);
    return q.orderBy('id').executeTakeFirst();
  }

  /** What the generated file needs, read from the database. */
  private async configInput(row: GatewayRow, lang: UiLanguage, now = new Date()): Promise<GatewayConfigInput> {
    const model = gatewayModel(Number(row.model_id));
    if (!model) throw new AppError(404, 'not_found');
    const ports = await this.db
      .selectFrom('gateway_ports')
      .selectAll()
      .where('gateway_id', '=', Number(row.id))
      .execute();
    const trunkIds = ports.map((p) => p.trunk_id).filter((t): t is number => t !== null);
    const trunks = trunkIds.length
      ? await this.db.selectFrom('trunks').select(['id', 'name', 'secret']).where('id', 'in', trunkIds).execute()
      : [];
    const byId = new Map(trunks.map((t) => [Number(t.id), t]));
    const trunkPort = (p: PortRow) => {
      const t = byId.get(Number(p.trunk_id));
      return { username: t?.name ?? '', secret: t?.secret ?? '', trunkNumber: p.trunk_number ?? '' };
    };
    return {
      model,
      // The file's header names the gateway in the reader's language (the stored name keeps the Italian).
      name: gatewayNameIn(row.name, model.id, lang),
      mac: row.mac,
      ip: row.ipv4_new,
      netmask: row.netmask_green,
      defaultGateway: row.gateway,
      pbx: row.ipv4_green,
      isdn: portsOf(ports, 'isdn').map((p) => ({ ...trunkPort(p), protocol: p.protocol === 'pmp' ? 'pmp' : 'pp' })),
      pri: portsOf(ports, 'pri').map(trunkPort),
      fxo: portsOf(ports, 'fxo').map((p) => ({ ...trunkPort(p), number: p.number ?? '' })),
      fxs: portsOf(ports, 'fxs').map((p) => ({ extension: p.physical_extension, secret: p.secret })),
      now,
      pbxPorts: this.options.pbxPorts,
    };
  }

  /** The configuration file of a gateway, by id or configuration name (and MAC when given). */
  async download(key: string, mac?: string, lang: UiLanguage = 'en'): Promise<string> {
    const byId = /^[0-9]{1,9}$/.test(key);
    const row = await this.find({
      ...(byId ? { id: Number(key) } : { name: key }),
      ...(mac ? { mac: mac.toUpperCase() } : {}),
    });
    if (!row) throw new AppError(404, 'not_found');
    return renderGatewayConfig(await this.configInput(row, lang));
  }

  /** Serves a file over TFTP only to the gateway it belongs to (its current or new address). */
  private async tftpFile(file: string, from: string): Promise<Buffer | undefined> {
    const name = file.replace(/^\/+/, '');
    const match =
      /^([0-9A-F]{12})(\.cfg|config\.txt|script\.txt)$/.exec(name) ?? /^cfg([0-9a-f]{12})(\.xml)$/.exec(name);
    if (!match) return undefined;
    const hex = (match[1] as string).toUpperCase();
    const mac = hex.match(/../g)?.join(':') ?? '';
    const row = await this.find({ mac });
    if (!row) return undefined;
    const model = gatewayModel(Number(row.model_id));
    if (!model) return undefined;
    const address = from.replace(/^::ffff:/, '');
    if (address !== row.ipv4 && address !== row.ipv4_new) return undefined;
    if (match[2] === 'script.txt') {
      if (model.manufacturer !== 'Sangoma') return undefined;
      return Buffer.from(sangomaScript(tftpFileName(model, mac), row.ipv4_green, this.options.tftpPort));
    }
    if (tftpFileName(model, mac) !== name) return undefined;
    return Buffer.from(renderGatewayConfig(await this.configInput(row, this.pushLanguage.get(row.mac) ?? 'en')));
  }

  /** Makes the device fetch its file from our TFTP server and restart with it. */
  async push(mac: string, lang: UiLanguage = 'en'): Promise<void> {
    const row = await this.find({ mac });
    if (!row) throw new AppError(404, 'not_found');
    // The device fetches its file over TFTP right after: in the language of whoever pushed it.
    this.pushLanguage.set(row.mac, lang);
    const model = gatewayModel(Number(row.model_id));
    if (!model) throw new AppError(404, 'not_found');
    const plan = pushPlan(model, row.ipv4_green, this.options.tftpPort, tftpFileName(model, row.mac));
    if (!plan) throw new AppError(409, 'gateway_push_unsupported');
    const host = (await this.currentAddress(row)) || row.ipv4_new;
    const port = this.consolePort(model);
    if (!(await answersOnTcp(host, port, 2000))) throw new AppError(409, 'gateway_not_connected');
    if (!(await this.tftp.ensureStarted())) throw new AppError(503, 'tftp_unavailable');
    try {
      const transcript =
        plan.transport === 'ssh'
          ? await runSshDialogue(host, port, plan.login, plan.steps)
          : await runTelnetDialogue(host, port, plan.steps);
      this.options.log.info({ mac: row.mac, host, transcript }, 'gateway configuration pushed');
    } catch (error) {
      if (!(error instanceof DialogueError)) throw error;
      this.options.log.warn(
        { mac: row.mac, host, err: error.message, transcript: error.transcript },
        'gateway push failed',
      );
      if (error instanceof LoginRefusedError) throw new AppError(502, 'gateway_login_failed');
      throw new AppError(502, 'gateway_push_failed', (lang) =>
        lang === 'it'
          ? `Errore generico nella configurazione: ${error.message}`
          : `Generic error on configuration: ${error.message}`,
      );
    }
  }

  /** Where the device is now: its neighbour-table address, else the stored current one. */
  private async currentAddress(row: GatewayRow): Promise<string> {
    const seen = (await this.discovered()).find((s) => s.mac === row.mac);
    return seen?.ipv4 || row.ipv4;
  }
}

function trunkExists(name: string): AppError {
  return new AppError(
    409,
    'trunk_exists',
    (lang) => (lang === 'it' ? `Esiste già un fascio di nome ${name}.` : `A trunk named ${name} already exists.`),
    { name: 'exists' },
  );
}

/**
 * PJSIP settings of a port trunk (contract §3.11, asterisk §4.4): the gateway registers to us with the
 * trunk name and secret; calls to it carry the trunk number as prefix.
 */
export function gatewayTrunkSettings(name: string, gatewayIp: string, trunkNumber: string, tls: boolean) {
  return {
    registration: 'receive',
    authentication: 'inbound',
    context: 'from-pstn-identity',
    usercontext: 'from-pstn-identity',
    dtmfmode: 'rfc4733',
    transport: tls ? '0.0.0.0-tls' : '0.0.0.0-udp',
    expiration: '3600',
    qualify_frequency: '60',
    max_retries: '10',
    rewrite_contact: 'no',
    rtp_symmetric: 'no',
    force_rport: 'no',
    direct_media: 'no',
    media_encryption: tls ? 'sdes' : 'no',
    send_connected_line: 'false',
    sendrpid: 'no',
    trust_rpid: 'no',
    user_eq_phone: 'no',
    t38_udptl: 'no',
    pjsip_line: 'true',
    sip_server: gatewayIp,
    sip_server_port: tls ? '5061' : '5060',
    aors: name,
    trunk_name: name,
    dialoutprefix: trunkNumber,
  };
}
