import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type PbxSystemStatus, type UiLanguage, VOICEMAIL_TRANSCRIPTION_PATH } from '@centralino/contract';
import type { Kysely } from 'kysely';
import type { Config, PbxPorts } from '../config.ts';
import type { Database } from '../db/schema.ts';
import { ensureRecordingFolders } from '../features/call-recordings/files.ts';
import { VoicemailSttToken, voicemailSttTokenPath } from '../features/cloud-speech/token.ts';
import { selfSignedPair } from '../plugins/https-listener.ts';
import { AmiClient, AmiError } from './ami/client.ts';
import { field } from './ami/framing.ts';
import { type ApplierOptions, type ExpectedObjects, PbxApplier, type PbxReloader, THREAD_FROM_USERS } from './apply.ts';
import * as said from './apply-warnings.ts';
import { CallRecordSpool, callRecordSpoolDir } from './call-records.ts';
import { PbxLive } from './live.ts';
import { LiveState } from './live-state.ts';
import { loadPbxModel } from './load.ts';
import type { AsteriskInstallation, PbxProblem } from './managed/installation.ts';
import type { Words } from './managed/messages.ts';
import { AsteriskSupervisor } from './managed/supervisor.ts';
import type { PbxSettings } from './model.ts';
import {
  ensurePhoneRecordingDir,
  PHONE_RECORDING_PATH,
  type PhoneRecordingSettings,
  phoneRecordingDir,
} from './phone-recording.ts';
import { QueueLogSpool, queueLogSpoolDir } from './queue-log.ts';
import { TRANSPORTS } from './render/pjsip.ts';

type Log = NonNullable<ApplierOptions['log']> & { warn(obj: object, msg: string): void };

/**
 * Reloads over AMI: each module on its own, so one failure does not hide the others. A restart waits
 * until Asterisk is back (AMI connected again and FullyBooted), so the apply records what happened.
 */
export class AmiReloader implements PbxReloader {
  constructor(
    private readonly ami: AmiClient,
    private readonly log?: Log,
    private readonly options: {
      /** A second AMI connection, for the restart request alone. */
      connect?: () => AmiClient;
      /** How long Asterisk may take to go down once asked (longer: calls are up, it waits for them). */
      restartStartMs?: number;
      /** How long it may take to boot again. */
      restartTimeoutMs?: number;
      wssPort?: number;
      /** A managed Asterisk is on its way up (it reads every file as it starts). */
      starting?: () => boolean;
    } = {},
  ) {}

  starting(): boolean {
    return this.options.starting?.() ?? false;
  }

  state() {
    const s = this.ami.state;
    return s === 'stopped' ? ('disabled' as const) : s;
  }

  lastError(): string | undefined {
    return this.ami.lastError;
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
    if (restart) await this.restart();
    return done;
  }

  /** The restart asked for and not seen yet, and when it was asked. */
  private pendingRestart: { message: Words; askedAt: number } | null = null;
  /** The connection of the last restart request (dropped by the restart itself). */
  private control: AmiClient | undefined;

  /** Lets go of a restart request still waiting for calls to end (shutdown). */
  close(): void {
    if (this.control && this.control.state !== 'stopped') void this.control.stop();
  }

  /** A restart asked by an apply is under way: that apply checks what Asterisk loaded once it is back. */
  restarting = false;

