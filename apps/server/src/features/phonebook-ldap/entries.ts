import { createHash, randomBytes } from 'node:crypto';

/** Where phones search (contract provisioning §7.1, api-admin §9.9). */
export const PHONEBOOK_BASE_DN = 'dc=phonebook,dc=nh';
/** The read-only bind user of the TLS service. */
export const PHONEBOOK_BIND_DN = `cn=ldapuser,${PHONEBOOK_BASE_DN}`;

/** A contact of the central phonebook as stored (phonebook_contacts). */
export interface StoredContact {
  name: string | null;
  company: string | null;
  title: string | null;
  workphone: string | null;
  cellphone: string | null;
  homephone: string | null;
  fax: string | null;
  workemail: string | null;
  homeemail: string | null;
  type: string | null;
}

export type EntryAttributes = Record<string, string | string[]>;

export interface PhonebookEntry {
  /** The RDN value: a hash of the attributes, so an unchanged contact keeps its entry across syncs. */
  uid: string;
  attributes: EntryAttributes;
}

/**
 * telephoneNumber, mobile and homePhone are PrintableStrings: slapd refuses an entry whose number holds `*`, `#`,
 * letters with accents or the like. Phones match the digits; spaces, dots and dashes are kept for display.
 */
function printableNumber(value: string | null): string | undefined {
  if (!value) return undefined;
  const cleaned = value
    .replace(/[^0-9A-Za-z +()./,:?=-]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return /\d/.test(cleaned) ? cleaned : undefined;
}

/** Directory strings must not be empty; control characters (a stray tab or newline in a CSV cell) become spaces. */
function text(value: string | null): string | undefined {
  const trimmed = value
    ? Array.from(value, (c) => (c.charCodeAt(0) < 32 ? ' ' : c))
        .join('')
        .trim()
    : '';
  return trimmed ? trimmed : undefined;
}

/**
 * One contact as the phones see it: the attributes GET /api/phonebook/ldap names (cn, o, telephoneNumber, mobile,
 * homePhone), plus fax, mail and title for phones that show them. A contact without a name or a number is not a
 * directory entry (the sync already skips such rows; a PBX user without a name is the case left).
 */
export function contactEntry(contact: StoredContact): PhonebookEntry | undefined {
  const cn = text(contact.name);
  const numbers = {
    telephoneNumber: printableNumber(contact.workphone),
    mobile: printableNumber(contact.cellphone),
    homePhone: printableNumber(contact.homephone),
    facsimileTelephoneNumber: printableNumber(contact.fax),
  };
  if (!cn || !Object.values(numbers).some(Boolean)) return undefined;
  const attributes: EntryAttributes = {
    objectClass: ['top', 'person', 'organizationalPerson', 'inetOrgPerson'],
    cn,
    // inetOrgPerson requires a surname; phones read cn.
    sn: cn,
  };
  const optional: Record<string, string | undefined> = {
    o: text(contact.company),
    title: text(contact.title),
    ...numbers,
    description: text(contact.type),
  };
  for (const [key, value] of Object.entries(optional)) if (value) attributes[key] = value;
  const mail = [...new Set([text(contact.workemail), text(contact.homeemail)].filter((m): m is string => !!m))];
  if (mail.length > 0) attributes.mail = mail;
  const uid = createHash('sha1').update(JSON.stringify(attributes)).digest('hex').slice(0, 24);
  attributes.uid = uid;
  return { uid, attributes };
}

export function entryDn(uid: string): string {
  return `uid=${uid},${PHONEBOOK_BASE_DN}`;
}

/** An {SSHA} userPassword value, the scheme every slapd checks without extra modules. */
export function sshaPassword(password: string, salt: Buffer = randomBytes(8)): string {
  const digest = createHash('sha1').update(password).update(salt).digest();
  return `{SSHA}${Buffer.concat([digest, salt]).toString('base64')}`;
}

/** One LDIF record; values that LDIF cannot carry as they are (non-ASCII, leading space or colon…) in base64. */
export function ldifRecord(dn: string, attributes: EntryAttributes): string {
  const line = (name: string, value: string) =>
    /^[\x21-\x39\x3b\x3d-\x7e][\x20-\x7e]*$/.test(value) && !value.endsWith(' ')
      ? `${name}: ${value}\n`
      : `${name}:: ${Buffer.from(value, 'utf8').toString('base64')}\n`;
  let record = line('dn', dn);
  for (const [name, value] of Object.entries(attributes)) {
    for (const v of Array.isArray(value) ? value : [value]) record += line(name, v);
  }
  return `${record}\n`;
}

/** The base entry and the bind user, which every copy of the phonebook starts with. */
export function skeletonRecords(bindPassword: string): Array<{ dn: string; attributes: EntryAttributes }> {
  return [
    {
      dn: PHONEBOOK_BASE_DN,
      attributes: { objectClass: ['top', 'dcObject', 'organization'], dc: 'phonebook', o: 'Phonebook' },
    },
    {
      dn: PHONEBOOK_BIND_DN,
      attributes: {
        objectClass: ['top', 'organizationalRole', 'simpleSecurityObject'],
        cn: 'ldapuser',
        userPassword: sshaPassword(bindPassword),
      },
    },
  ];
}
