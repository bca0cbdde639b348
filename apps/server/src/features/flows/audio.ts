import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { RECORDING_MAX_SECONDS } from '@centralino/contract';
import { AppError } from '../../errors.ts';

/**
 * Audio uploaded for a recording, converted with Debian's sox (`apt-get install sox libsox-fmt-mp3`) to what
 * Asterisk plays without transcoding: WAV, 8 kHz, mono, 16-bit signed PCM.
 */

export type UploadKind = 'wav' | 'mp3' | 'ogg';

/** What the bytes are, by their signature (the name and the declared type are not trusted). */
export function sniffAudio(bytes: Uint8Array): UploadKind | null {
  const ascii = (from: number, to: number) => Buffer.from(bytes.subarray(from, to)).toString('latin1');
  if (bytes.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WAVE') return 'wav';
  if (bytes.length >= 4 && ascii(0, 4) === 'OggS') return 'ogg';
  if (bytes.length >= 3 && ascii(0, 3) === 'ID3') return 'mp3';
  // An MPEG audio frame header: 11 sync bits, then a layer other than "reserved".
  if (
    bytes.length >= 2 &&
    bytes[0] === 0xff &&
    ((bytes[1] as number) & 0xe0) === 0xe0 &&
    ((bytes[1] as number) & 0x06) !== 0
  )
    return 'mp3';
  return null;
}

/** Milliseconds of audio in a WAV of 8 kHz mono 16-bit samples (its data chunk's size). */
export function wavDurationMs(wav: Uint8Array): number {
  const buf = Buffer.from(wav.buffer, wav.byteOffset, wav.byteLength);
  let offset = 12;
  let rate = 8000;
  let blockAlign = 2;
  while (offset + 8 <= buf.length) {
    const id = buf.toString('latin1', offset, offset + 4);
    const size = buf.readUInt32LE(offset + 4);
    if (id === 'fmt ' && offset + 20 <= buf.length) {
      rate = buf.readUInt32LE(offset + 12) || rate;
      blockAlign = buf.readUInt16LE(offset + 20) || blockAlign;
    }
    if (id === 'data') return Math.round((Math.min(size, buf.length - offset - 8) / blockAlign / rate) * 1000);
    offset += 8 + size + (size % 2);
  }
  return 0;
}

export const SOX = process.env.SOX_PATH || 'sox';

function invalid(): AppError {
  return new AppError(400, 'audio_invalid', undefined, { file: 'not audio' });
}

/** Converts an uploaded audio file; refuses what is not WAV, MP3 or OGG audio, or is longer than allowed. */
export async function convertAudio(bytes: Uint8Array): Promise<{ wav: Buffer; durationMs: number }> {
  const kind = sniffAudio(bytes);
  if (!kind) throw invalid();
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'centralino-audio-'));
  try {
    const input = path.join(dir, `in.${kind}`);
    const output = path.join(dir, 'out.wav');
    await fs.writeFile(input, bytes);
    const args = [
      '-q',
      '-t',
      kind,
      input,
      '-r',
      '8000',
      '-c',
      '1',
      '-b',
      '16',
      '-e',
      'signed-integer',
      '-t',
      'wav',
      output,
    ];
    await new Promise<void>((resolve, reject) => {
      execFile(SOX, args, { timeout: 60_000 }, (error, _stdout, stderr) => {
        if (!error) return resolve();
        if (
          (error as NodeJS.ErrnoException).code === 'ENOENT' ||
          /no handler for (file extension|given file type)/i.test(stderr)
        ) {
          return reject(new AppError(503, 'audio_converter_missing'));
        }
        reject(invalid());
      });
    });
    const wav = await fs.readFile(output);
    const durationMs = wavDurationMs(wav);
    if (durationMs === 0) throw invalid();
    if (durationMs > RECORDING_MAX_SECONDS * 1000) {
      throw new AppError(400, 'audio_invalid', (lang) =>
        lang === 'it'
          ? `La registrazione dura più di ${RECORDING_MAX_SECONDS / 60} minuti.`
          : `The recording is longer than ${RECORDING_MAX_SECONDS / 60} minutes.`,
      );
    }
    return { wav, durationMs };
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
