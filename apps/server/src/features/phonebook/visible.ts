import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** Source id of the PBX users' contacts, rebuilt from the users (PhonebookService.refreshExtensions). */
export const EXTENSIONS_SOURCE = 'extensions';

/**
 * The contacts the phones see: the PBX users and each source's current generation (`contacts_key`; a sync
 * fills a new key, then switches to it, so the rows of a sync under way or of a replaced one are left out).
 * Read by the LDAP mirror the phones search and by the console's list, so both show the same phonebook.
 */
export function visibleContacts(db: Kysely<Database>) {
  return db
    .selectFrom('phonebook_contacts')
    .where((eb) =>
      eb.or([
        eb('source_id', '=', EXTENSIONS_SOURCE),
        eb(
          'source_id',
          'in',
          eb.selectFrom('phonebook_sources').select('contacts_key').where('contacts_key', 'is not', null),
        ),
      ]),
    );
}
