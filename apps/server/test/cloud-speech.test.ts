import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { googleCredentialsPath } from '../src/features/cloud-speech/service.ts';
import { callAs, DB_KINDS, expectError, useTestApp } from './helpers.ts';

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const PEM = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const SERVICE_ACCOUNT = {
  type: 'service_account',
  project_id: 'centralino-test',
  private_key_id: 'abc123',
  private_key: PEM,
  client_email: 'voicemail@centralino-test.iam.gserviceaccount.com',
  client_id: '1234567890',
  token_uri: 'https://oauth2.googleapis.com/token',
};
const dataUrl = (text: string, type = 'application/json') =>
  `data:${type};base64,${Buffer.from(text).toString('base64')}`;

describe.each(DB_KINDS)('cloud speech (%s)', (kind) => {
  const t = useTestApp(kind);
  const call = callAs(t);
  /** voicemail.conf once the PBX configuration written after the last change is in place. */
  const voicemailConf = async () => {
    let status = { state: '', directory: '' };
    for (let i = 0; i < 400; i++) {
      status = (await call('GET', '/api/pbx/apply')).json();
      if (status.state === 'idle') break;
      await new Promise((r) => setTimeout(r, 25));
    }
    return fs.readFileSync(path.join(status.directory, 'voicemail.conf'), 'utf8');
  };

  it('needs a signed-in administrator', async () => {
    for (const [method, url] of [
      ['GET', '/api/configuration/googleauthexists'],
      ['GET', '/api/configuration/voicemailgooglestt'],
      ['POST', '/api/configuration/voicemailgooglestt/enabled'],
    ] as const) {
      expectError(await t.app.inject({ method, url }), 401, 'unauthorized');
    }
    const upload = await t.app.inject({
      method: 'POST',
      url: '/api/configuration/googleauth',
      payload: { file: dataUrl(JSON.stringify(SERVICE_ACCOUNT)) },
    });
    expectError(upload, 401, 'unauthorized');
    expect(fs.existsSync(googleCredentialsPath(t.config.dataDir))).toBe(false);
  });

  it('has no key on a new system, and transcription cannot be enabled without one', async () => {
    const none = await call('GET', '/api/configuration/googleauthexists');
    expect(none.statusCode).toBe(200);
    expect(none.json()).toBe(false);
    expect((await call('GET', '/api/configuration/voicemailgooglestt')).json()).toBe('disabled');
    expectError(await call('POST', '/api/configuration/voicemailgooglestt/enabled'), 412, 'google_auth_missing');
    expect((await call('GET', '/api/configuration/voicemailgooglestt')).json()).toBe('disabled');
  });

  it('refuses a file that is not JSON, or not a service-account key, in the caller language', async () => {
    const upload = (file: string, lang = 'en') =>
      call('POST', '/api/configuration/googleauth', { file }, { 'accept-language': lang });
    expect(expectError(await upload(dataUrl('hello, world', 'text/plain')), 400, 'google_auth_invalid').detail).toBe(
      'File format error: File must be a JSON',
    );
    expect(expectError(await upload(dataUrl('[1,2]'), 'it'), 400, 'google_auth_invalid').detail).toBe(
      'Errore nel formato del file: il file deve essere un JSON',
    );
    expect(
      expectError(
        await upload(dataUrl(JSON.stringify({ ...SERVICE_ACCOUNT, type: 'authorized_user' }))),
        400,
        'google_auth_invalid',
      ).detail,
    ).toMatch(/service-account key: "type"/);
    const { client_email: _, ...noEmail } = SERVICE_ACCOUNT;
    expect(expectError(await upload(dataUrl(JSON.stringify(noEmail))), 400, 'google_auth_invalid').detail).toMatch(
      /client_email/,
    );
    const badKey = {
      ...SERVICE_ACCOUNT,
      private_key: '-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----\n',
    };
    expect(expectError(await upload(dataUrl(JSON.stringify(badKey)), 'it'), 400, 'google_auth_invalid').detail).toMatch(
      /"private_key" non è una chiave privata leggibile/,
    );
    expectError(await upload(''), 400, 'validation');
    expect((await call('GET', '/api/configuration/googleauthexists')).json()).toBe(false);
  });

  it('stores a valid key owner-only, never answers it, and then lets transcription be switched', async () => {
    const res = await call('POST', '/api/configuration/googleauth', { file: dataUrl(JSON.stringify(SERVICE_ACCOUNT)) });
    expect(res.statusCode, res.body).toBe(200);
    const file = googleCredentialsPath(t.config.dataDir);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).client_email).toBe(SERVICE_ACCOUNT.client_email);

    const exists = await call('GET', '/api/configuration/googleauthexists');
    expect(exists.statusCode).toBe(200);
    expect(exists.json()).toBe(true);
    for (const url of ['/api/configuration/googleauthexists', '/api/configuration/voicemailgooglestt']) {
      const body = (await call('GET', url)).body;
      expect(body).not.toContain('PRIVATE KEY');
      expect(body).not.toContain('iam.gserviceaccount.com');
    }

    expect((await call('POST', '/api/configuration/voicemailgooglestt/enabled')).statusCode).toBe(200);
    expect((await call('GET', '/api/configuration/voicemailgooglestt')).json()).toBe('enabled');
    // Voicemail e-mails now go through the transcription helper, in the PBX language; it never names the key.
    const general = (await voicemailConf()).split('[default]')[0] ?? '';
    expect(general).toMatch(
      /\nmailcmd = '.+' .*'.+voicemail-stt\/main\.ts' --url 'http:\/\/127\.0\.0\.1:\d+\/api\/internal\/voicemail-transcription' --token-file '.+\/keys\/voicemail-stt\.token' --language en-US\n/,
    );
    expect(general).not.toContain('credentials.json');
    // Replacing the key keeps it owner-only.
    const again = await call('POST', '/api/configuration/googleauth', {
      file: Buffer.from(
        JSON.stringify({ ...SERVICE_ACCOUNT, client_email: 'other@x.iam.gserviceaccount.com' }),
      ).toString('base64'),
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).client_email).toBe('other@x.iam.gserviceaccount.com');
    expect((await call('POST', '/api/configuration/voicemailgooglestt/disabled')).statusCode).toBe(200);
    expect((await call('GET', '/api/configuration/voicemailgooglestt')).json()).toBe('disabled');
    expect(await voicemailConf()).not.toContain('mailcmd');
    expectError(await call('POST', '/api/configuration/voicemailgooglestt/maybe'), 400, 'validation');
  });
});
