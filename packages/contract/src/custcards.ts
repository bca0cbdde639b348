import { z } from 'zod';
import { noControlChars, registerItalianMessages } from './text.ts';

/**
 * Customer cards (contract api-admin §6.4–6.7): templates, cards and the preview. Templates are written in
 * Liquid (not the original's EJS, which runs JavaScript on the server): the data a template sees is `results`,
 * the rows of the card's query, each an object keyed by column name. Values are HTML-escaped unless a template
 * asks otherwise with `| raw`.
 */

/** Colours a template may carry (first line `<!-- color: <name> -->`), spec §9. */
export const CARD_TEMPLATE_COLORS = [
  'red',
  'orange',
  'yellow',
  'olive',
  'green',
  'teal',
  'blue',
  'violet',
  'purple',
  'pink',
  'brown',
] as const;
export type CardTemplateColor = (typeof CARD_TEMPLATE_COLORS)[number];

/** The four templates a new system has (contract §6.7); they cannot be deleted, only changed. */
export const CARD_BUILTIN_TEMPLATES = ['identity', 'lastcalls', 'statistics', 'table'] as const;

/** Rows a query hands to its template at most (the preview answers the same rows). */
export const CARD_QUERY_ROW_LIMIT = 100;
/** How long a card query may run before it is stopped. */
export const CARD_QUERY_TIMEOUT_MS = 5_000;
/** Longest template text, in characters (after base64 decoding). */
export const CARD_TEMPLATE_MAX_CHARS = 100_000;
/** Longest query text, in characters (after base64 decoding). */
export const CARD_QUERY_MAX_CHARS = 20_000;

/** The text a new template starts from (contract §6.4: loops over `results`, name and bold lastname). */
export const CARD_TEMPLATE_DEFAULT_HTML = `<!-- color: blue -->
<div class="card">
  {% for row in results %}
  <div class="card-row">{{ row.name }} <b>{{ row.lastname }}</b></div>
  {% endfor %}
</div>
`;

/** Sample rows the template editor previews with, per built-in template (contract §6.4); custom ones: `custom`. */
export const CARD_TEMPLATE_SAMPLE_DATA: Record<string, Record<string, string>[]> = {
  table: [
    { Col_1: 'Val_1', Col_2: 'Val_2' },
    { Col_1: 'Val_3', Col_2: 'Val_4' },
  ],
  identity: [
    {
      name: 'John Doe',
      type: 'public',
      extension: '200',
      homephone: '0721 123456',
      workphone: '0721 654321',
      cellphone: '333 1234567',
      url: 'https://example.com',
      company: 'Example Ltd',
    },
  ],
  statistics: [{ key: 'value' }],
  lastcalls: [
    {
      date: '18/04/2017',
      time: '09:50:25',
      billsec: '15:23:56',
      clid: 'John Doe',
      dst: 'Marilyn Monroe',
      direction: 'in',
    },
  ],
  custom: [{ name: 'John', lastname: 'Doe' }],
};

/** What both runtimes have (the contract compiles without the DOM or Node libraries). */
const runtime = globalThis as unknown as {
  atob(value: string): string;
  btoa(value: string): string;
  TextEncoder: new () => { encode(text: string): Uint8Array };
  TextDecoder: new (label: string) => { decode(bytes: Uint8Array): string };
};

/** UTF-8 text to base64 and back, in the browser and in Node alike. */
export function toBase64(text: string): string {
  const bytes = new runtime.TextEncoder().encode(text);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return runtime.btoa(binary);
}
export function fromBase64(value: string): string {
  const binary = runtime.atob(value.replace(/\s+/g, ''));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return new runtime.TextDecoder('utf-8').decode(bytes);
}

/** The colour of a first-line `<!-- color: x -->` comment, or null (contract §6.4). */
export function cardTemplateColor(html: string): CardTemplateColor | null {
  const first = html.split('\n', 1)[0] ?? '';
  const match = /^\s*<!--\s*colou?r\s*:\s*([a-z]+)\s*-->/i.exec(first);
  const color = match?.[1]?.toLowerCase();
  return color && (CARD_TEMPLATE_COLORS as readonly string[]).includes(color) ? (color as CardTemplateColor) : null;
}

