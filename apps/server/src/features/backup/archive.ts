import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { BACKUP_FORMAT } from '@centralino/contract';
import { readTar, TarWriter } from './tar.ts';

/**
 * The archive: `db/<table>.jsonl`, `files/<area>/...`, and `manifest.json` last, holding the SHA-256 and size of
 * every other entry. Files are taken from and restored to these folders of DATA_DIR; recordings live in the
 * database (the `recordings` table) and are written out again after a restore.
 */
export const FILE_AREAS = ['provisioning/files', 'phonebook', 'tls', 'google'] as const;
export type FileArea = (typeof FILE_AREAS)[number];

export interface Manifest {
  format: number;
  product: 'centralino';
  version: string;
  migration: string;
  createdAt: string;
  tables: Record<string, number>;
  entries: Record<string, { size: number; sha256: string }>;
}

export class ArchiveInvalid extends Error {}

/** The archive unpacks to more than `limit` bytes (BACKUP_RESTORE_MAX_BYTES): refused as soon as that is known. */
export class ArchiveTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`the archive unpacks to more than ${limit} bytes`);
  }
}

export interface ArchiveSource {
  name: string;
  /** Where the bytes are now. */
  file: string;
}

async function listFiles(root: string, prefix = ''): Promise<string[]> {
  const entries = await fsp.readdir(path.join(root, prefix), { withFileTypes: true }).catch(() => []);
  const out: string[] = [];
  for (const entry of entries) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...(await listFiles(root, rel)));
    else if (entry.isFile()) out.push(rel);
  }
  return out.sort();
}

/** The files of every area, as archive entries. */
export async function dataFiles(dataDir: string): Promise<ArchiveSource[]> {
  const out: ArchiveSource[] = [];
  for (const area of FILE_AREAS) {
    const root = path.join(dataDir, area);
    for (const rel of await listFiles(root)) out.push({ name: `files/${area}/${rel}`, file: path.join(root, rel) });
  }
  return out;
}

async function* hashing(file: string, hash: ReturnType<typeof createHash>): AsyncGenerator<Buffer> {
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 64 * 1024 })) {
    hash.update(chunk as Buffer);
    yield chunk as Buffer;
  }
}

/** Writes the archive to `out` (0600): every source, then the manifest with their checksums. */
export async function writeArchive(
  out: string,
  sources: ArchiveSource[],
  meta: Omit<Manifest, 'entries' | 'format' | 'product'>,
): Promise<void> {
  const gzip = zlib.createGzip({ level: 6 });
  const file = fs.createWriteStream(out, { mode: 0o600 });
  const piped = pipeline(gzip, file);
  const tar = new TarWriter(gzip);
  const entries: Manifest['entries'] = {};
  try {
    for (const source of sources) {
      const { size, mtimeMs } = await fsp.stat(source.file);
      const hash = createHash('sha256');
      await tar.add(source.name, size, hashing(source.file, hash), mtimeMs);
      entries[source.name] = { size, sha256: hash.digest('hex') };
    }
    const manifest: Manifest = { format: BACKUP_FORMAT, product: 'centralino', ...meta, entries };
    const bytes = Buffer.from(JSON.stringify(manifest, null, 2));
    await tar.add('manifest.json', bytes.length, [bytes]);
    await tar.end();
  } catch (error) {
    gzip.destroy(error as Error);
    await piped.catch(() => {});
    await fsp.rm(out, { force: true });
    throw error;
  }
  await piped;
}

/**
 * Names a restore accepts: a table dump, the manifest, or a file under `files/` whose every part is a plain name
 * (no empty, `.` or `..` part, no control character or backslash), so nothing is written outside the unpack folder.
 */
function safeName(name: string): boolean {
  if (/^db\/[a-z0-9_]+\.jsonl$/.test(name) || name === 'manifest.json') return true;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused.
  if (!name.startsWith('files/') || /[\u0000-\u001f\u007f\\]/.test(name)) return false;
  return name.split('/').every((part) => part !== '' && part !== '.' && part !== '..');
}

/**
 * Unpacks an uploaded archive into `dir` (0600 files), hashing each entry as it passes, then checks the manifest
 * against what arrived: every entry listed, none more, sizes and checksums equal. Throws ArchiveInvalid with the
 * reason; the caller removes `dir`.
 *
 * A few MB of gzip can expand to terabytes (a gzip bomb): the unpacked stream may be at most `maxBytes`. An entry
 * whose declared size would pass it is refused before a byte of it is written, and the gunzipped bytes are counted
 * as they come (ArchiveTooLarge); the caller removes what was written.
 */
