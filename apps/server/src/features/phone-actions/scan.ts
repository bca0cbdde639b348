import { createHash } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import fs from 'node:fs/promises';
import path from 'node:path';
import {
  MAC_VENDOR_RANGES,
  MIN_SCAN_PREFIX,
  providerBrandModel,
  type ScannedDevice,
  vendorOfMac,
} from '@centralino/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { type JobContext, type JobRunner, JobRunningError } from '../../jobs/runner.ts';
import {
  eachLimited,
  hostsOf,
  isLocal,
  type LocalAddress,
  localAddresses,
  probe,
  rangeOf,
  readNeighbours,
} from './network.ts';

export const SCAN_JOB_KIND = 'network-scan';

export interface ScanOptions {
  dataDir: string;
  log?: FastifyBaseLogger;
  /** The server's addresses; tests pass a fixed list. */
  locals?: () => LocalAddress[];
  /** Where the neighbour table is read. */
  neighboursFile?: string;
  /** TCP port every host is probed on. */
  port?: number;
  probeTimeoutMs?: number;
  concurrency?: number;
  /** Hard limit of a whole scan. */
  deadlineMs?: number;
  /** Time for late ARP replies to land in the neighbour table after the probes. */
  settleMs?: number;
}

/** The name results are stored under: md5 of the network string exactly as sent (contract api-admin §3.1). */
export function scanHash(network: string): string {
  return createHash('md5').update(network).digest('hex');
}

class ScanStopped extends Error {
  constructor() {
    super('Scan stopped');
  }
}

const typeOfVendor = new Map(MAC_VENDOR_RANGES.map((v) => [v.vendor, v.type]));

/**
 * Network discovery as a background job: probes every host of a local network, then reads the MACs the
 * kernel resolved meanwhile and keeps the devices whose vendor the MAC map knows. Results are written
 * as `<md5>.phones.scan` / `<md5>.gateways.scan` under DATA_DIR/scans.
 */
