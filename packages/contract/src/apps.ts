import { z } from 'zod';
import { fileContent } from './secret.ts';
import { noControlChars, registerItalianMessages } from './text.ts';

/**
 * The Apps area (spec extended-areas §2): parameterised URLs (contract api-admin §8), streaming sources
 * (§7) and the cloud speech service (api-core §17).
 */

/** The placeholders the CTI client replaces in a parameterised URL when it opens it for a call (spec §9: four). */
export const PARAMURL_PLACEHOLDERS = ['$CALLER_NUMBER', '$CALLER_NAME', '$CALLED', '$UNIQUEID'] as const;
/** How long the 'Copied' popover of a URL's copy button stays open (spec §9). */
export const COPY_POPOVER_MS = 800;
/** Longest URL accepted, in characters. */
export const PARAMURL_MAX_CHARS = 2000;

registerItalianMessages({
  'The URL is required': "L'URL è obbligatorio",
  'Only http:// and https:// URLs are accepted': 'Sono accettati solo URL http:// e https://',
  'Not a valid URL': 'Non è un URL valido',
  'The URL must not contain spaces': "L'URL non deve contenere spazi",
  'The URL is too long': "L'URL è troppo lungo",
  'Choose at least one profile': 'Scegli almeno un profilo',
  'The name is required': 'Il nome è obbligatorio',
  'At most 50 characters': 'Al massimo 50 caratteri',
  'The name needs at least one letter or digit': 'Il nome deve contenere almeno una lettera o una cifra',
  'Optional *, + or # first, then digits, then optional * or #':
    'Facoltativi *, + o # iniziali, poi cifre, poi * o # facoltativi',
  'Choose an extension': 'Scegli un interno',
  'File format error: File must be a JSON': 'Errore nel formato del file: il file deve essere un JSON',
});

const id = z.coerce.number().int().min(1).max(2_147_483_647);
const profiles = z
  .array(id, { error: 'Choose at least one profile' })
  .min(1, 'Choose at least one profile')
  .max(1000)
  .transform((list) => [...new Set(list)]);

/** The WHATWG URL parser both runtimes have (the contract compiles without the DOM or Node libraries). */
const { URL: WhatwgUrl } = globalThis as unknown as {
  URL: new (value: string) => { protocol: string; hostname: string };
};

