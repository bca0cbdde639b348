import type { ParamUrl } from '@centralino/contract';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { isUniqueViolation } from '../users/service.ts';

/** What the routes hand over after paramUrlWriteSchema parsed the body. */
export interface ParamUrlFields {
  url: string;
  profiles: number[];
  only_queues: boolean;
}

function urlExists(): AppError {
  return new AppError(409, 'paramurl_exists', undefined, { url: 'exists' });
}

/**
 * Parameterised URLs (contract api-admin §8): a URL the CTI client opens for incoming calls of the users whose
 * profile has it. A profile has at most one URL (the link table's key); a profile already holding another URL
 * is refused with the other URL named, and nothing is changed. Replacing a URL replaces its profile links in
 * the same transaction, whatever its text became (the original's defect §12 #34 left rows behind).
 */
export class ParamUrlsService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => number = Date.now,
  ) {}

  async list(): Promise<ParamUrl[]> {
    const [rows, links] = await Promise.all([
      this.db.selectFrom('paramurls').selectAll().orderBy('id').execute(),
      this.db.selectFrom('paramurl_profiles').selectAll().orderBy('profile_id').execute(),
    ]);
    const byUrl = new Map<number, number[]>();
    for (const link of links) {
      const key = Number(link.paramurl_id);
      const list = byUrl.get(key) ?? [];
      list.push(Number(link.profile_id));
      byUrl.set(key, list);
    }
    return rows.map((row) => ({
      id: Number(row.id),
      url: row.url,
      profiles: (byUrl.get(Number(row.id)) ?? []).join(','),
      only_queues: Number(row.only_queues) === 1,
    }));
  }

  async create(fields: ParamUrlFields): Promise<{ id: number }> {
    try {
      return await this.db.transaction().execute(async (trx) => {
        await this.checkProfiles(trx, fields.profiles);
        const row = await trx
          .insertInto('paramurls')
          .values({ url: fields.url, only_queues: fields.only_queues ? 1 : 0, created_at: this.now() })
          .returning('id')
          .executeTakeFirstOrThrow();
        const id = Number(row.id);
        await this.link(trx, id, fields.profiles);
        return { id };
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw urlExists();
      throw error;
    }
  }

  async update(id: number, fields: ParamUrlFields): Promise<{ id: number }> {
    try {
      return await this.db.transaction().execute(async (trx) => {
        const row = await trx.selectFrom('paramurls').select('id').where('id', '=', id).executeTakeFirst();
        if (!row) throw new AppError(404, 'not_found');
        await this.checkProfiles(trx, fields.profiles, id);
        await trx
          .updateTable('paramurls')
          .set({ url: fields.url, only_queues: fields.only_queues ? 1 : 0 })
          .where('id', '=', id)
          .execute();
        await trx.deleteFrom('paramurl_profiles').where('paramurl_id', '=', id).execute();
        await this.link(trx, id, fields.profiles);
        return { id };
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw urlExists();
      throw error;
    }
  }

  async remove(id: number): Promise<void> {
    const deleted = await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('paramurl_profiles').where('paramurl_id', '=', id).execute();
      const result = await trx.deleteFrom('paramurls').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows);
    });
    if (deleted === 0) throw new AppError(404, 'not_found');
  }

  /** The original's delete (POST /cti/paramurl/delete): the URL named by its text. */
  async removeByUrl(url: string): Promise<void> {
    const row = await this.db.selectFrom('paramurls').select('id').where('url', '=', url).executeTakeFirst();
    if (!row) throw new AppError(404, 'not_found');
    await this.remove(Number(row.id));
  }

  /** Every profile must exist and hold no other URL than `own`. */
  private async checkProfiles(trx: Transaction<Database>, profiles: number[], own?: number): Promise<void> {
    const existing = await trx.selectFrom('cti_profiles').select('id').where('id', 'in', profiles).execute();
    if (existing.length !== profiles.length) {
      throw new AppError(422, 'cti_profile_unknown', undefined, { profiles: 'unknown' });
    }
    let query = trx
      .selectFrom('paramurl_profiles')
      .innerJoin('paramurls', 'paramurls.id', 'paramurl_profiles.paramurl_id')
      .innerJoin('cti_profiles', 'cti_profiles.id', 'paramurl_profiles.profile_id')
      .select(['cti_profiles.name as profile', 'paramurls.url as url'])
      .where('paramurl_profiles.profile_id', 'in', profiles)
      .orderBy('cti_profiles.name');
    if (own !== undefined) query = query.where('paramurl_profiles.paramurl_id', '<>', own);
    const taken = await query.execute();
    if (taken.length > 0) {
      const list = taken.map((t) => `'${t.profile}' (${t.url})`).join(', ');
      throw new AppError(
        409,
        'paramurl_profile_taken',
        (lang) =>
          lang === 'it'
            ? `Un profilo può avere un solo URL, e questi ne hanno già uno: ${list}. Liberali prima dall'altro URL.`
            : `A profile can have one URL only, and these already have one: ${list}. Free them from the other URL first.`,
        { profiles: 'taken' },
      );
    }
  }

  private async link(trx: Transaction<Database>, id: number, profiles: number[]): Promise<void> {
    if (profiles.length === 0) return;
    await trx
      .insertInto('paramurl_profiles')
      .values(profiles.map((profile_id) => ({ profile_id, paramurl_id: id })))
      .execute();
  }
}
