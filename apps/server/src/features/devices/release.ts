import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/**
 * Device numbers derive from the main number (contract api-core §10.1), so when a user loses or changes
 * it their phones go back to the inventory, and softphones, custom devices and CTI group memberships go
 * away; gateway FXS ports linked to the old number are freed. Returns the MACs of the released phones: the provisioning engine must stop handing them the old
 * accounts once the transaction has committed.
 */
export async function releaseDevicesOfUsers(trx: Kysely<Database>, userIds: number[]): Promise<string[]> {
  const released: string[] = [];
  for (let i = 0; i < userIds.length; i += 500) {
    const ids = userIds.slice(i, i + 500);
    const phones = await trx
      .selectFrom('devices')
      .select('mac')
      .where('user_id', 'in', ids)
      .where('mac', 'is not', null)
      .execute();
    for (const p of phones) if (p.mac) released.push(p.mac);
    await trx.deleteFrom('devices').where('user_id', 'in', ids).where('mac', 'is', null).execute();
    await trx
      .updateTable('devices')
      .set({ user_id: null, extension: null, secret: null, srtp: null })
      .where('user_id', 'in', ids)
      .execute();
    await trx.deleteFrom('cti_user_groups').where('user_id', 'in', ids).execute();
    // Gateway FXS ports linked to the old number become free ports, as phones go back to the inventory.
    const mains = (await trx.selectFrom('users').select('default_extension').where('id', 'in', ids).execute()).flatMap(
      (u) => (u.default_extension ? [u.default_extension] : []),
    );
    if (mains.length > 0) {
      await trx
        .updateTable('gateway_ports')
        .set({ extension: null, physical_extension: null, secret: null })
        .where('port_type', '=', 'fxs')
        .where('extension', 'in', mains)
        .execute();
    }
  }
  return released;
}