  /**
   * Asks for a restart once no call is up, and waits until Asterisk has booted again. The request goes
   * over a connection of its own: Asterisk answers it only when it does not restart (its CLI handler
   * blocks while calls are up, and never returns when it restarts), and would hold up every other
   * action of the session meanwhile, live state included.
   */
  private async restart(): Promise<void> {
    // An earlier request still waits for the calls to end (its connection is still open): Asterisk
    // would only answer that a restart is already in progress.
    if (this.pendingRestart && this.control?.state === 'connected') return;
    const askedAt = Date.now();
    const bootMs = this.options.restartTimeoutMs ?? 60_000;
    const goneMs = this.options.restartStartMs ?? 3000;
    const pending = (message: Words) => {
      this.pendingRestart = { askedAt, message };
    };
    const control = this.options.connect?.();
    this.control = control;
    this.restarting = true;
    let timer: NodeJS.Timeout | undefined;
    type Listener = Parameters<AmiClient['on']>[1];
    const listeners: [string, Listener][] = [];
    const on = (name: string, fn: Listener) => {
      listeners.push([name, fn]);
      this.ami.on(name, fn);
    };
    try {
      if (!control) {
        pending(said.restartNoConnection());
        return;
      }
      control.start();
      const ready = await new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), 5000);
        control.once('ready', () => resolve(true));
      });
      clearTimeout(timer);
      if (!ready) {
        const why = control.lastError;
        await control.stop();
        pending(said.restartLoginFailed(why));
        return;
      }
      // The restart drops this connection too: it must not log in again afterwards.
      control.once('disconnected', () => void control.stop());
      let gone = false;
      let answered: string[] | null = null;
      const outcome = new Promise<'gone' | 'answered' | 'waiting'>((resolve) => {
        on('disconnected', () => {
          gone = true;
          clearTimeout(timer);
          resolve('gone');
        });
        timer = setTimeout(() => resolve('waiting'), goneMs);
        control
          .command('core restart when convenient')
          .then((output) => {
            answered = output;
            if (!gone) resolve('answered');
          })
          .catch((error) => {
            // Refused (an answer with an error); a lost connection or a timeout says nothing.
            if (error instanceof AmiError && error.response && !gone) {
              answered = [error.message];
              resolve('answered');
            }
          });
      });
      const first = await outcome;
      clearTimeout(timer);
      if (first === 'answered') {
        await control.stop();
        pending(said.restartRefused((answered ?? []).join(' ').trim()));
        return;
      }
      if (first === 'waiting') {
        // Calls are up: Asterisk restarts when the last one ends (and stops writing CDRs meanwhile).
        // Its FullyBooted then asks for an apply, whose check sees the restart.
        pending(said.restartWhenIdle());
        return;
      }
      const booted = await new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), bootMs);
        on('event', (event) => {
          if (field(event as Parameters<typeof field>[0], 'event') === 'FullyBooted') resolve(true);
        });
      });
      this.pendingRestart = booted ? null : { askedAt, message: said.restartNotBack(Math.ceil(bootMs / 1000)) };
      this.log?.info({ booted, ms: Date.now() - askedAt }, 'Asterisk restart');
    } finally {
      this.restarting = false;
      clearTimeout(timer);
      for (const [name, fn] of listeners) this.ami.off(name, fn);
    }
  }

  /**
   * Asks Asterisk which SIP transports and whether the web phones' HTTPS listener it really runs: a
   * transport whose certificate it cannot read is only a log line, and the reload still "succeeds".
   */
  async check(expected: ExpectedObjects = { identifies: [] }): Promise<Words[]> {
    const warnings: Words[] = [];
    if (this.pendingRestart) {
      // It may have restarted since (once the last call ended): it then has been up for less time.
      const up = /System uptime:\s+(\d+)/.exec(
        (await this.ami.command('core show uptime seconds').catch(() => [])).join('\n'),
      );
      if (up && Number(up[1]) * 1000 < Date.now() - this.pendingRestart.askedAt) this.pendingRestart = null;
      else warnings.push(this.pendingRestart.message);
    }
    try {
      const lines = await this.ami.command('pjsip show transports');
      const running = new Set(lines.map((l) => /^\s*Transport:\s+(\S+)\s+\S/.exec(l)?.[1]).filter(Boolean));
      for (const name of Object.values(TRANSPORTS)) {
        if (!running.has(name)) {
          warnings.push(said.transportMissing(name, name === TRANSPORTS.tls));
        }
      }
    } catch (error) {
      warnings.push(said.transportsUnread(error));
    }
    if (expected.identifies.length > 0) {
      try {
        const lines = await this.ami.command('pjsip show identifies');
        const loaded = new Set(lines.map((l) => /^\s*Identify:\s+([^\s/<]+)\//.exec(l)?.[1]).filter(Boolean));
        for (const { trunk, host } of expected.identifies) {
          if (loaded.has(trunk)) continue;
          warnings.push(said.identifyMissing(trunk, host));
        }
      } catch (error) {
        warnings.push(said.identifiesUnread(error));
      }
    }
    try {
      const lines = await this.ami.command('http show status');
      const port = this.options.wssPort;
      const https = lines.find((l) => /HTTPS Server Enabled and Bound to/i.test(l));
      if (!https || (port !== undefined && !https.includes(`:${port}`))) {
        warnings.push(said.wssMissing(port));
      }
    } catch (error) {
      warnings.push(said.httpUnread(error));
    }
    return warnings;
  }
}

/** What main.ts found for a managed Asterisk (pbx/managed/layout.ts). */
export interface ManagedPbx {
  installation: AsteriskInstallation | PbxProblem;
  /** What is missing beside it (prompts, music on hold). */
  warnings: Words[];
}

/** The PBX engine of one server: apply queue, optional AMI connection, live state. */
export class PbxEngine {
  readonly applier: PbxApplier;
  readonly live: PbxLive;
  readonly ami: AmiClient | undefined;
  /** The voicemail mail command's credential for the loopback transcription call (features/cloud-speech). */
  readonly voicemailSttToken: VoicemailSttToken;
  private readonly reloader: AmiReloader | undefined;
  /** Asterisk's call records, taken in from its spool file (cdr_custom). */
  readonly callRecords: CallRecordSpool;
  /** Asterisk's queue log, taken in from its spool file (the queue reports). */
  readonly queueLog: QueueLogSpool;

  /** Who runs Asterisk, and where phones reach it. */
  readonly mode: Config['pbx']['mode'];
  readonly ports: PbxPorts;
  /** Managed mode: the Asterisk this process runs. */
  readonly supervisor: AsteriskSupervisor | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    config: Config,
    version: string,
    private readonly log?: Log,
    managed?: ManagedPbx,
  ) {
    const ami = config.pbx.ami;
    // A managed Asterisk is on loopback and restarted by this process: retrying its manager costs nothing.
    const reconnectMaxMs = managed ? 1000 : undefined;
    const connect = ami
      ? () =>
          new AmiClient({
            host: ami.host,
            port: ami.port,
            username: ami.username,
            secret: ami.secret,
            ...(reconnectMaxMs ? { reconnectMaxMs } : {}),
          })
      : undefined;
    this.ami = connect?.();
    const reloader = this.ami
      ? new AmiReloader(this.ami, log, {
          wssPort: config.pbx.ports.wss,
          connect,
          starting: () => ['preparing', 'starting', 'restarting'].includes(this.supervisor?.state ?? ''),
        })
      : undefined;
    this.mode = config.pbx.mode;
    this.ports = config.pbx.ports;
    if (managed) {
      const supervisor = new AsteriskSupervisor({
        installation: managed.installation,
        confFile: path.join(config.pbx.configDir, 'asterisk.conf'),
        runDir: config.pbx.directories.run,
        logDir: config.pbx.directories.log,
        ports: config.pbx.ports,
        amiPort: config.pbx.amiPort,
        warnings: managed.warnings,
        log,
      });
      this.supervisor = supervisor;
      supervisor.on('manager', () => this.ami?.reconnectNow());
      // Running once fully booted (sent after each login), not at the login: a large configuration is still loading then.
      this.ami?.on('event', (event) => {
        if (field(event, 'event') === 'FullyBooted') supervisor.connected();
      });
    }
    this.reloader = reloader;
    const { runAs, directories } = config.pbx;
    this.voicemailSttToken = new VoicemailSttToken(voicemailSttTokenPath(config.pbx.configDir), runAs.gid);
    const system: PbxSettings['system'] = {
      runUser: runAs.user,
      runGroup: runAs.group,
      directories: { config: config.pbx.configDir, ...directories },
    };
    this.applier = new PbxApplier({
      db,
      directory: config.pbx.configDir,
      gid: runAs.gid,
      log,
      reloader,
      load: async () =>
        loadPbxModel(db, {
          soundsDir: config.pbx.soundsDir,
          tls: await this.tls(config),
          system,
          ami: {
            port: ami?.port ?? 5038,
            bindAddress: '127.0.0.1',
            users: ami ? [{ username: ami.username, secret: ami.secret }] : [],
          },
          version,
          ports: config.pbx.ports,
          voicemailStt: await this.voicemailStt(config),
          phoneRecording: await this.phoneRecording(config),
          callRecordingDir: await this.callRecordingDir(config),
        }),
    });
    this.live = new PbxLive(db, this.ami, new LiveState(this.ami));
    this.callRecords = new CallRecordSpool(db, callRecordSpoolDir(config.pbx.configDir), runAs.gid, log);
    this.queueLog = new QueueLogSpool(db, queueLogSpoolDir(config.pbx.configDir), runAs.gid, log, {
      // A full file was taken aside: the logger opens a new one (until then it writes on in the taken file).
      reopen: async () => this.ami?.command('logger reload'),
    });
    this.applier.onDirty(this.live.configurationChanged);
    this.ami?.on('state', (state) => log?.info({ state }, 'AMI connection'));
    this.ami?.on('event', (event) => {
      // Asterisk restarted, or the link is back (Asterisk sends FullyBooted after each login): whatever it
      // loaded may predate our last apply, and an apply during the outage may owe reloads (unless that apply
      // restarted it and is waiting for it).
      if (field(event, 'event') === 'FullyBooted' && !reloader?.restarting) this.applier.request();
    });
  }

  /**
   * The transcription mail command, once its token file is in place; without one (the file cannot be
   * written), none: e-mails then go out as Asterisk sends them, without the text.
   */
  private async voicemailStt(config: Config): Promise<string | undefined> {
    try {
      await this.voicemailSttToken.ensure();
      return voicemailSttCommand({ host: config.host, port: config.port, tokenFile: this.voicemailSttToken.file });
    } catch (error) {
      this.log?.error({ err: error }, 'voicemail transcription: cannot write the mail command token');
      return undefined;
    }
  }

  /**
   * Recording from a phone (*77): the spool folder Asterisk records into and the console's loopback address, with the
   * same token as the voicemail mail command; none when either cannot be made (the code then only beeps).
   */
  private async phoneRecording(config: Config): Promise<PhoneRecordingSettings | undefined> {
    const dir = phoneRecordingDir(config.pbx.soundsDir);
    try {
      await this.voicemailSttToken.ensure();
      await ensurePhoneRecordingDir(dir, config.pbx.runAs.gid);
      return {
        dir,
        url: loopbackUrl(config.host, config.port, PHONE_RECORDING_PATH),
        tokenFile: this.voicemailSttToken.file,
      };
    } catch (error) {
      this.log?.error({ err: error }, 'recording from a phone: cannot make the spool folder or the token');
      return undefined;
    }
  }

  /** Call recordings' folder, once made (files.ts); none when it cannot be: policies and *1 are then left out. */
  private async callRecordingDir(config: Config): Promise<string | undefined> {
    try {
      await ensureRecordingFolders(config.recordingsDir, config.pbx.runAs.gid);
      return config.recordingsDir;
    } catch (error) {
      this.log?.error({ err: error }, 'call recordings: cannot make the recordings folder');
      return undefined;
    }
  }

  private tlsReady: Promise<PbxSettings['tls']> | undefined;

  /**
   * Asterisk's certificate: the configured one, else a self-signed pair made once in <configDir>/keys,
   * readable by Asterisk's group (without one, the TLS transport and the WSS listener do not load).
   */
  private tls(config: Config): Promise<PbxSettings['tls']> {
    const { tls } = config.pbx;
    if (tls.certFile && tls.keyFile) {
      return Promise.resolve({ certFile: tls.certFile, keyFile: tls.keyFile, caFile: tls.caFile });
    }
    this.tlsReady ??= selfSignedPair({
      dir: path.join(config.pbx.configDir, 'keys'),
      name: 'asterisk',
      gid: config.pbx.runAs.gid,
    })
      .then(({ certFile, keyFile }) => ({ certFile, keyFile, caFile: tls.caFile }))
      .catch((error) => {
        this.tlsReady = undefined;
        throw error;
      });
    return this.tlsReady;
  }

  /** Connects AMI (when configured) and brings the files on disk up to date. */
  start(): void {
    this.ami?.start();
    // What Asterisk recorded while the console was stopped, then every second.
    void this.callRecords.start();
    void this.queueLog.start();
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
    // Asterisk reads what the first apply wrote.
    void this.supervisor?.start(this.applier.idle());
  }

  /** The phone system as the dashboard and /api/health show it, its words in `lang`. */
  system(lang: UiLanguage = 'en'): PbxSystemStatus {
    const ami = this.ami ? (this.ami.state === 'stopped' ? 'disabled' : this.ami.state) : 'disabled';
    const base = { mode: this.mode, ami, ports: this.ports } as const;
    if (this.supervisor) return { ...base, ...this.supervisor.status(lang) };
    return {
      ...base,
      state:
        ami === 'connected' ? 'running' : ami === 'failed' ? 'failed' : ami === 'connecting' ? 'starting' : 'stopped',
      problem: null,
      version: null,
      pid: null,
      uptimeSeconds: null,
      restarts: 0,
      warnings: [],
    };
  }

  async close(): Promise<void> {
    await this.applier.close();
    await this.callRecords.close();
    await this.queueLog.close();
    this.reloader?.close();
    this.live.state.close();
    await this.ami?.stop();
    await this.supervisor?.stop();
  }
}

