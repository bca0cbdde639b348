import { execFileSync, spawn } from 'node:child_process';
import { generateKeyPairSync, verify } from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { VOICEMAIL_TRANSCRIPTION_PATH } from '@centralino/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { googleCredentialsPath } from '../src/features/cloud-speech/service.ts';
import { voicemailSttTokenPath } from '../src/features/cloud-speech/token.ts';
import { type HelperOptions, transcribeMail } from '../src/voicemail-stt/helper.ts';
import { parseMail, wavAttachment } from '../src/voicemail-stt/mail.ts';
import { callAs, expectError, useTestApp } from './helpers.ts';
import { freePort } from './support/slapd.ts';

/*
 * The voicemail transcription: the mail command (run by Asterisk, which cannot read the Google key) sends the
 * message's WAV to a running Centralino over loopback with its token; Centralino, against a loopback HTTPS
 * double speaking Google's token endpoint (JWT bearer grant, signature checked with the account's public key)
 * and Speech-to-Text's speech:recognize (request shape checked), answers the text. A real WAV spoken here by
 * espeak-ng and converted by sox, and a sendmail stand-in that records the e-mail.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cz-stt-'));
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
let wav: Buffer;
let ca: string;
let server: https.Server;
let base = '';
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

/** Filled once the double listens; the app reads it when it starts (after the setup below). */
const google: { speechUrl?: string; ca?: string; timeoutMs?: number } = {};
const env: Record<string, string> = { TFTP_PORT: '0' };

beforeAll(async () => {
  const spoken = path.join(dir, 'spoken.wav');
  const wavFile = path.join(dir, 'msg0000.wav');
  execFileSync('espeak-ng', ['-v', 'it', '-w', spoken, 'Ciao Lucia, sono Mario.']);
  // As Asterisk records voicemail (format = wav): 8 kHz, mono, 16-bit signed PCM.
  execFileSync('sox', [spoken, '-r', '8000', '-c', '1', '-b', '16', '-e', 'signed-integer', wavFile]);
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
  Object.assign(google, { speechUrl: base, ca, timeoutMs: 2_000 });
  env.PORT = String(await freePort());
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  fs.rmSync(dir, { recursive: true, force: true });
});

// One database is enough: nothing here is stored but a setting.
const t = useTestApp('sqlite', { env, googleSpeech: google });
const call = callAs(t);
let url = '';
let tokenFile = '';

beforeAll(async () => {
  // The administrator uploads the key (stored owner-only) and switches transcription on.
  const key = JSON.stringify({
    type: 'service_account',
    project_id: 'centralino-test',
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    client_email: 'voicemail@centralino-test.iam.gserviceaccount.com',
    token_uri: `${base}/token`,
  });
  const upload = await call('POST', '/api/configuration/googleauth', { file: Buffer.from(key).toString('base64') });
  expect(upload.statusCode, upload.body).toBe(200);
  expect((await call('POST', '/api/configuration/voicemailgooglestt/enabled')).statusCode).toBe(200);
  // Listening on its PORT, where the rendered mail command calls it.
  await t.app.listen({ port: t.config.port, host: '127.0.0.1' });
  url = `http://127.0.0.1:${t.config.port}${VOICEMAIL_TRANSCRIPTION_PATH}`;
  tokenFile = voicemailSttTokenPath(t.config.pbx.configDir);
  // The apply that renders the mail command has put its token file in place.
  expect(await voicemailConf()).toContain('mailcmd');
});
beforeEach(() => {
  seen.length = 0;
  speechMode = 'ok';
});

/** voicemail.conf once the PBX configuration written after the last change is in place. */
async function voicemailConf(): Promise<string> {
  let status = { state: '', directory: '' };
  for (let i = 0; i < 400; i++) {
    status = (await call('GET', '/api/pbx/apply')).json();
    if (status.state === 'idle') break;
    await new Promise((r) => setTimeout(r, 25));
  }
  return fs.readFileSync(path.join(status.directory, 'voicemail.conf'), 'utf8');
}

const options = (over: Partial<HelperOptions> = {}): HelperOptions => ({
  url,
  tokenFile,
  languageCode: 'it-IT',
  sendmail: ['/bin/false'],
  timeoutMs: 5_000,
  log: () => undefined,
  ...over,
});

const transcription = (audio: Buffer, headers: Record<string, string>, remoteAddress?: string) =>
  t.app.inject({
    method: 'POST',
    url: VOICEMAIL_TRANSCRIPTION_PATH,
    headers,
    payload: { language: 'it-IT', audio: audio.toString('base64') },
    ...(remoteAddress ? { remoteAddress } : {}),
  });

