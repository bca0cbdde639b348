import { EventEmitter } from 'node:events';
import net from 'node:net';
import { type AmiMessage, AmiParser, encodeAction, field, fieldList } from './framing.ts';

export interface AmiOptions {
  host: string;
  port: number;
  username: string;
  secret: string;
  /** Per-action timeout (ms). */
  actionTimeoutMs?: number;
  /** Ping interval to detect half-open connections (ms). */
  pingIntervalMs?: number;
  /**
   * Reconnect backoff: first delay and cap (ms). The cap is short (5 s) because an open dashboard says
   * 'not connected' until the next try succeeds, and a try against a local Asterisk costs nothing.
   */
  reconnectMinMs?: number;
  reconnectMaxMs?: number;
  /** How often to try again after Asterisk refused the credentials (ms): they may be fixed in manager.conf meanwhile. */
  authRetryMs?: number;
  connectTimeoutMs?: number;
}

/** Asterisk's answer to a Login with wrong credentials; any other refusal (e.g. 'Asterisk is shutting down') is passing. */
export const AUTH_FAILED = /^Authentication failed/i;
/** Asterisk's answer to every action, Login included, between a shutdown or restart request and its end. */
export const SHUTTING_DOWN = /shutting down/i;

/** Retry delay after an authentication failure unless configured. */
export const AUTH_RETRY_MS = 30_000;

/** 'failed': Asterisk refused the credentials (it is asked again every authRetryMs). */
export type AmiState = 'connecting' | 'connected' | 'failed' | 'stopped';

export class AmiError extends Error {
  constructor(
    message: string,
    readonly response?: AmiMessage,
  ) {
    super(message);
  }
}

interface Pending {
  resolve(value: AmiResult): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
  response?: AmiMessage;
  events: AmiMessage[];
  list: boolean;
}

export interface AmiResult {
  response: AmiMessage;
  /** Events of an event-list action, without the closing '...Complete' event. */
  events: AmiMessage[];
}

/**
 * Small typed AMI client (contract asterisk §9.2): action ids with a pending map, event-list
 * collection, login, periodic ping, reconnect with exponential backoff, and a write queue that
 * honours socket back-pressure. Only wrong credentials make it 'failed' (tried again slowly); a refusal while
 * Asterisk shuts down or restarts, its Shutdown event and a dropped connection are retried with backoff. Emits 'ready' after each (re)login, so users resync their state,
 * 'event' for unsolicited events, and 'state' on every change of state.
 */
export class AmiClient extends EventEmitter {
  private socket: net.Socket | undefined;
  private pending = new Map<string, Pending>();
  private counter = 0;
  private readonly prefix = `c${process.pid.toString(36)}-`;
  private queue: string[] = [];
  private blocked = false;
  private delay: number;
  private retryTimer: NodeJS.Timeout | undefined;
  private pingTimer: NodeJS.Timeout | undefined;
  private _state: AmiState = 'stopped';
  /** The connection whose login was refused for its credentials. */
  private refused: net.Socket | undefined;
  /** Why the last connection attempt failed, for the status API and logs. */
  lastError: string | undefined;

  constructor(private readonly options: AmiOptions) {
    super();
    this.delay = options.reconnectMinMs ?? 500;
  }

  get state(): AmiState {
    return this._state;
  }

  private setState(state: AmiState): void {
    if (state === this._state) return;
    this._state = state;
    this.emit('state', state);
  }

  start(): void {
    if (this._state !== 'stopped' && this._state !== 'failed') return;
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    if (this.socket) return;
    this.connect();
  }

  /**
   * Tries at once instead of after the back-off (a supervised Asterisk has just opened its manager port). Nothing
   * changes while connected, connecting or stopped.
   */
  reconnectNow(): void {
    if (this._state === 'stopped' || this.socket) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.delay = this.options.reconnectMinMs ?? 500;
    this.connect();
  }

