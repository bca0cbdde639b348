import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';

/**
 * The user id of each extension in a list of ring targets (a ring group's members, a follow-me list, a page group):
 * such lists keep users by id, so a renumbered user stays in them. An extension no user has is refused (422) on its
 * field, `<field>.<index>.number`, in the reader's language.
 */
export async function memberUserIds(
  trx: Kysely<Database>,
  list: readonly { type: string; number: string }[],
  field: string,
): Promise<Map<string, number>> {
  const extensions = list.filter((m) => m.type === 'extension').map((m) => m.number);
  if (extensions.length === 0) return new Map();
  const rows = await trx
    .selectFrom('users')
    .select(['id', 'default_extension'])
    .where('default_extension', 'in', extensions)
    .execute();
  const byExtension = new Map(rows.map((r) => [r.default_extension as string, Number(r.id)]));
  const index = list.findIndex((m) => m.type === 'extension' && !byExtension.has(m.number));
  if (index >= 0) {
    const missing = list[index]?.number ?? '';
    throw new AppError(
      422,
      'user_not_found',
      (lang) =>
        lang === 'it'
          ? `Nessun utente ha l'interno ${missing}: scegli un utente esistente o scrivi un numero esterno.`
          : `No user has extension ${missing}: choose an existing user or enter an outside number.`,
      (lang) => ({
        [`${field}.${index}.number`]:
          lang === 'it' ? `Nessun utente ha l'interno ${missing}` : `No user has extension ${missing}`,
      }),
    );
  }
  return byExtension;
}
