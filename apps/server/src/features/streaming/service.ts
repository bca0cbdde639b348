import {
  STREAMING_SNAPSHOT_MAX_BYTES,
  STREAMING_SNAPSHOT_TIMEOUT_MS,
  type StreamingSource,
  streamingPermissionName,
} from '@centralino/contract';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database, StreamingSourcesTable } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { isUniqueViolation } from '../users/service.ts';
import { fetchSnapshot, SnapshotError } from './snapshot.ts';

/** What the routes hand over after streamingSourceWriteSchema parsed the body. */
export interface StreamingFields {
  descr: string;
  url: string;
  exten: string;
  open: string;
  profiles: number[];
}

type Row = Selectable<StreamingSourcesTable>;

/** The URL without its password (the user name stays), and whether it had one. */
export function withoutPassword(raw: string): { url: string; hadPassword: boolean } {
  try {
    const url = new URL(raw);
    if (!url.password) return { url: raw, hadPassword: false };
    url.password = '';
    return { url: url.toString(), hadPassword: true };
  } catch {
    return { url: raw, hadPassword: false };
  }
}

/**
 * `given` with the stored URL's password when `given` names the same user at the same origin without one (as
 * the console sends back a listed URL); otherwise `given` as it is.
 */
export function keepStoredPassword(given: string, stored: string): string {
  try {
    const next = new URL(given);
    const old = new URL(stored);
    if (next.password || !next.username || !old.password) return given;
    if (next.username !== old.username || next.origin !== old.origin) return given;
    next.password = old.password;
    return next.toString();
  } catch {
    return given;
  }
}

function sourceExists(descr: string): AppError {
  return new AppError(
    409,
    'streaming_exists',
    (lang) =>
      lang === 'it'
        ? `Esiste già una sorgente streaming che si chiama ${descr} (o il cui nome dà lo stesso permesso).`
        : `A streaming source named ${descr} (or whose name gives the same permission) already exists.`,
    { descr: 'exists' },
  );
}

/**
 * Streaming (video) sources (contract api-admin §7): a snapshot URL CTI users see, the door phone's extension
 * and the code that opens the door. A source's visibility is its `vs_*` permission in the streaming macro
 * (listed by the CTI catalogue, `features/cti`), held by profiles as rows of cti_profile_permissions; the
 * permission is fixed at creation, so renaming a source keeps the profiles that see it.
 */
