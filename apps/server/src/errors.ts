import type { ErrorCode } from '@centralino/contract';

/** An error a route answers on purpose; anything else becomes a 500 without details. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    /** Shown as the detail; defaults to the code's message in the caller's language. */
    readonly detail?: string,
    readonly fields?: Record<string, string>,
  ) {
    super(detail ?? code);
  }
}
