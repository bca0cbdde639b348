import type { UiLanguage } from '@centralino/contract';
import { AppError } from '../../errors.ts';
import { parseTemplate } from './liquid.ts';

/**
 * Turns a template of the older system (EJS, JavaScript inside `<% %>`) into Liquid, for the migration and for an
 * administrator pasting an old card. Only what card templates commonly do is converted: loops over `results`
 * (`for (var i = 0; i < results.length; i++)`, `results.forEach(function (row) {…})`, `for (const row of results)`),
 * value output (`<%= path %>` escaped, `<%- path %>` raw), `if` / `else if` / `else` with comparisons joined by
 * && or ||, and comments. Anything else is JavaScript we will not guess at: it is refused naming the line, and the
 * administrator rewrites that part by hand. Converting means reading, never running, the old template.
 */

interface Block {
  kind: 'for' | 'foreach' | 'if';
  /** The loop's index variable (`i` of a counted loop) and the row variable standing for `results[i]`. */
  index?: string;
  row?: string;
}

class Unconvertible extends Error {
  constructor(
    readonly line: number,
    readonly code: string,
  ) {
    super(code);
  }
}

const IDENT = '[A-Za-z_$][\\w$]*';
const PATH = new RegExp(
  `^${IDENT}(?:\\s*\\.\\s*${IDENT}|\\s*\\[\\s*(?:\\d+|'[^'\\\\]*'|"[^"\\\\]*"|${IDENT})\\s*\\])*$`,
);

