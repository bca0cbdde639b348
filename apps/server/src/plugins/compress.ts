import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';

/** Smaller answers gain less than compressing them costs (and a TCP segment carries them anyway). */
export const COMPRESS_FROM_BYTES = 1024;
/** Above this a whole answer is compressed on libuv's thread pool rather than on the event loop. */
const SYNC_UP_TO_BYTES = 64 * 1024;

/**
 * Brotli at quality 4 compresses JSON about as well as gzip -6 at gzip's speed; the default (11) is tuned for
 * files compressed once at build time and costs ~50× more per byte.
 */
const BROTLI = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } };
const GZIP = { level: 6 };

type Encoding = 'br' | 'gzip';

/** The encoding the client prefers among br and gzip (a q=0 refuses one), or none. */
export function pickEncoding(header: string | string[] | undefined): Encoding | undefined {
  const value = Array.isArray(header) ? header.join(',') : (header ?? '');
  let best: Encoding | undefined;
  let bestQ = 0;
  for (const part of value.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    if (name !== 'br' && name !== 'gzip' && name !== '*') continue;
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    const weight = q === undefined ? 1 : Number(q);
    const encoding: Encoding = name === 'gzip' ? 'gzip' : 'br';
    // On equal weights brotli wins: smaller for the same work at quality 4.
    if (weight > bestQ || (weight === bestQ && weight > 0 && encoding === 'br')) {
      best = encoding;
      bestQ = weight;
    }
  }
  return bestQ > 0 ? best : undefined;
}

/**
 * Compresses the API's JSON answers above COMPRESS_FROM_BYTES by Accept-Encoding (brotli or gzip): lists of
 * 10,000 users shrink ~10×. Streamed answers (the unpaged users list) are compressed as they stream. Web assets
 * are precompressed at build time by the SPA plugin, and phone files are left alone (phones seldom ask).
 */
export function registerCompression(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (!request.url.startsWith('/api/') || reply.hasHeader('content-encoding')) return payload;
    const type = String(reply.getHeader('content-type') ?? '');
    if (!type.includes('json')) return payload;
    const vary = reply.getHeader('vary');
    if (!vary) reply.header('vary', 'accept-encoding');
    else if (!/accept-encoding/i.test(String(vary))) reply.header('vary', `${vary}, accept-encoding`);
    const encoding = pickEncoding(request.headers['accept-encoding']);
    if (!encoding || request.method === 'HEAD') return payload;
    if (payload instanceof Readable) {
      reply.header('content-encoding', encoding);
      reply.removeHeader('content-length');
      return payload.pipe(encoding === 'br' ? zlib.createBrotliCompress(BROTLI) : zlib.createGzip(GZIP));
    }
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    const size = Buffer.byteLength(payload);
    if (size < COMPRESS_FROM_BYTES) return payload;
    let body: Buffer;
    if (size <= SYNC_UP_TO_BYTES) {
      body = encoding === 'br' ? zlib.brotliCompressSync(payload, BROTLI) : zlib.gzipSync(payload, GZIP);
    } else {
      body = await new Promise<Buffer>((resolve, reject) => {
        const done = (error: Error | null, result: Buffer) => (error ? reject(error) : resolve(result));
        if (encoding === 'br') zlib.brotliCompress(payload, BROTLI, done);
        else zlib.gzip(payload, GZIP, done);
      });
    }
    reply.header('content-encoding', encoding);
    reply.header('content-length', String(body.length));
    return body;
  });
}
