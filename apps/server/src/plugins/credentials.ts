/**
 * What a read-only account must never read: the values of credential fields (passwords, PINs, SIP secrets, a
 * phone's provisioning tokens, which open its SIP credentials) anywhere in an answer. Matched by field name, so
 * a phone's free-form variables (`adminpw`, `userpw`, `ldap_password`, `account_password_1`) are covered too.
 * `has_password` and other flags are booleans and stay. Narrower than the audit's safety net (features/audit/redact.ts):
 * an answer's `code`, `key` and `token`-named fields (an error's code, a settings key) are not credentials to hide.
 */
const CREDENTIAL_FIELD =
  /password|passwd|(^|_)pass$|secret|pwd|(^|_)pin$|^tok[12]$|adminpw|userpw|^fcode_pass$|private_?key/i;

/** A URL's user information (`user:password@`) is a credential too (streaming cameras, CSV sources). */
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^/@\s:]+:[^/@\s]*@/gi;

export const HIDDEN = '';

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !Buffer.isBuffer(value);
}

/**
 * A copy of an answer with every credential blanked. Tokens also vanish from the sibling strings that embed them
 * (`provisioning_url1/2`), replaced by asterisks so a Pending phone still shows as Pending.
 */
export function hideCredentials(value: unknown, depth = 0): unknown {
  if (depth > 30) return value;
  if (typeof value === 'string') return value.replace(URL_USERINFO, '$1');
  if (Array.isArray(value)) return value.map((item) => hideCredentials(item, depth + 1));
  if (!isRecord(value)) return value;
  const tokens = [value.tok1, value.tok2].filter((t): t is string => typeof t === 'string' && t.length > 0);
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (typeof inner === 'string' && CREDENTIAL_FIELD.test(key)) {
      out[key] = inner === '' ? inner : HIDDEN;
      // A token keeps its place (a Pending phone is one with a tok1), not its value.
      if (/^tok[12]$/.test(key)) out[key] = '********';
      continue;
    }
    let shown = hideCredentials(inner, depth + 1);
    if (typeof shown === 'string') for (const token of tokens) shown = (shown as string).split(token).join('********');
    out[key] = shown;
  }
  return out;
}
