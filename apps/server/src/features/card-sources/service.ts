import {
  CARD_SOURCE_BUILTIN_TYPE,
  CARD_SOURCE_TYPES,
  type CardSource,
  type CardSourceType,
  type UiLanguage,
} from '@centralino/contract';
import { type Kysely, type Selectable, sql } from 'kysely';
import type { CardSourcesTable, Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { isUniqueViolation } from '../users/service.ts';
import { ConnectionCheckError, checkConnection, type SourceConnection } from './connect.ts';

type Row = Selectable<CardSourcesTable>;

/** What the routes hand over after the contract schemas parsed the body. */
export interface SourceFields {
  type?: CardSourceType;
  host?: string;
  port?: number;
  user?: string;
  pass?: string;
  name?: string;
}

function toSource(row: Row): CardSource {
  const builtin = Number(row.builtin) === 1;
  return {
    id: Number(row.id),
    name: row.name,
    type: builtin ? CARD_SOURCE_BUILTIN_TYPE : (row.type as CardSourceType),
    host: row.host,
    port: row.port === null ? null : Number(row.port),
    user: row.user,
    has_password: !!row.password,
    builtin,
    creation: new Date(Number(row.created_at)).toISOString(),
  };
}

function sourceExists(name: string): AppError {
  return new AppError(
    409,
    'card_source_exists',
    (lang) =>
      lang === 'it'
        ? `Esiste già una sorgente con il nome di database ${name}.`
        : `A source with the database name ${name} already exists.`,
    { name: 'exists' },
  );
}

function builtinRefused(): AppError {
  return new AppError(409, 'card_source_builtin');
}

/** A failed check as an error answer: the status the caller chose, the reason in the caller's language. */
function checkFailed(error: ConnectionCheckError, status: number, saving: boolean): AppError {
  const lead: Record<UiLanguage, string> = saving
    ? { en: 'The source was not saved.', it: 'La sorgente non è stata salvata.' }
    : { en: 'The connection check failed.', it: 'La verifica della connessione non è riuscita.' };
  const failure = new AppError(status, 'card_source_failed', (lang) => `${lead[lang]} ${error.reason(lang)}`);
  // The driver's words are for the server's log (routes.ts), never for the answer.
  failure.cause = error;
  return failure;
}

/** The driver's message behind a failed check, for the log; undefined for any other error. */
export function driverMessageOf(error: unknown): string | undefined {
  const cause = (error as { cause?: unknown } | null)?.cause;
  return cause instanceof ConnectionCheckError ? `${cause.kind}: ${cause.driverMessage}` : undefined;
}

/**
 * Customer-card sources (contract api-admin §6.1–6.3): external MySQL/MariaDB, PostgreSQL and SQL Server
 * databases a card's query runs on, plus the two built-in rows (Centralino's own phonebook and call records,
 * migration 0017), which are listed but neither changed nor deleted. A source is saved only when its connection
 * answers (connect and `select 1`), so the list never holds a source that did not work when it was saved.
 * A source that cards use is not deleted (409 naming the cards).
 */
export class CardSourcesService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => number = Date.now,
  ) {}

  async list(): Promise<CardSource[]> {
    const rows = await this.db.selectFrom('card_sources').selectAll().orderBy('id').execute();
    return rows.map(toSource);
  }

  /** Creates a source after checking its connection: 409 for a name in use, 422 when it does not answer. */
  async create(fields: Required<Omit<SourceFields, 'pass'>> & { pass?: string }): Promise<CardSource> {
    await this.assertNameFree(fields.name);
    const connection: SourceConnection = { ...fields, password: fields.pass ?? '' };
    await this.verifyForSave(connection);
    try {
      const row = await this.db
        .insertInto('card_sources')
        .values({
          name: fields.name,
          type: fields.type,
          host: fields.host,
          port: fields.port,
          user: fields.user,
          password: connection.password,
          builtin: 0,
          created_at: this.now(),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toSource(row);
    } catch (error) {
      if (isUniqueViolation(error)) throw sourceExists(fields.name);
      throw error;
    }
  }

  /**
   * Changes the given fields (a missing `pass` keeps the stored password) after checking the connection as it
   * would be afterwards. Built-in sources are refused.
   */
  async update(id: number, fields: SourceFields): Promise<CardSource> {
    const row = await this.find(id);
    if (Number(row.builtin) === 1) throw builtinRefused();
    const next = this.merge(row, fields);
    if (next.name !== row.name) await this.assertNameFree(next.name, id);
    await this.verifyForSave(next);
    try {
      const updated = await this.db
        .updateTable('card_sources')
        .set({
          name: next.name,
          type: next.type,
          host: next.host,
          port: next.port,
          user: next.user,
          password: next.password,
        })
        .where('id', '=', id)
        .where('builtin', '=', 0)
        .returningAll()
        .executeTakeFirst();
      if (!updated) throw new AppError(404, 'not_found');
      return toSource(updated);
    } catch (error) {
      if (isUniqueViolation(error)) throw sourceExists(next.name);
      throw error;
    }
  }

  /** Deletes a source; built-in sources and sources that cards use are refused. */
  async remove(id: number): Promise<void> {
    const row = await this.find(id);
    if (Number(row.builtin) === 1) throw builtinRefused();
    await this.db.transaction().execute(async (trx) => {
      const cards = await trx
        .selectFrom('customer_cards')
        .select('name')
        .where('dbconn_id', '=', id)
        .orderBy('name')
        .execute();
      if (cards.length > 0) {
        const list = cards.map((c) => `'${c.name}'`).join(', ');
        throw new AppError(
          409,
          'card_source_in_use',
          (lang) =>
            lang === 'it'
              ? `La sorgente ${row.name} è usata dalle schede ${list}: eliminale o assegna loro un'altra sorgente.`
              : `Source ${row.name} is used by the cards ${list}: delete them or give them another source.`,
          { cards: cards.map((c) => c.name).join(', ') },
        );
      }
      // A caller query routing reads the source at call time: deleting it would send its calls to the default.
      const cqrs = await trx.selectFrom('cqrs').select('name').where('source_id', '=', id).orderBy('name').execute();
      if (cqrs.length > 0) {
        const list = cqrs.map((c) => `'${c.name}'`).join(', ');
        throw new AppError(
          409,
          'card_source_in_use',
          (lang) =>
            lang === 'it'
              ? `La sorgente ${row.name} è usata dagli instradamenti per chiamante ${list}: eliminali o assegna loro un'altra sorgente.`
              : `Source ${row.name} is used by the caller query routings ${list}: delete them or give them another source.`,
          { cqrs: cqrs.map((c) => c.name).join(', ') },
        );
      }
      await trx.deleteFrom('card_sources').where('id', '=', id).where('builtin', '=', 0).execute();
    });
  }

  /**
   * The connection check (POST /api/dbconn/test). With an id, the stored source with the given fields laid
   * over it (its stored password unless one is given); a built-in source checks Centralino's own database.
   * Answers the time it took; a failure is a 503 `card_source_failed`: could not connect to host:port, or the
   * server refused the sign-in (ConnectionCheckError.reason), never the driver's text.
   */
  async test(fields: SourceFields & { id?: number }): Promise<{ status: true; elapsed_ms: number }> {
    const started = performance.now();
    let connection: SourceConnection;
    if (fields.id !== undefined) {
      const row = await this.find(fields.id);
      if (Number(row.builtin) === 1) {
        await sql`select 1`.execute(this.db);
        return { status: true, elapsed_ms: Math.round(performance.now() - started) };
      }
      connection = this.merge(row, fields);
    } else {
      // The route's schema requires these without an id.
      connection = {
        type: fields.type as CardSourceType,
        host: fields.host as string,
        port: fields.port as number,
        user: fields.user as string,
        name: fields.name as string,
        password: fields.pass ?? '',
      };
    }
    try {
      await checkConnection(connection);
    } catch (error) {
      if (error instanceof ConnectionCheckError) throw checkFailed(error, 503, false);
      throw error;
    }
    return { status: true, elapsed_ms: Math.round(performance.now() - started) };
  }

  types(): Record<string, string> {
    return { ...CARD_SOURCE_TYPES };
  }

  private async find(id: number): Promise<Row> {
    const row = await this.db.selectFrom('card_sources').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw new AppError(404, 'not_found');
    return row;
  }

  private merge(row: Row, fields: SourceFields): SourceConnection {
    return {
      type: fields.type ?? (row.type as CardSourceType),
      host: fields.host ?? row.host ?? '',
      port: fields.port ?? Number(row.port),
      user: fields.user ?? row.user ?? '',
      name: fields.name ?? row.name,
      password: fields.pass ?? row.password ?? '',
    };
  }

  private async assertNameFree(name: string, exceptId?: number): Promise<void> {
    let query = this.db.selectFrom('card_sources').select('id').where('name', '=', name);
    if (exceptId !== undefined) query = query.where('id', '<>', exceptId);
    if (await query.executeTakeFirst()) throw sourceExists(name);
  }

  private async verifyForSave(connection: SourceConnection): Promise<void> {
    try {
      await checkConnection(connection);
    } catch (error) {
      if (error instanceof ConnectionCheckError) throw checkFailed(error, 422, true);
      throw error;
    }
  }
}
