import { CARD_QUERY_TIMEOUT_MS, type UiLanguage } from '@centralino/contract';
import { AppError } from '../../errors.ts';
import { ConnectionCheckError, classify, type SourceConnection } from '../card-sources/connect.ts';

/* The answers a card query's problems become: what failed and why, in the caller's language. */

/** The English or Italian sentence, as the caller asked. */
export function inLanguage(lang: UiLanguage, en: string, it: string): string {
  return lang === 'it' ? it : en;
}

export function queryFailed(message: (lang: UiLanguage) => string): AppError {
  return new AppError(422, 'card_query_failed', message);
}

export function timedOut(): AppError {
  const seconds = CARD_QUERY_TIMEOUT_MS / 1000;
  return new AppError(422, 'card_query_timeout', (lang) =>
    inLanguage(
      lang,
      `The query did not finish within ${seconds} seconds and was stopped.`,
      `La query non è terminata entro ${seconds} secondi ed è stata interrotta.`,
    ),
  );
}

export function driverFailed(error: unknown): AppError {
  const { message } = classify(error);
  return queryFailed((lang) => inLanguage(lang, `The query failed: ${message}`, `La query non è riuscita: ${message}`));
}

export function sourceUnreachable(error: unknown, connection: SourceConnection): AppError {
  const { kind, message } = classify(error);
  const check = new ConnectionCheckError(kind, connection, message);
  return new AppError(503, 'card_source_failed', (lang) =>
    inLanguage(lang, 'The source did not answer.', 'La sorgente non ha risposto.').concat(' ', check.reason(lang)),
  );
}

export const isTimeout = (error: unknown) =>
  /57014|statement timeout|canceling statement|ER_QUERY_TIMEOUT|max_statement_time|maximum statement execution time|PROTOCOL_SEQUENCE_TIMEOUT|ETIMEOUT|Query inactivity timeout|Timeout: Request failed/i.test(
    `${(error as { code?: unknown })?.code ?? ''} ${(error as Error)?.message ?? ''}`,
  );