/** A path for the shell Asterisk runs its mail command with. */
const shellQuoted = (value: string) => `'${value.replaceAll("'", "'\\''")}'`;

/**
 * The address the mail command reaches this server at: loopback (HOST must be a wildcard or a loopback
 * address; the call is refused from anywhere else).
 */
export function loopbackUrl(host: string, port: number, route: string = VOICEMAIL_TRANSCRIPTION_PATH): string {
  const address = host === '::1' ? '[::1]' : '127.0.0.1';
  return `http://${address}:${port}${route}`;
}

/**
 * The voicemail transcription mail command (voicemail-stt/main.ts) without its language: the bundle's
 * dist/voicemail-stt.js run by this Node, or the source through tsx when the server itself runs from source.
 * It sends the message's audio to this server over loopback with the token of `tokenFile` (readable by
 * Asterisk's group); the Google key stays here.
 */
export function voicemailSttCommand(options: { host: string; port: number; tokenFile: string }): string {
  const fromSource = import.meta.url.endsWith('.ts');
  const script = fileURLToPath(
    new URL(fromSource ? '../voicemail-stt/main.ts' : './voicemail-stt.js', import.meta.url),
  );
  return [
    shellQuoted(process.execPath),
    ...(fromSource ? ['--import', 'tsx'] : []),
    shellQuoted(script),
    '--url',
    shellQuoted(loopbackUrl(options.host, options.port)),
    '--token-file',
    shellQuoted(options.tokenFile),
  ].join(' ');
}
