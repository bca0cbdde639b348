import { sign } from 'node:crypto';
import { type HttpOptions, post } from './http.ts';

/**
 * Google's OAuth 2.0 service-account flow (a JWT signed with the account's key, exchanged at its token URI
 * for an access token) and Speech-to-Text's REST `speech:recognize`, over node:https with a deadline. Only
 * the server calls them (CloudSpeechService.transcribe): the key never leaves it.
 */

const base64url = (value: Buffer | string) => Buffer.from(value).toString('base64url');

/** The signed JWT of the service account (RS256), asking for the cloud-platform scope, valid one hour. */
export function serviceAccountJwt(
  key: { client_email: string; private_key: string; token_uri: string },
  now = Date.now(),
) {
  const iat = Math.floor(now / 1000);
  const header = base64url(JSON.stringify({ alg: 'RS256', typ: 'JWT' }));
  const claims = base64url(
    JSON.stringify({
      iss: key.client_email,
      scope: 'https://www.googleapis.com/auth/cloud-platform',
      aud: key.token_uri,
      iat,
      exp: iat + 3600,
    }),
  );
  const signature = sign('RSA-SHA256', Buffer.from(`${header}.${claims}`), key.private_key);
  return `${header}.${claims}.${base64url(signature)}`;
}

export async function accessToken(
  key: { client_email: string; private_key: string; token_uri: string },
  options: HttpOptions,
): Promise<string> {
  const form = new URLSearchParams({
    grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
    assertion: serviceAccountJwt(key),
  }).toString();
  const res = await post(key.token_uri, form, { 'content-type': 'application/x-www-form-urlencoded' }, options);
  if (res.status !== 200) throw new Error(`token endpoint answered ${res.status}`);
  const token = (JSON.parse(res.text) as { access_token?: unknown }).access_token;
  if (typeof token !== 'string' || token === '') throw new Error('no access token');
  return token;
}

/** Speech-to-Text v1 `speech:recognize` of a LINEAR16 WAV; the transcripts of every result joined. */
export async function recognize(
  speechUrl: string,
  token: string,
  audio: { wav: Buffer; sampleRate: number; channels: number; languageCode: string },
  options: HttpOptions,
): Promise<string> {
  const body = JSON.stringify({
    config: {
      encoding: 'LINEAR16',
      sampleRateHertz: audio.sampleRate,
      audioChannelCount: audio.channels,
      languageCode: audio.languageCode,
      enableAutomaticPunctuation: true,
    },
    audio: { content: audio.wav.toString('base64') },
  });
  const res = await post(
    `${speechUrl.replace(/\/+$/, '')}/v1/speech:recognize`,
    body,
    { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    options,
  );
  if (res.status !== 200) throw new Error(`speech:recognize answered ${res.status}`);
  const answer = JSON.parse(res.text) as { results?: { alternatives?: { transcript?: string }[] }[] };
  return (answer.results ?? [])
    .map((r) => r.alternatives?.[0]?.transcript?.trim() ?? '')
    .filter((t) => t !== '')
    .join(' ');
}

/** Sample rate, channels and bits of a RIFF/WAVE file; undefined when it is not PCM WAV. */
export function wavFormat(bytes: Buffer): { sampleRate: number; channels: number; bits: number } | undefined {
  if (bytes.length < 44 || bytes.toString('latin1', 0, 4) !== 'RIFF' || bytes.toString('latin1', 8, 12) !== 'WAVE') {
    return undefined;
  }
  let at = 12;
  while (at + 8 <= bytes.length) {
    const id = bytes.toString('latin1', at, at + 4);
    const size = bytes.readUInt32LE(at + 4);
    if (id === 'fmt ' && at + 24 <= bytes.length) {
      const format = bytes.readUInt16LE(at + 8);
      if (format !== 1) return undefined;
      return {
        channels: bytes.readUInt16LE(at + 10),
        sampleRate: bytes.readUInt32LE(at + 12),
        bits: bytes.readUInt16LE(at + 22),
      };
    }
    at += 8 + size + (size % 2);
  }
  return undefined;
}
