import type { InboundDestination, InboundRoute, InboundWrite } from '@centralino/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { isUniqueViolation } from '../users/service.ts';

/** Destinations the PBX engine renders for inbound calls, keyed as context,exten,priority. */
export const HANGUP_DESTINATION = 'app-blackhole,hangup,1';
export const BUSY_DESTINATION = 'app-blackhole,busy,1';
export const extensionDestination = (ext: string) => `from-did-direct,${ext},1`;
export const voicemailDestination = (ext: string) => `ext-local,vmu${ext},1`;
/** The extension a destination calls, directly or at its voicemail; undefined for any other destination. */
export function extensionCalledBy(destination: string): string | undefined {
  const match = /^(?:from-did-direct,(\d+)|ext-local,vmu(\d+)),1$/.exec(destination);
  return match?.[1] ?? match?.[2];
}
/** The group's extension in ext-group is named, not numbered: a phone dialling a group id rings nothing. */
export const groupDestination = (groupId: number) => `ext-group,cti-group-${groupId},1`;

function routeExists(did: string, cid: string): AppError {
  const label = `${did || '*'}${cid ? ` / ${cid}` : ''}`;
  return new AppError(
    409,
    'validation',
    (lang) => (lang === 'it' ? `Esiste già una rotta per ${label}.` : `A route for ${label} already exists.`),
    { extension: 'exists' },
  );
}

/**
 * Inbound routes that send calls to extension N or its voicemail: taking N away would leave them
 * pointing at nothing, and the PBX configuration would be refused.
 */
export async function routesToExtension(db: Kysely<Database>, extension: string): Promise<string[]> {
  const rows = await db
    .selectFrom('inbound_routes')
    .select(['did', 'cid', 'description'])
    .where('destination', 'in', [extensionDestination(extension), voicemailDestination(extension)])
    .orderBy('did')
    .execute();
  return rows.map(routeLabel);
}

/** Inbound routes that send calls to a group. */
export async function routesToGroup(db: Kysely<Database>, groupId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('inbound_routes')
    .select(['did', 'cid', 'description'])
    .where('destination', '=', groupDestination(groupId))
    .orderBy('did')
    .execute();
  return rows.map(routeLabel);
}

/** How messages name an inbound route: its DID ('*' for any), caller ID and description. */
export function routeLabel(r: { did: string; cid: string; description: string }): string {
  return [r.did || '*', r.cid ? `/${r.cid}` : '', r.description ? ` (${r.description})` : ''].join('');
}

/** Inbound routes: calls to a DID (optionally from a caller) go to one destination (contract §2.1–§2.4). */
export class InboundRoutesService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly changed: () => void = () => {},
  ) {}

  async destinations(): Promise<Record<string, InboundDestination>> {
    const [users, groups] = await Promise.all([
      this.db
        .selectFrom('users')
        .select(['default_extension', 'displayname', 'voicemail_pin'])
        .where('default_extension', 'is not', null)
        .orderBy('extension_order')
        .execute(),
      this.db.selectFrom('cti_groups').select(['id', 'name']).orderBy('name').execute(),
    ]);
    const list: InboundDestination[] = [
      { destination: HANGUP_DESTINATION, description: 'Hangup', category: 'Terminate Call' },
      { destination: BUSY_DESTINATION, description: 'Busy', category: 'Terminate Call' },
    ];
    for (const u of users) {
      const ext = u.default_extension as string;
      list.push({
        destination: extensionDestination(ext),
        description: `${ext} ${u.displayname}`,
        category: 'Extensions',
      });
    }
    for (const u of users) {
      if (u.voicemail_pin === null) continue;
      const ext = u.default_extension as string;
      list.push({
        destination: voicemailDestination(ext),
        description: `${ext} ${u.displayname}`,
        category: 'Voicemail',
      });
    }
    for (const g of groups) {
      list.push({ destination: groupDestination(Number(g.id)), description: g.name, category: 'Groups' });
    }
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
        extension: r.did,
        cidnum: r.cid,
        description: r.description,
        destination: r.destination,
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
    try {
      await this.db
        .insertInto('inbound_routes')
        .values({
          did: route.extension,
          cid: route.cidnum,
          description: route.description,
          destination: route.destination,
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
    try {
      const result = await this.db
        .updateTable('inbound_routes')
        .set({
          did: route.extension,
          cid: route.cidnum,
          description: route.description,
          destination: route.destination,
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
