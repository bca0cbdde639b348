// Seeding shared by the benches: sign in, POST, and a CSV of users with extensions.

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
