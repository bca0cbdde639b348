import { z } from 'zod';
import { secret } from './secret.ts';
import { noControlChars, registerItalianMessages } from './text.ts';

/**
 * Database types a customer-card source may have, with their labels: the fixed map of
 * GET /api/cti/dbconn/type (contract api-admin §6.2). The suffix after `mssql:` is the TDS protocol version.
 */
export const CARD_SOURCE_TYPES = {
  mysql: 'MySQL',
  postgres: 'PostgreSQL',
  'mssql:7_4': 'SQL Server 2012/2014',
  'mssql:7_3_A': 'SQL Server 2008 R2',
  'mssql:7_3_B': 'SQL Server 2008',
  'mssql:7_2': 'SQL Server 2005',
  'mssql:7_1': 'SQL Server 2000',
} as const;
export type CardSourceType = keyof typeof CARD_SOURCE_TYPES;
export const CARD_SOURCE_TYPE_IDS = Object.keys(CARD_SOURCE_TYPES) as [CardSourceType, ...CardSourceType[]];

/** The port the form proposes for a type (spec §9): SQL Server 1433, MySQL 3306, PostgreSQL 5432. */
export function cardSourceDefaultPort(type: CardSourceType): number {
  if (type === 'mysql') return 3306;
  if (type === 'postgres') return 5432;
  return 1433;
}

/**
 * The type of the built-in sources: Centralino's own database (SQLite or PostgreSQL, whichever the server
 * runs on). Never offered for a new source.
 */
export const CARD_SOURCE_BUILTIN_TYPE = 'centralino';
/** The built-in sources, by name: the central phonebook and the call records (contract §6.7, ids 1 and 2). */
export const CARD_SOURCE_BUILTIN_NAMES = ['phonebook', 'asteriskcdrdb'] as const;

/** How long a connection check waits for the server to accept the connection, and for the trivial select. */
export const CARD_SOURCE_CONNECT_TIMEOUT_MS = 2_000;
export const CARD_SOURCE_REQUEST_TIMEOUT_MS = 3_000;

registerItalianMessages({
  'Choose a database type': 'Scegli un tipo di database',
  'Host is required': "L'host è obbligatorio",
  'A host name or IP address, without spaces': 'Un nome host o un indirizzo IP, senza spazi',
  'A port from 1 to 65535': 'Una porta da 1 a 65535',
  'User is required': "L'utente è obbligatorio",
  'Database name is required': 'Il nome del database è obbligatorio',
  'At most 255 characters': 'Al massimo 255 caratteri',
  'Give the source id or the whole connection': "Indica l'id della sorgente o l'intera connessione",
});

const text = (required: string) =>
  z.string({ error: required }).trim().min(1, required).max(255, 'At most 255 characters').check(noControlChars);

const type = z.enum(CARD_SOURCE_TYPE_IDS, { error: 'Choose a database type' });
const host = text('Host is required').regex(/^[^\s/\\]+$/, 'A host name or IP address, without spaces');
/** A string (as the original sends it) or a number. */
const port = z.coerce
  .number({ error: 'A port from 1 to 65535' })
  .int('A port from 1 to 65535')
  .min(1, 'A port from 1 to 65535')
  .max(65_535, 'A port from 1 to 65535');
const user = text('User is required');
/** Write-only: never in an answer. Empty = no password. */
const pass = secret(z.string().max(255, 'At most 255 characters').check(noControlChars));
/** The database name (the form's 'Database name'); unique among the sources, built-in ones included. */
const name = text('Database name is required');

/** POST /api/cti/dbconn: a new source. Saved only when the connection answers (see POST /api/dbconn/test). */
export const cardSourceCreateSchema = z
  .object({ type, host, port, user, pass: pass.optional(), name })
  .meta({ id: 'CardSourceCreate' });
export type CardSourceCreate = z.input<typeof cardSourceCreateSchema>;

/**
 * PUT (or POST) /api/cti/dbconn/{id}: any of the columns; other keys are ignored. A missing `pass` keeps the
 * stored password. The source as it would be afterwards must answer the connection check.
 */
export const cardSourcePatchSchema = z
  .object({
    type: type.optional(),
    host: host.optional(),
    port: port.optional(),
    user: user.optional(),
    pass: pass.optional(),
    name: name.optional(),
  })
  .meta({ id: 'CardSourcePatch' });
export type CardSourcePatch = z.input<typeof cardSourcePatchSchema>;

/**
 * POST /api/dbconn/test: the connection to check. With `id`, the stored source is checked with the given
 * fields laid over it (a missing `pass` uses the stored password, which the console never sees); without it,
 * type, host, port, user and name are required.
 */
export const cardSourceTestSchema = cardSourcePatchSchema
  .extend({ id: z.coerce.number().int().min(1).max(2_147_483_647).optional() })
  .superRefine((value, ctx) => {
    if (value.id !== undefined) return;
    const missing: [keyof typeof value, string][] = [
      ['type', 'Choose a database type'],
      ['host', 'Host is required'],
      ['port', 'A port from 1 to 65535'],
      ['user', 'User is required'],
      ['name', 'Database name is required'],
    ];
    for (const [field, message] of missing) {
      if (value[field] === undefined) ctx.addIssue({ code: 'custom', path: [field], message });
    }
  })
  .meta({ id: 'CardSourceTest' });
export type CardSourceTest = z.input<typeof cardSourceTestSchema>;

/** A source as listed: never its password. Built-in sources have no host, port or user. */
export const cardSourceSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    type: z.enum([...CARD_SOURCE_TYPE_IDS, CARD_SOURCE_BUILTIN_TYPE]),
    host: z.string().nullable(),
    port: z.number().int().nullable(),
    user: z.string().nullable(),
    /** A (non-empty) password is stored. */
    has_password: z.boolean(),
    /** Centralino's own phonebook or call records: read-only to cards, neither editable nor deletable. */
    builtin: z.boolean(),
    /** ISO 8601. */
    creation: z.string(),
  })
  .meta({ id: 'CardSource' });
export type CardSource = z.infer<typeof cardSourceSchema>;
export const cardSourceListSchema = z.array(cardSourceSchema).meta({ id: 'CardSources' });

export const cardSourceTypesSchema = z.record(z.string(), z.string()).meta({ id: 'CardSourceTypes' });

/** The check answered: the connection was made and `select 1` ran (a failure is an error answer). */
export const cardSourceTestResultSchema = z
  .object({ status: z.literal(true), elapsed_ms: z.number().int() })
  .meta({ id: 'CardSourceTestResult' });
