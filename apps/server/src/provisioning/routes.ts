import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import {
  connectivityCheckRequestSchema,
  connectivityCheckResultSchema,
  ENGINE_MAC_VENDORS,
  type ErrorCode,
  PROVISIONING_API_BASE,
  PROVISIONING_FILE_LIMITS,
  PROVISIONING_FILE_TYPES,
  PROVISIONING_PROBLEM_TYPES,
  type ProvisioningFileType,
  pickUiLanguage,
  provDefaultsPatchSchema,
  provDefaultsSchema,
  provErrorSchema,
  provFileListSchema,
  provMacVendorsSchema,
  provModelCreateSchema,
  provModelListSchema,
  provModelPatchSchema,
  provModelSchema,
  provPhoneCreateSchema,
  provPhoneListSchema,
  provPhonePatchSchema,
  provPhoneSchema,
} from '@centralino/contract';
import multipart from '@fastify/multipart';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../errors.ts';
import { errorBody, sendError } from '../plugins/errors.ts';
import { CONTENT_SECURITY_POLICY, HSTS } from '../plugins/security-headers.ts';
import type { CachedFile } from './cache.ts';
import { type ConnectivityOptions, unreachableAddress } from './connectivity.ts';
import type { FileStore } from './files.ts';
import { MissThrottle } from './miss-throttle.ts';
import type { PhoneFileResult, PhoneFiles } from './phone-files.ts';
import type { ProvisioningService } from './service.ts';

const tags = ['provisioning'];
const errors = {
  400: provErrorSchema,
  401: provErrorSchema,
  403: provErrorSchema,
  404: provErrorSchema,
  409: provErrorSchema,
  413: provErrorSchema,
};
const inheritQuery = z.object({ inherit: z.string().optional() });
const macParams = z.object({ mac: z.string().max(64) });
const nameParams = z.object({ name: z.string().max(200) });
const fileTypeParams = z.object({ filetype: z.string().max(32) });

/** Unknown collections are unknown resources (404), not invalid input. */
function collectionOf(filetype: string): ProvisioningFileType {
  const collection = PROVISIONING_FILE_TYPES.find((type) => type === filetype);
  if (!collection) throw new AppError(404, 'prov_not_found');
  return collection;
}

/**
 * Errors of the engine API: the common shape plus the original engine's problem `type`, sent as
 * application/problem+json (contract §2.2).
 */
function registerProblemErrors(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    let status = 500;
    let code: ErrorCode = 'internal';
    let detail: string | ((lang: 'en' | 'it') => string) | undefined;
    let fields: Record<string, string> | undefined;
    if (error instanceof AppError) {
      status = error.statusCode;
      code = error.code;
      detail = error.detail;
      fields =
        typeof error.fields === 'function'
          ? error.fields(pickUiLanguage(request.headers['accept-language']))
          : error.fields;
    } else if (hasZodFastifySchemaValidationErrors(error)) {
      status = 400;
      code = 'validation';
      fields = {};
      for (const issue of error.validation) {
        const where = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || error.validationContext || 'body';
        fields[where] ??= issue.message ?? 'invalid value';
      }
      detail = Object.entries(fields)
        .map(([field, message]) => `${field}: ${message}`)
        .join('; ');
    } else if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      status = error.statusCode;
      code =
        status === 413
          ? 'prov_upload_too_large'
          : status === 404
            ? 'prov_not_found'
            : status === 415 || status === 406
              ? 'unsupported_media_type'
              : 'validation';
      detail = error.message;
    } else {
      request.log.error({ err: error }, 'provisioning request failed');
    }
    const body = errorBody(request, code, detail, fields);
    const type = PROVISIONING_PROBLEM_TYPES[code];
    return reply
      .code(status)
      .type('application/problem+json')
      .header('content-language', pickUiLanguage(request.headers['accept-language']))
      .send(type ? { type, ...body } : body);
  });
}

export interface ProvisioningRouteDeps {
  service: ProvisioningService;
  files: FileStore;
  phoneFiles: PhoneFiles;
  connectivity?: ConnectivityOptions;
  /**
   * Where the engine API is mounted: PROVISIONING_API_BASE, or the original's /tancredi/api/v1 for existing
   * clients and scripts. The second mount is left out of the API document and has no connectivity check.
   */
  base?: string;
}

