import {
  CSV_MAX_BYTES,
  CSV_MAX_ROWS,
  type CsvColumn,
  type CsvProblem,
  csvColumns,
  csvHeaderAliases,
  csvMessage,
  type UiLanguage,
} from '@centralino/contract';
import Papa from 'papaparse';
import { AppError } from '../../errors.ts';

export interface CsvLine {
  /** 1-based line number in the file. */
  line: number;
  /** Fields by column, trimmed; absent when the row is shorter. */
  fields: Partial<Record<CsvColumn, string>>;
  /** Problem that makes the line unreadable (bad quotes, too many columns). */
  problem?: { kind: CsvProblem; params?: Record<string, string | number> };
}

function fileError(lang: UiLanguage, problem: CsvProblem, params?: Record<string, string | number>): AppError {
  return new AppError(422, 'csv_invalid', (l) => csvMessage(l, problem, params), {
    file: csvMessage(lang, problem, params),
  });
}

/** Data URL or bare base64 → text; refuses what is not UTF-8 text. */
export function decodeCsvFile(file: string, lang: UiLanguage): string {
  const base64 = file.replace(/^data:[a-zA-Z0-9.+/-]*;base64,/, '').replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64)) throw fileError(lang, 'binary');
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length > CSV_MAX_BYTES) {
    throw new AppError(413, 'payload_too_large', `The file is larger than ${CSV_MAX_BYTES / 1024 / 1024} MB.`);
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw fileError(lang, 'notUtf8');
  }
  // Many control characters other than tab and line breaks mean a binary file, not a spreadsheet export;
  // a few are refused row by row (the rows that carry them), like any other bad value.
  if (controlCharacters(text) > Math.max(16, text.length / 100)) throw fileError(lang, 'binary');
  return text.replace(/^\uFEFF/, '');
}

function controlCharacters(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c < 32 && c !== 9 && c !== 10 && c !== 13) || c === 127) count++;
  }
  return count;
}

function headerColumn(name: string): CsvColumn | undefined {
  const n = name.replace(/^#\s*/, '').trim().toLowerCase();
  return csvColumns.find((column) => csvHeaderAliases[column].includes(n));
}

/**
 * Splits the file into user lines (contract §15.1): comma-separated, "-quoted, one user per line,
 * lines starting with # are comments; an optional header line must name the columns in order.
 */
export function parseCsv(text: string, lang: UiLanguage): CsvLine[] {
  const physical = text.split(/\r\n|\n|\r/);
  const lines: CsvLine[] = [];
  let sawData = false;
  for (let index = 0; index < physical.length; index++) {
    const raw = physical[index] ?? '';
    if (raw.trim() === '' || raw.trimStart().startsWith('#')) continue;
    const parsed = Papa.parse<string[]>(raw, { delimiter: ',', quoteChar: '"', header: false });
    const row = (parsed.data[0] ?? []).map((f) => f.trim());
    const line = index + 1;
    if (!sawData && headerColumn(row[0] ?? '') === 'username') {
      row.forEach((name, i) => {
        const expected = csvColumns[i];
        if (!expected || headerColumn(name) !== expected) {
          throw fileError(lang, 'badHeader', {
            name,
            column: i + 1,
            expected: csvColumns.slice(0, Math.max(row.length, 2)).join(', '),
          });
        }
      });
      sawData = true;
      continue;
    }
    sawData = true;
    if (lines.length >= CSV_MAX_ROWS) throw fileError(lang, 'tooManyRows', { max: CSV_MAX_ROWS });
    if (parsed.errors.some((e) => e.type === 'Quotes')) {
      lines.push({ line, fields: {}, problem: { kind: 'badQuotes' } });
      continue;
    }
    if (row.length > csvColumns.length) {
      lines.push({
        line,
        fields: { username: row[0] },
        problem: { kind: 'tooManyColumns', params: { count: row.length, max: csvColumns.length } },
      });
      continue;
    }
    const fields: Partial<Record<CsvColumn, string>> = {};
    row.forEach((value, i) => {
      const column = csvColumns[i];
      if (column) fields[column] = unprotectFormula(value);
    });
    lines.push({ line, fields });
  }
  if (lines.length === 0) throw fileError(lang, 'empty');
  return lines;
}

/** Standard CSV field: always quoted, embedded quotes doubled (the original did not escape them). */
export function csvField(value: string): string {
  return `"${value.replaceAll('"', '""')}"`;
}

/**
 * Cells a spreadsheet would read as a formula (OWASP CSV injection): starting with =, +, -, @, tab or
 * carriage return. A value that already starts with quotes before one of those is protected too, so that
 * taking one quote away on import always gives the value back.
 */
const FORMULA_START = /^'*[=+\-@\t\r]/;
const PROTECTED_FORMULA = /^'+[=+\-@\t\r]/;

/** Export: a single quote before a cell a spreadsheet would run as a formula. */
export function protectFormula(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** Import: takes away the quote that `protectFormula` added. */
export function unprotectFormula(value: string): string {
  return PROTECTED_FORMULA.test(value) ? value.slice(1) : value;
}
