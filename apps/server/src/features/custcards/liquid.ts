import type { UiLanguage } from '@centralino/contract';
import type { Template } from 'liquidjs';
import { AppError } from '../../errors.ts';
import {
  CARD_LIMITS,
  engine,
  parse,
  type TemplateFailure,
  type TemplateProblem,
  TemplateRefused,
  type TemplateRow,
} from './liquid-engine.ts';
import { CardRenderer, TemplateRefusedError } from './render-thread.ts';

export type { TemplateProblem, TemplateRow } from './liquid-engine.ts';

/**
 * Card templates as the API answers them: checked and rendered on the template threads (render-thread.ts, under
 * CARD_LIMITS; the engine and its restrictions are in liquid-engine.ts), their failures turned into error answers.
 */

function describe(problem: TemplateProblem, lang: UiLanguage): string {
  if (problem.line === null) return problem.message;
  return lang === 'it' ? `Riga ${problem.line}: ${problem.message}` : `Line ${problem.line}: ${problem.message}`;
}

const seconds = (ms: number, lang: UiLanguage) => `${(ms / 1000).toLocaleString(lang === 'it' ? 'it-IT' : 'en-GB')} s`;

/** A refused parse or render as the answer: 400 for the template itself and its limits, 422 for a failed render. */
export function templateError(failure: TemplateFailure): AppError {
  switch (failure.kind) {
    case 'invalid':
      return new AppError(
        400,
        'card_template_invalid',
        (lang) => describe(failure.problem, lang),
        (lang) => ({ html: describe(failure.problem, lang) }),
      );
    case 'failed':
      return new AppError(422, 'card_render_failed', (lang) => describe(failure.problem, lang));
    case 'timeout':
      return new AppError(400, 'card_render_timeout', (lang) =>
        lang === 'it'
          ? `Il modello ha impiegato più di ${seconds(CARD_LIMITS.renderMs, lang)} ed è stato interrotto: cerca cicli che si ripetono troppe volte (per esempio cicli uno dentro l'altro).`
          : `The template took longer than ${seconds(CARD_LIMITS.renderMs, lang)} and was stopped: look for loops that repeat too often (loops inside loops, for example).`,
      );
    case 'too_large':
      return new AppError(400, 'card_render_too_large', (lang) => {
        if (failure.what === 'html') {
          return lang === 'it'
            ? `Il modello produce una scheda più grande di 1 MB di HTML ed è stato interrotto: mostra meno righe o meno testo.`
            : 'The template makes a card larger than 1 MB of HTML and was stopped: show fewer rows or less text.';
        }
        return lang === 'it'
          ? `Il modello ha usato più memoria di quanta una scheda ne possa avere (${CARD_LIMITS.memoryMb} MB, ${CARD_LIMITS.memoryChars.toLocaleString('it-IT')} caratteri di testo) ed è stato interrotto: costruisci testi più corti.`
          : `The template used more memory than a card may (${CARD_LIMITS.memoryMb} MB, ${CARD_LIMITS.memoryChars.toLocaleString('en-GB')} characters of text) and was stopped: build shorter texts.`;
      });
  }
}

const refused = (error: unknown): never => {
  if (error instanceof TemplateRefusedError && error.failure.kind !== 'crashed') throw templateError(error.failure);
  throw error;
};

/** Checks and renders administrators' templates off the request thread; one per app (closed with it). */
export class CardTemplates {
  private readonly renderer = new CardRenderer();

  /** A template that does not parse is a 400 `card_template_invalid` naming its line. */
  check(text: string): Promise<void> {
    return this.renderer.check(text).catch(refused);
  }

  /**
   * Renders `text` with `results` = the rows and `lang` = the language of whoever reads the card. A template that does
   * not parse is a 400 as on save; one that fails while rendering is a 422 `card_render_failed` with its line; one past
   * CARD_LIMITS a 400 `card_render_too_large` or `card_render_timeout`.
   */
  render(text: string, rows: TemplateRow[], lang: UiLanguage): Promise<string> {
    return this.renderer.render(text, rows, lang).catch(refused);
  }

  close(): Promise<void> {
    return this.renderer.close();
  }
}

const local = engine();

/**
 * Parses on the calling thread: only for text this server generated itself (the EJS converter checks its own
 * output, at most CARD_LIMITS.parseChars characters); administrators' templates go through CardTemplates.check.
 */
export function parseTemplate(text: string): Template[] {
  try {
    return parse(local, text);
  } catch (error) {
    if (error instanceof TemplateRefused) throw templateError(error.failure);
    throw error;
  }
}
