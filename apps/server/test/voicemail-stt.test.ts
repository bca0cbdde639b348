import { execFileSync, spawn } from 'node:child_process';
import { generateKeyPairSync, verify } from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type HelperOptions, transcribeMail } from '../src/voicemail-stt/helper.ts';
import { parseMail, wavAttachment } from '../src/voicemail-stt/mail.ts';

/*
 * The voicemail transcription mail command against a loopback HTTPS double speaking Google's token endpoint
 * (JWT bearer grant, signature checked with the account's public key) and Speech-to-Text's speech:recognize
 * (request shape checked), with a real WAV spoken here by espeak-ng and converted by sox, and a sendmail stand-in that records the e-mail.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cz-stt-'));
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
let wav: Buffer;
let ca: string;
let server: https.Server;
let base = '';
let keyFile = '';
const seen: { path: string; headers: Record<string, unknown>; body: string }[] = [];
let speechMode: 'ok' | 'fail' | 'slow' = 'ok';

function asteriskMail(attachment: Buffer): string {
  const b = '----voicemail_20100123456789';
  const lines = [
    'Date: Fri, 27 Nov 2026 00:40:00 +0000',
    'From: "Centralino" <centralino@pbx.example>',
    'To: "Lucia Neri" <lucia@example.com>',
    'Subject: New message 1 in mailbox 201',
    'Message-ID: <Asterisk-1-123@pbx>',
    'MIME-Version: 1.0',
    `Content-Type: multipart/mixed; boundary="${b}"`,
    '',
    'This is a multi-part message in MIME format.',
    '',
    `--${b}`,
    'Content-Type: text/plain; charset=UTF-8',
    'Content-Transfer-Encoding: 8bit',
    '',
    'Dear Lucia Neri:',
    '',
    '\tjust wanted to let you know you were just left a 0:01 long message (number 1)',
    'in mailbox 201 from Mario Rossi <202>.',
    '',
    `--${b}`,
    'Content-Type: audio/x-wav; name="msg0000.wav"',
    'Content-Transfer-Encoding: base64',
    'Content-Description: Voicemail sound attachment.',
    'Content-Disposition: attachment; filename="msg0000.wav"',
    '',
    ...(attachment.toString('base64').match(/.{1,76}/g) ?? []),
    '',
    `--${b}--`,
    '',
  ];
  return lines.join('\n');
}

beforeAll(async () => {
  const wavFile = path.join(dir, 'msg0000.wav');
  execFileSync('sox', [
    '-n',
    '-r',
    '8000',
    '-c',
    '1',
    '-b',
    '16',
    '-e',
    'signed-integer',
    wavFile,
    'synth',
    '1.2',
    'sine',
    '440',
  ]);
  wav = fs.readFileSync(wavFile);
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      path.join(dir, 'tls.key'),
      '-out',
      path.join(dir, 'tls.crt'),
    ],
    { stdio: 'ignore' },
  );
  ca = fs.readFileSync(path.join(dir, 'tls.crt'), 'utf8');
  server = https.createServer({ key: fs.readFileSync(path.join(dir, 'tls.key')), cert: ca }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      seen.push({ path: req.url ?? '', headers: req.headers, body });
      if (req.url === '/token') {
        const form = new URLSearchParams(body);
        const [h, c, s] = (form.get('assertion') ?? '').split('.');
        const valid =
          form.get('grant_type') === 'urn:ietf:params:oauth:grant-type:jwt-bearer' &&
          verify('RSA-SHA256', Buffer.from(`${h}.${c}`), publicKey, Buffer.from(s ?? '', 'base64url'));
        if (!valid) return res.writeHead(400).end('{"error":"invalid_grant"}');
        return res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ access_token: 'ya29.test-token', expires_in: 3599, token_type: 'Bearer' }));
      }
      if (req.url === '/v1/speech:recognize') {
        if (req.headers.authorization !== 'Bearer ya29.test-token') return res.writeHead(401).end();
        if (speechMode === 'fail') return res.writeHead(500).end('{"error":{"code":500}}');
        if (speechMode === 'slow') return; // never answers
        return res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            results: [
              { alternatives: [{ transcript: 'Ciao Lucia, sono Mario.', confidence: 0.93 }] },
              { alternatives: [{ transcript: 'Richiamami più tardi.', confidence: 0.9 }] },
            ],
            totalBilledTime: '2s',
          }),
        );
      }
      res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  keyFile = path.join(dir, 'credentials.json');
  fs.writeFileSync(
    keyFile,
    JSON.stringify({
      type: 'service_account',
      project_id: 'centralino-test',
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      client_email: 'voicemail@centralino-test.iam.gserviceaccount.com',
      token_uri: `${base}/token`,
    }),
    { mode: 0o600 },
  );
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  fs.rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  seen.length = 0;
  speechMode = 'ok';
});

const options = (over: Partial<HelperOptions> = {}): HelperOptions => ({
  keyFile,
  languageCode: 'it-IT',
  sendmail: ['/bin/false'],
  speechUrl: base,
  timeoutMs: 5_000,
  ca,
  log: () => undefined,
  ...over,
});

describe('voicemail transcription helper', () => {
  it('gets a token with the signed JWT, sends the WAV to speech:recognize, and adds the text to the e-mail', async () => {
    const mail = asteriskMail(wav);
    const out = await transcribeMail(mail, options());
    const token = seen.find((r) => r.path === '/token');
    expect(token?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    const claims = JSON.parse(
      Buffer.from(
        (new URLSearchParams(token?.body).get('assertion') ?? '').split('.')[1] ?? '',
        'base64url',
      ).toString(),
    );
    expect(claims).toMatchObject({
      iss: 'voicemail@centralino-test.iam.gserviceaccount.com',
      aud: `${base}/token`,
      scope: 'https://www.googleapis.com/auth/cloud-platform',
    });
    expect(claims.exp - claims.iat).toBe(3600);
    const recognize = seen.find((r) => r.path === '/v1/speech:recognize');
    const request = JSON.parse(recognize?.body ?? '{}');
    expect(request.config).toMatchObject({
      encoding: 'LINEAR16',
      sampleRateHertz: 8000,
      audioChannelCount: 1,
      languageCode: 'it-IT',
    });
    expect(Buffer.from(request.audio.content, 'base64').equals(wav)).toBe(true);

    expect(out).toContain(
      'in mailbox 201 from Mario Rossi <202>.\n\nTrascrizione del messaggio:\nCiao Lucia, sono Mario. Richiamami più tardi.\n',
    );
    // Headers and the attachment are left as they were.
    expect(out.startsWith(mail.slice(0, mail.indexOf('\n\n')))).toBe(true);
    expect(wavAttachment(parseMail(out))?.equals(wav)).toBe(true);
  });

  it('sends the e-mail unchanged when recognition fails, is too slow, or there is no key', async () => {
    const mail = asteriskMail(wav);
    const lines: string[] = [];
    speechMode = 'fail';
    expect(await transcribeMail(mail, options({ log: (l) => lines.push(l) }))).toBe(mail);
    speechMode = 'slow';
    const started = Date.now();
    expect(await transcribeMail(mail, options({ timeoutMs: 800 }))).toBe(mail);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(await transcribeMail(mail, options({ keyFile: path.join(dir, 'missing.json') }))).toBe(mail);
    expect(await transcribeMail('Subject: no attachment\n\nhello\n', options())).toBe(
      'Subject: no attachment\n\nhello\n',
    );
    expect(lines.join('\n')).toMatch(/speech:recognize answered 500/);
  });

  it('as Asterisk runs it: reads the e-mail on stdin and hands it to sendmail, with or without the text', async () => {
    const recorded = path.join(dir, 'sent.eml');
    const argsFile = path.join(dir, 'sendmail.args');
    const stand = path.join(dir, 'sendmail');
    fs.writeFileSync(stand, `#!/bin/sh\necho "$@" > '${argsFile}'\ncat > '${recorded}'\n`, { mode: 0o755 });
    fs.writeFileSync(path.join(dir, 'ca.pem'), ca);
    const run = (extra: string[]) =>
      new Promise<number>((resolve, reject) => {
        const child = spawn(
          path.resolve('node_modules/.bin/tsx'),
          [
            path.resolve('apps/server/src/voicemail-stt/main.ts'),
            '--key',
            keyFile,
            '--language',
            'it-IT',
            '--sendmail',
            `${stand} -t`,
            '--speech-url',
            base,
            '--ca',
            path.join(dir, 'ca.pem'),
            ...extra,
          ],
          { stdio: ['pipe', 'ignore', 'ignore'] },
        );
        child.on('error', reject);
        child.on('close', (code) => resolve(code ?? -1));
        child.stdin.end(asteriskMail(wav));
      });
    expect(await run([])).toBe(0);
    expect(fs.readFileSync(argsFile, 'utf8').trim()).toBe('-t');
    expect(fs.readFileSync(recorded, 'utf8')).toContain('Trascrizione del messaggio:\nCiao Lucia, sono Mario.');
    speechMode = 'fail';
    expect(await run([])).toBe(0);
    expect(fs.readFileSync(recorded, 'utf8')).toBe(asteriskMail(wav));
  }, 30_000);
});
