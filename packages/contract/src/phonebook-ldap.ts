import { z } from 'zod';

/**
 * The PBX's own LDAP phonebook service for phones (api-admin §9.9–§9.10): plain `ldap` and TLS `ldaps`.
 * The default-settings modal copies these connection values into the phones' ldap_* variables and switches
 * the chosen service on when it is off.
 */
export const PHONEBOOK_LDAP_TYPES = ['ldap', 'ldaps'] as const;
export type PhonebookLdapType = (typeof PHONEBOOK_LDAP_TYPES)[number];
export const PHONEBOOK_LDAP_STATES = ['enabled', 'disabled'] as const;

export const phonebookLdapEntrySchema = z
  .object({
    enabled: z.boolean(),
    /** Whether the service really answers: a switched-on service whose server could not start is 'failed'. */
    status: z.enum(['stopped', 'starting', 'running', 'failed']),
    /** Why it is not running, when it failed. */
    error: z.string().nullable(),
    /** Host name of the PBX, which serves the phonebook (phones use it when ldap_server is empty). */
    server: z.string(),
    port: z.string(),
    user: z.string(),
    password: z.string(),
    tls: z.enum(['none', 'starttls', 'ldaps']),
    base: z.string(),
    name_display: z.string(),
    mainphone_number_attr: z.string(),
    mobilephone_number_attr: z.string(),
    otherphone_number_attr: z.string(),
    name_attr: z.string(),
    number_filter: z.string(),
    name_filter: z.string(),
  })
  .meta({ id: 'PhonebookLdapEntry' });
export type PhonebookLdapEntry = z.infer<typeof phonebookLdapEntrySchema>;

export const phonebookLdapSchema = z
  .object({ ldap: phonebookLdapEntrySchema, ldaps: phonebookLdapEntrySchema })
  .meta({ id: 'PhonebookLdap' });
export type PhonebookLdap = z.infer<typeof phonebookLdapSchema>;

export const phonebookLdapStatusParamsSchema = z.object({
  type: z.enum(PHONEBOOK_LDAP_TYPES),
  state: z.enum(PHONEBOOK_LDAP_STATES),
});
