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

export function parseConf(file: string, text: string): ConfFile {
  const result: ConfFile = { file, sections: [], includes: [], errors: [] };
  const state = { block: false };
  let current: ConfSection | undefined;
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const raw = lines[index] as string;
    const lineNo = index + 1;
    // Fast path: most lines of a large file are plain entries without comments.
    const line = raw.indexOf(';') === -1 && !state.block ? raw.trim() : stripComment(raw, state);
    if (line === '') continue;
    if (line.startsWith('#')) {
      const match = /^#include\s+"?([^"]+?)"?$/.exec(line);
      if (match?.[1]) result.includes.push({ file: match[1], line: lineNo });
      else result.errors.push({ line: lineNo, message: `unsupported directive "${line}"` });
      continue;
    }
    if (line.startsWith('[')) {
      const match = /^\[([^\]]+)\](?:\(([^)]*)\))?$/.exec(line);
      if (!match?.[1]) {
        result.errors.push({ line: lineNo, message: `malformed section header "${line}"` });
        current = undefined;
        continue;
      }
      const options = (match[2] ?? '')
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean);
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
    const arrow = line[eq + 1] === '>';
    current.entries.push({
      key: line.slice(0, eq).trim().toLowerCase(),
      value: line.slice(eq + (arrow ? 2 : 1)).trim(),
      line: lineNo,
      arrow,
    });
  }
  return result;
}