/** Engine administration API under /api/provisioning/v1 (contract §2.3–§2.7) and the connectivity check. */
export const provisioningApiRoutes =
  ({ service, files, connectivity, base = PROVISIONING_API_BASE }: ProvisioningRouteDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const alias = base !== PROVISIONING_API_BASE;
    if (alias) {
      app.addHook('onRoute', (route) => {
        route.schema = { ...route.schema, hide: true };
      });
    }
    registerProblemErrors(app);
    await app.register(multipart, {
      // Keep the client's name as sent, so '../x' or 'dir/x' are refused instead of silently cut to 'x'.
      preservePath: true,
      limits: { fileSize: Math.max(...Object.values(PROVISIONING_FILE_LIMITS)), files: 1, fields: 10, parts: 20 },
    });

    // -------------------------------------------------------------------------------------------- models
    app.get(
      `${base}/models`,
      {
        schema: {
          tags,
          summary: 'Phone models (filter[used]: only models some phone uses)',
          querystring: z.looseObject({}),
          response: { 200: provModelListSchema, ...errors },
        },
      },
      (request) => service.listModels(Object.hasOwn(request.query as object, 'filter[used]')),
    );
    app.get(
      `${base}/models/:name`,
      {
        schema: {
          tags,
          summary: 'One model; inherit=1 merges the defaults in',
          params: nameParams,
          querystring: inheritQuery,
          response: { 200: provModelSchema, ...errors },
        },
      },
      (request) => service.getModel(request.params.name, request.query.inherit === '1'),
    );
    app.get(
      `${base}/models/:name/version/original`,
      {
        schema: {
          tags,
          summary: 'The shipped version of a model',
          params: nameParams,
          response: { 200: provModelSchema, ...errors },
        },
      },
      (request) => service.getOriginal(request.params.name),
    );
    app.post(
      `${base}/models`,
      {
        schema: {
          tags,
          summary: 'Creates a model (the console copies a source model\u2019s variables)',
          body: provModelCreateSchema,
          response: { 201: provModelSchema, ...errors },
        },
      },
      async (request, reply) => {
        const model = await service.createModel(request.body);
        return reply.code(201).header('location', model.model_url).send(model);
      },
    );
    app.patch(
      `${base}/models/:name`,
      {
        schema: {
          tags,
          summary: 'Changes display_name and/or variables (null removes a variable)',
          params: nameParams,
          body: provModelPatchSchema,
          response: { 200: provModelSchema, ...errors },
        },
      },
      (request) => service.patchModel(request.params.name, request.body),
    );
    app.delete(
      `${base}/models/:name`,
      {
        schema: {
          tags,
          summary: 'Deletes a custom model, or resets a shipped one to its original',
          params: nameParams,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await service.deleteModel(request.params.name);
        return reply.code(204).send(null);
      },
    );

    // -------------------------------------------------------------------------------------------- defaults
    app.get(
      `${base}/defaults`,
      { schema: { tags, summary: 'The defaults scope', response: { 200: provDefaultsSchema, ...errors } } },
      () => service.getDefaults(),
    );
    app.patch(
      `${base}/defaults`,
      {
        schema: {
          tags,
          summary: 'Changes defaults (null removes a variable)',
          body: provDefaultsPatchSchema,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await service.patchDefaults(request.body);
        return reply.code(204).send(null);
      },
    );
    // The console's own calls live at one path only.
    if (!alias)
      app.patch(
        '/api/provisioning/defaults',
        {
          schema: {
            tags,
            summary:
              "The console's save of the defaults: as PATCH v1/defaults, after checking that phones reach this " +
              'console at the provisioning URL the PBX address and encryption give (400 prov_unreachable_address ' +
              'naming the URL tried otherwise)',
            body: provDefaultsPatchSchema,
            response: { 204: z.null(), ...errors },
          },
        },
        async (request, reply) => {
          const patch = { ...request.body };
          if (typeof patch.hostname === 'string') patch.hostname = patch.hostname.trim();
          const current = await service.getDefaults();
          const pick = (name: 'hostname' | 'provisioning_url_scheme') =>
            (patch[name] === undefined ? current[name] : patch[name]) ?? '';
          const scheme = pick('provisioning_url_scheme') === 'https' ? 'https' : 'http';
          const result = await service.checkAddress(pick('hostname'), scheme, connectivity);
          if (!result.is_reachable) throw unreachableAddress(result);
          await service.patchDefaults(patch);
          return reply.code(204).send(null);
        },
      );

    // -------------------------------------------------------------------------------------------- phones
    app.get(
      `${base}/phones`,
      { schema: { tags, summary: 'Phone inventory', response: { 200: provPhoneListSchema, ...errors } } },
      () => service.listPhones(),
    );
    app.get(
      `${base}/phones/:mac`,
      {
        schema: {
          tags,
          summary: 'One phone with its tokens and URLs; inherit=1 gives the merged variables',
          params: macParams,
          querystring: inheritQuery,
          response: { 200: provPhoneSchema, ...errors },
        },
      },
      (request) => service.getPhone(request.params.mac, request.query.inherit === '1'),
    );
    app.post(
      `${base}/phones`,
      {
        schema: {
          tags,
          summary: 'Adds a phone and creates its tokens',
          body: provPhoneCreateSchema,
          response: { 201: provPhoneSchema, ...errors },
        },
      },
      async (request, reply) => {
        const phone = await service.createPhone(request.body);
        return reply.code(201).header('location', `${base}/phones/${phone.mac}`).send(phone);
      },
    );
    app.patch(
      `${base}/phones/:mac`,
      {
        schema: {
          tags,
          summary: 'Sets the model, or merges variables (null removes one)',
          params: macParams,
          body: provPhonePatchSchema,
          response: { 200: provPhoneSchema, ...errors },
        },
      },
      (request) => service.patchPhone(request.params.mac, request.body),
    );
    app.delete(
      `${base}/phones/:mac`,
      {
        schema: {
          tags,
          summary: 'Deletes a phone and its tokens',
          params: macParams,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await service.deletePhone(request.params.mac);
        return reply.code(204).send(null);
      },
    );
    app.post(
      `${base}/phones/:mac/tok1`,
      {
        schema: {
          tags,
          summary: 'Restarts first-access provisioning with a new first-access token',
          params: macParams,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await service.rotateTok1(request.params.mac);
        return reply.code(204).send(null);
      },
    );

    app.get(
      `${base}/macvendors`,
      { schema: { tags, summary: 'MAC prefix → vendor', response: { 200: provMacVendorsSchema, ...errors } } },
      () => ENGINE_MAC_VENDORS,
    );

    // -------------------------------------------------------------------------------------------- files
    app.get(
      `${base}/:filetype`,
      {
        schema: {
          tags,
          summary: 'Uploaded files of a collection',
          params: fileTypeParams,
          response: { 200: provFileListSchema, ...errors },
        },
      },
      (request) => files.list(collectionOf(request.params.filetype)),
    );
    app.post(
      `${base}/:filetype`,
      {
        schema: {
          tags,
          summary: 'Uploads one file (multipart/form-data); an existing name is refused',
          params: fileTypeParams,
          consumes: ['multipart/form-data'],
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        const collection = collectionOf(request.params.filetype);
        if (!request.isMultipart()) {
          throw new AppError(415, 'unsupported_media_type', 'Send the file as multipart/form-data.');
        }
        const part = await request.file({ limits: { fileSize: PROVISIONING_FILE_LIMITS[collection] } });
        if (!part) throw new AppError(400, 'prov_upload_empty', 'The request carries no file.', { file: 'missing' });
        await files.save(collection, part.filename, part.file, () => part.file.truncated);
        return reply.code(204).send(null);
      },
    );
    app.delete(
      `${base}/:filetype/:file`,
      {
        schema: {
          tags,
          summary: 'Deletes an uploaded file by name',
          params: fileTypeParams.extend({ file: z.string().max(255) }),
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await files.remove(collectionOf(request.params.filetype), request.params.file);
        return reply.code(204).send(null);
      },
    );

    // -------------------------------------------------------------------------------------------- check
    if (alias) return;
    app.post(
      '/api/provisioning/connectivitycheck',
      {
        schema: {
          tags,
          summary:
            'Tries the provisioning URL phones would get for this address and encryption (the console’s own port ' +
            'unless the address names one) and answers the URL tried; is the certificate valid?',
          body: connectivityCheckRequestSchema,
          response: { 200: connectivityCheckResultSchema, ...errors },
        },
      },
      (request) => service.checkAddress(request.body.host, request.body.scheme, connectivity),
    );
  };

const noStore = { 'cache-control': 'private', 'x-content-type-options': 'nosniff' };

/**
 * Headers of a phone file: as the security-headers hook gives every answer, plus no caching by proxies.
 * Built once per content type, since the raw handler (phoneFileFront) writes them without Fastify.
 */
const PHONE_FILE_HEADERS = {
  ...noStore,
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
};

/**
 * The raw-HTTP path for the requests of a provisioning storm: GET /provisioning/{token}/{filename} that
 * PhoneFiles can answer from memory are written here, before Fastify (whose routing, hooks, request id and
 * logging cost several times the write itself). Anything else, including every first-access token, unknown
 * token, error and token-less request (whose answer depends on the client's address as Fastify sees it, behind
 * TRUST_PROXY), answers false and goes through the routes below, which give the same answers and fill the memory
 * this reads.
 */
export function phoneFileFront(phoneFiles: PhoneFiles): (req: IncomingMessage, res: ServerResponse) => boolean {
  const PREFIX = '/provisioning/';
  // Every header of a file's answer, flat as writeHead takes them, made once per file (and listener kind).
  const plain = new WeakMap<CachedFile, string[]>();
  const overTls = new WeakMap<CachedFile, string[]>();
  const headOf = (file: CachedFile, tls: boolean) => {
    const heads = tls ? overTls : plain;
    let head = heads.get(file);
    if (!head) {
      head = Object.entries({ ...PHONE_FILE_HEADERS, 'content-type': file.contentType }).flat();
      head.push('content-length', String(file.bytes.length));
      if (tls) head.push('strict-transport-security', HSTS);
      heads.set(file, head);
    }
    return head;
  };
  return (req, res) => {
    const url = req.url;
    if (req.method !== 'GET' || url === undefined || !url.startsWith(PREFIX)) return false;
    // Query strings, encoded characters and deeper paths take the long way.
    if (url.includes('?') || url.includes('%')) return false;
    const slash = url.indexOf('/', PREFIX.length);
    // Token-less (one segment) and deeper paths take the long way.
    if (slash === -1 || url.indexOf('/', slash + 1) !== -1) return false;
    const token = url.slice(PREFIX.length, slash);
    const filename = url.slice(slash + 1);
    const file = filename === '' || token === '' ? undefined : phoneFiles.fromMemory(token, filename);
    if (!file) return false;
    // Phones do not use the Date header; leaving it out saves a write per answer.
    res.sendDate = false;
    res.writeHead(200, headOf(file, (req.socket as TLSSocket).encrypted === true));
    res.end(file.bytes);
    return true;
  };
}

/**
 * What phones fetch, without login: the token in the path is the credential (contract §4.1). Misses (a token
 * nobody has, a token-less request that gets nothing) are counted per client address (request.ip, so TRUST_PROXY
 * applies); past the throttle's limit they answer 429 with Retry-After instead of 404. A right token is always
 * answered.
 */
export const phoneFileRoutes =
  (service: ProvisioningService, phoneFiles: PhoneFiles, throttle = new MissThrottle()): FastifyPluginAsyncZod =>
  async (app) => {
    // Phones are counted (PhoneFiles logs the counts), not logged one request at a time.
    const config = { public: true };
    const logLevel = 'warn';
    const userAgent = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) ?? '';
    const miss = (
      request: FastifyRequest,
      reply: FastifyReply,
      result: Exclude<PhoneFileResult<unknown>, { file: unknown }>,
    ) => {
      const wait = result.miss === 'unknown' ? throttle.miss(request.ip) : undefined;
      if (wait === undefined) return sendError(request, reply, 404, 'not_found');
      reply.header('retry-after', String(wait));
      return sendError(request, reply, 429, 'rate_limited');
    };

    app.get('/provisioning/check/ping', { config, logLevel, schema: { hide: true } }, async () => {
      // Stable per installation, so a check can tell this PBX from another answering on the same name.
      return service.pingMark();
    });

    app.get(
      '/provisioning/:token/:filetype/:filename',
      {
        config,
        logLevel,
        schema: {
          hide: true,
          params: z.object({ token: z.string(), filetype: z.string(), filename: z.string() }),
        },
      },
      async (request, reply) => {
        const { token, filetype, filename } = request.params;
        const collection = PROVISIONING_FILE_TYPES.find((type) => type === filetype);
        const result = collection
          ? await phoneFiles.asset(token, collection, filename)
          : ({ miss: (await phoneFiles.tokenExists(token)) ? 'absent' : 'unknown' } as const);
        if (!('file' in result)) return miss(request, reply, result);
        const file = result.file;
        return reply
          .headers({ ...noStore, 'content-length': String(file.size) })
          .type('application/octet-stream')
          .send(fs.createReadStream(file.path));
      },
    );

    app.get(
      '/provisioning/:token/:filename',
      {
        config,
        logLevel,
        schema: { hide: true, params: z.object({ token: z.string(), filename: z.string() }) },
      },
      async (request, reply) => {
        const { token, filename } = request.params;
        const result = await phoneFiles.configFile(token, filename, userAgent(request.headers['user-agent']));
        if (!('file' in result)) return miss(request, reply, result);
        return reply.headers(noStore).type(result.file.contentType).send(result.file.bytes);
      },
    );

    app.get(
      '/provisioning/:filename',
      { config, logLevel, schema: { hide: true, params: z.object({ filename: z.string() }) } },
      async (request, reply) => {
        const result = await phoneFiles.tokenlessFile(
          request.params.filename,
          userAgent(request.headers['user-agent']),
          request.ip,
        );
        if (!('file' in result)) return miss(request, reply, result);
        return reply.headers(noStore).type(result.file.contentType).send(result.file.bytes);
      },
    );
  };
