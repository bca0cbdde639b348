/**
 * A small parser for Asterisk configuration files: sections, templates ([name](!) and
 * [name](tpl,...)), `key = value` and `key => value` entries, `#include`, and `;` comments
 * (`\;` is a literal semicolon, `;-- … --;` a block comment). Enough to check what we render.
 */

export interface ConfEntry {
  key: string;
  value: string;
  line: number;
  /** Written with '=>' (dialplan objects and voicemail boxes). */
  arrow: boolean;
}

export interface ConfSection {
  name: string;
  line: number;
  template: boolean;
  /** Templates this section inherits from, in order. */
  inherits: string[];
  entries: ConfEntry[];
}

export interface ConfFile {
  file: string;
  sections: ConfSection[];
  includes: { file: string; line: number }[];
  errors: { line: number; message: string }[];
}

function stripComment(raw: string, state: { block: boolean }): string {
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    if (state.block) {
      if (raw.startsWith('--;', i)) {
        state.block = false;
        i += 2;
      }
      continue;
    }
    const c = raw[i];
    if (c === '\\' && raw[i + 1] === ';') {
      out += ';';
      i++;
    } else if (c === ';') {
      if (raw.startsWith(';--', i)) {
        state.block = true;
        i += 2;
        continue;
      }
      break;
    } else {
      out += c;
    }
  }
  return out.trim();
}

const isSpace = (code: number) => code === 32 || code === 9 || code === 13;

/** Whether a key has an upper-case letter (keys are compared lower-case). */
function hasUpper(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c >= 65 && c <= 90) return true;
  }
  return false;
}

/** Receives what a scan finds, in file order: no intermediate objects for the entries. */
export interface ConfVisitor {
  /** When set, only entries with one of these (lower-case) keys are handed to entry(). */
  keys?: { has(key: string): boolean };
  /** `inherits` may be shared by several sections: never change it. */
  section(name: string, line: number, template: boolean, inherits: string[]): void;
  /** An entry inside the current section; `key` is lower-case. */
  entry(key: string, value: string, line: number, arrow: boolean): void;
  include(file: string, line: number): void;
  error(line: number, message: string): void;
}

/** `[name]`, `[name](!)` or `[name](tpl,…)`: the name and the options, or null when malformed. */
function sectionHeader(line: string): { name: string; options: string } | null {
  const close = line.indexOf(']');
  if (close <= 1) return null;
  const name = line.slice(1, close);
  if (close === line.length - 1) return { name, options: '' };
  if (line.charCodeAt(close + 1) !== 40 /* ( */ || line.charCodeAt(line.length - 1) !== 41 /* ) */) return null;
  const options = line.slice(close + 2, line.length - 1);
  return options.includes(')') ? null : { name, options };
}

/**
 * Walks the text line by line without splitting it first and hands each item to the visitor: the
 * configuration of a large system is tens of megabytes, and fewer short-lived strings and objects mean
 * less garbage collection during an apply. Plain lines are read in place, by position in the text.
 */
export function scanConf(text: string, visitor: ConfVisitor): void {
  const state = { block: false };
  const keys = visitor.keys;
  // Sections with the same options ('(device-endpoint)') share one list of templates: thousands of them.
  const optionsSeen = new Map<string, { template: boolean; inherits: string[] }>();
  let inSection = false;
  let start = 0;
  let lineNo = 0;
  const length = text.length;
  let semi = text.indexOf(';');
  while (start <= length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = length;
    lineNo++;
    // The line is src[a, b): the text itself, or its copy without the comment.
    let src = text;
    let a = start;
    let b = end;
    // The next ';' of the text, found once and reused until the walk passes it (no rescans).
    if (semi !== -1 && semi < start) semi = text.indexOf(';', start);
    if (state.block || (semi !== -1 && semi < end)) {
      src = stripComment(text.slice(start, end), state);
      a = 0;
      b = src.length;
    } else {
      while (a < b && isSpace(src.charCodeAt(a))) a++;
      while (b > a && isSpace(src.charCodeAt(b - 1))) b--;
    }
    start = end + 1;
    if (a === b) continue;
    const first = src.charCodeAt(a);
    if (first === 35 /* # */) {
      const line = src.slice(a, b);
      const match = /^#include\s+"?([^"]+?)"?$/.exec(line);
      if (match?.[1]) visitor.include(match[1], lineNo);
      else visitor.error(lineNo, `unsupported directive "${line}"`);
      continue;
    }
    if (first === 91 /* [ */) {
      const line = src.slice(a, b);
      const header = sectionHeader(line);
      if (!header) {
        visitor.error(lineNo, `malformed section header "${line}"`);
        inSection = false;
        continue;
      }
      let options = optionsSeen.get(header.options);
      if (!options) {
        options = { template: false, inherits: [] };
        for (const raw of header.options.split(',')) {
          const option = raw.trim();
          if (option === '!') options.template = true;
          else if (option !== '' && option !== '+') options.inherits.push(option);
        }
        options.inherits = options.inherits.slice();
        optionsSeen.set(header.options, options);
      }
      inSection = true;
      visitor.section(header.name, lineNo, options.template, options.inherits);
      continue;
    }
    const eq = src.indexOf('=', a);
    if (eq <= a || eq >= b) {
      visitor.error(lineNo, `expected "key = value", got "${src.slice(a, b)}"`);
      continue;
    }
    if (!inSection) {
      visitor.error(lineNo, `entry outside a section: "${src.slice(a, b)}"`);
      continue;
    }
    const arrow = eq + 1 < b && src.charCodeAt(eq + 1) === 62; /* > */
    let k = eq;
    while (k > a && isSpace(src.charCodeAt(k - 1))) k--;
    let key = src.slice(a, k);
    if (hasUpper(src, a, k)) key = key.toLowerCase();
    if (keys && !keys.has(key)) continue;
    let v = eq + (arrow ? 2 : 1);
    while (v < b && isSpace(src.charCodeAt(v))) v++;
    visitor.entry(key, src.slice(v, b), lineNo, arrow);
  }
}

export function parseConf(file: string, text: string): ConfFile {
  const result: ConfFile = { file, sections: [], includes: [], errors: [] };
  let current: ConfSection | undefined;
  scanConf(text, {
    section(name, line, template, inherits) {
      current = { name, line, template, inherits, entries: [] };
      result.sections.push(current);
    },
    entry(key, value, line, arrow) {
      current?.entries.push({ key, value, line, arrow });
    },
    include(includeFile, line) {
      result.includes.push({ file: includeFile, line });
    },
    error(line, message) {
      result.errors.push({ line, message });
    },
  });
  return result;
}
