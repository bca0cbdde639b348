import http from 'node:http';
import https from 'node:https';

/** A POST over node:http(s) with a deadline, for Google's endpoints and the mail command's loopback call. */

export interface HttpOptions {
  /** Extra certificate authorities (PEM), for test doubles. */
  ca?: string;
  /** When the whole exchange must be over (epoch ms). */
  deadline: number;
}

/** Largest answer read (a recognition or a token answer is a few kB). */
const MAX_ANSWER_BYTES = 5 * 1024 * 1024;

export function post(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: HttpOptions,
): Promise<{ status: number; text: string }> {
  const target = new URL(url);
  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const remaining = options.deadline - Date.now();
    if (remaining <= 0) {
      reject(new Error('timeout'));
      return;
    }
    const request = client.request(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        ...(options.ca ? { ca: options.ca } : {}),
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_ANSWER_BYTES) request.destroy(new Error('answer too large'));
          else chunks.push(chunk);
        });
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
        );
        response.on('error', reject);
      },
    );
    // The whole exchange, not only an idle socket, must end by the deadline.
    const timer = setTimeout(() => request.destroy(new Error('timeout')), remaining);
    request.on('close', () => clearTimeout(timer));
    request.on('error', reject);
    request.end(body);
  });
}
