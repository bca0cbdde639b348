import { z } from 'zod';
import { secret } from './secret.ts';

/** Where PBX users come from: the built-in directory ('legacy' mode) or an external one ('uc' mode). */
export const directoryModes = ['legacy', 'uc'] as const;
export type DirectoryMode = (typeof directoryModes)[number];
export const modeRequestSchema = z.object({ mode: z.enum(directoryModes) }).meta({ id: 'ModeRequest' });
export const modeResponseSchema = z.object({ result: z.string() }).meta({ id: 'ModeResponse' });
export const currentModeSchema = z.object({ result: z.enum(['legacy', 'uc', 'unknown']) });

/** GET /configuration/userprovider: configured 0 before the first choice. */
export const userProviderSchema = z
  .object({
    configured: z.union([z.literal(0), z.literal(1)]),
    type: z.enum(['ldap', 'ad']).optional(),
    local: z.union([z.literal(0), z.literal(1)]).optional(),
    domain: z.string().optional(),
  })
  .meta({ id: 'UserProvider' });
export type UserProvider = z.infer<typeof userProviderSchema>;

/** A background task as GET /tasks/{id} shows it; progress -1 means it failed. */
export const taskSchema = z
  .object({
    task: z.string(),
    action: z.string(),
    progress: z.number().int().min(-1).max(100),
    error: z.string().optional(),
  })
  .meta({ id: 'Task' });
export type Task = z.infer<typeof taskSchema>;

export const ldapSecurities = ['none', 'starttls', 'ldaps'] as const;
export type LdapSecurity = (typeof ldapSecurities)[number];
export const ldapKinds = ['ldap', 'ad'] as const;
export type LdapKind = (typeof ldapKinds)[number];

const ldapAttribute = z
  .string()
  .trim()
  .max(64)
  .regex(/^[A-Za-z][A-Za-z0-9-]*$/, 'Attribute names are letters, digits and hyphens');
const optionalAttribute = z.union([z.literal(''), ldapAttribute]);
const dn = z.string().trim().max(1024);

/** Which LDAP attribute holds each user field. */
export const ldapAttributesSchema = z.object({
  username: ldapAttribute,
  displayname: ldapAttribute,
  fname: optionalAttribute,
  lname: optionalAttribute,
  email: optionalAttribute,
});
export type LdapAttributes = z.infer<typeof ldapAttributesSchema>;

/** Connection to an existing LDAP server or Active Directory. */
export const ldapSettingsSchema = z
  .object({
    kind: z.enum(ldapKinds),
    host: z
      .string()
      .trim()
      .min(1)
      .max(253)
      .regex(/^[A-Za-z0-9.:[\]-]+$/, 'Enter a host name or an IP address'),
    port: z.number().int().min(1).max(65535),
    security: z.enum(ldapSecurities),
    /** Accept a server certificate that does not verify (self-signed test servers). */
    allowInvalidCertificate: z.boolean(),
    bindDn: dn,
    /** Write-only: GET answers it empty; an empty value on save keeps the stored one. */
    bindPassword: secret(z.string().max(256)),
    baseDn: dn.min(1),
    /** An LDAP filter selecting user entries, e.g. (objectClass=inetOrgPerson). */
    userFilter: z
      .string()
      .trim()
      .min(3)
      .max(1024)
      .regex(/^\(.*\)$/s, 'A filter starts with ( and ends with )'),
    attributes: ldapAttributesSchema,
  })
  .meta({ id: 'LdapSettings' });
export type LdapSettings = z.infer<typeof ldapSettingsSchema>;

export const ldapPresets: Record<LdapKind, Omit<LdapSettings, 'host' | 'bindDn' | 'bindPassword' | 'baseDn'>> = {
  ldap: {
    kind: 'ldap',
    port: 389,
    security: 'none',
    allowInvalidCertificate: false,
    userFilter: '(objectClass=inetOrgPerson)',
    attributes: { username: 'uid', displayname: 'cn', fname: 'givenName', lname: 'sn', email: 'mail' },
  },
  ad: {
    kind: 'ad',
    port: 636,
    security: 'ldaps',
    allowInvalidCertificate: false,
    userFilter: '(&(objectCategory=person)(objectClass=user)(!(userAccountControl:1.2.840.113556.1.4.803:=2)))',
    attributes: {
      username: 'sAMAccountName',
      displayname: 'displayName',
      fname: 'givenName',
      lname: 'sn',
      email: 'mail',
    },
  },
};

/** Test of a connection: optionally looks one user up by name to check the attribute mapping. */
export const ldapTestRequestSchema = z
  .object({ settings: ldapSettingsSchema, username: z.string().trim().max(256).optional() })
  .meta({ id: 'LdapTestRequest' });
export type LdapTestRequest = z.infer<typeof ldapTestRequestSchema>;

export const directoryUserSchema = z.object({
  username: z.string(),
  displayname: z.string(),
  fname: z.string().nullable(),
  lname: z.string().nullable(),
  email: z.string().nullable(),
});
export type DirectoryUser = z.infer<typeof directoryUserSchema>;

export const ldapTestResultSchema = z
  .object({
    users: z.number().int(),
    /** Entries that match the filter but lack the username attribute; they are not imported. */
    skipped: z.number().int(),
    sample: z.array(directoryUserSchema),
    /** The looked-up user, null when the name matched nothing; absent when no name was given. */
    found: directoryUserSchema.nullable().optional(),
  })
  .meta({ id: 'LdapTestResult' });
export type LdapTestResult = z.infer<typeof ldapTestResultSchema>;

/** dc=example,dc=com → example.com (the user domain shown in the portal link). */
export function domainOfBaseDn(baseDn: string): string {
  return baseDn
    .split(',')
    .map((part) => part.trim())
    .filter((part) => /^dc=/i.test(part))
    .map((part) => part.slice(3).toLowerCase())
    .join('.');
}
