/**
 * A card query names the caller's number as `$NUMBER`. The original pasted the number into the SQL text, so a
 * caller ID of `' or 1=1 --` rewrote the query. Here the SQL is lexed (string literals with their escapes,
 * quoted identifiers, comments) and each `$NUMBER` becomes the driver's placeholder for one bound parameter.
 * Inside a string literal (`like '%$NUMBER'`) the literal is split into a concatenation with the parameter
 * (`('%' || $1::text)`, `CONCAT('%', ?)`, `('%' + @number)`), so the number is never SQL text.
 *
 * The same pass collects the words outside literals, for the checks of `run-query.ts` (the statement must
 * read; the built-in sources' table list).
 */

export type Dialect = 'postgres' | 'mysql' | 'mssql' | 'sqlite';

const MARK = '$NUMBER';
/** The named parameter used on SQL Server and SQLite. */
export const NUMBER_PARAM = 'number';

export interface BoundQuery {
  sql: string;
  /** How many placeholders were written: MySQL's `?` needs one value each; the others name one parameter. */
  placeholders: number;
  /** Words outside literals and comments, lower case (quoted identifiers unquoted), in order. */
  words: string[];
  /** Contents of the string literals, lower case (SQLite takes `from 'table'` as a table name). */
  literals: string[];
  /** Something follows a `;` (a trailing `;` is dropped from `sql`). */
  multipleStatements: boolean;
}

function placeholder(dialect: Dialect): string {
  if (dialect === 'postgres') return '$1::text';
  if (dialect === 'mysql') return '?';
  return `@${NUMBER_PARAM}`;
}

function concat(dialect: Dialect, parts: string[]): string {
  if (parts.length === 1) return parts[0] as string;
  if (dialect === 'mysql') return `CONCAT(${parts.join(', ')})`;
  return `(${parts.join(dialect === 'mssql' ? ' + ' : ' || ')})`;
}

const isWordChar = (ch: string | undefined) => ch !== undefined && /[A-Za-z0-9_$]/.test(ch);

/** `$NUMBER` at `i`, not followed by more of a name (`$NUMBERS` is not it). */
function markAt(text: string, i: number): boolean {
  return text.startsWith(MARK, i) && !/[A-Za-z0-9_]/.test(text[i + MARK.length] ?? '');
}

/**
 * Rewrites `$NUMBER` into placeholders for `dialect`. Never throws on odd SQL: an unterminated literal or
 * comment runs to the end, where the database reports the syntax error.
 */