/** A template's stored name: lower case, letters and digits only (contract §6.4: `My Card` → `mycard`). */
export function cardTemplateName(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/**
 * A template reference as cards and the preview give it: `name` or `name_custom` (contract §6.5), split into
 * the template's name and whether it is a custom one.
 */
export function parseTemplateRef(ref: string): { name: string; custom: boolean } {
  return ref.endsWith('_custom')
    ? { name: ref.slice(0, -'_custom'.length), custom: true }
    : { name: ref, custom: false };
}
export function templateRef(template: { name: string; custom: boolean }): string {
  return template.custom ? `${template.name}_custom` : template.name;
}

/** The card's permission name: `cc_` + its name in lower case, letters and digits only (contract §6.5). */
export function cardPermissionName(cardName: string): string {
  return `cc_${cardName.replace(/[^a-zA-Z0-9]/g, '').toLowerCase()}`;
}
/** Card permissions get ids above every static and group one: CARD_PERMISSION_BASE + card id. */
export const CARD_PERMISSION_BASE = 2_000_000;

/** The caller number as a card query receives it for `$NUMBER`: leading 00 becomes +, spaces go (contract §6). */
export function normaliseCallerNumber(number: string): string {
  const compact = number.replace(/\s+/g, '');
  return compact.startsWith('00') ? `+${compact.slice(2)}` : compact;
}

registerItalianMessages({
  'Name is required': 'Il nome è obbligatorio',
  'The name needs at least one letter or digit': 'Il nome deve contenere almeno una lettera o una cifra',
  'At most 64 characters': 'Al massimo 64 caratteri',
  'The template is required': 'Il modello è obbligatorio',
  'The template is too long': 'Il modello è troppo lungo',
  'The query is required': 'La query è obbligatoria',
  'The query is too long': 'La query è troppo lunga',
  'Not valid base64': 'Non è un base64 valido',
  'Choose a source': 'Scegli una sorgente',
  'Choose a template': 'Scegli un modello',
  'Choose at least one profile': 'Scegli almeno un profilo',
  'Digits, +, *, # and spaces only': 'Solo cifre, +, *, # e spazi',
});

/** base64 of UTF-8 text, decoded by the schema (the API carries html and queries as base64). */
const base64Text = (required: string, max: number, tooLong: string) =>
  z
    .string({ error: required })
    .max(Math.ceil((max * 4 * 4) / 3) + 8, tooLong)
    .regex(/^[A-Za-z0-9+/=\s]*$/, 'Not valid base64')
    .transform((value, ctx) => {
      try {
        return fromBase64(value);
      } catch {
        ctx.addIssue({ code: 'custom', message: 'Not valid base64' });
        return z.NEVER;
      }
    })
    .pipe(
      z
        .string()
        .refine((text) => text.trim() !== '', required)
        .refine((text) => text.length <= max, tooLong),
    );

const templateHtml = base64Text('The template is required', CARD_TEMPLATE_MAX_CHARS, 'The template is too long');
const queryText = base64Text('The query is required', CARD_QUERY_MAX_CHARS, 'The query is too long');
const id = z.coerce.number().int().min(1).max(2_147_483_647);

// ---- templates ----

/** A template as listed (GET /api/cti/customer_card/template). */
export const cardTemplateSchema = z
  .object({
    /** Stored name (lower case, letters and digits). */
    name: z.string(),
    /** Made by an administrator (not one of the four shipped templates). */
    custom: z.boolean(),
    /** base64 of the template text (Liquid). */
    html: z.string(),
    color: z.enum(CARD_TEMPLATE_COLORS).nullable(),
    /** One of the four shipped templates: changed but never deleted. */
    builtin: z.boolean(),
  })
  .meta({ id: 'CardTemplate' });
export type CardTemplate = z.infer<typeof cardTemplateSchema>;
export const cardTemplateListSchema = z.array(cardTemplateSchema).meta({ id: 'CardTemplates' });

const templateName = z
  .string({ error: 'Name is required' })
  .trim()
  .min(1, 'Name is required')
  .max(64, 'At most 64 characters')
  .check(noControlChars)
  .refine((name) => cardTemplateName(name) !== '', 'The name needs at least one letter or digit');

/**
 * POST /api/cti/customer_card/template: a new template, stored under `cardTemplateName(name)`. Unlike the
 * original, an existing name is refused (409 `card_template_exists`), never overwritten. The text must parse
 * (400 `card_template_invalid` with the line otherwise).
 */
export const cardTemplateCreateSchema = z
  .object({ name: templateName, custom: z.boolean().default(true), html: templateHtml })
  .meta({ id: 'CardTemplateCreate' });
export type CardTemplateCreate = z.input<typeof cardTemplateCreateSchema>;

/** PUT /api/cti/customer_card/template/{name}: the template named in the path gets this text (`name`, `custom` ignored). */
export const cardTemplateUpdateSchema = z
  .object({ html: templateHtml, name: z.string().optional(), custom: z.boolean().optional() })
  .meta({ id: 'CardTemplateUpdate' });
export type CardTemplateUpdate = z.input<typeof cardTemplateUpdateSchema>;

// ---- cards ----

const cardName = z
  .string({ error: 'Name is required' })
  .trim()
  .min(1, 'Name is required')
  .max(64, 'At most 64 characters')
  .check(noControlChars)
  .refine((name) => cardPermissionName(name) !== 'cc_', 'The name needs at least one letter or digit');
/** `name`, `name_custom`, or the object GET answers. */
const templateRefInput = z
  .union([z.string().trim().min(1, 'Choose a template').max(80), z.object({ name: z.string(), custom: z.boolean() })], {
    error: 'Choose a template',
  })
  .transform((value) => (typeof value === 'string' ? value : templateRef(value)));
const profiles = z.array(id, { error: 'Choose at least one profile' }).min(1, 'Choose at least one profile').max(1000);

/** A card as listed (GET /api/cti/customer_card). */
export const customerCardSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    /** ISO 8601. */
    creation: z.string(),
    /** base64 of the SQL. */
    query: z.string(),
    template: z.object({ name: z.string(), custom: z.boolean() }),
    dbconn_id: z.number().int(),
    /** The card's `cc_*` permission in the customer_card macro (CARD_PERMISSION_BASE + id). */
    permission_id: z.number().int(),
    /** Ids of the profiles having the card's permission. */
    profiles: z.array(z.number().int()),
  })
  .meta({ id: 'CustomerCard' });
