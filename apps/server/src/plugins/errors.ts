import {
  type ErrorBody,
  type ErrorCode,
  errorDetails,
  errorTitles,
  localiseValidationMessage,
  pickUiLanguage,
  type UiLanguage,
} from '@centralino/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, type ErrorDetail } from '../errors.ts';

export function errorBody(
  request: FastifyRequest,
  code: ErrorCode,
  detail?: ErrorDetail,
  fields?: Record<string, string> | ((lang: UiLanguage) => Record<string, string>),
): ErrorBody {
  const lang = pickUiLanguage(request.headers['accept-language']);
  return {
    title: errorTitles[lang][code],
    detail: (typeof detail === 'function' ? detail(lang) : detail) ?? errorDetails[lang][code],
    code,
    ...(fields ? { fields: typeof fields === 'function' ? fields(lang) : fields } : {}),
  };
}

export function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  code: ErrorCode,
  detail?: ErrorDetail,
  fields?: Record<string, string> | ((lang: UiLanguage) => Record<string, string>),
) {
  return reply
    .code(status)
    .type('application/json')
    .send(errorBody(request, code, detail, fields));
}

function codeForStatus(status: number): ErrorCode {
  if (status === 401) return 'unauthorized';
  if (status === 404) return 'not_found';
  if (status === 405) return 'method_not_allowed';
  if (status === 413) return 'payload_too_large';
  if (status === 415) return 'unsupported_media_type';
  if (status === 429) return 'rate_limited';
  return 'validation';
}

/** One error shape for every failure; 5xx bodies never carry internals. */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      return sendError(request, reply, error.statusCode, error.code, error.detail, error.fields);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields: Record<string, string> = {};
      for (const issue of error.validation) {
        const where = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || error.validationContext || 'body';
        fields[where] ??= issue.message
          ? localiseValidationMessage(pickUiLanguage(request.headers['accept-language']), issue.message)
          : 'invalid value';
      }
      const detail = Object.entries(fields)
        .map(([field, message]) => `${field}: ${message}`)
        .join('; ');
      return sendError(request, reply, 400, 'validation', detail, fields);
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const code = codeForStatus(status);
      // A body that cannot be parsed (bad or empty JSON) is a validation problem of the body as a whole.
      const fields =
        code === 'validation' && error.code?.startsWith('FST_ERR_CTP_') ? { body: error.message } : undefined;
      return sendError(request, reply, status, code, error.message, fields);
    }
    request.log.error({ err: error }, 'request failed');
    return sendError(request, reply, 500, 'internal');
  });
}