describe('voicemail transcription through Centralino', () => {
  it('sends the WAV to Centralino, which gets a token with the signed JWT and calls speech:recognize; the text is added to the e-mail', async () => {
    const mail = asteriskMail(wav);
    const lines: string[] = [];
    const out = await transcribeMail(mail, options({ log: (l) => lines.push(l) }));
    expect(lines).toEqual([]);
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

  it('sends the e-mail unchanged when recognition fails, is too slow, or there is no token or attachment', async () => {
    const mail = asteriskMail(wav);
    const lines: string[] = [];
    speechMode = 'fail';
    expect(await transcribeMail(mail, options({ log: (l) => lines.push(l) }))).toBe(mail);
    expect(lines.join('\n')).toMatch(/Centralino answered 502: Transcription failed: speech:recognize answered 500/);
    speechMode = 'slow';
    const started = Date.now();
    expect(await transcribeMail(mail, options({ timeoutMs: 800 }))).toBe(mail);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(await transcribeMail(mail, options({ tokenFile: path.join(dir, 'missing.token') }))).toBe(mail);
    // Centralino not listening there.
    const closed = `http://127.0.0.1:${await freePort()}${VOICEMAIL_TRANSCRIPTION_PATH}`;
    expect(await transcribeMail(mail, options({ url: closed }))).toBe(mail);
    expect(await transcribeMail('Subject: no attachment\n\nhello\n', options())).toBe(
      'Subject: no attachment\n\nhello\n',
    );
  });

  it('refuses a missing or wrong token (401), a sign-in key, and calls not from loopback; the e-mail still goes out unchanged', async () => {
    const token = fs.readFileSync(tokenFile, 'utf8').trim();
    expectError(await transcription(wav, {}), 401, 'unauthorized');
    expectError(await transcription(wav, { authorization: `Bearer ${token}x` }), 401, 'unauthorized');
    expectError(await transcription(wav, { authorization: `Bearer ${token.slice(0, -1)}` }), 401, 'unauthorized');
    expectError(await transcription(wav, { authorization: token }), 401, 'unauthorized');
    // The administrator's sign-in key is not this route's credential.
    expectError(await transcription(wav, t.headers), 401, 'unauthorized');
    // The right token, from another host or relayed by a proxy.
    const bearer = { authorization: `Bearer ${token}` };
    expectError(await transcription(wav, bearer, '192.0.2.10'), 403, 'voicemail_stt_local_only');
    expectError(await transcription(wav, bearer, '::ffff:192.0.2.10'), 403, 'voicemail_stt_local_only');
    expectError(
      await transcription(wav, { ...bearer, 'x-forwarded-for': '192.0.2.10' }),
      403,
      'voicemail_stt_local_only',
    );
    expect(seen).toEqual([]);
    // Not a 16-bit PCM WAV, and audio above the limit.
    expect(expectError(await transcription(Buffer.from('not a wav'), bearer), 400, 'validation').detail).toMatch(
      /16-bit PCM WAV/,
    );
    expectError(await transcription(Buffer.alloc(11 * 1024 * 1024), bearer), 413, 'payload_too_large');
    expect(seen).toEqual([]);
    // What the mail command does with a refusal: the e-mail as it came.
    const wrong = path.join(dir, 'wrong.token');
    fs.writeFileSync(wrong, 'A'.repeat(43));
    const lines: string[] = [];
    const mail = asteriskMail(wav);
    expect(await transcribeMail(mail, options({ tokenFile: wrong, log: (l) => lines.push(l) }))).toBe(mail);
    expect(lines.join('\n')).toMatch(/Centralino answered 401/);
    expect(seen).toEqual([]);
    // The right token works.
    const ok = await transcription(wav, bearer);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ text: 'Ciao Lucia, sono Mario. Richiamami più tardi.' });
  });

  it("keeps the key owner-only and the token readable by Asterisk's group only; the call is not in the API documentation", async () => {
    const key = fs.statSync(googleCredentialsPath(t.config.dataDir));
    expect(key.mode & 0o777).toBe(0o600);
    const token = fs.statSync(tokenFile);
    expect(token.mode & 0o777).toBe(0o640);
    if (t.config.pbx.runAs.gid !== null) expect(token.gid).toBe(t.config.pbx.runAs.gid);
    expect(fs.readFileSync(tokenFile, 'utf8')).toMatch(/^[A-Za-z0-9_-]{43}\n$/);
    const docs = await call('GET', '/api/docs/json');
    expect(docs.statusCode).toBe(200);
    expect(docs.body).not.toContain('voicemail-transcription');
    expect(docs.body).not.toContain('/api/internal');
  });

  it('as Asterisk runs the rendered mail command: reads the e-mail on stdin and hands it to sendmail, with or without the text', async () => {
    const general = (await voicemailConf()).split('[default]')[0] ?? '';
    const mailcmd = /\nmailcmd = (.+)\n/.exec(general)?.[1] ?? '';
    expect(mailcmd).toContain(`--url '${url}' --token-file '${tokenFile}' --language en-US`);
    expect(mailcmd).not.toContain('credentials.json');
    const recorded = path.join(dir, 'sent.eml');
    const argsFile = path.join(dir, 'sendmail.args');
    const stand = path.join(dir, 'sendmail');
    fs.writeFileSync(stand, `#!/bin/sh\necho "$@" > '${argsFile}'\ncat > '${recorded}'\n`, { mode: 0o755 });
    const run = () =>
      new Promise<number>((resolve, reject) => {
        // The command line as voicemail.conf has it, with the sendmail stand-in.
        const child = spawn('/bin/sh', ['-c', `${mailcmd} --sendmail '${stand} -t'`], {
          stdio: ['pipe', 'ignore', 'ignore'],
        });
        child.on('error', reject);
        child.on('close', (code) => resolve(code ?? -1));
        child.stdin.end(asteriskMail(wav));
      });
    expect(await run()).toBe(0);
    expect(fs.readFileSync(argsFile, 'utf8').trim()).toBe('-t');
    expect(fs.readFileSync(recorded, 'utf8')).toContain('Message transcription:\nCiao Lucia, sono Mario.');
    expect(seen.find((r) => r.path === '/v1/speech:recognize')?.body).toContain('"languageCode":"en-US"');
    speechMode = 'fail';
    expect(await run()).toBe(0);
    expect(fs.readFileSync(recorded, 'utf8')).toBe(asteriskMail(wav));
    expect(fs.statSync(googleCredentialsPath(t.config.dataDir)).mode & 0o777).toBe(0o600);
  }, 30_000);

  // Where the tests run as root on a host with Asterisk's user: the mail command as Asterisk runs it (its user,
  // its group only), which cannot read the key, still gets the text.
  const asteriskUser = (() => {
    try {
      return process.getuid?.() === 0 ? execFileSync('id', ['-u', 'asterisk']).toString().trim() : '';
    } catch {
      return '';
    }
  })();
  it.skipIf(asteriskUser === '')(
    "as Asterisk's own user, which cannot read the key",
    async (ctx) => {
      if (t.config.pbx.runAs.gid === null) ctx.skip();
      const asAsterisk = ['--reuid=asterisk', `--regid=${t.config.pbx.runAs.gid}`, '--clear-groups'];
      // The test data folder is private to root; Asterisk's own configuration folder would be reachable.
      fs.chmodSync(t.config.dataDir, 0o711);
      const keyFile = googleCredentialsPath(t.config.dataDir);
      expect(() => execFileSync('setpriv', [...asAsterisk, 'cat', keyFile], { stdio: 'ignore' })).toThrow();
      expect(execFileSync('setpriv', [...asAsterisk, 'cat', tokenFile]).toString()).toBe(
        fs.readFileSync(tokenFile, 'utf8'),
      );
      const out = fs.mkdtempSync(path.join(os.tmpdir(), 'cz-stt-asterisk-'));
      fs.chmodSync(out, 0o777);
      const recorded = path.join(out, 'sent.eml');
      const stand = path.join(out, 'sendmail');
      fs.writeFileSync(stand, `#!/bin/sh\ncat > '${recorded}'\n`, { mode: 0o755 });
      const mailcmd = /\nmailcmd = (.+)\n/.exec(await voicemailConf())?.[1] ?? '';
      try {
        const code = await new Promise<number>((resolve, reject) => {
          const child = spawn('setpriv', [...asAsterisk, '/bin/sh', '-c', `${mailcmd} --sendmail '${stand} -t'`], {
            stdio: ['pipe', 'ignore', 'ignore'],
          });
          child.on('error', reject);
          child.on('close', (c) => resolve(c ?? -1));
          child.stdin.end(asteriskMail(wav));
        });
        expect(code).toBe(0);
        expect(fs.readFileSync(recorded, 'utf8')).toContain('Message transcription:\nCiao Lucia, sono Mario.');
        expect(fs.statSync(recorded).uid).toBe(Number(asteriskUser));
      } finally {
        fs.rmSync(out, { recursive: true, force: true });
      }
    },
    30_000,
  );
});
