// Seeding shared by the benches: sign in, POST, a CSV of users with extensions, a MariaDB phonebook source.
import mysql from 'mysql2/promise';

export type Headers = Record<string, string>;

export async function signIn(url: string, password: string): Promise<Headers> {
  const res = await fetch(`${url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password }),
  });
  const { user, secretkey } = (await res.json()) as { user: string; secretkey: string };
  return { User: user, Secretkey: secretkey, 'content-type': 'application/json' };
}

export async function post(url: string, headers: Headers, body: unknown) {
  const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** `count` users from number `from`, base64 as the import call takes it: extension 10000+i, mobile, a third with voicemail. */
export function usersCsv(from: number, count: number): string {
  const lines = ['username,fullname,extension,password,mobile,voicemail'];
  for (let i = from; i < from + count; i++) {
    lines.push(
      `user${i},Person ${i} Surname${i % 97},${10000 + i},Pw${i}x,00393331${String(i).padStart(6, '0')},${i % 3 === 0 ? 'TRUE' : ''}`,
    );
  }
  return Buffer.from(lines.join('\n')).toString('base64');
}

/** Imports a CSV (base64) and waits until the import job is done; answers its duration in ms. */
export async function importAndWait(url: string, headers: Headers, file: string): Promise<number> {
  const started = performance.now();
  await post(`${url}/api/csv/csvimport`, headers, { file });
  for (;;) {
    const res = await fetch(`${url}/api/csv/csvimport`, { headers });
    const status = (await res.json()) as { result: number };
    if (status.result === -1) throw new Error(`CSV import failed: ${JSON.stringify(status).slice(0, 300)}`);
    if (status.result === 100) return performance.now() - started;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Runs `work` over `items` with `concurrency` in flight. */
export async function pool<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await work(items[next++] as T);
    }),
  );
}

/**
 * A MariaDB database `db` with a `contacts` table of `count` rows (name, company, phone, mobile on two of three,
 * email), as a CRM would hold them; undefined, after saying why, when MariaDB is not reachable as root.
 * Contact n: 'Contact n Surname(n % 997)', 'Company (n % 5000)', phone 0721 + n in 6 digits, mobile 333 + n in 7.
 */
export async function mariadbContacts(db: string, count: number): Promise<mysql.Connection | undefined> {
  let maria: mysql.Connection;
  try {
    maria = await mysql.createConnection({
      host: '127.0.0.1',
      port: 3306,
      user: 'root',
      password: '',
      multipleStatements: true,
    });
  } catch (error) {
    console.log(`  skipped: MariaDB on 127.0.0.1:3306 is not reachable as root (${(error as Error).message})`);
    return undefined;
  }
  await maria.query(`DROP DATABASE IF EXISTS ${db}; CREATE DATABASE ${db} CHARACTER SET utf8mb4;`);
  await maria.query(
    `CREATE TABLE ${db}.contacts (id INT PRIMARY KEY, name VARCHAR(80), company VARCHAR(80), phone VARCHAR(30), mobile VARCHAR(30), email VARCHAR(80))`,
  );
  for (let i = 0; i < count; i += 5000) {
    const rows = Array.from({ length: Math.min(5000, count - i) }, (_, k) => {
      const n = i + k;
      return [
        n,
        `Contact ${n} Surname${n % 997}`,
        `Company ${n % 5000}`,
        `0721${String(n).padStart(6, '0')}`,
        n % 3 ? `333${String(n).padStart(7, '0')}` : null,
        `c${n}@example.com`,
      ];
    });
    await maria.query(`INSERT INTO ${db}.contacts VALUES ?`, [rows]);
  }
  return maria;
}

/** The phonebook source reading that table, created on the server; answers its id. */
export async function mariadbSource(url: string, headers: Headers, db: string): Promise<string> {
  const { id } = (await post(`${url}/api/phonebook/config`, headers, {
    dbtype: 'mysql',
    host: '127.0.0.1',
    port: '3306',
    user: 'root',
    password: '',
    dbname: db,
    query: 'SELECT name, company, phone, mobile, email FROM contacts',
    mapping: { name: 'name', company: 'company', phone: 'workphone', mobile: 'cellphone', email: 'workemail' },
    type: 'CRM',
    interval: 1440,
    enabled: false,
  })) as { id: string };
  return id;
}