export async function unpackArchive(archive: string, dir: string, maxBytes: number): Promise<Manifest> {
  const seen = new Map<string, { size: number; sha256: string }>();
  let manifestText: string | undefined;
  const input = fs.createReadStream(archive);
  const gunzip = zlib.createGunzip();
  input.on('error', (error) => gunzip.destroy(error));
  input.pipe(gunzip);
  let unpacked = 0;
  let declared = 0;
  async function* counted(): AsyncGenerator<Buffer> {
    for await (const chunk of gunzip) {
      unpacked += (chunk as Buffer).length;
      if (unpacked > maxBytes) throw new ArchiveTooLarge(maxBytes);
      yield chunk as Buffer;
    }
  }
  try {
    await readTar(counted(), async (entry, content) => {
      declared += entry.size;
      if (declared > maxBytes) throw new ArchiveTooLarge(maxBytes);
      if (!safeName(entry.name)) throw new ArchiveInvalid(`unexpected entry ${JSON.stringify(entry.name)}`);
      if (seen.has(entry.name) || (entry.name === 'manifest.json' && manifestText !== undefined)) {
        throw new ArchiveInvalid(`${entry.name} appears twice`);
      }
      if (entry.name === 'manifest.json') {
        if (entry.size > 64 * 1024 * 1024) throw new ArchiveInvalid('the manifest is too large');
        const chunks: Buffer[] = [];
        for await (const chunk of content) chunks.push(chunk);
        manifestText = Buffer.concat(chunks).toString('utf8');
        return;
      }
      if (manifestText !== undefined) throw new ArchiveInvalid('entries follow the manifest');
      const target = path.join(dir, entry.name);
      if (!target.startsWith(`${path.resolve(dir)}${path.sep}`))
        throw new ArchiveInvalid(`unexpected entry ${entry.name}`);
      await fsp.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
      const hash = createHash('sha256');
      await pipeline(
        async function* () {
          for await (const chunk of content) {
            hash.update(chunk);
            yield chunk;
          }
        },
        fs.createWriteStream(target, { mode: 0o600 }),
      );
      seen.set(entry.name, { size: entry.size, sha256: hash.digest('hex') });
    });
  } catch (error) {
    if (error instanceof ArchiveInvalid || error instanceof ArchiveTooLarge) throw error;
    // A damaged gzip stream, a truncated file, a bad tar header.
    throw new ArchiveInvalid(error instanceof Error ? error.message : String(error));
  } finally {
    input.destroy();
    gunzip.destroy();
  }
  if (manifestText === undefined) throw new ArchiveInvalid('the archive has no manifest');
  let manifest: Manifest;
  try {
    manifest = JSON.parse(manifestText) as Manifest;
  } catch {
    throw new ArchiveInvalid('the manifest is not JSON');
  }
  if (manifest?.product !== 'centralino' || manifest.format !== BACKUP_FORMAT) {
    throw new ArchiveInvalid('not a Centralino backup of a known format');
  }
  if (typeof manifest.version !== 'string' || typeof manifest.migration !== 'string') {
    throw new ArchiveInvalid('the manifest names no version');
  }
  if (!manifest.entries || typeof manifest.entries !== 'object' || !manifest.tables) {
    throw new ArchiveInvalid('the manifest lists no entries');
  }
  const listed = Object.keys(manifest.entries);
  for (const name of listed) {
    const got = seen.get(name);
    if (!got) throw new ArchiveInvalid(`${name} is missing`);
    const want = manifest.entries[name];
    if (!want || got.size !== want.size || got.sha256 !== want.sha256)
      throw new ArchiveInvalid(`${name} does not match its checksum`);
  }
  for (const name of seen.keys())
    if (!(name in manifest.entries)) throw new ArchiveInvalid(`${name} is not in the manifest`);
  return manifest;
}

/** Orders x.y.z versions; 'dev' (a source checkout) or anything else unparsable compares as equal. */
export function compareVersions(a: string, b: string): number {
  const parse = (v: string) => (/^\d+(\.\d+)*$/.test(v) ? v.split('.').map(Number) : null);
  const x = parse(a);
  const y = parse(b);
  if (!x || !y) return 0;
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d) return Math.sign(d);
  }
  return 0;
}