  /** Whether the last login was refused for its credentials (the state is then 'failed'). */
  get authFailed(): boolean {
    return this._state === 'failed';
  }

  private connect(): void {
    // After wrong credentials it stays 'failed' while it tries again, so screens keep saying why.
    if (this._state !== 'failed') this.setState('connecting');
    const parser = new AmiParser();
    const socket = net.connect({ host: this.options.host, port: this.options.port });
    this.socket = socket;
    socket.setEncoding('utf8');
    socket.setKeepAlive(true, 10_000);
    socket.setNoDelay(true);
    const connectTimer = setTimeout(
      () => socket.destroy(new Error('AMI connect timeout')),
      this.options.connectTimeoutMs ?? 5000,
    );
    let loggedIn = false;
    socket.on('data', (chunk: string) => {
      let messages: AmiMessage[];
      try {
        messages = parser.feed(chunk);
      } catch (error) {
        socket.destroy(error as Error);
        return;
      }
      if (!loggedIn && parser.banner !== undefined && !socket.readyState.startsWith('closed')) {
        loggedIn = true;
        clearTimeout(connectTimer);
        if (!parser.banner.startsWith('Asterisk Call Manager')) {
          socket.destroy(new Error(`not an AMI server: "${parser.banner}"`));
          return;
        }
        void this.login(socket);
      }
      for (const message of messages) this.dispatch(message);
    });
    socket.on('drain', () => {
      this.blocked = false;
      this.flush();
    });
    socket.on('error', (error) => {
      this.lastError = error.message;
    });
    socket.on('close', () => {
      clearTimeout(connectTimer);
      this.onClose(socket);
    });
  }

  private async login(socket: net.Socket): Promise<void> {
    try {
      await this.send(
        { Action: 'Login', Username: this.options.username, Secret: this.options.secret, Events: 'on' },
        true,
      );
    } catch (error) {
      if (socket !== this.socket) return;
      if (error instanceof AmiError && error.response) {
        this.lastError = error.message;
        // Wrong credentials: a configuration fault, asked again slowly (onClose). Any other refusal
        // ('Asterisk is shutting down' during a restart) passes: retried with backoff.
        if (AUTH_FAILED.test(error.message)) {
          this.refused = socket;
          this.setState('failed');
        } else if (this._state === 'failed') this.setState('connecting');
      }
      socket.destroy();
      return;
    }
    this.delay = this.options.reconnectMinMs ?? 500;
    this.lastError = undefined;
    this.setState('connected');
    this.startPing();
    this.emit('ready');
  }

  private startPing(): void {
    clearInterval(this.pingTimer);
    this.pingTimer = setInterval(() => {
      this.action('Ping').catch((error) => {
        // An answer, even a refusal, proves the link (a shutdown's refusal drops it in dispatch).
        if (!(error instanceof AmiError && error.response)) this.socket?.destroy(new Error('AMI ping unanswered'));
      });
    }, this.options.pingIntervalMs ?? 30_000);
    this.pingTimer.unref();
  }