export type CustomerCard = z.infer<typeof customerCardSchema>;
export const customerCardListSchema = z.array(customerCardSchema).meta({ id: 'CustomerCards' });

/** GET /api/cti/customer_card filters (only one is used; `template` is `name` or `name_custom`). */
export const customerCardFilterSchema = z.object({
  dbconn_id: id.optional(),
  template: z.string().max(80).optional(),
});

/**
 * POST /api/cti/customer_card: creates the card, its `cc_*` permission in the customer_card macro and the
 * profiles' links. The source and template must exist; the normalised name must be free (409 `card_exists`).
 */
export const customerCardCreateSchema = z
  .object({
    name: cardName,
    query: queryText,
    template: templateRefInput,
    dbconn_id: z.coerce.number({ error: 'Choose a source' }).int('Choose a source').min(1, 'Choose a source'),
    profiles,
  })
  .meta({ id: 'CustomerCardCreate' });
export type CustomerCardCreate = z.input<typeof customerCardCreateSchema>;

/** PUT /api/cti/customer_card/{id}: any of the fields (`id`, `creation` and other keys are ignored). */
export const customerCardPatchSchema = z
  .object({
    name: cardName.optional(),
    query: queryText.optional(),
    template: templateRefInput.optional(),
    dbconn_id: z.coerce.number().int().min(1, 'Choose a source').optional(),
    profiles: profiles.optional(),
  })
  .meta({ id: 'CustomerCardPatch' });
export type CustomerCardPatch = z.input<typeof customerCardPatchSchema>;

/**
 * POST /api/custcard/preview: runs `query` on source `dbconn_id` (with `number`, when given, for `$NUMBER`) and
 * renders the stored template `template`, or `html` when given (a template being edited).
 */
export const cardPreviewRequestSchema = z
  .object({
    dbconn_id: z.coerce.number({ error: 'Choose a source' }).int('Choose a source').min(1, 'Choose a source'),
    template: z.string().trim().max(80).optional(),
    html: templateHtml.optional(),
    query: queryText,
    /** A test caller number for `$NUMBER` (normalised as a real call's: 00 → +, spaces removed). */
    number: z
      .string()
      .trim()
      .max(40)
      .regex(/^[0-9+*#\s]*$/, 'Digits, +, *, # and spaces only')
      .optional(),
  })
  .refine((body) => body.template || body.html !== undefined, { message: 'Choose a template', path: ['template'] })
  .meta({ id: 'CardPreviewRequest' });
export type CardPreviewRequest = z.input<typeof cardPreviewRequestSchema>;

export const cardPreviewSchema = z
  .object({
    /** base64 of the rendered HTML (values escaped; show it in a sandboxed frame without scripts). */
    html: z.string(),
    /** Column names in the query's order. */
    columns: z.array(z.string()),
    /** The rows the template received (at most CARD_QUERY_ROW_LIMIT), values as text or null. */
    rows: z.array(z.record(z.string(), z.string().nullable())),
    /** The query returned more rows than the limit: the rest were not read. */
    truncated: z.boolean(),
    elapsed_ms: z.number().int(),
  })
  .meta({ id: 'CardPreview' });
export type CardPreview = z.infer<typeof cardPreviewSchema>;

/**
 * POST /api/cti/customer_card/template/convert: an EJS template of the older system (base64) turned into Liquid
 * (base64). Refused with 400 `card_template_unconvertible` naming the line it cannot convert.
 */
export const cardTemplateConvertSchema = z.object({ html: templateHtml }).meta({ id: 'CardTemplateConvert' });
export const cardTemplateConvertedSchema = z.object({ html: z.string() }).meta({ id: 'CardTemplateConverted' });
