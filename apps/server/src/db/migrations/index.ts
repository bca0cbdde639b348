import type { Migration } from 'kysely';
import { initial } from './0001_initial.ts';
import { users } from './0002_users.ts';
import { cti } from './0003_cti.ts';
import { trunks } from './0005_trunks.ts';

/** Ordered by name; add new migrations at the end and never edit a released one. */
export const migrations: Record<string, Migration> = {
  '0001_initial': initial,
  '0002_users': users,
  '0003_cti': cti,
  '0005_trunks': trunks,
};
