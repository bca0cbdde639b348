import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import { type Kysely, sql } from 'kysely';
import type pg from 'pg';
import { loadPg } from '../drivers.ts';
import type { Database } from './schema.ts';

/** The PostgreSQL channel every Centralino process listens on. */
const CHANNEL = 'centralino_changes';
/** Wait before listening again after the listener's connection dropped (the polls cover the gap). */
const RECONNECT_MS = 2000;

/**
 * What one process tells the others sharing its database, so their caches need not wait for a poll:
 * - `provisioning`: prov_state.generation moved (phone files to drop);
 * - `configuration`: the PBX configuration changed (users, trunks: the dashboard's lists).
 */
export type ChangeTopic = 'provisioning' | 'configuration';

/**
 * Cross-process invalidation over PostgreSQL LISTEN/NOTIFY. `publish` sends a topic (after the change committed);
 * every other process emits it. Only a hint: the counters in the database stay the truth and the polls that read
 * them stay underneath, so a dropped listener connection (reconnected every RECONNECT_MS) delays, never loses,
 * a change. With SQLite there is one process and nothing to tell.
 */
export class ChangeBus extends EventEmitter {
  /** Tells this process's own notifications from the others'. */
  private readonly self = randomBytes(6).toString('hex');
  private client: pg.Client | undefined;
  private retry: NodeJS.Timeout | undefined;
  private closed = false;
  private listenedBefore = false;
  /** Resolves once the listener is connected (tests, and a start that wants to hear everything). */
  listening: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly databaseUrl: string | undefined,
    private readonly log?: FastifyBaseLogger,
  ) {
    super();
    this.setMaxListeners(0);
  }

  get shared(): boolean {
    return this.databaseUrl !== undefined;
  }

  start(): Promise<void> {
    if (!this.databaseUrl || this.closed) return Promise.resolve();
    this.listening = this.listen().catch((error) => {
      this.log?.warn({ err: error }, 'listening for other processes’ changes failed; polling meanwhile');
      this.again();
    });
    return this.listening;
  }

  private async listen(): Promise<void> {
    const { Client } = await loadPg();
    const client = new Client({ connectionString: this.databaseUrl });
    this.client = client;
    client.on('notification', (message) => {
      const [from, topic] = (message.payload ?? '').split(' ');
      if (from !== this.self && (topic === 'provisioning' || topic === 'configuration')) this.emit(topic, topic);
    });
    const dropped = (error?: Error) => {
      if (this.client !== client || this.closed) return;
      this.log?.warn({ err: error }, 'the listener for other processes’ changes dropped; polling meanwhile');
      this.client = undefined;
      client.end().catch(() => {});
      this.again();
    };
    client.on('error', dropped);
    client.on('end', () => dropped());
    await client.connect();
    await client.query(`LISTEN ${CHANNEL}`);
    // After a drop, whatever changed while nobody listened is seen as a change of everything (the first time, the
    // process has just started and read nothing yet).
    if (this.listenedBefore) {
      this.emit('provisioning', 'provisioning');
      this.emit('configuration', 'configuration');
    }
    this.listenedBefore = true;
  }

  private again(): void {
    if (this.closed || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      void this.start();
    }, RECONNECT_MS);
    this.retry.unref();
  }

  /** Tells the other processes of a committed change; never throws (a lost hint is covered by the polls). */
  publish(topic: ChangeTopic): void {
    if (!this.databaseUrl || this.closed) return;
    this.publishIn(this.db, topic).catch((error) =>
      this.log?.warn({ err: error, topic }, 'could not tell other processes of a change'),
    );
  }

  /**
   * Tells the other processes of a change made in `trx`: PostgreSQL delivers a notification sent inside a
   * transaction when it commits, and never if it rolls back, so nobody looks before the change is there.
   */
  async publishIn(trx: Kysely<Database>, topic: ChangeTopic): Promise<void> {
    if (!this.databaseUrl || this.closed) return;
    await sql`select pg_notify(${CHANNEL}, ${`${this.self} ${topic}`})`.execute(trx);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => {});
    this.removeAllListeners();
  }
}
