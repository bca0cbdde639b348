import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { decodedPath, isProtectedPath, isPublicRequest } from './auth.ts';
import { sendError } from './errors.ts';

/**
 * Serves the built web app. Any GET outside /api that is not a file gets index.html, so the
 * client-side router can handle deep links and reloads.
 */
export async function registerSpa(app: FastifyInstance, distDir: string | undefined) {
  const index = distDir ? path.join(distDir, 'index.html') : undefined;
  const hasSpa = index !== undefined && fs.existsSync(index);
  if (hasSpa && distDir) {
    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: false,
      index: false,
      // The web build writes a .br and a .gz copy of every text file (apps/web/precompress.ts): the
      // browser gets the best one it accepts, with Content-Encoding and Vary: Accept-Encoding, and no
      // request pays for compressing. (JSON answers of the API are another matter.)
      preCompressed: true,
      // Hashed assets never change; index.html must always be fresh.
      setHeaders: (reply, filePath) => {
        reply.header(
          'cache-control',
          filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  } else {
    app.log.warn({ distDir }, 'web app not built: serving the API only');
  }

  app.setNotFoundHandler(async (request, reply) => {
    const pathname = decodedPath(request);
    if (isProtectedPath(pathname)) {
      // Unknown API paths answer 404 only to authenticated callers (the auth hook already ran).
      if (!isPublicRequest(request) && !request.admin) return sendError(request, reply, 401, 'unauthorized');
      return sendError(request, reply, 404, 'not_found');
    }
    const looksLikeFile = path.extname(pathname) !== '';
    if (hasSpa && (request.method === 'GET' || request.method === 'HEAD') && !looksLikeFile) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return sendError(request, reply, 404, 'not_found');
  });
}
