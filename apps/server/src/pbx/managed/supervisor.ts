import { type ChildProcess, spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { ManagedPbxState, PbxSystemStatus, UiLanguage } from '@centralino/contract';
import { type PbxPorts, PORT_SETTINGS } from '../../config.ts';
import type { Log as Logger } from '../../log.ts';
import { type AsteriskInstallation, isProblem, type PbxProblem } from './installation.ts';
import { configMissing, crashing, portTaken, type Words } from './messages.ts';
import { firstTakenPort, type PortCheck } from './ports.ts';

/** First restart delay after Asterisk died; doubled after each death soon after a start, up to the cap. */
const FIRST_RESTART_MS = 250;
const MAX_RESTART_MS = 30_000;
/** An Asterisk that stayed up this long is healthy: its next death restarts it at once again. */
const HEALTHY_AFTER_MS = 60_000;
/** Deaths in a row, each soon after its start, before the state says failed rather than restarting. */
const CRASHES_BEFORE_FAILED = 3;
/** How often an adopted Asterisk (started by an earlier console process) is checked for life. */
const ADOPTED_POLL_MS = 500;
const STOP_GRACE_MS = 5000;

export interface SupervisorOptions {
  installation: AsteriskInstallation | PbxProblem;
  /** <configDir>/asterisk.conf, written by the first apply. */
  confFile: string;
  runDir: string;
  logDir: string;
  ports: PbxPorts;
  amiPort: number;
  /** What is missing beside Asterisk (prompts, music): shown with the state. */
  warnings: Words[];
  log?: Logger;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Runs Asterisk as a child of the console (managed mode): started once the first apply wrote its configuration,
 * restarted with back-off when it dies, stopped with the console. An Asterisk left running by a console process
 * that was killed is taken over rather than started twice (its calls go on). Emits 'state' on every change and
 * 'spawned' when an Asterisk process is up (the AMI connection is then tried at once).
 */
export class AsteriskSupervisor extends EventEmitter {
  state: ManagedPbxState = 'preparing';
  problem: PbxProblem | null = null;
  private child: ChildProcess | undefined;
  private adoptedPid: number | undefined;
  private pollTimer: NodeJS.Timeout | undefined;
  private restartTimer: NodeJS.Timeout | undefined;
  private startedAt: number | null = null;
  private runningSince: number | null = null;
  private restarts = 0;
  private crashes = 0;
  private stopping = false;
  private output = '';
  /** Size of the messages log when this Asterisk started: its warnings and errors since then are shown. */
  logOffset = 0;

  constructor(private readonly options: SupervisorOptions) {
    super();
    if (isProblem(options.installation)) this.fail(options.installation);
  }

  get installation(): AsteriskInstallation | undefined {
    return isProblem(this.options.installation) ? undefined : this.options.installation;
  }

  get messagesFile(): string {
    return path.join(this.options.logDir, 'messages');
  }

  private setState(state: ManagedPbxState): void {
    if (state === this.state) return;
    this.state = state;
    this.options.log?.info({ state, problem: this.problem?.detail('en') }, 'managed Asterisk');
    this.emit('state', state);
  }

  private fail(problem: PbxProblem): void {
    this.problem = problem;
    this.setState('failed');
  }

  /** Starts Asterisk once `configured` resolves (the first apply is done), unless there is no Asterisk to run. */
  async start(configured: Promise<unknown>): Promise<void> {
    if (!this.installation) return;
    await configured.catch(() => undefined);
    if (this.stopping) return;
    await this.launch();
  }

  /** The manager answered and logged the console in: Asterisk is up. */
  connected(): void {
    if (this.state !== 'starting' && this.state !== 'restarting') return;
    this.runningSince = Date.now();
    this.problem = null;
    this.setState('running');
  }

  private portChecks(): PortCheck[] {
    const { ports } = this.options;
    return [
      { port: ports.sip, protocol: 'udp', host: '0.0.0.0', setting: PORT_SETTINGS.sip },
      { port: ports.sip, protocol: 'tcp', host: '0.0.0.0', setting: PORT_SETTINGS.sip },
      { port: ports.tls, protocol: 'tcp', host: '0.0.0.0', setting: PORT_SETTINGS.tls },
      { port: ports.wss, protocol: 'tcp', host: '0.0.0.0', setting: PORT_SETTINGS.wss },
      { port: this.options.amiPort, protocol: 'tcp', host: '127.0.0.1', setting: 'AMI_PORT' },
    ];
  }

  /** The Asterisk of this DATA_DIR that an earlier console process left running, if any. */
  private leftRunning(): number | undefined {
    try {
      const pid = Number(fs.readFileSync(path.join(this.options.runDir, 'asterisk.pid'), 'utf8').trim());
      if (!Number.isInteger(pid) || pid <= 1 || !alive(pid)) return undefined;
      const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      return cmdline.includes(this.options.confFile) ? pid : undefined;
    } catch {
      return undefined;
    }
  }

  private async launch(): Promise<void> {
    const installation = this.installation;
    if (!installation || this.stopping) return;
    if (!fs.existsSync(this.options.confFile)) {
      this.fail({
        code: 'config_missing',
        values: {},
        detail: configMissing(),
      });
      this.scheduleRetry(5000);
      return;
    }
    const adopted = this.leftRunning();
    if (adopted !== undefined) {
      this.adopt(adopted);
      return;
    }
    const taken = await firstTakenPort(this.portChecks());
    if (this.stopping) return;
    if (taken) {
      const protocol = taken.protocol.toUpperCase();
      this.fail({
        code: 'port_taken',
        values: { port: taken.port, protocol, setting: taken.setting },
        detail: portTaken(taken.port, protocol, taken.setting),
      });
      // Tried again, so freeing the port is enough.
      this.scheduleRetry(5000);
      return;
    }
    this.logOffset = fs.statSync(this.messagesFile, { throwIfNoEntry: false })?.size ?? 0;
    this.output = '';
    this.setState(this.restarts > 0 ? 'restarting' : 'starting');
    // Its own process group: a Ctrl-C meant for `npm start` reaches the console, which stops Asterisk itself.
    const child = spawn(installation.binary, ['-f', '-n', '-C', this.options.confFile], {
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    this.child = child;
    this.startedAt = Date.now();
    const keep = (chunk: Buffer) => {
      this.output = (this.output + chunk.toString()).slice(-4000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    child.once('error', (error) => {
      this.options.log?.error({ err: error }, 'managed Asterisk: cannot start');
    });
    child.once('exit', (code, signal) => this.exited(code, signal));
    this.emit('spawned');
    void this.whenManagerListens(child);
  }

  /** Tells the AMI connection to try now once the manager port answers, instead of after its back-off. */
  private async whenManagerListens(child: ChildProcess): Promise<void> {
    for (let delay = 50; this.child === child && child.exitCode === null; delay = Math.min(delay * 2, 400)) {
      const open = await new Promise<boolean>((resolve) => {
        const socket = net.connect({ host: '127.0.0.1', port: this.options.amiPort });
        socket.once('connect', () => {
          socket.destroy();
          resolve(true);
        });
        socket.once('error', () => resolve(false));
      });
      if (open) {
        this.emit('manager');
        return;
      }
      await new Promise((r) => setTimeout(r, delay));
    }
  }

  private adopt(pid: number): void {
    this.options.log?.info({ pid }, 'managed Asterisk: taking over the one an earlier console process started');
    this.adoptedPid = pid;
    this.startedAt = Date.now();
    this.setState('starting');
    this.emit('spawned');
    this.emit('manager');
    this.pollTimer = setInterval(() => {
      if (alive(pid)) return;
      clearInterval(this.pollTimer);
      this.adoptedPid = undefined;
      this.exited(null, 'unknown');
    }, ADOPTED_POLL_MS);
    this.pollTimer.unref();
  }

  private exited(code: number | null, signal: NodeJS.Signals | 'unknown' | null): void {
    this.child = undefined;
    this.runningSince = null;
    if (this.stopping) {
      this.setState('stopped');
      return;
    }
    const ranMs = Date.now() - (this.startedAt ?? Date.now());
    this.crashes = ranMs >= HEALTHY_AFTER_MS ? 1 : this.crashes + 1;
    this.restarts += 1;
    const said = this.output.trim().split('\n').slice(-3).join(' ').trim();
    this.options.log?.warn({ code, signal, ranMs, output: said }, 'managed Asterisk ended: restarting it');
    const delay = Math.min(FIRST_RESTART_MS * 2 ** (this.crashes - 1), MAX_RESTART_MS);
    if (this.crashes >= CRASHES_BEFORE_FAILED) {
      const end: Record<string, string | number> =
        signal === 'unknown' ? {} : signal ? { signal } : { exitCode: code ?? -1 };
      this.fail({
        code: 'crashing',
        values: { ...end, times: this.crashes, output: said },
        detail: crashing(end, this.crashes, said, Math.round(delay / 1000)),
      });
    } else {
      this.problem = null;
      this.setState('restarting');
    }
    this.scheduleRetry(delay);
  }

  private scheduleRetry(ms: number): void {
    clearTimeout(this.restartTimer);
    this.restartTimer = setTimeout(() => void this.launch(), ms);
    this.restartTimer.unref();
  }

  /** As the dashboard shows it, its words in `lang`. */
  status(lang: UiLanguage): Omit<PbxSystemStatus, 'mode' | 'ami' | 'ports'> {
    const installation = this.installation;
    const problem = this.problem;
    return {
      state: this.state,
      problem: problem && { code: problem.code, values: problem.values, detail: problem.detail(lang) },
      version: installation?.version ?? null,
      pid: this.child?.pid ?? this.adoptedPid ?? null,
      uptimeSeconds: this.runningSince === null ? null : Math.floor((Date.now() - this.runningSince) / 1000),
      restarts: this.restarts,
      warnings: this.options.warnings.map((warning) => warning(lang)),
    };
  }

  /** Stops Asterisk (SIGTERM: it hangs up and ends at once; SIGKILL after 5 s) and never starts it again. */
  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.restartTimer);
    clearInterval(this.pollTimer);
    const pid = this.child?.pid ?? this.adoptedPid;
    const child = this.child;
    if (pid === undefined) {
      this.setState('stopped');
      return;
    }
    const gone = child
      ? new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) resolve();
          else child.once('exit', () => resolve());
        })
      : (async () => {
          while (alive(pid)) await new Promise((r) => setTimeout(r, 50));
        })();
    try {
      process.kill(pid, 'SIGTERM');
    } catch {}
    const force = setTimeout(() => {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {}
    }, STOP_GRACE_MS);
    await gone;
    clearTimeout(force);
    this.adoptedPid = undefined;
    this.setState('stopped');
  }
}
