import {
  CARD_SOURCE_TYPES,
  CARD_TEMPLATE_COLORS,
  CARD_TEMPLATE_DEFAULT_HTML,
  CARD_TEMPLATE_SAMPLE_DATA,
  type CardSourceType,
  type CardTemplateColor,
  cardSourceDefaultPort,
  cardTemplateName,
  templateRef,
} from '@centralino/contract';

/** Colours a template may have (spec §9), in the order the picker offers them. */
export const TEMPLATE_COLORS = CARD_TEMPLATE_COLORS;
export type TemplateColor = CardTemplateColor;

/**
 * The Mantine colour a template colour is drawn with on its card (Mantine has no olive or brown: the nearest
 * shades stand in).
 */
export const MANTINE_COLOR: Record<TemplateColor, string> = {
  red: 'red',
  orange: 'orange',
  yellow: 'yellow',
  olive: 'lime',
  green: 'green',
  teal: 'teal',
  blue: 'blue',
  violet: 'violet',
  purple: 'grape',
  pink: 'pink',
  brown: 'orange',
};

export function isTemplateColor(value: unknown): value is TemplateColor {
  return typeof value === 'string' && (TEMPLATE_COLORS as readonly string[]).includes(value);
}

const COLOR_COMMENT = /^\s*<!--\s*color:\s*([a-z]+)\s*-->[ \t]*\r?\n?/i;
const BG_CLASS = new RegExp(`(^|[\\s"'])bg-(${TEMPLATE_COLORS.join('|')})(?=-\\d{2,3}\\b|[\\s"']|$)`, 'g');

/** The colour a template declares on its first line (`<!-- color: red -->`), as the API reads it. */
export function colorOf(html: string): TemplateColor | null {
  const match = COLOR_COMMENT.exec(html);
  const color = match?.[1]?.toLowerCase();
  return isTemplateColor(color) ? color : null;
}

/**
 * The template with another colour: the first-line comment the list reads the colour from is written (or
 * replaced), and every `bg-<colour>[-shade]` class of the template's own markup takes the new colour, as the
 * original console did client-side. `null` removes the comment and leaves the classes.
 */
export function withColor(html: string, color: TemplateColor | null): string {
  const body = html.replace(COLOR_COMMENT, '');
  if (color === null) return body;
  const recoloured = body.replace(BG_CLASS, (_all, lead: string) => `${lead}bg-${color}`);
  return `<!-- color: ${color} -->\n${recoloured}`;
}

/** Text ↔ base64 of its UTF-8 bytes (templates' html and cards' query travel so). */
export function toBase64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

export function fromBase64(encoded: string): string {
  try {
    const binary = atob(encoded);
    return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
  } catch {
    return '';
  }
}

/** A template as a card refers to it: `name`, or `name_custom` for a custom one. */
export const templateValue = templateRef;

/** The name the server stores a template under (lower case, letters and digits only). */
export const normaliseTemplateName = cardTemplateName;

/** What the duplicate modal refuses: an empty name, or one that is the old template's once normalised. */
export function duplicateNameError(name: string, original: string): 'required' | 'same' | null {
  const normalised = normaliseTemplateName(name);
  if (normalised === '') return 'required';
  if (normalised === normaliseTemplateName(original)) return 'same';
  return null;
}

/** The port the source form proposes for a type. */
export function defaultPortOf(type: string): string {
  return type in CARD_SOURCE_TYPES ? String(cardSourceDefaultPort(type as CardSourceType)) : '';
}

export interface SourceForm {
  type: string;
  host: string;
  port: string;
  name: string;
  user: string;
  pass: string;
}

/** The check needs type, name and port (spec §5); a new source needs host and user too. */
export function canCheck(form: SourceForm, modifying: boolean): boolean {
  const port = Number(form.port);
  const basics =
    form.type in CARD_SOURCE_TYPES &&
    form.name.trim() !== '' &&
    /^\d+$/.test(form.port.trim()) &&
    port >= 1 &&
    port <= 65_535;
  if (!basics) return false;
  return modifying || (form.host.trim() !== '' && form.user.trim() !== '');
}

/** Sample rows a template is previewed with in its editor (contract §6.4): per shipped template, else `custom`. */
export function sampleRows(template: string): Record<string, string>[] {
  return CARD_TEMPLATE_SAMPLE_DATA[template] ?? CARD_TEMPLATE_SAMPLE_DATA.custom ?? [];
}

/**
 * A query answering the given rows without reading any table, for the template editor's preview on the
 * built-in source (Centralino's own database, SQLite or PostgreSQL): `SELECT 'v' AS "col", … UNION ALL …`.
 * Values and names are quoted as SQL literals and identifiers.
 */
export function sampleQuery(rows: Record<string, string>[]): string {
  const literal = (value: string) => `'${value.replaceAll("'", "''")}'`;
  const identifier = (name: string) => `"${name.replaceAll('"', '""')}"`;
  return rows
    .map(
      (row) =>
        `SELECT ${Object.entries(row)
          .map(([k, v]) => `${literal(v)} AS ${identifier(k)}`)
          .join(', ')}`,
    )
    .join('\nUNION ALL\n');
}

/** The text a new template starts from (contract §6.4): a loop over `results`, name and bold lastname (Liquid). */
export const DEFAULT_TEMPLATE_HTML = CARD_TEMPLATE_DEFAULT_HTML;

/**
 * What keeps a card form from being saved (spec §5, contract §6.5): name, source, template and at least one
 * profile required; Save disabled while the query is empty.
 */
export function cardFormProblems(form: {
  name: string;
  dbconn_id: string | null;
  template: string | null;
  profiles: string[];
  query: string;
}): ('name' | 'source' | 'template' | 'profiles' | 'query')[] {
  const problems: ('name' | 'source' | 'template' | 'profiles' | 'query')[] = [];
  if (!/[a-z0-9]/i.test(form.name)) problems.push('name');
  if (!form.dbconn_id) problems.push('source');
  if (!form.template) problems.push('template');
  if (form.profiles.length === 0) problems.push('profiles');
  if (form.query.trim() === '') problems.push('query');
  return problems;
}
