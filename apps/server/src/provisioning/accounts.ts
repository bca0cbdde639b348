import { hasControlCharacters, MAX_ACCOUNTS } from '@centralino/contract';
import { z } from 'zod';

/**
 * A SIP account (line) the PBX gives a phone. The PBX side owns these: it calls
 * ProvisioningService.setPhoneAccounts(mac, accounts) whenever a phone's extensions, secrets or encryption
 * change. Line 1 is accounts[0]. Unset fields follow the defaults scope: server = `hostname`, transport
 * = TLS with SRTP when `srtp`, else UDP, port = `sip_tls_port` / `sip_udp_port` by transport.
 */
export const phoneAccountSchema = z.object({
  /** Device extension, also the SIP user name unless `username` is given. */
  extension: z.string().regex(/^[0-9A-Za-z_.+*#-]{1,40}$/),
  secret: z
    .string()
    .max(128)
    .refine((v) => !hasControlCharacters(v), 'no control characters'),
  /** Name shown on the display and sent as caller name, e.g. "Mario Rossi <201>". */
  displayName: z
    .string()
    .max(128)
    .refine((v) => !hasControlCharacters(v), 'no control characters'),
  username: z
    .string()
    .regex(/^[0-9A-Za-z_.+*#-]{1,40}$/)
    .optional(),
  server: z
    .string()
    .regex(/^[A-Za-z0-9.:[\]-]{1,253}$/)
    .optional(),
  port: z.number().int().min(1).max(65535).optional(),
  transport: z.enum(['udp', 'tcp', 'tls']).optional(),
  /** Encrypted media; also selects TLS signalling unless `transport` says otherwise. */
  srtp: z.boolean().default(false),
  dtmfType: z.enum(['rfc4733', 'inband', 'sip_info']).default('rfc4733'),
  /** Voicemail feature code dialled by the message key, e.g. *97. */
  voicemail: z.string().max(16).optional(),
  /** The user may change DND / call forward from the phone. */
  dndAllow: z.boolean().default(true),
  fwdAllow: z.boolean().default(true),
});
export type PhoneAccount = z.input<typeof phoneAccountSchema>;
export type StoredAccount = z.output<typeof phoneAccountSchema>;
export const phoneAccountsSchema = z.array(phoneAccountSchema).max(MAX_ACCOUNTS);

/** The contract's account_*_N variables of the stored accounts (contract §4.9). */
export function accountVariables(accounts: StoredAccount[]): Record<string, string> {
  const vars: Record<string, string> = {};
  accounts.forEach((account, i) => {
    const n = i + 1;
    vars[`account_extension_${n}`] = account.extension;
    vars[`account_username_${n}`] = account.username ?? account.extension;
    vars[`account_password_${n}`] = account.secret;
    vars[`account_display_name_${n}`] = account.displayName;
    vars[`account_encryption_${n}`] = account.srtp ? '1' : '';
    vars[`account_dtmf_type_${n}`] = account.dtmfType;
    vars[`account_voicemail_${n}`] = account.voicemail ?? '';
    vars[`account_dnd_allow_${n}`] = account.dndAllow ? '1' : '';
    vars[`account_fwd_allow_${n}`] = account.fwdAllow ? '1' : '';
  });
  return vars;
}

export function parseStoredAccounts(json: string): StoredAccount[] {
  try {
    return phoneAccountsSchema.parse(JSON.parse(json));
  } catch {
    return [];
  }
}
