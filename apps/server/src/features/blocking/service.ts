import {
  type BlockedCaller,
  type BlockedCallerWrite,
  blockedCallerWriteSchema,
  CALL_CLASSES,
  type CallClassPrefixes,
  callClassPrefixesSchema,
  DEFAULT_CALL_CLASS_PREFIXES,
  type UiLanguage,
} from '@centralino/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { SettingsStore } from '../../db/settings-store.ts';
import { AppError } from '../../errors.ts';
import { destinationList } from '../destinations/catalogue.ts';
import { isUniqueViolation } from '../users/service.ts';

type Db = Kysely<Database>;

/** The settings row of the outbound class prefixes (the one place they are edited). */
export const CALL_CLASSES_SETTING = 'pbx.callclasses';

interface Problem {
  field: string;
  en: string;
  it: string;
}

function refuse(problems: Problem[]): AppError {
  return new AppError(
    422,
    'validation',
    (lang: UiLanguage) => problems.map((p) => p[lang]).join('. '),
    (lang: UiLanguage) => Object.fromEntries(problems.map((p) => [p.field, p[lang]])),
  );
}

/** Reads the class prefixes, the Italian defaults until an administrator changed them. */
export async function readCallClasses(store: SettingsStore): Promise<CallClassPrefixes> {
  const stored = await store.get<Partial<CallClassPrefixes>>(CALL_CLASSES_SETTING);
  return Object.fromEntries(
    CALL_CLASSES.map((c) => [c, stored?.[c] ?? DEFAULT_CALL_CLASS_PREFIXES[c]]),
  ) as CallClassPrefixes;
}

/**
 * Blocked callers (issue 42 item 7): checked on the inbound routes before anything rings. Every reference an entry
 * makes (recording, destination, inbound routes) is checked here, so a write the PBX could not render is refused.
 */
export class BlockingService {
  constructor(private readonly db: Db) {}

  async list(): Promise<BlockedCaller[]> {
    const [rows, links] = await Promise.all([
      this.db.selectFrom('blocked_callers').selectAll().orderBy('match').orderBy('number').execute(),
      this.db.selectFrom('blocked_caller_routes').selectAll().orderBy('route_id').execute(),
    ]);
    return rows.map((r) => ({
      id: Number(r.id),
      match: r.match,
      number: r.number,
      description: r.description,
      response: r.response,
      recording_id: r.recording_id === null ? null : Number(r.recording_id),
      destination: r.destination,
      routes:
        Number(r.all_routes) === 1
          ? []
          : links.filter((l) => Number(l.blocked_id) === Number(r.id)).map((l) => Number(l.route_id)),
    }));
  }

  private async problems(trx: Db, v: ReturnType<typeof blockedCallerWriteSchema.parse>): Promise<Problem[]> {
    const problems: Problem[] = [];
    if (v.response === 'recording' && v.recording_id !== null) {
      const found = await trx.selectFrom('recordings').select('id').where('id', '=', v.recording_id).executeTakeFirst();
      if (!found) {
        problems.push({
          field: 'recording_id',
          en: `There is no recording ${v.recording_id}`,
          it: `Non esiste la registrazione ${v.recording_id}`,
        });
      }
    }
    if (v.response === 'destination' && v.destination) {
      const known = new Set((await destinationList(trx)).map((d) => d.destination));
      if (!known.has(v.destination)) {
        problems.push({
          field: 'destination',
          en: `Unknown destination ${v.destination}`,
          it: `Destinazione sconosciuta ${v.destination}`,
        });
      }
    }
    if (v.routes.length > 0) {
      const wanted = [...new Set(v.routes)];
      const found = new Set(
        (await trx.selectFrom('inbound_routes').select('id').where('id', 'in', wanted).execute()).map((r) =>
          Number(r.id),
        ),
      );
      const missing = wanted.filter((id) => !found.has(id));
      if (missing.length > 0) {
        problems.push({
          field: 'routes',
          en: `Unknown inbound route ${missing.join(', ')}`,
          it: `Rotta in entrata sconosciuta ${missing.join(', ')}`,
        });
      }
    }
    return problems;
  }

  private async write(trx: Db, id: number | null, input: BlockedCallerWrite): Promise<number> {
    const v = blockedCallerWriteSchema.parse(input);
    if (id !== null) {
      const old = await trx.selectFrom('blocked_callers').select('id').where('id', '=', id).executeTakeFirst();
      if (!old) throw new AppError(404, 'not_found');
    }
    const problems = await this.problems(trx, v);
    if (problems.length > 0) throw refuse(problems);
    const row = {
      match: v.match,
      number: v.match === 'anonymous' ? '' : v.number,
      description: v.description,
      response: v.response,
      recording_id: v.response === 'recording' ? v.recording_id : null,
      destination: v.response === 'destination' ? v.destination : null,
      all_routes: v.routes.length === 0 ? 1 : 0,
    };
    let key = id;
    if (key === null) {
      key = Number((await trx.insertInto('blocked_callers').values(row).returning('id').executeTakeFirstOrThrow()).id);
    } else {
      await trx.updateTable('blocked_callers').set(row).where('id', '=', key).execute();
      await trx.deleteFrom('blocked_caller_routes').where('blocked_id', '=', key).execute();
    }
    const routes = [...new Set(v.routes)];
    if (routes.length > 0) {
      const blockedId = key;
      await trx
        .insertInto('blocked_caller_routes')
        .values(routes.map((route_id) => ({ blocked_id: blockedId, route_id })))
        .execute();
    }
    return key;
  }

  private async run<T>(input: BlockedCallerWrite, work: (trx: Db) => Promise<T>): Promise<T> {
    try {
      return await this.db.transaction().execute(work);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const v = blockedCallerWriteSchema.parse(input);
      const what = v.match === 'anonymous' ? null : v.number;
      throw new AppError(409, 'flow_exists', (lang) =>
        what === null
          ? lang === 'it'
            ? 'Le chiamate anonime sono già bloccate.'
            : 'Anonymous callers are blocked already.'
          : lang === 'it'
            ? `${v.match === 'prefix' ? 'Il prefisso' : 'Il numero'} ${what} è già bloccato.`
            : `${v.match === 'prefix' ? 'Prefix' : 'Number'} ${what} is blocked already.`,
      );
    }
  }

  /** Inside a caller's transaction (the migration's step): the same checks, committed or rolled back with it. */
  createIn(trx: Db, input: BlockedCallerWrite): Promise<number> {
    return this.write(trx, null, input);
  }

  create(input: BlockedCallerWrite): Promise<number> {
    return this.run(input, (trx) => this.write(trx, null, input));
  }

  async update(id: number, input: BlockedCallerWrite): Promise<void> {
    await this.run(input, (trx) => this.write(trx, id, input));
  }

  async remove(id: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      // Explicitly, not by the cascade alone: the links' change counter must move too (pbx/model-rows.ts).
      await trx.deleteFrom('blocked_caller_routes').where('blocked_id', '=', id).execute();
      const result = await trx.deleteFrom('blocked_callers').where('id', '=', id).executeTakeFirst();
      if (Number(result.numDeletedRows) === 0) throw new AppError(404, 'not_found');
    });
  }

  async callClasses(): Promise<CallClassPrefixes> {
    return readCallClasses(new SettingsStore(this.db));
  }

  async setCallClasses(input: CallClassPrefixes): Promise<void> {
    const v = callClassPrefixesSchema.parse(input);
    await new SettingsStore(this.db).set(CALL_CLASSES_SETTING, v);
  }
}