export class ScanService {
  private readonly running = new Map<string, AbortController>();
  private readonly dir: string;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly jobs: JobRunner,
    private readonly options: ScanOptions,
  ) {
    this.dir = path.join(options.dataDir, 'scans');
  }

  /** Checks the network and starts the scan; answers the task id. */
  async start(network: string): Promise<string> {
    const [ip = '', prefixText = ''] = network.split('/');
    const prefix = Number(prefixText);
    if (prefix < MIN_SCAN_PREFIX) {
      throw new AppError(400, 'scan_too_wide', undefined, {
        network: `At most a /${MIN_SCAN_PREFIX} network can be scanned`,
      });
    }
    const range = rangeOf(ip, prefix);
    const locals = (this.options.locals ?? localAddresses)();
    if (!isLocal(range, locals)) {
      throw new AppError(400, 'scan_not_local', undefined, {
        network: 'Not a network of the server',
      });
    }
    const hosts = hostsOf(range, new Set(locals.map((l) => l.address)));
    const controller = new AbortController();
    const hash = scanHash(network);
    let id: string;
    try {
      id = await this.jobs.start(
        SCAN_JOB_KIND,
        `Scanning ${network}`,
        (ctx) => this.run(hosts, hash, controller.signal, ctx).finally(() => this.running.delete(id)),
        { exclusive: true },
      );
    } catch (error) {
      if (error instanceof JobRunningError) throw new AppError(409, 'scan_running');
      throw error;
    }
    this.running.set(id, controller);
    return id;
  }

  /** Stops a running scan: no new probe starts and open ones are closed. False when none runs with that id. */
  stop(id: string): boolean {
    const controller = this.running.get(id);
    if (!controller) return false;
    controller.abort(new ScanStopped());
    this.running.delete(id);
    return true;
  }

  /** Stops every scan (server shutdown). */
  stopAll(): void {
    for (const id of [...this.running.keys()]) this.stop(id);
  }

  private async run(hosts: string[], hash: string, stop: AbortSignal, ctx: JobContext): Promise<{ found: number }> {
    const signal = AbortSignal.any([stop, AbortSignal.timeout(this.options.deadlineMs ?? 120_000)]);
    const concurrency = this.options.concurrency ?? 64;
    // Every probe in flight listens for the stop.
    setMaxListeners(concurrency + 8, signal);
    const port = this.options.port ?? 80;
    const timeout = this.options.probeTimeoutMs ?? 700;
    let done = 0;
    await eachLimited(hosts, concurrency, signal, async (ip) => {
      await probe(ip, port, timeout, signal);
      done++;
      await ctx.progress((done / Math.max(1, hosts.length)) * 90);
    });
    if (stop.aborted) throw new ScanStopped();
    await new Promise((resolve) => setTimeout(resolve, this.options.settleMs ?? 250));
    await ctx.progress(92, 'Reading the neighbour table');

    const neighbours = await readNeighbours(this.options.neighboursFile);
    const devices: ScannedDevice[] = [];
    for (const ip of hosts) {
      const entry = neighbours.get(ip);
      if (!entry) continue;
      const manufacturer = vendorOfMac(entry.mac);
      if (!manufacturer) continue;
      let type = typeOfVendor.get(manufacturer) ?? 'unknown';
      if (type === 'unknown') type = await classifyUnknown(ip, stop);
      devices.push({ mac: entry.mac, ipv4: ip, manufacturer, type });
    }
    if (stop.aborted) throw new ScanStopped();
    await fs.mkdir(this.dir, { recursive: true });
    await writeJson(
      path.join(this.dir, `${hash}.phones.scan`),
      devices.filter((d) => d.type === 'phone'),
    );
    await writeJson(
      path.join(this.dir, `${hash}.gateways.scan`),
      devices.filter((d) => d.type === 'gateway'),
    );
    this.options.log?.info({ hash, hosts: hosts.length, found: devices.length }, 'network scan done');
    return { found: devices.length };
  }

  /** The phone rows of every scan on disk, in no particular order (a MAC may appear more than once). */
  async allScannedPhones(): Promise<ScannedDevice[]> {
    let names: string[];
    try {
      names = await fs.readdir(this.dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const out: ScannedDevice[] = [];
    for (const name of names.filter((n) => n.endsWith('.phones.scan'))) {
      try {
        out.push(...(JSON.parse(await fs.readFile(path.join(this.dir, name), 'utf8')) as ScannedDevice[]));
      } catch (error) {
        // A file a scan is replacing right now, or one removed meanwhile: the next read sees the new one.
        this.options.log?.warn({ err: error, name }, 'scan results not readable');
      }
    }
    return out;
  }

  /** Phones of a finished scan, with the model the inventory has or the MAC tells; undefined when none. */
  async phones(hash: string): Promise<ScannedDevice[] | undefined> {
    let list: ScannedDevice[];
    try {
      list = JSON.parse(await fs.readFile(path.join(this.dir, `${hash}.phones.scan`), 'utf8')) as ScannedDevice[];
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    const macs = list.map((d) => d.mac);
    const stored =
      macs.length === 0
        ? []
        : await this.db.selectFrom('devices').select(['mac', 'model']).where('mac', 'in', macs).execute();
    const modelOf = new Map(stored.map((r) => [r.mac, r.model]));
    return list.map((d) => {
      const model = modelOf.get(d.mac) ?? providerBrandModel(d.mac);
      return model ? { ...d, model } : d;
    });
  }
}

async function writeJson(file: string, value: unknown): Promise<void> {
  const temp = `${file}.${process.pid}.tmp`;
  await fs.writeFile(temp, JSON.stringify(value));
  await fs.rename(temp, file);
}

/** Sangoma makes both phones and gateways under one OUI: the device's home page tells (contract §3.1). */
async function classifyUnknown(ip: string, stop: AbortSignal): Promise<'phone' | 'gateway'> {
  try {
    const res = await fetch(`http://${ip}/index.htm`, {
      signal: AbortSignal.any([stop, AbortSignal.timeout(3000)]),
    });
    const text = await res.text();
    return /Gateway|Sangoma Vega /.test(text) ? 'gateway' : 'phone';
  } catch {
    return 'phone';
  }
}
