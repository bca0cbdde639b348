import { dropFirstStartPorts } from '../../db/migrations/0033_prov_sip_ports.ts';

/**
 * A backup from an earlier migration level is loaded into today's tables: a column added since takes its default,
 * a table added since stays empty. A migration that rewrites existing rows (renames a value, splits a column; 0033
 * drops the SIP ports first starts copied into the provisioning defaults) adds here what it does to a row of an
 * older backup, so that "a backup from version N restores on N+1" stays true: rows of `table` in a backup taken
 * before `migration` pass through `upgrade` (column name → value, as in the dump) before they are inserted.
 */
export interface RowUpgrade {
  migration: string;
  table: string;
  upgrade(row: Record<string, unknown>): Record<string, unknown>;
}

export const ROW_UPGRADES: RowUpgrade[] = [
  {
    migration: '0033_prov_sip_ports',
    table: 'prov_scopes',
    upgrade: (row) =>
      row.id === 'defaults' && typeof row.variables === 'string'
        ? { ...row, variables: dropFirstStartPorts(row.variables) }
        : row,
  },
];

/** The upgrades a row of `table` from a backup at `level` goes through, oldest first. */
export function upgradesFor(table: string, level: string, upgrades = ROW_UPGRADES): RowUpgrade['upgrade'][] {
  return upgrades
    .filter((u) => u.table === table && u.migration > level)
    .sort((a, b) => a.migration.localeCompare(b.migration))
    .map((u) => u.upgrade);
}
