import {
  Context,
  type FilterImplOptions,
  type FS,
  Liquid,
  LiquidError,
  type Template,
  toPromise,
  toValue,
} from 'liquidjs';
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
 * - parse size, render time, string memory and the size of the output are limited (CARD_LIMITS).
 * Even so a render holds its thread while it runs (a loop of a million steps takes about a second), so templates
 * are parsed and rendered on a thread of their own with a memory limit and a deadline (render-thread.ts); this
 * module is what that thread runs, and has nothing of the server in it.
 */

/** What one card may cost. The figures are in the messages of card_render_too_large and card_render_timeout. */
export const CARD_LIMITS = {
  /** Bytes of HTML a card may be (UTF-8): a preview answers it base64-encoded, a CTI shows it in a panel. */
  htmlBytes: 1_000_000,
  /** Milliseconds a parse or render may take; the thread is stopped shortly after if liquidjs does not stop. */
  renderMs: 2_000,
  /** Heap of the rendering thread, MB (the rows, the parsed template and what it builds). */
  memoryMb: 128,
  /** Characters of template text. */
  parseChars: 200_000,
  /** Characters of strings a render may allocate (liquidjs counts `append`, ranges, filters' results). */
  memoryChars: 20_000_000,
} as const;

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

export function engine(): Liquid {
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
    parseLimit: CARD_LIMITS.parseChars,
    renderLimit: CARD_LIMITS.renderMs,
    memoryLimit: CARD_LIMITS.memoryChars,
  });
  for (const tag of REMOVED_TAGS) delete liquid.tags[tag];
  // The viewer's language comes with each render (`lang` beside `results`).
  const translate: FilterImplOptions = function (text: unknown) {
    return cardLabel(String(text ?? ''), this.context.getSync(['lang']) === 'it' ? 'it' : 'en');
  };
  liquid.registerFilter('t', translate);
  return liquid;
}

/** Where a template failed, as the administrator reads it. */
export interface TemplateProblem {
  line: number | null;
  message: string;
}

export function problemOf(error: unknown): TemplateProblem {
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

/** Values a template sees: the rows' own keys with text, numbers, booleans or null. */
export type TemplateRow = Record<string, string | number | boolean | null>;

/** Why a parse or render was refused: a syntax error, an error while rendering, or one of CARD_LIMITS. */
export type TemplateFailure =
  | { kind: 'invalid' | 'failed'; problem: TemplateProblem }
  | { kind: 'too_large'; what: 'html' | 'memory' }
  | { kind: 'timeout' };

export class TemplateRefused extends Error {
  constructor(readonly failure: TemplateFailure) {
    super(failure.kind);
  }
}

/** liquidjs's own value-to-text, which its emitters use and do not export. */
function text(value: unknown): string {
  const v = toValue(value);
  if (typeof v === 'string') return v;
  if (v === null || v === undefined) return '';
  if (Array.isArray(v)) return v.map(text).join('');
  return String(v);
}

/** Collects the output and stops the render as soon as it passes CARD_LIMITS.htmlBytes. */
class CappedEmitter {
  buffer = '';
  private bytes = 0;
  overflow = false;

  write(html: unknown): void {
    const piece = text(html);
    this.bytes += Buffer.byteLength(piece);
    if (this.bytes > CARD_LIMITS.htmlBytes) {
      this.overflow = true;
      throw new Error('output limit exceeded');
    }
    this.buffer += piece;
  }
}

export function parse(liquid: Liquid, source: string): Template[] {
  try {
    return liquid.parse(source);
  } catch (error) {
    throw new TemplateRefused({ kind: 'invalid', problem: problemOf(error) });
  }
}

/** Renders with `results` and `lang` into at most CARD_LIMITS.htmlBytes; a limit or error is a TemplateRefused. */
export async function render(
  liquid: Liquid,
  templates: Template[],
  scope: { results: TemplateRow[]; lang: string },
): Promise<string> {
  const emitter = new CappedEmitter();
  try {
    const ctx = new Context(scope, liquid.options, {}, { liquid });
    await toPromise(liquid.renderer.renderTemplates(templates, ctx, emitter));
    return emitter.buffer;
  } catch (error) {
    if (emitter.overflow) throw new TemplateRefused({ kind: 'too_large', what: 'html' });
    const message = error instanceof Error ? error.message : '';
    if (/template render limit exceeded/.test(message)) throw new TemplateRefused({ kind: 'timeout' });
    if (/memory alloc limit exceeded|Invalid string length|Invalid array length/.test(message))
      throw new TemplateRefused({ kind: 'too_large', what: 'memory' });
    throw new TemplateRefused({ kind: 'failed', problem: problemOf(error) });
  }
}
