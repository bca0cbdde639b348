/**
 * The voicemail notification e-mail as Asterisk's app_voicemail writes it to its mail command: RFC 822
 * headers, a multipart/mixed body with a text part and the message's WAV attachment (base64). Only what the
 * transcription needs is parsed; the message is otherwise passed on byte for byte.
 */

export interface MailPart {
  /** Offsets of the part (headers and body) inside the whole message text. */
  start: number;
  end: number;
  headers: Record<string, string>;
  /** Offset where the part's body starts. */
  bodyStart: number;
}

export interface ParsedMail {
  text: string;
  /** Line ending the message uses. */
  eol: string;
  boundary: string | undefined;
  parts: MailPart[];
}

function parseHeaders(block: string): Record<string, string> {
  const headers: Record<string, string> = {};
  const unfolded = block.replace(/\r?\n[ \t]+/g, ' ');
  for (const line of unfolded.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return headers;
}

function headerEnd(text: string, from: number): { end: number; bodyStart: number } {
  const match = /\r?\n\r?\n/.exec(text.slice(from));
  if (!match) return { end: text.length, bodyStart: text.length };
  return { end: from + match.index, bodyStart: from + match.index + match[0].length };
}

export function parseMail(text: string): ParsedMail {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const top = headerEnd(text, 0);
  const headers = parseHeaders(text.slice(0, top.end));
  const boundary = /boundary="?([^";]+)"?/i.exec(headers['content-type'] ?? '')?.[1];
  const parts: MailPart[] = [];
  if (boundary) {
    const marker = `--${boundary}`;
    let at = text.indexOf(marker, top.bodyStart);
    while (at >= 0) {
      const lineEnd = text.indexOf('\n', at);
      if (text.startsWith(`${marker}--`, at) || lineEnd < 0) break;
      const start = lineEnd + 1;
      const next = text.indexOf(`${eol}${marker}`, start);
      const end = next < 0 ? text.length : next;
      const h = headerEnd(text, start);
      parts.push({
        start,
        end,
        headers: parseHeaders(text.slice(start, Math.min(h.end, end))),
        bodyStart: Math.min(h.bodyStart, end),
      });
      at = next < 0 ? -1 : next + eol.length;
    }
  }
  return { text, eol, boundary, parts };
}

/** The WAV attachment's bytes, if the message has one. */
export function wavAttachment(mail: ParsedMail): Buffer | undefined {
  const part = mail.parts.find((p) => /^audio\//i.test(p.headers['content-type'] ?? ''));
  if (!part || !/base64/i.test(part.headers['content-transfer-encoding'] ?? '')) return undefined;
  return Buffer.from(mail.text.slice(part.bodyStart, part.end).replace(/\s+/g, ''), 'base64');
}

/**
 * The message with the transcription added: at the end of the text part when it is plain 7/8-bit text, else
 * as a text part of its own before the attachment. Unchanged when there is no text part or no boundary.
 */
export function withTranscription(mail: ParsedMail, label: string, transcript: string): string {
  const { text, eol, boundary } = mail;
  if (!boundary) return text;
  const addition = `${eol}${eol}${label}${eol}${transcript.replace(/\r?\n/g, eol)}${eol}`;
  const textPart = mail.parts.find((p) => /^text\/plain/i.test(p.headers['content-type'] ?? 'text/plain'));
  const encoding = (textPart?.headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  if (textPart && (encoding === '7bit' || encoding === '8bit')) {
    let headers = text.slice(textPart.start, textPart.bodyStart);
    // The transcription may hold characters beyond ASCII: the part becomes 8bit UTF-8 text.
    if (/content-transfer-encoding:\s*7bit/i.test(headers))
      headers = headers.replace(/(content-transfer-encoding:\s*)7bit/i, '$18bit');
    else if (!/content-transfer-encoding:/i.test(headers)) {
      headers = headers.replace(/(\r?\n\r?\n)$/, `${eol}Content-Transfer-Encoding: 8bit$1`);
    }
    const body = text.slice(textPart.bodyStart, textPart.end).replace(/\s+$/, '');
    return text.slice(0, textPart.start) + headers + body + addition + text.slice(textPart.end);
  }
  const audio = mail.parts.find((p) => /^audio\//i.test(p.headers['content-type'] ?? ''));
  if (!audio) return text;
  const part = `Content-Type: text/plain; charset=UTF-8${eol}Content-Transfer-Encoding: 8bit${eol}${eol}${label}${eol}${transcript}${eol}${eol}--${boundary}${eol}`;
  return text.slice(0, audio.start) + part + text.slice(audio.start);
}