/** True for an absolute http(s) URL (placeholders such as `$CALLER_NUMBER` may stand anywhere after the host). */
export function isHttpUrl(value: string): boolean {
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    const url = new WhatwgUrl(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** An http(s) URL: no spaces or control characters, parsed by the WHATWG URL parser. */
export const httpUrl = (max: number) =>
  z
    .string({ error: 'The URL is required' })
    .trim()
    .min(1, 'The URL is required')
    .max(max, 'The URL is too long')
    .check(noControlChars)
    .refine((v) => !/\s/.test(v), 'The URL must not contain spaces')
    .refine((v) => /^https?:\/\//i.test(v), 'Only http:// and https:// URLs are accepted')
    .refine((v) => !/^https?:\/\//i.test(v) || isHttpUrl(v), 'Not a valid URL');

// ---------------------------------------------------------------------------------------------------------------
// Parameterised URLs (contract §8)

/**
 * A parameterised URL as listed (GET /api/cti/paramurls). `profiles` is the contract's comma-separated string of
 * profile ids ("2,3"), which the original console splits; `id` names the URL itself (the original grouped one row
 * per profile by URL text, which is what let a changed URL leave rows behind, §12 #34).
 */
export const paramUrlSchema = z
  .object({
    id: z.number().int(),
    url: z.string(),
    /** Ids of the profiles whose users' CTI client opens the URL on incoming calls, comma-separated, ascending;
     * each profile has at most one URL. Read it with paramUrlProfileIds. */
    profiles: z.string().regex(/^(\d+(,\d+)*)?$/),
    /** 'Calls only through queues'. */
    only_queues: z.boolean(),
  })
  .meta({ id: 'ParamUrl' });
export type ParamUrl = z.infer<typeof paramUrlSchema>;
export const paramUrlListSchema = z.array(paramUrlSchema).meta({ id: 'ParamUrls' });

/**
 * POST /api/cti/paramurl (create) and PUT /api/cti/paramurl/{id} (replace): the URL, its profiles (at least one;
 * a profile holding another URL is refused, 409 `paramurl_profile_taken`) and the queue flag. `id` in the body
 * is ignored (the original sends it).
 */
export const paramUrlWriteSchema = z
  .object({
    url: httpUrl(PARAMURL_MAX_CHARS),
    profiles,
    only_queues: z.boolean().default(false),
  })
  .meta({ id: 'ParamUrlWrite' });
export type ParamUrlWrite = z.input<typeof paramUrlWriteSchema>;

/** POST /api/cti/paramurl/delete (the original's form): the URL named by its text. `profiles` is not needed. */
export const paramUrlDeleteSchema = z
  .object({
    url: z.string({ error: 'The URL is required' }).trim().min(1, 'The URL is required').max(PARAMURL_MAX_CHARS),
    profiles: z.array(id).optional(),
  })
  .meta({ id: 'ParamUrlDelete' });

/** The profile ids of a listed URL (its `profiles` string split on commas, as the original console does). */
export function paramUrlProfileIds(url: Pick<ParamUrl, 'profiles'>): number[] {
  return url.profiles === '' ? [] : url.profiles.split(',').map(Number);
}

/**
 * Which profiles the selector of the URL being edited offers: every profile, those held by another URL
 * disabled (spec §5); `editing` is the id of the URL in the modal (its own profiles stay selectable).
 */
export function paramUrlProfileChoices(
  allProfiles: readonly { id: number; name: string }[],
  urls: readonly ParamUrl[],
  editing?: number,
): { value: string; label: string; disabled: boolean }[] {
  const taken = new Set<number>();
  for (const url of urls) if (url.id !== editing) for (const p of paramUrlProfileIds(url)) taken.add(p);
  return allProfiles.map((p) => ({ value: String(p.id), label: p.name, disabled: taken.has(p.id) }));
}

// ---------------------------------------------------------------------------------------------------------------
// Streaming sources (contract §7)

/** Streaming permissions get ids above the cards' (custcards CARD_PERMISSION_BASE): this + source id. */
export const STREAMING_PERMISSION_BASE = 3_000_000;

/** Opening code (spec §5): optional star/plus/hash prefix, digits, optional star/hash suffix. */
export const STREAMING_OPEN_PATTERN = /^[*+#]*[0-9]+[*#]*$/;
/** The snapshot fetched by Check: at most this many bytes, within this time. */
export const STREAMING_SNAPSHOT_MAX_BYTES = 5 * 1024 * 1024;
export const STREAMING_SNAPSHOT_TIMEOUT_MS = 5_000;

/** `vs_` + the name lower-cased with every run of other characters than letters and digits made `_`. */
export function streamingPermissionName(descr: string): string {
  return `vs_${descr
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')}`;
}

const descr = z
  .string({ error: 'The name is required' })
  .trim()
  .min(1, 'The name is required')
  .max(50, 'At most 50 characters')
  .check(noControlChars)
  .refine((v) => streamingPermissionName(v) !== 'vs_', 'The name needs at least one letter or digit');
const openCode = z
  .string()
  .trim()
  .max(10, 'Optional *, + or # first, then digits, then optional * or #')
  .refine(
    (v) => v === '' || STREAMING_OPEN_PATTERN.test(v),
    'Optional *, + or # first, then digits, then optional * or #',
  );
/** A user's main extension, or empty for none. */
const exten = z
  .union([z.string(), z.number()])
  .transform((v) => String(v).trim())
  .refine((v) => v === '' || /^[0-9]{2,10}$/.test(v), 'Choose an extension');

/** A streaming source as listed (GET /api/cti/streaming). */
export const streamingSourceSchema = z
  .object({
    id: z.number().int(),
    descr: z.string(),
    url: z.string(),
    /** True when the stored URL carries a password; the listed `url` never does (user name kept). */
    has_password: z.boolean(),
    /** The door phone's extension the opening code is sent to, or '' for none. */
    exten: z.string(),
    /** The opening code (DTMF), or '' for none. */
    open: z.string(),
    /** The `vs_*` permission of the streaming macro that profiles hold. */
    permission: z.string(),
    profiles: z.array(z.number().int()),
  })
  .meta({ id: 'StreamingSource' });
export type StreamingSource = z.infer<typeof streamingSourceSchema>;
export const streamingSourceListSchema = z.array(streamingSourceSchema).meta({ id: 'StreamingSources' });

/**
 * POST /api/cti/streaming, PUT /api/cti/streaming/{descr} (the source named by `currentDescr`, else the path). On
 * PUT, a URL with the stored user name and host but no password keeps the stored password.
 */
export const streamingSourceWriteSchema = z
  .object({
    currentDescr: z.string().max(50).optional(),
    descr,
    url: httpUrl(8000),
    exten: exten.default(''),
    open: openCode.default(''),
    profiles,
  })
  .meta({ id: 'StreamingSourceWrite' });
export type StreamingSourceWrite = z.input<typeof streamingSourceWriteSchema>;

/**
 * POST /api/cti/sources/test: the snapshot URL to fetch through the server. With `descr`, a URL with a user name
 * but no password uses the stored source's password when host and user are the same (the list never shows it).
 */
export const streamingTestSchema = z
  .object({ url: httpUrl(8000), descr: z.string().max(50).optional() })
  .meta({ id: 'StreamingTest' });
/**
 * The snapshot as the contract answers it (api-admin §7.5): a bare JSON string, the image base64-encoded with a
 * CRLF every 76 characters (MIME style, what the original console puts after `data:image/png;base64,`).
 */
export const streamingTestResultSchema = z
  .string()
  .regex(/^[A-Za-z0-9+/=\r\n]*$/)
  .meta({ id: 'StreamingTestResult' });

/**
 * A data: URL for a snapshot answered by the Check, its type told by the first bytes (the answer carries none;
 * the server accepts only JPEG, PNG, GIF, WebP and BMP). Whitespace is dropped: data: URLs decode without it.
 */
export function snapshotDataUrl(base64: string): string {
  const plain = base64.replace(/\s/g, '');
  const type = plain.startsWith('/9j/')
    ? 'image/jpeg'
    : plain.startsWith('iVBORw0KGgo')
      ? 'image/png'
      : plain.startsWith('R0lGOD')
        ? 'image/gif'
        : plain.startsWith('UklGR')
          ? 'image/webp'
          : plain.startsWith('Qk')
            ? 'image/bmp'
            : 'image/png';
  return `data:${type};base64,${plain}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Cloud speech (api-core §17)

/** POST /api/configuration/googleauth: `{file: "data:application/json;base64,…"}` or the bare base64. */
export const googleAuthUploadSchema = z
  .object({ file: fileContent(z.string({ error: 'File format error: File must be a JSON' }).min(1).max(200_000)) })
  .meta({ id: 'GoogleAuthUpload' });
export const voicemailSttStatusSchema = z.enum(['enabled', 'disabled']);
export type VoicemailSttStatus = z.infer<typeof voicemailSttStatusSchema>;

/**
 * The voicemail mail command's loopback call (not in the public API documentation): Centralino transcribes the
 * message with its own key, which never leaves it. Authenticated by the per-install token the mail command reads
 * from a file only Asterisk's group can read (`Authorization: Bearer <token>`), from loopback addresses only.
 */
export const VOICEMAIL_TRANSCRIPTION_PATH = '/api/internal/voicemail-transcription';
/** Largest WAV the call accepts (Speech-to-Text's synchronous recognize takes 10 MB of audio at most). */
export const VOICEMAIL_TRANSCRIPTION_MAX_AUDIO_BYTES = 10 * 1024 * 1024;
/** The call's body: the language (BCP-47, e.g. it-IT) and the message's 16-bit PCM WAV in base64. */
export const voicemailTranscriptionRequestSchema = z.object({
  language: z.string().regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/),
  audio: fileContent(
    z
      .string()
      .min(1)
      .max(Math.ceil(VOICEMAIL_TRANSCRIPTION_MAX_AUDIO_BYTES / 3) * 4)
      .regex(/^[A-Za-z0-9+/]*={0,2}$/),
  ),
});
export type VoicemailTranscriptionRequest = z.infer<typeof voicemailTranscriptionRequestSchema>;
/** The recognised text ('' when nothing was recognised). */
export const voicemailTranscriptionSchema = z.object({ text: z.string() });

/** Quick client-side check of a picked file's name and type ('File format error: File must be a JSON'). */
export function looksLikeJsonFile(name: string, type: string): boolean {
  return /\.json$/i.test(name) && (type === '' || type === 'application/json' || type.endsWith('+json'));
}
