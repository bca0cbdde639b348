/**
 * AMI wire format (contract asterisk §9.2): a banner line, then messages of `Key: Value` lines
 * separated by CRLF and ended by an empty line. Keys are case-insensitive (kept lower-cased here);
 * a repeated key (Output, Variable, ChanVariable) collects into an array.
 */

export type AmiMessage = Record<string, string | string[]>;

export function field(message: AmiMessage, key: string): string | undefined {
  const v = message[key.toLowerCase()];
  return Array.isArray(v) ? v[v.length - 1] : v;
}

export function fieldList(message: AmiMessage, key: string): string[] {
  const v = message[key.toLowerCase()];
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

/** Builds one action; values with CR or LF would start a new header, so they are refused. */
export function encodeAction(fields: Record<string, string | number | string[] | undefined>): string {
  let out = '';
  for (const [key, raw] of Object.entries(fields)) {
    if (raw === undefined) continue;
    for (const v of Array.isArray(raw) ? raw : [raw]) {
      const text = String(v);
      if (/[\r\n]/.test(text) || /[\r\n:]/.test(key)) throw new Error(`AMI field ${key} contains a line break`);
      out += `${key}: ${text}\r\n`;
    }
  }
  return `${out}\r\n`;
}

/** Incremental parser: feed it chunks as they arrive, get complete messages back. */
export class AmiParser {
  private buffer = '';
  private lines: string[] = [];
  banner: string | undefined;

  feed(chunk: string): AmiMessage[] {
    this.buffer += chunk;
    const out: AmiMessage[] = [];
    for (;;) {
      const end = this.buffer.indexOf('\n');
      if (end === -1) break;
      const line = this.buffer.slice(0, end).replace(/\r$/, '');
      this.buffer = this.buffer.slice(end + 1);
      if (this.banner === undefined) {
        this.banner = line;
        continue;
      }
      if (line === '') {
        if (this.lines.length > 0) out.push(this.toMessage(this.lines));
        this.lines = [];
        continue;
      }
      this.lines.push(line);
    }
    return out;
  }

  private toMessage(lines: string[]): AmiMessage {
    const message: AmiMessage = {};
    const add = (key: string, v: string) => {
      const existing = message[key];
      if (existing === undefined) message[key] = v;
      else if (Array.isArray(existing)) existing.push(v);
      else message[key] = [existing, v];
    };
    for (const line of lines) {
      const colon = line.indexOf(': ');
      // Asterisk before 14 sends command output as bare lines ending with --END COMMAND--.
      if (colon === -1) {
        if (line.endsWith(':')) add(line.slice(0, -1).toLowerCase(), '');
        else if (line !== '--END COMMAND--') for (const l of line.split('\n')) add('output', l);
        continue;
      }
      add(line.slice(0, colon).toLowerCase(), line.slice(colon + 2));
    }
    return message;
  }
}
