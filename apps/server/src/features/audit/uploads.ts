import { createHash, type Hash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { redact } from './redact.ts';

interface Part {
  type?: string;
  fieldname?: string;
  filename?: string;
  value?: unknown;
  file?: Readable;
  fields?: Record<string, Part | Part[]>;
}

interface Tapped {
  name: string | undefined;
  size: number;
  hash: Hash;
  sha256: string | undefined;
}

/**
 * Follows a multipart request's files as the handler reads them (request.file(), .files(), .parts()), so that its
 * audit row can name each file with its size and SHA-256 without keeping a byte of it. The bytes are counted as
 * they are delivered to the handler's reader ('data', emitted for every chunk whether the stream is piped, iterated
 * or read), so nothing changes for the handler. Answers the fields and files seen so far, for the row's after.
 */
export function tapMultipart(request: FastifyRequest): () => Record<string, unknown> | undefined {
  const target = request as unknown as Record<string, unknown>;
  const files = new Map<Part, Tapped>();
  let fields: Record<string, Part | Part[]> | undefined;
  let seen = false;

  const tap = <T>(part: T): T => {
    if (!part || typeof part !== 'object') return part;
    const p = part as Part;
    seen = true;
    fields = p.fields ?? fields;
    const stream = p.file;
    if (p.type === 'file' && stream && !files.has(p)) {
      const tapped: Tapped = { name: p.filename, size: 0, hash: createHash('sha256'), sha256: undefined };
      files.set(p, tapped);
      const emit = stream.emit.bind(stream);
      stream.emit = ((event: string | symbol, ...args: unknown[]) => {
        const [chunk] = args;
        if (event === 'data' && (Buffer.isBuffer(chunk) || typeof chunk === 'string')) {
          tapped.size += Buffer.byteLength(chunk);
          tapped.hash.update(chunk);
        } else if (event === 'end' && tapped.sha256 === undefined) {
          tapped.sha256 = tapped.hash.digest('hex');
        }
        return emit(event, ...args);
      }) as typeof stream.emit;
    }
    return part;
  };

  const file = target.file;
  if (typeof file === 'function') {
    target.file = async function (this: unknown, ...args: unknown[]) {
      return tap(await file.apply(this, args));
    };
  }
  for (const name of ['files', 'parts']) {
    const iterate = target[name];
    if (typeof iterate !== 'function') continue;
    target[name] = function (this: unknown, ...args: unknown[]) {
      const parts = iterate.apply(this, args) as AsyncIterable<unknown>;
      return (async function* () {
        for await (const part of parts) yield tap(part);
      })();
    };
  }

  const describe = (part: Part): unknown => {
    const tapped = files.get(part);
    if (part.type === 'file') {
      // A file the handler did not read to its end has no digest: only the bytes it read.
      return tapped
        ? { name: tapped.name, size: tapped.size, ...(tapped.sha256 ? { sha256: tapped.sha256 } : {}) }
        : { name: part.filename };
    }
    return part.value;
  };
  return () => {
    if (!seen) return undefined;
    const out: Record<string, unknown> = {};
    for (const [name, entry] of Object.entries(fields ?? {})) {
      out[name] = Array.isArray(entry) ? entry.map(describe) : describe(entry);
    }
    for (const [part] of files) {
      const name = part.fieldname ?? 'file';
      if (!(name in out)) out[name] = describe(part);
    }
    // Multipart fields have no schema: the name and URL safety net applies.
    return redact(out) as Record<string, unknown>;
  };
}
