import fs from 'node:fs';
import type { PbxLog } from '@centralino/contract';

/** The most of the log read for one answer: a busy PBX's day of warnings, not a month of them. */
const MAX_READ_BYTES = 4 * 1024 * 1024;

/**
 * `[2026-12-02 15:40:01.123] WARNING[1234][C-00000001] chan_pjsip.c: text` — the date format logger.conf sets
 * (pbx/render/system.ts), the thread, an optional call id, the source file.
 */
const LINE = /^\[([^\]]+)\]\s+(WARNING|ERROR)\[\d+\](?:\[[^\]]*\])?\s*(.*)$/;

/** Warnings and errors of Asterisk's messages log written since `offset` (this Asterisk's start), newest last. */
export function readPbxLog(file: string, offset: number, query: { search?: string; limit: number }): PbxLog {
  let text = '';
  try {
    const size = fs.statSync(file).size;
    // Rotated or emptied since the start: everything in it is newer.
    const from = Math.max(size < offset ? 0 : offset, size - MAX_READ_BYTES);
    const fd = fs.openSync(file, 'r');
    try {
      const buffer = Buffer.alloc(size - from);
      fs.readSync(fd, buffer, 0, buffer.length, from);
      text = buffer.toString('utf8');
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return { lines: [], total: 0 };
  }
  const needle = query.search?.trim().toLowerCase() ?? '';
  const lines: PbxLog['lines'] = [];
  for (const raw of text.split('\n')) {
    const m = LINE.exec(raw);
    if (!m) continue;
    const line = { time: m[1] as string, level: m[2] as 'WARNING' | 'ERROR', text: (m[3] as string).trim() };
    if (needle && !`${line.level} ${line.text}`.toLowerCase().includes(needle)) continue;
    lines.push(line);
  }
  return { lines: lines.slice(-query.limit), total: lines.length };
}
