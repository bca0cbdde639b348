import type { ErrorBody } from '@centralino/contract';
import { AUTH_KEY_HEADER, AUTH_USER_HEADER } from '@centralino/contract/constants';
import i18n from '../i18n/index.ts';
import { readCredentials } from './credentials.ts';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
  ) {
    super(body.detail);
  }
  get code() {
    return this.body.code;
  }
}

type UnauthorizedListener = () => void;
let onUnauthorized: UnauthorizedListener | undefined;

/** Called when the server refuses the stored key (expired or revoked): the app signs out. */
export function setUnauthorizedListener(listener: UnauthorizedListener | undefined) {
  onUnauthorized = listener;
}

/**
 * Checks a successful answer: a zod schema from the contract, or, for the few calls of the sign-in page
 * (which loads no zod, see api/session.ts), a small hand-written check.
 */
export interface AnswerSchema<T> {
  parse(value: unknown): T;
}

export interface RequestOptions<T> {
  body?: unknown;
  /** Schema of a successful answer; the answer is checked against it. */
  schema: AnswerSchema<T>;
  /** Skip the automatic sign-out on 401 (used by the login calls themselves). */
  allowUnauthorized?: boolean;
  /** Receives the response headers of a successful answer (e.g. X-Total-Count of a page). */
  onHeaders?: (headers: Headers) => void;
}

export async function apiRequest<T>(
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  path: string,
  options: RequestOptions<T>,
): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', 'Accept-Language': i18n.language || 'en' };
  const credentials = readCredentials();
  if (credentials) {
    headers[AUTH_USER_HEADER] = credentials.user;
    headers[AUTH_KEY_HEADER] = credentials.secretkey;
  }
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';

  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
  } catch {
    throw new ApiError(0, {
      code: 'network',
      title: i18n.t('errors.network.title'),
      detail: i18n.t('errors.network.detail'),
    });
  }

  const text = await response.text();
  const json: unknown = text ? safeJson(text) : undefined;
  if (!response.ok) {
    const body: ErrorBody = isErrorBody(json)
      ? json
      : { code: 'internal', title: i18n.t('errors.internal.title'), detail: i18n.t('errors.internal.detail') };
    if (response.status === 401 && !options.allowUnauthorized) onUnauthorized?.();
    throw new ApiError(response.status, body);
  }
  options.onHeaders?.(response.headers);
  return options.schema.parse(json);
}

/** The shape of errorBodySchema, checked by hand: this module is loaded before sign-in, without zod. */
function isErrorBody(value: unknown): value is ErrorBody {
  if (!value || typeof value !== 'object') return false;
  const { title, detail, code, fields } = value as Record<string, unknown>;
  return (
    typeof title === 'string' &&
    typeof detail === 'string' &&
    typeof code === 'string' &&
    (fields === undefined ||
      (typeof fields === 'object' &&
        fields !== null &&
        Object.values(fields).every((text) => typeof text === 'string')))
  );
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
