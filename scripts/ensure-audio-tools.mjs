// Audio tools the tests use, from Debian's packages: sox with its MP3 format library converts uploaded
// recordings (call flows) to what Asterisk plays, and espeak-ng speaks the message the voicemail transcription
// test sends.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { ensurePackages } from './apt-install.mjs';

const SOX = process.env.SOX_PATH || 'sox';

function soxReadsMp3() {
  // sox answers --help-format with exit status 1 even for a format it has.
  const run = spawnSync(SOX, ['--help-format', 'mp3'], { encoding: 'utf8' });
  return !run.error && /Reads: yes/.test(`${run.stdout}${run.stderr}`);
}

ensurePackages(
  () => [
    ...(soxReadsMp3() ? [] : ['sox', 'libsox-fmt-mp3']),
    ...(existsSync('/usr/bin/espeak-ng') ? [] : ['espeak-ng']),
  ],
  'The recording and voicemail transcription tests',
);
