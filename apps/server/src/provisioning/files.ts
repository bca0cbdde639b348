import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  isValidUploadName,
  PROVISIONING_FILE_LIMITS,
  type ProvFile,
  type ProvisioningFileType,
} from '@centralino/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { AppError } from '../errors.ts';
import { isUniqueViolation } from '../features/users/service.ts';

export const invalidFileName = () => new AppError(400, 'upload_invalid_filename', undefined, { file: 'invalid name' });

/**
 * Firmware, ringtones, backgrounds and screensavers. Bytes live under DATA_DIR/provisioning/files/<collection>/
 * with generated names (never a served folder, never the client's name); the database maps the upload name
 * to them. An upload never replaces a file of the same name.
 */
export class FileStore {
  readonly root: string;

  constructor(
    private readonly db: Kysely<Database>,
    dataDir: string,
    private readonly changed: () => Promise<void>,
  ) {
    this.root = path.join(dataDir, 'provisioning', 'files');
  }

  private dir(collection: ProvisioningFileType) {
    return path.join(this.root, collection);
  }

  async list(collection: ProvisioningFileType): Promise<ProvFile[]> {
    const rows = await this.db
      .selectFrom('prov_files')
      .select(['name', 'size', 'mtime'])
      .where('collection', '=', collection)
      .orderBy('name')
      .execute();
    return rows.map((row) => ({ name: row.name, size: Number(row.size), mtime: Number(row.mtime) }));
  }

  /**
   * Stores one uploaded file. The name is checked before a byte is written; a stream that goes over the
   * collection's limit (`truncated()` true once drained) or is empty leaves nothing behind.
   */
  async save(
    collection: ProvisioningFileType,
    name: string,
    stream: Readable,
    truncated: () => boolean,
  ): Promise<ProvFile> {
    if (!isValidUploadName(name)) {
      stream.resume();
      throw invalidFileName();
    }
    const existing = await this.db
      .selectFrom('prov_files')
      .select('name')
      .where('collection', '=', collection)
      .where('name', '=', name)
      .executeTakeFirst();
    if (existing) {
      stream.resume();
      throw new AppError(409, 'prov_file_exists', undefined, { file: name });
    }
    const dir = this.dir(collection);
    await fs.promises.mkdir(dir, { recursive: true });
    const storedName = randomBytes(16).toString('hex');
    const target = path.join(dir, storedName);
    const temp = `${target}.part`;
    try {
      await pipeline(stream, fs.createWriteStream(temp, { flags: 'wx' }));
      if (truncated()) {
        const limit = PROVISIONING_FILE_LIMITS[collection];
        throw new AppError(413, 'prov_upload_too_large', (lang) =>
          lang === 'it'
            ? `Il file supera ${Math.floor(limit / 1024 / 1024)} MB.`
            : `The file is larger than ${Math.floor(limit / 1024 / 1024)} MB.`,
        );
      }
      const { size } = await fs.promises.stat(temp);
      if (size === 0) throw new AppError(400, 'prov_upload_empty', undefined, { file: 'empty' });
      await fs.promises.rename(temp, target);
      const mtime = Math.floor(Date.now() / 1000);
      try {
        await this.db
          .insertInto('prov_files')
          .values({ collection, name, stored_name: storedName, size, mtime })
          .execute();
      } catch (error) {
        await fs.promises.rm(target, { force: true });
        if (isUniqueViolation(error)) throw new AppError(409, 'prov_file_exists', undefined, { file: name });
        throw error;
      }
      await this.changed();
      return { name, size, mtime };
    } finally {
      await fs.promises.rm(temp, { force: true });
    }
  }

  async remove(collection: ProvisioningFileType, name: string): Promise<void> {
    if (!isValidUploadName(name)) throw new AppError(404, 'prov_not_found');
    const row = await this.db
      .deleteFrom('prov_files')
      .where('collection', '=', collection)
      .where('name', '=', name)
      .returning('stored_name')
      .executeTakeFirst();
    if (!row) throw new AppError(404, 'prov_not_found');
    await fs.promises.rm(path.join(this.dir(collection), row.stored_name), { force: true });
    await this.changed();
  }

  /** Path of a stored file for a phone download, or undefined. */
  async find(collection: ProvisioningFileType, name: string): Promise<{ path: string; size: number } | undefined> {
    if (!isValidUploadName(name)) return undefined;
    const row = await this.db
      .selectFrom('prov_files')
      .select(['stored_name', 'size'])
      .where('collection', '=', collection)
      .where('name', '=', name)
      .executeTakeFirst();
    if (!row) return undefined;
    const file = path.join(this.dir(collection), row.stored_name);
    return fs.existsSync(file) ? { path: file, size: Number(row.size) } : undefined;
  }
}
