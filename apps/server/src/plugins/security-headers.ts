import type { TLSSocket } from 'node:tls';
import type { FastifyInstance } from 'fastify';

/**
 * What the browser may do with our answers. The console keeps its key in localStorage, so a page that
 * framed it would be signed in: no framing anywhere. The built app loads only its own scripts; Mantine
 * sets inline styles, and icons and uploads may be data:/blob: URLs.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "media-src 'self' blob: data:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** A year, as the HSTS guidance recommends once HTTPS works; only ever sent over TLS. */
export const HSTS = 'max-age=31536000';

export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply) => {
    reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
    reply.header('x-frame-options', 'DENY');
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    if ((request.raw.socket as TLSSocket | undefined)?.encrypted) reply.header('strict-transport-security', HSTS);
  });
}
