import type { LoginRequest, LoginResponse } from '@centralino/contract';
import { type AnswerSchema, apiRequest } from './client.ts';

// The sign-in page's calls. They live apart from endpoints.ts, and check their answers by hand rather
// than with the contract's zod schemas, so that the page loads no zod (docs/architecture.md, "What loads
// before sign-in"); the server still validates the request with loginRequestSchema.

function answerError(): Error {
  return new Error('unexpected answer from the server');
}

/** A key, or (for an account with a second factor) the challenge of the code step. */
export type LoginAnswer = LoginResponse | { user: string; challenge: string };

const loginAnswer: AnswerSchema<LoginAnswer> = {
  parse(value) {
    const { user, secretkey, challenge } = (value ?? {}) as Record<string, unknown>;
    if (typeof user === 'string' && typeof challenge === 'string') return { user, challenge };
    if (typeof user !== 'string' || typeof secretkey !== 'string') throw answerError();
    return { user, secretkey };
  },
};

const keyAnswer: AnswerSchema<LoginResponse> = {
  parse(value) {
    const { user, secretkey } = (value ?? {}) as Record<string, unknown>;
    if (typeof user !== 'string' || typeof secretkey !== 'string') throw answerError();
    return { user, secretkey };
  },
};

const successAnswer: AnswerSchema<{ success: true }> = {
  parse(value) {
    if ((value as { success?: unknown } | undefined)?.success !== true) throw answerError();
    return { success: true };
  },
};

/** GET /api/login: the signed-in account and its role (anything but `admin` is treated as read-only). */
const sessionAnswer: AnswerSchema<{
  success: true;
  user: string;
  role: 'admin' | 'readonly';
  listen_recordings: boolean;
}> = {
  parse(value) {
    const { success, user, role, listen_recordings } = (value ?? {}) as Record<string, unknown>;
    if (success !== true || typeof user !== 'string') throw answerError();
    return {
      success: true,
      user,
      role: role === 'admin' ? 'admin' : 'readonly',
      listen_recordings: listen_recordings === true,
    };
  },
};

export const sessionApi = {
  login: (body: LoginRequest) =>
    apiRequest('POST', '/api/login', { body, schema: loginAnswer, allowUnauthorized: true }),
  loginCode: (body: { challenge: string; code: string }) =>
    apiRequest('POST', '/api/login/code', { body, schema: keyAnswer, allowUnauthorized: true }),
  checkLogin: () => apiRequest('GET', '/api/login', { schema: sessionAnswer, allowUnauthorized: true }),
  logout: () => apiRequest('GET', '/api/logout', { schema: successAnswer, allowUnauthorized: true }),
};