/** Splits EJS into text and tags, with the line each starts on. */
function tokens(source: string): { kind: 'text' | 'tag'; value: string; line: number; mark: string }[] {
  const out: { kind: 'text' | 'tag'; value: string; line: number; mark: string }[] = [];
  let i = 0;
  let line = 1;
  while (i < source.length) {
    const open = source.indexOf('<%', i);
    if (open === -1) {
      out.push({ kind: 'text', value: source.slice(i), line, mark: '' });
      break;
    }
    if (open > i) out.push({ kind: 'text', value: source.slice(i, open), line, mark: '' });
    line += (source.slice(i, open).match(/\n/g) ?? []).length;
    const close = source.indexOf('%>', open + 2);
    if (close === -1) throw new Unconvertible(line, '<% without %>');
    let body = source.slice(open + 2, close);
    let mark = '';
    if (/^[=\-#_]/.test(body)) {
      mark = body[0] as string;
      body = body.slice(1);
    }
    body = body.replace(/[-_]$/, '');
    out.push({ kind: 'tag', value: body.trim(), line, mark });
    line += (source.slice(open, close + 2).match(/\n/g) ?? []).length;
    i = close + 2;
  }
  return out;
}

export function convertEjsTemplate(source: string): string {
  const stack: Block[] = [];

  /** A JavaScript path as Liquid: `results[i]` of a counted loop is its row, `.length` is `.size`. */
  const path = (expr: string, line: number): string => {
    let text = expr.trim();
    if (!PATH.test(text)) throw new Unconvertible(line, expr);
    for (const block of stack) {
      if (block.index && block.row) {
        text = text.replace(new RegExp(`^results\\s*\\[\\s*${block.index.replace('$', '\\$')}\\s*\\]`), block.row);
        if (text === block.index) return 'forloop.index0';
      }
    }
    // Any other variable index (`row[key]`) needs JavaScript.
    if (new RegExp(`\\[\\s*${IDENT}\\s*\\]`).test(text)) throw new Unconvertible(line, expr);
    return text
      .replace(/\s+/g, '')
      .replace(/\.length$/, '.size')
      .replace(/\.length(?=[.[])/g, '.size');
  };

  const operand = (expr: string, line: number): string => {
    const text = expr.trim();
    if (/^-?\d+(\.\d+)?$/.test(text)) return text;
    if (/^'[^'\\]*'$/.test(text) || /^"[^"\\]*"$/.test(text)) return text;
    if (text === 'null' || text === 'undefined') return 'nil';
    if (text === 'true' || text === 'false') return text;
    return path(text, line);
  };

  /** `a === 'x' && b > 2 || c` as Liquid (no parentheses or negation: Liquid has neither). */
  const condition = (expr: string, line: number): string =>
    expr
      .split(/(&&|\|\|)/)
      .map((part) => {
        if (part === '&&') return 'and';
        if (part === '||') return 'or';
        const compare = /^(.*?)(===|!==|==|!=|<=|>=|<|>)(.*)$/.exec(part);
        if (!compare) return operand(part, line);
        const op = compare[2] === '===' ? '==' : compare[2] === '!==' ? '!=' : compare[2];
        return `${operand(compare[1] ?? '', line)} ${op} ${operand(compare[3] ?? '', line)}`;
      })
      .join(' ');

  const close = (line: number, code: string, foreachClose: boolean): string => {
    const block = stack.pop();
    if (!block || (block.kind === 'foreach') !== foreachClose) throw new Unconvertible(line, code);
    return block.kind === 'if' ? '{% endif %}' : '{% endfor %}';
  };

  /** One scriptlet: possibly a closing brace, then an opening statement. */
  const scriptlet = (code: string, line: number): string => {
    let rest = code.replace(/;\s*$/, '').trim();
    let out = '';
    const closesForEach = /^\}\s*\)\s*;?\s*(.*)$/s.exec(rest);
    const elseIf = /^\}\s*else\s+if\s*\((.*)\)\s*\{$/s.exec(rest);
    const closes = /^\}\s*(.*)$/s.exec(rest);
    if (closesForEach) {
      out += close(line, code, true);
      rest = (closesForEach[1] ?? '').trim();
    } else if (elseIf) {
      if (stack.at(-1)?.kind !== 'if') throw new Unconvertible(line, code);
      return `{% elsif ${condition(elseIf[1] ?? '', line)} %}`;
    } else if (/^\}\s*else\s*\{$/.test(rest)) {
      if (stack.at(-1)?.kind !== 'if') throw new Unconvertible(line, code);
      return '{% else %}';
    } else if (closes) {
      out += close(line, code, false);
      rest = (closes[1] ?? '').trim();
    }
    if (rest === '') return out;
    const counted = new RegExp(
      `^for\\s*\\(\\s*(?:var|let)\\s+(${IDENT})\\s*=\\s*0\\s*;\\s*\\1\\s*<\\s*results\\.length\\s*;\\s*(?:\\1\\+\\+|\\+\\+\\1|\\1\\s*\\+=\\s*1)\\s*\\)\\s*\\{$`,
    ).exec(rest);
    if (counted) {
      const index = counted[1] as string;
      const row = `row_${stack.length}`;
      stack.push({ kind: 'for', index, row });
      return `${out}{% for ${row} in results %}`;
    }
    const forOf = new RegExp(`^for\\s*\\(\\s*(?:var|let|const)\\s+(${IDENT})\\s+of\\s+results\\s*\\)\\s*\\{$`).exec(
      rest,
    );
    if (forOf) {
      stack.push({ kind: 'for' });
      return `${out}{% for ${forOf[1]} in results %}`;
    }
    const forEach = new RegExp(
      `^results\\.forEach\\s*\\(\\s*(?:function\\s*\\(\\s*(${IDENT})\\s*(?:,\\s*(${IDENT})\\s*)?\\)|\\(?\\s*(${IDENT})\\s*(?:,\\s*(${IDENT})\\s*)?\\)?\\s*=>)\\s*\\{$`,
    ).exec(rest);
    if (forEach) {
      const row = (forEach[1] ?? forEach[3]) as string;
      const index = forEach[2] ?? forEach[4];
      stack.push({ kind: 'foreach', ...(index ? { index, row } : {}) });
      return `${out}{% for ${row} in results %}`;
    }
    const ifOpen = /^if\s*\((.*)\)\s*\{$/s.exec(rest);
    if (ifOpen) {
      stack.push({ kind: 'if' });
      return `${out}{% if ${condition(ifOpen[1] ?? '', line)} %}`;
    }
    throw new Unconvertible(line, code);
  };

  try {
    let out = '';
    for (const token of tokens(source)) {
      if (token.kind === 'text') {
        out += /\{\{|\{%/.test(token.value) ? `{% raw %}${token.value}{% endraw %}` : token.value;
      } else if (token.mark === '#') {
        out += `{% comment %}${token.value.replace(/\{%-?\s*endcomment/g, '')}{% endcomment %}`;
      } else if (token.mark === '=') {
        out += `{{ ${path(token.value.replace(/;$/, ''), token.line)} }}`;
      } else if (token.mark === '-') {
        out += `{{ ${path(token.value.replace(/;$/, ''), token.line)} | raw }}`;
      } else {
        out += scriptlet(token.value, token.line);
      }
    }
    if (stack.length > 0) throw new Unconvertible(source.split('\n').length, 'a loop or if without its closing }');
    parseTemplate(out);
    return out;
  } catch (error) {
    if (!(error instanceof Unconvertible)) throw error;
    const { line, code } = error;
    const what = code.length > 80 ? `${code.slice(0, 77)}...` : code;
    const message = (lang: UiLanguage) =>
      lang === 'it'
        ? `Riga ${line}: «${what}» non si può convertire. Si convertono i cicli su results (for, forEach), l'output di valori (<%= %>, <%- %>) e if/else con confronti; riscrivi questa parte a mano in Liquid.`
        : `Line ${line}: “${what}” cannot be converted. Loops over results (for, forEach), value output (<%= %>, <%- %>) and if/else with comparisons are; rewrite this part by hand in Liquid.`;
    throw new AppError(400, 'card_template_unconvertible', message, (lang) => ({ html: message(lang) }));
  }
}