export class StreamingService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly allowedHosts: readonly string[],
    private readonly now: () => number = Date.now,
  ) {}

  async list(): Promise<StreamingSource[]> {
    const rows = await this.db.selectFrom('streaming_sources').selectAll().orderBy('descr').execute();
    const links =
      rows.length === 0
        ? []
        : await this.db
            .selectFrom('cti_profile_permissions')
            .select(['profile_id', 'permission'])
            .where(
              'permission',
              'in',
              rows.map((r) => r.permission),
            )
            .orderBy('profile_id')
            .execute();
    return rows.map((row) => ({
      id: Number(row.id),
      descr: row.descr,
      url: withoutPassword(row.url).url,
      has_password: withoutPassword(row.url).hadPassword,
      exten: row.exten,
      open: row.open,
      permission: row.permission,
      profiles: links.filter((l) => l.permission === row.permission).map((l) => Number(l.profile_id)),
    }));
  }

  async create(fields: StreamingFields): Promise<{ id: number }> {
    const permission = streamingPermissionName(fields.descr);
    try {
      return await this.db.transaction().execute(async (trx) => {
        await this.checkRefs(trx, fields);
        const row = await trx
          .insertInto('streaming_sources')
          .values({
            descr: fields.descr,
            permission,
            url: fields.url,
            exten: fields.exten,
            open: fields.open,
            created_at: this.now(),
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await this.link(trx, permission, fields.profiles);
        return { id: Number(row.id) };
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw sourceExists(fields.descr);
      throw error;
    }
  }

  /** Replaces the source named `current` (the original's `currentDescr`). */
  async update(current: string, fields: StreamingFields): Promise<{ id: number }> {
    try {
      return await this.db.transaction().execute(async (trx) => {
        const row = await this.find(trx, current);
        await this.checkRefs(trx, fields);
        await trx
          .updateTable('streaming_sources')
          .set({
            descr: fields.descr,
            url: keepStoredPassword(fields.url, row.url),
            exten: fields.exten,
            open: fields.open,
          })
          .where('id', '=', row.id)
          .execute();
        await trx.deleteFrom('cti_profile_permissions').where('permission', '=', row.permission).execute();
        await this.link(trx, row.permission, fields.profiles);
        return { id: Number(row.id) };
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw sourceExists(fields.descr);
      throw error;
    }
  }

  async remove(descr: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const row = await this.find(trx, descr);
      await trx.deleteFrom('cti_profile_permissions').where('permission', '=', row.permission).execute();
      await trx.deleteFrom('streaming_sources').where('id', '=', row.id).execute();
    });
  }

  /** The Check: one snapshot through the server (see snapshot.ts), as the contract's wrapped base64 string. */
  async test(given: string, descr?: string): Promise<string> {
    let url = given;
    if (descr !== undefined) {
      const row = await this.db
        .selectFrom('streaming_sources')
        .select('url')
        .where('descr', '=', descr)
        .executeTakeFirst();
      if (row) url = keepStoredPassword(given, row.url);
    }
    try {
      const image = await fetchSnapshot(url, {
        timeoutMs: STREAMING_SNAPSHOT_TIMEOUT_MS,
        maxBytes: STREAMING_SNAPSHOT_MAX_BYTES,
        allowedHosts: this.allowedHosts,
      });
      return mimeBase64(image.bytes);
    } catch (error) {
      if (error instanceof SnapshotError) {
        const code = error.kind === 'refused' ? 'streaming_host_refused' : 'streaming_fetch_failed';
        throw new AppError(error.kind === 'refused' ? 422 : 502, code, (lang) => error.reason(lang));
      }
      throw error;
    }
  }

  private async find(trx: Transaction<Database>, descr: string): Promise<Row> {
    const row = await trx.selectFrom('streaming_sources').selectAll().where('descr', '=', descr).executeTakeFirst();
    if (!row) throw new AppError(404, 'not_found');
    return row;
  }

  /** The profiles must exist; the extension, when given, must be a user's or a device's number. */
  private async checkRefs(trx: Transaction<Database>, fields: StreamingFields): Promise<void> {
    const existing = await trx.selectFrom('cti_profiles').select('id').where('id', 'in', fields.profiles).execute();
    if (existing.length !== fields.profiles.length) {
      throw new AppError(422, 'cti_profile_unknown', undefined, { profiles: 'unknown' });
    }
    if (fields.exten === '') return;
    const [user, device] = await Promise.all([
      trx.selectFrom('users').select('id').where('default_extension', '=', fields.exten).executeTakeFirst(),
      trx.selectFrom('devices').select('id').where('extension', '=', fields.exten).executeTakeFirst(),
    ]);
    if (!user && !device) {
      throw new AppError(
        422,
        'validation',
        (lang) =>
          lang === 'it'
            ? `Nessun utente o dispositivo ha l'interno ${fields.exten}.`
            : `No user or device has the extension ${fields.exten}.`,
        { exten: 'unknown' },
      );
    }
  }

  private async link(trx: Transaction<Database>, permission: string, profiles: number[]): Promise<void> {
    if (profiles.length === 0) return;
    await trx
      .insertInto('cti_profile_permissions')
      .values(profiles.map((profile_id) => ({ profile_id, permission })))
      .execute();
  }
}

/** Base64 in lines of 76 characters joined by CRLF (MIME), the form the contract's Check answers (§7.5). */
export function mimeBase64(bytes: Buffer): string {
  return (bytes.toString('base64').match(/.{1,76}/g) ?? []).join('\r\n');
}
