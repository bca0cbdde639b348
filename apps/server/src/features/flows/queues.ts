import {
  QUEUE_LOGIN_FEATURE_CODE,
  QUEUE_PAUSE_FEATURE_CODE,
  type Queue,
  type QueueWrite,
  queueDestination,
  queueWriteSchema,
} from '@centralino/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { describeReferences, referencesTo } from '../destinations/catalogue.ts';
import { assertMusicClass } from '../music/uses.ts';
import { assertQueueNumberFree } from '../numbering/allocate.ts';
import { checkFlowWrite, inUse, namedWrite } from './service.ts';

type Db = Kysely<Database>;

/**
 * Call queues (issue 26). A queue's number is checked by the numbering rules like any extension; its members are
 * users, stored by id (so a user's new extension follows) and given and shown by main extension.
 */
export class QueuesService {
  constructor(private readonly db: Db) {}

  async list(): Promise<Queue[]> {
    const [rows, members] = await Promise.all([
      this.db.selectFrom('queues').selectAll().orderBy('extension').execute(),
      this.db
        .selectFrom('queue_members')
        .innerJoin('users', 'users.id', 'queue_members.user_id')
        .select(['queue_members.queue_id', 'queue_members.kind', 'users.default_extension'])
        .where('users.default_extension', 'is not', null)
        .orderBy('users.extension_order')
        .execute(),
    ]);
    const of = (id: number, kind: string) =>
      members.filter((m) => Number(m.queue_id) === id && m.kind === kind).map((m) => m.default_extension as string);
    return rows.map((r) => ({
      id: Number(r.id),
      extension: r.extension,
      name: r.name,
      strategy: r.strategy as Queue['strategy'],
      members: of(Number(r.id), 'static'),
      agents: of(Number(r.id), 'agent'),
      ring_time: Number(r.ring_time),
      max_wait: Number(r.max_wait),
      failover_dest: r.failover_dest,
      music: r.music as Queue['music'],
      announce_position: Number(r.announce_position) === 1,
      recording: r.recording_policy,
      destination: queueDestination(r.extension),
      login_code: `${QUEUE_LOGIN_FEATURE_CODE}${r.extension}`,
      pause_code: `${QUEUE_PAUSE_FEATURE_CODE}${r.extension}`,
    }));
  }

  /** User ids of these main extensions; an extension nobody has is refused on its field. */
  private async userIds(trx: Db, extensions: string[], field: string): Promise<number[]> {
    if (extensions.length === 0) return [];
    const rows = await trx
      .selectFrom('users')
      .select(['id', 'default_extension'])
      .where('default_extension', 'in', extensions)
      .execute();
    const byExtension = new Map(rows.map((r) => [r.default_extension as string, Number(r.id)]));
    const missing = extensions.find((e) => !byExtension.has(e));
    if (missing !== undefined) {
      throw new AppError(400, 'validation', undefined, (lang) => ({
        [field]: lang === 'it' ? `Nessun utente ha l'interno ${missing}` : `No user has extension ${missing}`,
      }));
    }
    return extensions.map((e) => byExtension.get(e) as number);
  }

  private async write(trx: Db, id: number | null, input: QueueWrite): Promise<number> {
    const v = queueWriteSchema.parse(input);
    const [members, agents] = [
      await this.userIds(trx, v.members, 'members'),
      await this.userIds(trx, v.agents, 'agents'),
    ];
    await assertQueueNumberFree(trx, v.extension, id ?? undefined);
    await assertMusicClass(trx, v.music, 'music', true);
    const row = {
      extension: v.extension,
      name: v.name,
      strategy: v.strategy,
      ring_time: v.ring_time,
      max_wait: v.max_wait,
      failover_dest: v.failover_dest,
      music: v.music,
      announce_position: v.announce_position ? 1 : 0,
      recording_policy: v.recording,
    };
    let queueId: number;
    if (id === null) {
      queueId = Number((await trx.insertInto('queues').values(row).returning('id').executeTakeFirstOrThrow()).id);
    } else {
      const old = await trx.selectFrom('queues').select('extension').where('id', '=', id).executeTakeFirst();
      if (!old) throw new AppError(404, 'not_found');
      // A new number would leave whoever sends calls to the old one pointing at nothing.
      if (old.extension !== v.extension) await this.assertUnused(trx, id, old.extension);
      await trx.updateTable('queues').set(row).where('id', '=', id).execute();
      await trx.deleteFrom('queue_members').where('queue_id', '=', id).execute();
      queueId = id;
    }
    const memberRows = [
      ...members.map((user_id) => ({ queue_id: queueId, user_id, kind: 'static' })),
      ...agents.map((user_id) => ({ queue_id: queueId, user_id, kind: 'agent' })),
    ];
    if (memberRows.length > 0) await trx.insertInto('queue_members').values(memberRows).execute();
    await checkFlowWrite(trx, [['failover_dest', v.failover_dest]]);
    return queueId;
  }

  /** Inside a caller's transaction (the migration's step): the same checks, committed or rolled back with it. */
  createIn(trx: Db, input: QueueWrite): Promise<number> {
    return this.write(trx, null, input);
  }

  create(input: QueueWrite): Promise<number> {
    return namedWrite(this.db, input.name, (trx) => this.write(trx, null, input));
  }

  async update(id: number, input: QueueWrite): Promise<void> {
    await namedWrite(this.db, input.name, (trx) => this.write(trx, id, input));
  }

  /** Refuses while routes, flows or users send calls to the queue (its own failover back to it does not count). */
  private async assertUnused(trx: Db, id: number, extension: string): Promise<void> {
    const row = await trx.selectFrom('queues').select('name').where('id', '=', id).executeTakeFirst();
    const refs = (await referencesTo(trx, [queueDestination(extension)])).filter(
      (r) => !(r.kind === 'queue' && r.label === `${extension} ${row?.name ?? ''}`),
    );
    if (refs.length > 0) {
      throw inUse(
        { en: `Queue ${extension} ${row?.name ?? ''}`, it: `La coda ${extension} ${row?.name ?? ''}` },
        (lang) => describeReferences(refs, lang),
      );
    }
  }

  async remove(id: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('queues').select('extension').where('id', '=', id).executeTakeFirst();
      if (!row) throw new AppError(404, 'not_found');
      await this.assertUnused(trx, id, row.extension);
      await trx.deleteFrom('queue_members').where('queue_id', '=', id).execute();
      await trx.deleteFrom('queues').where('id', '=', id).execute();
    });
  }
}
