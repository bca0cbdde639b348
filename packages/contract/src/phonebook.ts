import { z } from 'zod';
import { LIST_PAGE_SIZE } from './limits.ts';
import { secret } from './secret.ts';
import { noControlChars, registerItalianMessages } from './text.ts';

/** Destination fields of the central phonebook (contract api-admin §9.1), alphabetical as GET /phonebook/fields. */
export const PHONEBOOK_FIELDS = [
  'cellphone',
  'company',
  'fax',
  'homecity',
  'homecountry',
  'homeemail',
  'homephone',
  'homepob',
  'homepostalcode',
  'homeprovince',
  'homestreet',
  'name',
  'notes',
  'owner_id',
  'title',
  'url',
  'workcity',
  'workcountry',
  'workemail',
  'workphone',
  'workpob',
  'workpostalcode',
  'workprovince',
  'workstreet',
] as const;
export type PhonebookField = (typeof PHONEBOOK_FIELDS)[number];
/** Number fields: a contact needs a name and one of these to be kept. */
export const PHONEBOOK_NUMBER_FIELDS = ['workphone', 'cellphone', 'homephone', 'fax'] as const;

/** Sync intervals in minutes (spec §9), default a day. */
export const PHONEBOOK_INTERVALS = [15, 30, 60, 360, 1440] as const;
export const PHONEBOOK_DEFAULT_INTERVAL = 1440;
export const PHONEBOOK_DEFAULT_QUERY = 'SELECT * FROM [table]';
/** Rows a connection check shows. */
export const PHONEBOOK_PREVIEW_ROWS = 3;

const required = (name: string) => `${name} is required`;
registerItalianMessages({
  'Host is required': "L'host è obbligatorio",
  'Port is required': 'La porta è obbligatoria',
  'User is required': "L'utente è obbligatorio",
  'Database is required': 'Il database è obbligatorio',
  'Query is required': 'La query è obbligatoria',
  'An http(s):// address or an uploaded file': 'Un indirizzo http(s):// o un file caricato',
  'Map at least the name': 'Associa almeno il nome',
  'Choose an interval': 'Scegli un intervallo',
});

const text = (max: number) => z.string().trim().max(max).check(noControlChars);
const interval = z.coerce
  .number()
  .refine((n) => (PHONEBOOK_INTERVALS as readonly number[]).includes(n), 'Choose an interval');
const mapping = z
  .record(z.string().max(255), z.enum(PHONEBOOK_FIELDS))
  .refine((m) => Object.values(m).includes('name'), 'Map at least the name');

const mysqlConnection = z.object({
  dbtype: z.literal('mysql'),
  host: text(255).min(1, required('Host')),
  port: z.coerce
    .string()
    .trim()
    .regex(/^\d{1,5}$/, required('Port')),
  user: text(255).min(1, required('User')),
  /** Absent on an update: the stored password stays. */
  password: secret(z.string().max(255)).optional(),
  dbname: text(255).min(1, required('Database')),
  query: z.string().trim().min(1, required('Query')).max(10_000),
});
const csvConnection = z.object({
  dbtype: z.literal('csv'),
  /** http(s):// or the file:/// uri that POST /api/phonebook/uploadfile answered. */
  url: text(2000).regex(/^(https?:\/\/|file:\/\/\/).+/, 'An http(s):// address or an uploaded file'),
});

/** What the connection check needs (POST /api/phonebook/test): the source without mapping and settings. */
export const phonebookConnectionSchema = z
  .discriminatedUnion('dbtype', [mysqlConnection, csvConnection])
  .meta({ id: 'PhonebookConnection' });
export type PhonebookConnection = z.input<typeof phonebookConnectionSchema>;

