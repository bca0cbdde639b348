import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';

// The docs page borrows the console's stored key (same origin) so the document and "Try it out" are authenticated.
const attachConsoleCredentials = `
(function () {
  var original = window.fetch.bind(window);
  window.fetch = function (input, init) {
    var url = typeof input === 'string' ? input : input.url;
    var target = new URL(url, window.location.href);
    if (target.origin === window.location.origin && target.pathname.indexOf('/api/') === 0) {
      try {
        var stored = JSON.parse(window.localStorage.getItem('secretkey') || 'null');
        if (stored && stored.user && stored.secretkey) {
          init = init || {};
          var headers = new Headers(init.headers || (typeof input !== 'string' ? input.headers : undefined));
          if (!headers.has('User')) headers.set('User', stored.user);
          if (!headers.has('Secretkey')) headers.set('Secretkey', stored.secretkey);
          init.headers = headers;
        }
      } catch (e) {}
    }
    return original(input, init);
  };
})();`;

export async function registerOpenApi(app: FastifyInstance, version: string) {
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Centralino API',
        version,
        description:
          'Administration API of the Centralino PBX console. Sign in with POST /api/login, then send the ' +
          'User and Secretkey headers on every call.',
      },
      components: {
        securitySchemes: {
          user: { type: 'apiKey', in: 'header', name: 'User' },
          secretkey: { type: 'apiKey', in: 'header', name: 'Secretkey' },
        },
      },
      security: [{ user: [], secretkey: [] }],
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    theme: { js: [{ filename: 'console-credentials.js', content: attachConsoleCredentials }] },
  });
}