  private onClose(socket: net.Socket): void {
    if (socket !== this.socket) return;
    this.socket = undefined;
    clearInterval(this.pingTimer);
    this.queue = [];
    this.blocked = false;
    const lost = new AmiError(`AMI connection lost${this.lastError ? `: ${this.lastError}` : ''}`);
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(lost);
      this.pending.delete(id);
    }
    this.emit('disconnected');
    if (this._state === 'stopped') return;
    // Still 'failed' only when this very connection was refused its credentials (not when Asterisk is down).
    if (this._state === 'failed' && this.refused !== socket) this.setState('connecting');
    let delay: number;
    if (this._state === 'failed') {
      delay = this.options.authRetryMs ?? AUTH_RETRY_MS;
    } else {
      this.setState('connecting');
      delay = this.delay;
      this.delay = Math.min(this.delay * 2, this.options.reconnectMaxMs ?? 5_000);
    }
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (this._state === 'connecting' || this._state === 'failed') this.connect();
    }, delay);
    this.retryTimer.unref();
  }

  private dispatch(message: AmiMessage): void {
    const id = field(message, 'actionid');
    const p = id ? this.pending.get(id) : undefined;
    if (!p || !id) {
      const event = field(message, 'event');
      if (event) this.emit('event', message);
      // Asterisk is going down (or restarting): the connection is about to drop; try again with backoff.
      if (event?.toLowerCase() === 'shutdown') this.dropLink('Asterisk is shutting down');
      return;
    }
    if (field(message, 'response') !== undefined && !p.response) {
      p.response = message;
      const ok = /^(success|follows|goodbye)$/i.test(field(message, 'response') ?? '');
      if (!ok) {
        this.finish(id, p);
        const text = field(message, 'message') ?? 'AMI action failed';
        p.reject(new AmiError(text, message));
        // Asterisk refuses everything until it has restarted: the link is down meanwhile (not for Login,
        // whose refusal login() handles).
        if (SHUTTING_DOWN.test(text) && this._state === 'connected') this.dropLink(text);
        return;
      }
      p.list = /^start$/i.test(field(message, 'eventlist') ?? '');
      if (!p.list) {
        this.finish(id, p);
        p.resolve({ response: message, events: [] });
      }
      return;
    }
    if (field(message, 'event') !== undefined) {
      if (/^complete$/i.test(field(message, 'eventlist') ?? '')) {
        this.finish(id, p);
        p.resolve({ response: p.response ?? {}, events: p.events });
      } else {
        p.events.push(message);
      }
    }
  }

  /** Drops the connection as lost (onClose reconnects with backoff), noting why. */
  private dropLink(reason: string): void {
    if (!this.socket) return;
    this.lastError = reason;
    this.delay = this.options.reconnectMinMs ?? 500;
    this.socket.destroy();
  }

  private finish(id: string, p: Pending): void {
    clearTimeout(p.timer);
    this.pending.delete(id);
  }

  private send(
    fields: Record<string, string | number | string[] | undefined>,
    duringLogin = false,
  ): Promise<AmiResult> {
    if (!this.socket || (!duringLogin && this._state !== 'connected')) {
      return Promise.reject(new AmiError('AMI not connected'));
    }
    const id = `${this.prefix}${++this.counter}`;
    let text: string;
    try {
      text = encodeAction({ ...fields, ActionID: id });
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise<AmiResult>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new AmiError(`AMI action ${fields.Action} timed out`));
      }, this.options.actionTimeoutMs ?? 10_000);
      this.pending.set(id, { resolve, reject, timer, events: [], list: false });
      this.queue.push(text);
      this.flush();
    });
  }

  private flush(): void {
    while (!this.blocked && this.queue.length > 0 && this.socket) {
      const text = this.queue.shift() as string;
      if (!this.socket.write(text)) this.blocked = true;
    }
  }

  /** Runs an action; event-list actions resolve with their events once the list is complete. */
  action(name: string, fields: Record<string, string | number | string[] | undefined> = {}): Promise<AmiResult> {
    return this.send({ Action: name, ...fields });
  }

  /** A CLI command; answers its output lines, and fails on Asterisk's usual failure markers. */
  async command(text: string): Promise<string[]> {
    const { response } = await this.action('Command', { Command: text });
    const output = fieldList(response, 'output');
    if (output.some((l) => /^(Unable|No such command)/.test(l))) throw new AmiError(output.join('\n'), response);
    return output;
  }

  async stop(): Promise<void> {
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    const socket = this.socket;
    const wasConnected = this._state === 'connected';
    // Stopped first: the server closes the socket after Goodbye, which must not look like a lost link.
    this.setState('stopped');
    if (socket && wasConnected) await this.send({ Action: 'Logoff' }, true).catch(() => {});
    socket?.destroy();
    this.socket = undefined;
  }
}
