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
const UPPER = /[A-Z]/;

/** Receives what a scan finds, in file order: no intermediate objects for the entries. */
export interface ConfVisitor {
  section(name: string, line: number, template: boolean, inherits: string[]): void;
  /** An entry inside the current section; `key` is lower-case. */
  entry(key: string, value: string, line: number, arrow: boolean): void;
  include(file: string, line: number): void;
  error(line: number, message: string): void;
}

/**
 * Walks the text line by line without splitting it first and hands each item to the visitor: the
 * configuration of a large system is tens of megabytes, and fewer short-lived strings and objects mean
 * less garbage collection during an apply.
 */
export function scanConf(text: string, visitor: ConfVisitor): void {
  const state = { block: false };
  let inSection = false;
  let start = 0;
  let lineNo = 0;
  const length = text.length;
  let semi = text.indexOf(';');
  while (start <= length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = length;
    lineNo++;
    let line: string;
    // The next ';' of the text, found once and reused until the walk passes it (no rescans).
    if (semi !== -1 && semi < start) semi = text.indexOf(';', start);
    if (state.block || (semi !== -1 && semi < end)) {
      line = stripComment(text.slice(start, end), state);
    } else {
      // Fast path: most lines of a large file are plain entries without comments.
      let a = start;
      let b = end;
      while (a < b && isSpace(text.charCodeAt(a))) a++;
      while (b > a && isSpace(text.charCodeAt(b - 1))) b--;
      line = a === b ? '' : text.slice(a, b);
    }
    start = end + 1;
    if (line === '') continue;
    const first = line.charCodeAt(0);
    if (first === 35 /* # */) {
      const match = /^#include\s+"?([^"]+?)"?$/.exec(line);
      if (match?.[1]) visitor.include(match[1], lineNo);
      else visitor.error(lineNo, `unsupported directive "${line}"`);
      continue;
    }
    if (first === 91 /* [ */) {
      const match = /^\[([^\]]+)\](?:\(([^)]*)\))?$/.exec(line);
      if (!match?.[1]) {
        visitor.error(lineNo, `malformed section header "${line}"`);
        inSection = false;
        continue;
      }
      const options = match[2]
        ? match[2]
            .split(',')
            .map((o) => o.trim())
            .filter(Boolean)
        : [];
      inSection = true;
      visitor.section(
        match[1],
        lineNo,
        options.includes('!'),
        options.filter((o) => o !== '!' && o !== '+'),
      );
      continue;
    }
    const eq = line.indexOf('=');
    if (eq <= 0) {
      visitor.error(lineNo, `expected "key = value", got "${line}"`);
      continue;
    }
    if (!inSection) {
      visitor.error(lineNo, `entry outside a section: "${line}"`);
      continue;
    }
    const arrow = line.charCodeAt(eq + 1) === 62; /* > */
    let k = eq;
    while (k > 0 && isSpace(line.charCodeAt(k - 1))) k--;
    let key = line.slice(0, k);
    if (UPPER.test(key)) key = key.toLowerCase();
    let v = eq + (arrow ? 2 : 1);
    while (v < line.length && isSpace(line.charCodeAt(v))) v++;
    visitor.entry(key, line.slice(v), lineNo, arrow);
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
