/**
 * Database and SSH drivers load on first use, not with the server: together they took about 1.5 s of every
 * start on two cores (mssql alone 1 s), for card sources, phonebook sources and gateway consoles that many
 * systems use rarely or never. The module system keeps each one after its first load.
 */
export const loadMssql = async () => (await import('mssql')).default;
export const loadMysql = async () => (await import('mysql2')).default;
export const loadMysqlPromise = async () => (await import('mysql2/promise')).default;
export const loadSsh2 = async () => (await import('ssh2')).default;

/** PostgreSQL's driver, with bigint columns read as numbers (they hold millisecond times, well inside Number's exact range). */
export const loadPg = async () => {
  const pg = (await import('pg')).default;
  pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
  return pg;
};