export function bindNumber(query: string, dialect: Dialect): BoundQuery {
  let out = '';
  let placeholders = 0;
  const words: string[] = [];
  const literals: string[] = [];
  const backslashEscapes = dialect === 'mysql';
  let i = 0;
  const n = query.length;
  let semicolonAt = -1;
  let multipleStatements = false;
  while (i < n) {
    const ch = query[i] as string;
    const next = query[i + 1];
    // Anything but blanks and comments after a `;` is a second statement.
    const isComment =
      (ch === '-' && next === '-') || (ch === '/' && next === '*') || (ch === '#' && dialect === 'mysql');
    if (semicolonAt !== -1 && !isComment && !/\s/.test(ch)) multipleStatements = true;
    // Comments: copied as they are; a $NUMBER in them is not a parameter.
    if ((ch === '-' && next === '-') || (ch === '#' && dialect === 'mysql')) {
      const end = query.indexOf('\n', i);
      const stop = end === -1 ? n : end;
      out += query.slice(i, stop);
      i = stop;
      continue;
    }
    if (ch === '/' && next === '*') {
      const end = query.indexOf('*/', i + 2);
      const stop = end === -1 ? n : end + 2;
      out += query.slice(i, stop);
      i = stop;
      continue;
    }
    // PostgreSQL dollar quoting: $$...$$ or $tag$...$tag$ is a string; $NUMBER inside it stays text.
    if (dialect === 'postgres' && ch === '$' && !markAt(query, i) && !isWordChar(query[i - 1])) {
      const tag = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(query.slice(i));
      if (tag) {
        const end = query.indexOf(tag[0], i + tag[0].length);
        const stop = end === -1 ? n : end + tag[0].length;
        out += query.slice(i, stop);
        i = stop;
        continue;
      }
    }
    // String literals: '...' everywhere, "..." on MySQL (a string there, an identifier elsewhere).
    if (ch === "'" || (ch === '"' && dialect === 'mysql')) {
      // A prefix glued to the quote (E'..', N'..', _utf8'..') belongs to each piece of a split literal.
      const prefixMatch = /(?:^|[^A-Za-z0-9_])([EeNn]|_[A-Za-z0-9]+)$/.exec(out);
      const prefix = prefixMatch ? (prefixMatch[1] as string) : '';
      const escapes = backslashEscapes || (dialect === 'postgres' && /^[Ee]$/.test(prefix));
      const pieces: string[] = [];
      let piece = '';
      let j = i + 1;
      let marks = 0;
      while (j < n) {
        const c = query[j] as string;
        if (escapes && c === '\\' && j + 1 < n) {
          piece += query.slice(j, j + 2);
          j += 2;
          continue;
        }
        if (c === ch) {
          if (query[j + 1] === ch) {
            piece += ch + ch;
            j += 2;
            continue;
          }
          break;
        }
        if (markAt(query, j)) {
          pieces.push(piece);
          piece = '';
          marks++;
          j += MARK.length;
          continue;
        }
        piece += c;
        j++;
      }
      pieces.push(piece);
      literals.push(pieces.join('').toLowerCase());
      const closed = j < n;
      i = closed ? j + 1 : n;
      if (marks === 0) {
        out += ch + pieces[0] + (closed ? ch : '');
        continue;
      }
      // Drop the prefix already written; each literal piece gets it again.
      if (prefix) out = out.slice(0, out.length - prefix.length);
      const parts: string[] = [];
      pieces.forEach((text, k) => {
        if (text !== '') parts.push(`${prefix}${ch}${text}${ch}`);
        if (k < pieces.length - 1) {
          parts.push(placeholder(dialect));
          placeholders++;
        }
      });
      out += concat(dialect, parts);
      continue;
    }
    // Quoted identifiers: copied as they are, their name kept as a word.
    const closing =
      ch === '"' ? '"' : ch === '`' && dialect === 'mysql' ? '`' : ch === '[' && dialect === 'mssql' ? ']' : '';
    if (closing) {
      let j = i + 1;
      let name = '';
      while (j < n) {
        if (query[j] === closing) {
          if (query[j + 1] === closing) {
            name += closing;
            j += 2;
            continue;
          }
          break;
        }
        name += query[j];
        j++;
      }
      const stop = j < n ? j + 1 : n;
      out += query.slice(i, stop);
      words.push(name.toLowerCase());
      i = stop;
      continue;
    }
    if (markAt(query, i)) {
      out += placeholder(dialect);
      placeholders++;
      i += MARK.length;
      continue;
    }
    if (/[A-Za-z_]/.test(ch) && !isWordChar(query[i - 1])) {
      const word = /^[A-Za-z_][A-Za-z0-9_$]*/.exec(query.slice(i, i + 200))?.[0] ?? ch;
      // A prefix of a literal (E'...') is written and then taken back by the literal branch above.
      words.push(word.toLowerCase());
      out += word;
      i += word.length;
      continue;
    }
    if (ch === ';' && semicolonAt === -1) {
      semicolonAt = out.length;
      i++;
      continue;
    }
    out += ch;
    i++;
  }
  if (semicolonAt !== -1 && multipleStatements) out = `${out.slice(0, semicolonAt)};${out.slice(semicolonAt)}`;
  return { sql: out, placeholders, words, literals, multipleStatements };
}
