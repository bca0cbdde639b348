import type { Writable } from 'node:stream';

/**
 * The little of the tar format (POSIX ustar) a backup needs: regular files only, written and read as streams, so a
 * backup of any size passes through in 64 kB pieces. Our own rather than a dependency: it is 512-byte headers
 * around the bytes, and the reader refuses anything that is not what the writer makes (links, devices, pax headers).
 */

const BLOCK = 512;
const MAX_SIZE = 8 ** 11 - 1; // eleven octal digits

export class TarError extends Error {}

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

function header(name: string, size: number, mtime: number): Buffer {
  if (size > MAX_SIZE) throw new TarError(`${name} is too large for a tar entry`);
  const bytes = Buffer.from(name, 'utf8');
  let prefix = Buffer.alloc(0);
  let rest = bytes;
  if (bytes.length > 100) {
    // ustar splits a long name at a slash into prefix (155) and name (100).
    const cut = name.lastIndexOf('/', 155);
    if (cut <= 0) throw new TarError(`${name} is too long for a tar entry`);
    prefix = Buffer.from(name.slice(0, cut), 'utf8');
    rest = Buffer.from(name.slice(cut + 1), 'utf8');
    if (prefix.length > 155 || rest.length > 100) throw new TarError(`${name} is too long for a tar entry`);
  }
  const block = Buffer.alloc(BLOCK);
  rest.copy(block, 0);
  block.write(octal(0o600, 8), 100, 'ascii');
  block.write(octal(0, 8), 108, 'ascii');
  block.write(octal(0, 8), 116, 'ascii');
  block.write(octal(size, 12), 124, 'ascii');
  block.write(octal(Math.floor(mtime / 1000), 12), 136, 'ascii');
  block.write('        ', 148, 'ascii');
  block.write('0', 156, 'ascii');
  block.write('ustar\0', 257, 'ascii');
  block.write('00', 263, 'ascii');
  prefix.copy(block, 345);
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return block;
}

async function write(out: Writable, chunk: Buffer): Promise<void> {
  if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', resolve));
}

/** Writes entries one after the other to `out` (usually a gzip stream); `end()` adds the two closing blocks. */
export class TarWriter {
  constructor(private readonly out: Writable) {}

  async add(
    name: string,
    size: number,
    content: AsyncIterable<Buffer> | Iterable<Buffer>,
    mtime = Date.now(),
  ): Promise<void> {
    await write(this.out, header(name, size, mtime));
    let written = 0;
    for await (const chunk of content) {
      written += chunk.length;
      if (written > size) throw new TarError(`${name} grew while it was being written`);
      await write(this.out, chunk);
    }
    if (written !== size) throw new TarError(`${name} changed size while it was being written`);
    const pad = (BLOCK - (size % BLOCK)) % BLOCK;
    if (pad) await write(this.out, Buffer.alloc(pad));
  }

  async end(): Promise<void> {
    await write(this.out, Buffer.alloc(BLOCK * 2));
    await new Promise<void>((resolve, reject) => {
      this.out.once('error', reject);
      this.out.end(resolve);
    });
  }
}

/** Exact-size reads over a stream of chunks. */
class ByteReader {
  private readonly chunks: Buffer[] = [];
  private have = 0;
  private readonly source: AsyncIterator<Buffer>;

  constructor(source: AsyncIterable<Buffer>) {
    this.source = source[Symbol.asyncIterator]();
  }

  private async fill(n: number): Promise<boolean> {
    while (this.have < n) {
      const next = await this.source.next();
      if (next.done) return false;
      this.chunks.push(next.value);
      this.have += next.value.length;
    }
    return true;
  }

  private takeBuffered(n: number): Buffer {
    const first = this.chunks[0];
    if (first && first.length >= n) {
      // The common case: no copy.
      const out = first.subarray(0, n);
      if (first.length === n) this.chunks.shift();
      else this.chunks[0] = first.subarray(n);
      this.have -= n;
      return out;
    }
    const whole = Buffer.concat(this.chunks);
    const out = whole.subarray(0, n);
    const rest = whole.subarray(n);
    this.chunks.length = 0;
    if (rest.length) this.chunks.push(rest);
    this.have = rest.length;
    return out;
  }

  /** Exactly n bytes; null at a clean end of input; throws when the input stops in between. */
  async exactly(n: number): Promise<Buffer | null> {
    if (!(await this.fill(n))) {
      if (this.have === 0) return null;
      throw new TarError('the archive is truncated');
    }
    return this.takeBuffered(n);
  }

  /** Between 1 and n bytes; throws at the end of input. */
  async upTo(n: number): Promise<Buffer> {
    if (!(await this.fill(1))) throw new TarError('the archive is truncated');
    return this.takeBuffered(Math.min(n, this.chunks[0]?.length ?? this.have));
  }
}

function field(block: Buffer, start: number, length: number): string {
  const raw = block.subarray(start, start + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end === -1 ? length : end).toString('utf8');
}

function parseHeader(block: Buffer): { name: string; size: number } | null {
  if (block.every((byte) => byte === 0)) return null;
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : (block[i] ?? 0);
  const stored = Number.parseInt(field(block, 148, 8).trim(), 8);
  if (stored !== sum) throw new TarError('a tar header is damaged');
  if (field(block, 257, 6) !== 'ustar') throw new TarError('not a ustar archive');
  const type = String.fromCharCode(block[156] ?? 0);
  if (type !== '0' && type !== '\0') throw new TarError('the archive holds something other than files');
  const prefix = field(block, 345, 155);
  const name = prefix ? `${prefix}/${field(block, 0, 100)}` : field(block, 0, 100);
  const size = Number.parseInt(field(block, 124, 12).trim(), 8);
  if (!Number.isSafeInteger(size) || size < 0) throw new TarError('a tar header is damaged');
  return { name, size };
}

/**
 * Reads entries in order; `onEntry` must consume `content` to its end (or not at all: what is left is skipped).
 * Throws TarError on a damaged or truncated archive.
 */
export async function readTar(
  source: AsyncIterable<Buffer>,
  onEntry: (entry: { name: string; size: number }, content: AsyncIterable<Buffer>) => Promise<void>,
): Promise<void> {
  const reader = new ByteReader(source);
  for (;;) {
    const block = await reader.exactly(BLOCK);
    if (!block) throw new TarError('the archive is truncated');
    const entry = parseHeader(block);
    if (!entry) return; // the closing zero blocks
    let left = entry.size;
    async function* content(): AsyncGenerator<Buffer> {
      while (left > 0) {
        const chunk = await reader.upTo(Math.min(left, 64 * 1024));
        left -= chunk.length;
        yield chunk;
      }
    }
    await onEntry(entry, content());
    while (left > 0) {
      const chunk = await reader.upTo(Math.min(left, 64 * 1024));
      left -= chunk.length;
    }
    const pad = (BLOCK - (entry.size % BLOCK)) % BLOCK;
    if (pad && !(await reader.exactly(pad))) throw new TarError('the archive is truncated');
  }
}
