import { MUSIC_DEFAULT_CLASS, MUSIC_RINGING, type UiLanguage } from '@centralino/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { routeLabel } from '../destinations/catalogue.ts';

type Db = Kysely<Database>;

/** Something that plays a music class, named for messages. */
export interface MusicUse {
  kind: 'queue' | 'route' | 'trunk' | 'conference';
  label: string;
}

const KIND: Record<UiLanguage, Record<MusicUse['kind'], string>> = {
  en: { queue: 'queue', route: 'inbound route', trunk: 'trunk', conference: 'conference room' },
  it: { queue: 'coda', route: 'rotta in entrata', trunk: 'fascio', conference: 'stanza di conferenza' },
};

export const describeMusicUse = (use: MusicUse, lang: UiLanguage) => `${KIND[lang][use.kind]} ${use.label}`;

/** Who plays each of these classes (all classes when `names` is left out), by class name. */
export async function musicUses(db: Db, names?: string[]): Promise<Map<string, MusicUse[]>> {
  const out = new Map<string, MusicUse[]>();
  if (names && names.length === 0) return out;
  let queues = db.selectFrom('queues').select(['music as name', 'extension', 'name as label']);
  let routes = db.selectFrom('inbound_routes').select(['music as name', 'did', 'cid', 'description']);
  let trunks = db.selectFrom('trunks').select(['music as name', 'name as label']);
  let rooms = db.selectFrom('conferences').select(['music_class as name', 'extension', 'name as label']);
  if (names) {
    queues = queues.where('music', 'in', names);
    routes = routes.where('music', 'in', names);
    trunks = trunks.where('music', 'in', names);
    rooms = rooms.where('music_class', 'in', names);
  }
  const [q, r, t, c] = await Promise.all([
    queues.orderBy('extension').execute(),
    routes.where('music', 'is not', null).orderBy('did').execute(),
    trunks.orderBy('name').execute(),
    rooms.orderBy('extension').execute(),
  ]);
  const add = (name: string | null, use: MusicUse) => {
    if (name === null) return;
    out.set(name, [...(out.get(name) ?? []), use]);
  };
  for (const row of q) add(row.name, { kind: 'queue', label: `${row.extension} ${row.label}` });
  for (const row of r) add(row.name, { kind: 'route', label: routeLabel(row) });
  for (const row of t) add(row.name, { kind: 'trunk', label: row.label });
  for (const row of c) add(row.name, { kind: 'conference', label: `${row.extension} ${row.label}` });
  return out;
}

/**
 * Refuses (400 music_class_unknown on `field`) a class that does not exist: musiconhold.conf would have no such
 * section and Asterisk would quietly play the default instead. `ringing` is a queue's choice only.
 */
export async function assertMusicClass(
  db: Db,
  name: string | null | undefined,
  field: string,
  allowRinging = false,
): Promise<void> {
  if (name === null || name === undefined || name === MUSIC_DEFAULT_CLASS) return;
  if (allowRinging && name === MUSIC_RINGING) return;
  const row = await db.selectFrom('music_classes').select('id').where('name', '=', name).executeTakeFirst();
  if (row) return;
  throw new AppError(
    400,
    'music_class_unknown',
    (lang) =>
      lang === 'it'
        ? `La classe di musica di attesa ${name} non esiste.`
        : `The music on hold class ${name} does not exist.`,
    (lang) => ({ [field]: lang === 'it' ? 'Classe inesistente' : 'No such class' }),
  );
}
