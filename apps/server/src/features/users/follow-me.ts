import { FOLLOWME_OFF, type FollowMe, type FollowMeWrite, followMeSchema } from '@centralino/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { memberUserIds } from './member-users.ts';

type Db = Kysely<Database>;

/**
 * A user's follow-me (issue 42 item 5). Colleagues in the list are kept by user id and shown by their main extension,
 * as ring group members are; a colleague who lost the extension drops out of the list shown and rung.
 */
export class FollowMeService {
  constructor(private readonly db: Db) {}

  private async userOf(trx: Db, username: string): Promise<{ id: number; extension: string | null }> {
    const row = await trx
      .selectFrom('users')
      .select(['id', 'default_extension'])
      .where('username', '=', username)
      .executeTakeFirst();
    if (!row) throw new AppError(404, 'user_not_found');
    return { id: Number(row.id), extension: row.default_extension };
  }

  async get(username: string): Promise<FollowMe> {
    const { id } = await this.userOf(this.db, username);
    return this.read(this.db, id);
  }

  private async read(trx: Db, id: number): Promise<FollowMe> {
    const head = await trx.selectFrom('followme').selectAll().where('user_id', '=', id).executeTakeFirst();
    if (!head) return structuredClone(FOLLOWME_OFF);
    const legs = await trx
      .selectFrom('followme_legs')
      .leftJoin('users', 'users.id', 'followme_legs.target_user_id')
      .select(['followme_legs.external', 'followme_legs.ring_time', 'users.default_extension'])
      .where('followme_legs.user_id', '=', id)
      .orderBy('followme_legs.position')
      .execute();
    return {
      enabled: Number(head.enabled) === 1,
      pre_ring: Number(head.pre_ring),
      strategy: head.strategy === 'ringall' ? 'ringall' : 'hunt',
      confirm_external: Number(head.confirm_external) === 1,
      legs: legs.flatMap((l): FollowMe['legs'] => {
        if (l.external !== null) return [{ type: 'external' as const, number: l.external, ring_time: l.ring_time }];
        if (l.default_extension)
          return [{ type: 'extension' as const, number: l.default_extension, ring_time: l.ring_time }];
        return [];
      }),
    };
  }

  /** The user id of each extension in the list; one that no user has, or the user's own, is refused on its field. */
  private async targets(trx: Db, own: string | null, legs: FollowMe['legs']): Promise<Map<string, number>> {
    const ownIndex = legs.findIndex((l) => l.type === 'extension' && l.number === own);
    if (ownIndex >= 0) {
      throw new AppError(
        422,
        'validation',
        (lang) =>
          lang === 'it'
            ? 'L’interno dell’utente squilla già prima dell’elenco: non serve ripeterlo nel seguimi.'
            : 'The user’s own extension rings before the list already: it cannot be in the follow-me list.',
        (lang) => ({
          [`legs.${ownIndex}.number`]:
            lang === 'it' ? 'È l’interno dell’utente stesso' : 'This is the user’s own extension',
        }),
      );
    }
    return memberUserIds(trx, legs, 'legs');
  }

  async set(username: string, input: FollowMeWrite): Promise<FollowMe> {
    const v = followMeSchema.parse(input);
    return this.db.transaction().execute(async (trx) => {
      const user = await this.userOf(trx, username);
      await this.setIn(trx, user, v);
      return this.read(trx, user.id);
    });
  }

  /** Inside a caller's transaction (the migration's step), with the same checks. */
  async setIn(trx: Db, user: { id: number; extension: string | null }, input: FollowMeWrite): Promise<void> {
    const v = followMeSchema.parse(input);
    if (v.enabled && !user.extension) {
      throw new AppError(422, 'validation', (lang) =>
        lang === 'it'
          ? 'L’utente non ha un interno: assegnagliene uno prima di attivare il seguimi.'
          : 'The user has no extension: give them one before switching follow-me on.',
      );
    }
    const targets = await this.targets(trx, user.extension, v.legs);
    const head = {
      enabled: v.enabled ? 1 : 0,
      pre_ring: v.pre_ring,
      strategy: v.strategy,
      confirm_external: v.confirm_external ? 1 : 0,
    };
    const found = await trx.selectFrom('followme').select('user_id').where('user_id', '=', user.id).executeTakeFirst();
    if (found) await trx.updateTable('followme').set(head).where('user_id', '=', user.id).execute();
    else
      await trx
        .insertInto('followme')
        .values({ user_id: user.id, ...head })
        .execute();
    await trx.deleteFrom('followme_legs').where('user_id', '=', user.id).execute();
    if (v.legs.length === 0) return;
    await trx
      .insertInto('followme_legs')
      .values(
        v.legs.map((l, position) => ({
          user_id: user.id,
          position,
          target_user_id: l.type === 'extension' ? (targets.get(l.number) as number) : null,
          external: l.type === 'external' ? l.number : null,
          ring_time: l.ring_time,
        })),
      )
      .execute();
  }
}
