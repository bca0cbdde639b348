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

export function parseConf(file: string, text: string): ConfFile {
  const result: ConfFile = { file, sections: [], includes: [], errors: [] };
  const state = { block: false };
  let current: ConfSection | undefined;
  // Walks the text line by line without splitting it first: the configuration of a large system is
  // tens of megabytes, and fewer short-lived strings mean less garbage collection during an apply.
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
      if (match?.[1]) result.includes.push({ file: match[1], line: lineNo });
      else result.errors.push({ line: lineNo, message: `unsupported directive "${line}"` });
      continue;
    }
    if (first === 91 /* [ */) {
      const match = /^\[([^\]]+)\](?:\(([^)]*)\))?$/.exec(line);
      if (!match?.[1]) {
        result.errors.push({ line: lineNo, message: `malformed section header "${line}"` });
        current = undefined;
        continue;
      }
      const options = match[2]
        ? match[2]
            .split(',')
            .map((o) => o.trim())
            .filter(Boolean)
        : [];
      current = {
        name: match[1],
        line: lineNo,
        template: options.includes('!'),
        inherits: options.filter((o) => o !== '!' && o !== '+'),
        entries: [],
      };
      result.sections.push(current);
      continue;
    }
    const eq = line.indexOf('=');
    if (eq <= 0) {
      result.errors.push({ line: lineNo, message: `expected "key = value", got "${line}"` });
      continue;
    }
    if (!current) {
      result.errors.push({ line: lineNo, message: `entry outside a section: "${line}"` });
      continue;
    }
    const arrow = line.charCodeAt(eq + 1) === 62; /* > */
    let k = eq;
    while (k > 0 && isSpace(line.charCodeAt(k - 1))) k--;
    let key = line.slice(0, k);
    if (UPPER.test(key)) key = key.toLowerCase();
    let v = eq + (arrow ? 2 : 1);
    while (v < line.length && isSpace(line.charCodeAt(v))) v++;
    current.entries.push({ key, value: line.slice(v), line: lineNo, arrow });
  }
  return result;
}
