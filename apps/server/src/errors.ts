import type { ErrorCode, UiLanguage } from '@centralino/contract';

/** A fixed detail, or one per interface language. */
export type ErrorDetail = string | ((lang: UiLanguage) => string);

/** An error a route answers on purpose; anything else becomes a 500 without details. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    /** Shown as the detail; defaults to the code's message in the caller's language. */
    readonly detail?: ErrorDetail,
    /** Per-field problems, fixed or in the caller's language. */
    readonly fields?: Record<string, string> | ((lang: UiLanguage) => Record<string, string>),
  ) {
    super(typeof detail === 'function' ? detail('en') : (detail ?? code));
  }
}