const settings = z.object({
  mapping,
  /** Label of the source, stored in each contact's type. */
  type: text(255).optional(),
  interval: interval.default(PHONEBOOK_DEFAULT_INTERVAL),
  enabled: z.boolean().default(false),
});
/** A source as the 3-step modal saves it (POST /api/phonebook/config[/{id}]). */
export const phonebookSourceWriteSchema = z
  .discriminatedUnion('dbtype', [mysqlConnection.extend(settings.shape), csvConnection.extend(settings.shape)])
  .meta({ id: 'PhonebookSourceWrite' });
export type PhonebookSourceWrite = z.input<typeof phonebookSourceWriteSchema>;

/** When a source last synced, as the card shows it. */
export const phonebookSyncStatusSchema = z.object({
  at: z.number().int().nullable(),
  contacts: z.number().int().nullable(),
  skipped: z.number().int().nullable(),
  error: z.string().nullable(),
});

/** A source as listed (GET /api/phonebook/config): never its password. */
export const phonebookSourceSchema = z
  .object({
    dbtype: z.enum(['mysql', 'csv']),
    host: z.string().optional(),
    port: z.string().optional(),
    user: z.string().optional(),
    dbname: z.string().optional(),
    query: z.string().optional(),
    url: z.string().optional(),
    mapping: z.record(z.string(), z.string()),
    type: z.string(),
    interval: z.string(),
    enabled: z.boolean(),
    /** A password is stored (read it with GET /api/phonebook/config/{id}/password). */
    has_password: z.boolean(),
    sync: phonebookSyncStatusSchema,
  })
  .meta({ id: 'PhonebookSource' });
export type PhonebookSource = z.infer<typeof phonebookSourceSchema>;
export const phonebookSourceListSchema = z.record(z.string(), phonebookSourceSchema).meta({ id: 'PhonebookSources' });

/** The connection check: up to 3 rows keyed by source column, or why it failed. */
export const phonebookTestResultSchema = z
  .union([z.array(z.record(z.string(), z.string())), z.object({ status: z.literal(false), error: z.string() })])
  .meta({ id: 'PhonebookTestResult' });
export type PhonebookTestResult = z.infer<typeof phonebookTestResultSchema>;

/** The built-in sources that feed the central phonebook (GET /api/phonebook/sources). */
export const phonebookBuiltinSourcesSchema = z
  .object({ extensions: z.boolean(), nethcti: z.boolean(), speeddial: z.boolean() })
  .meta({ id: 'PhonebookBuiltinSources' });
export const PHONEBOOK_BUILTIN_SOURCES = ['extensions', 'nethcti', 'speeddial'] as const;

/** Contacts a page of GET /api/phonebook/contacts holds at most. */
export const PHONEBOOK_CONTACTS_MAX_PAGE = 200;

/** A page of the central phonebook as the phones see it, filtered by a search. */
export const phonebookContactsQuerySchema = z.object({
  /** Part of the name, company, a number or an e-mail address; any case. */
  search: z.string().trim().max(100).optional(),
  offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(PHONEBOOK_CONTACTS_MAX_PAGE).default(LIST_PAGE_SIZE),
});
// No id: a query string is described inline in the API document (a reference there breaks it).
export type PhonebookContactsQuery = z.input<typeof phonebookContactsQuerySchema>;

export const phonebookContactSchema = z
  .object({
    id: z.number().int(),
    name: z.string().nullable(),
    company: z.string().nullable(),
    workphone: z.string().nullable(),
    cellphone: z.string().nullable(),
    homephone: z.string().nullable(),
    workemail: z.string().nullable(),
    /** The source's name (the PBX users' is 'extension'). */
    type: z.string().nullable(),
  })
  .meta({ id: 'PhonebookContact' });
export type PhonebookContact = z.infer<typeof phonebookContactSchema>;

export const phonebookContactPageSchema = z
  .object({
    items: z.array(phonebookContactSchema),
    /** Contacts matching the search. */
    total: z.number().int(),
  })
  .meta({ id: 'PhonebookContactPage' });
export type PhonebookContactPage = z.infer<typeof phonebookContactPageSchema>;
