import type { UiLanguage } from '@centralino/contract';
import { type FilterImplOptions, type FS, Liquid, LiquidError, type Template } from 'liquidjs';
import { AppError } from '../../errors.ts';
import { cardLabel } from './card-labels.ts';

/**
 * Customer-card templates are written by administrators and rendered on the server with rows from databases
 * that callers' numbers select, so the language must not reach the server: the original's EJS compiles the
 * template to JavaScript (`<% require('fs') %>` reads any file). Liquid was made for untrusted customer
 * templates: no code, only variables, filters and a few tags; liquidjs is maintained and already a dependency
 * (the phone files are Liquid). What it is still allowed to do is cut down here:
 * - `ownPropertyOnly`: `results.constructor`, `__proto__` and the like read nothing (only the rows' own keys);
 * - no file access: the tags that load other templates (include, render, layout) are removed, so they are
 *   parse errors, and the file system given to the engine refuses everything anyway;
 * - values are HTML-escaped unless a template writes `| raw`; unknown filters are errors, not silence;
 * - parse, render time and memory are limited, so a template cannot stall the API or fill the memory.
 */

/** Refuses every read: nothing a template names is ever looked up on disk. */
const noFiles: FS = {
  exists: async () => false,
  existsSync: () => false,
  readFile: async () => {
    throw new Error('templates cannot read files');
  },
  readFileSync: () => {
    throw new Error('templates cannot read files');
  },
  resolve: (_dir, file) => file,
  contains: async () => false,
  containsSync: () => false,
};

const REMOVED_TAGS = ['include', 'render', 'layout'];

function engine(): Liquid {
  const liquid = new Liquid({
    fs: noFiles,
    root: [],
    partials: [],
    layouts: [],
    relativeReference: false,
    dynamicPartials: false,
    ownPropertyOnly: true,
    outputEscape: 'escape',
    strictFilters: true,
    strictVariables: false,
    cache: false,
    // Characters of template text; renders longer than this many milliseconds or allocating more than this
    // many characters of strings (loops of `append`) stop with an error.
    parseLimit: 200_000,
    renderLimit: 1_000,
    memoryLimit: 20_000_000,
  });
  for (const tag of REMOVED_TAGS) delete liquid.tags[tag];
  // The viewer's language comes with each render (`lang` beside `results`).
  const translate: FilterImplOptions = function (text: unknown) {
    return cardLabel(String(text ?? ''), this.context.getSync(['lang']) === 'it' ? 'it' : 'en');
  };
  liquid.registerFilter('t', translate);
  return liquid;
}

const liquid = engine();

/** Where a template failed, as the administrator reads it. */
export interface TemplateProblem {
  line: number | null;
  message: string;
}

function problemOf(error: unknown): TemplateProblem {
  if (error instanceof LiquidError) {
    const position = (
      error as LiquidError & { token?: { getPosition?: () => [number, number] } }
    ).token?.getPosition?.();
    // liquidjs appends ", line:N, col:M" and a code frame: keep the first sentence, the line is given apart.
    const message = (error.message.split('\n')[0] ?? '').replace(/,\s*line:\d+,\s*col:\d+\s*$/, '').trim();
    return { line: position?.[0] ?? null, message: message || error.name };
  }
  return { line: null, message: error instanceof Error ? error.message : String(error) };
}

function describe(problem: TemplateProblem, lang: UiLanguage): string {
  if (problem.line === null) return problem.message;
  return lang === 'it' ? `Riga ${problem.line}: ${problem.message}` : `Line ${problem.line}: ${problem.message}`;
}

/** Parses a template; a syntax error is a 400 `card_template_invalid` naming its line. */
export function parseTemplate(text: string): Template[] {
  try {
    return liquid.parse(text);
  } catch (error) {
    const problem = problemOf(error);
    throw new AppError(
      400,
      'card_template_invalid',
      (lang) => describe(problem, lang),
      (lang) => ({
        html: describe(problem, lang),
      }),
    );
  }
}

/** Values a template sees: the rows' own keys with text, numbers, booleans or null. */
export type TemplateRow = Record<string, string | number | boolean | null>;

/**
 * Renders a template with `results` = the rows and `lang` = the language of whoever reads the card. A template that does not parse is a 400 as on save; one that
 * fails while rendering (a limit, a filter given the wrong value) is a 422 `card_render_failed` with its line.
 */
export async function renderTemplate(text: string, rows: TemplateRow[], lang: UiLanguage): Promise<string> {
  const parsed = parseTemplate(text);
  try {
    return await liquid.render(parsed, { results: rows, lang });
  } catch (error) {
    const problem = problemOf(error);
    throw new AppError(422, 'card_render_failed', (lang) => describe(problem, lang));
  }
}
