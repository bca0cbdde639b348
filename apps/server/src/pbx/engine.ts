import type { Kysely } from 'kysely';
import type { Config } from '../config.ts';
import type { Database } from '../db/schema.ts';
import { AmiClient } from './ami/client.ts';
import { field } from './ami/framing.ts';
import { type ApplierOptions, PbxApplier, type PbxReloader, THREAD_FROM_USERS } from './apply.ts';
import { PbxLive } from './live.ts';
import { loadPbxModel } from './load.ts';

type Log = NonNullable<ApplierOptions['log']> & { warn(obj: object, msg: string): void };

/** Reloads over AMI: each module on its own, so one failure does not hide the others. */
export class AmiReloader implements PbxReloader {
  constructor(
    private readonly ami: AmiClient,
    private readonly log?: Log,
  ) {}

  state() {
    const s = this.ami.state;
    return s === 'stopped' ? ('disabled' as const) : s;
  }

  async reload(modules: string[], restart: boolean): Promise<string[]> {
    const done: string[] = [];
    for (const module of modules) {
      try {
        await this.ami.action('Reload', { Module: module });
        done.push(module);
      } catch (error) {
        this.log?.warn({ err: error, module }, 'Asterisk module reload failed');
      }
    }
    // Transports and modules are read only at start: restart once no call is up.
    if (restart) await this.ami.command('core restart when convenient');
    return done;
  }
}

/** The PBX engine of one server: apply queue, optional AMI connection, live state. */
export class PbxEngine {
  readonly applier: PbxApplier;
  readonly live: PbxLive;
  readonly ami: AmiClient | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    config: Config,
    version: string,
    private readonly log?: Log,
  ) {
    const ami = config.pbx.ami;
    this.ami = ami
      ? new AmiClient({ host: ami.host, port: ami.port, username: ami.username, secret: ami.secret })
      : undefined;
    this.applier = new PbxApplier({
      db,
      directory: config.pbx.configDir,
      log,
      reloader: this.ami ? new AmiReloader(this.ami, log) : undefined,
      load: () =>
        loadPbxModel(db, {
          tls: config.pbx.tls,
          ami: {
            port: ami?.port ?? 5038,
            bindAddress: '127.0.0.1',
            users: ami ? [{ username: ami.username, secret: ami.secret }] : [],
          },
          version,
        }),
    });
    this.live = new PbxLive(db, this.ami);
    this.ami?.on('state', (state) => log?.info({ state }, 'AMI connection'));
    this.ami?.on('event', (event) => {
      // Asterisk restarted: whatever it loaded may predate our last apply.
      if (field(event, 'event') === 'FullyBooted') this.applier.request();
    });
  }

  /** Connects AMI (when configured) and brings the files on disk up to date. */
  start(): void {
    this.ami?.start();
    // A large system's configuration is checked on a thread of its own: started now, alongside the
    // first apply's loading and rendering.
    this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst()
      .then((row) => {
        if (Number(row?.n ?? 0) >= THREAD_FROM_USERS) this.applier.prepare();
      })
      .catch((error) => this.log?.error({ err: error }, 'could not count the users'));
    this.applier.request();
  }

  async close(): Promise<void> {
    await this.applier.close();
    await this.ami?.stop();
  }
}
