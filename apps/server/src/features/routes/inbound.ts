import type { InboundDestination, InboundRoute, InboundWrite } from '@centralino/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { destinationList } from '../destinations/catalogue.ts';
import { assertMusicClass } from '../music/uses.ts';
import { isUniqueViolation } from '../users/service.ts';

export {
  BUSY_DESTINATION,
  extensionDestination,
  groupDestination,
  HANGUP_DESTINATION,
  routeLabel,
  voicemailDestination,
} from '../destinations/catalogue.ts';

function routeExists(did: string, cid: string): AppError {
  const label = `${did || '*'}${cid ? ` / ${cid}` : ''}`;
  return new AppError(
    409,
    'validation',
    (lang) => (lang === 'it' ? `Esiste già una rotta per ${label}.` : `A route for ${label} already exists.`),
    { extension: 'exists' },
  );
}

/** Inbound routes: calls to a DID (optionally from a caller) go to one destination (contract §2.1–§2.4). */
export class InboundRoutesService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly changed: () => void = () => {},
  ) {}

  async destinations(): Promise<Record<string, InboundDestination>> {
    const list = await destinationList(this.db);
    return Object.fromEntries(list.map((d) => [d.destination, d]));
  }

  async list(): Promise<{ destinations: Record<string, InboundDestination>; routes: InboundRoute[] }> {
    const [destinations, rows] = await Promise.all([
      this.destinations(),
      this.db.selectFrom('inbound_routes').selectAll().orderBy('did').orderBy('cid').execute(),
    ]);
    return {
      destinations,
      routes: rows.map((r) => ({
        id: Number(r.id),
        extension: r.did,
        cidnum: r.cid,
        description: r.description,
        destination: r.destination,
        recording: r.recording_policy,
        music: r.music,
      })),
    };
  }

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('inbound_routes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  private async assertDestination(destination: string) {
    if (!(await this.destinations())[destination]) {
      throw new AppError(400, 'validation', undefined, { destination: 'Unknown destination' });
    }
  }

  async create(route: InboundWrite): Promise<void> {
    await this.assertDestination(route.destination);
    await assertMusicClass(this.db, route.music, 'music');
    try {
      await this.db
        .insertInto('inbound_routes')
        .values({
          did: route.extension,
          cid: route.cidnum,
          description: route.description,
          destination: route.destination,
          recording_policy: route.recording ?? 'on_demand',
          music: route.music ?? null,
        })
        .execute();
    } catch (error) {
      if (isUniqueViolation(error)) throw routeExists(route.extension, route.cidnum);
      throw error;
    }
    this.changed();
  }

  async update(old: { extension: string; cidnum: string }, route: InboundWrite): Promise<void> {
    await this.assertDestination(route.destination);
    await assertMusicClass(this.db, route.music, 'music');
    try {
      const result = await this.db
        .updateTable('inbound_routes')
        .set({
          did: route.extension,
          cid: route.cidnum,
          description: route.description,
          destination: route.destination,
          recording_policy: route.recording ?? 'on_demand',
          music: route.music ?? null,
        })
        .where('did', '=', old.extension)
        .where('cid', '=', old.cidnum)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) throw new AppError(404, 'not_found');
    } catch (error) {
      if (isUniqueViolation(error)) throw routeExists(route.extension, route.cidnum);
      throw error;
    }
    this.changed();
  }

  async remove(extension: string, cid: string | null | undefined): Promise<void> {
    const result = await this.db
      .deleteFrom('inbound_routes')
      .where('did', '=', extension)
      .where('cid', '=', cid ?? '')
      .executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw new AppError(404, 'not_found');
    this.changed();
  }
}
