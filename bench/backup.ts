// Backup and restore at 10,000 users (two CSV imports) plus a 50 MB phone file of random bytes (it does not compress): how long a backup takes, how big it
// is, how long an upload's check and the restore take, and the server's resident memory (the upload is streamed
// to disk, so the peak must not grow by the archive's size). SQLite, and PostgreSQL when it is reachable.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { onThrowawayPostgres, pidsOnPort, startServer } from './lib.ts';
import { type Headers, importAndWait, post, signIn, usersCsv } from './seed.ts';

const PASSWORD = 'bench-password-1';

/** Resident set size now and at its peak (VmRSS, VmHWM), MB. */
function memory(port: number): { rss: number; peak: number } {
  const [pid] = pidsOnPort(port);
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: Math.round(kb('VmRSS') / 1024), peak: Math.round(kb('VmHWM') / 1024) };
}

async function run(label: string, env: Record<string, string>) {
  console.log(`\n### ${label}`);
  const server = await startServer({ ADMIN_PASSWORD: PASSWORD, LOGIN_RATE_LIMIT: '1000', ...env });
  const port = Number(new URL(server.url).port);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'centralino-bench-backup-'));
  try {
    const headers: Headers = await signIn(server.url, PASSWORD);
    const auth = { User: headers.User as string, Secretkey: headers.Secretkey as string };
    await post(`${server.url}/api/configuration/mode`, headers, { mode: 'legacy' });
    await new Promise((r) => setTimeout(r, 200));
    await importAndWait(server.url, headers, usersCsv(0, 5000));
    await importAndWait(server.url, headers, usersCsv(5000, 5000));
    const firmware = new FormData();
    firmware.append('0', new Blob([randomBytes(50 * 1024 * 1024)]), 'firmware.rom');
    const up = await fetch(`${server.url}/api/provisioning/v1/firmware`, {
      method: 'POST',
      headers: auth,
      body: firmware,
    });
    if (!up.ok) throw new Error(`firmware upload: ${up.status}`);
    console.log(`  memory after seeding: ${JSON.stringify(memory(port))} MB`);

    let started = performance.now();
    const res = await fetch(`${server.url}/api/backup`, { headers: auth });
    const archive = path.join(tmp, 'backup.tar.gz');
    fs.writeFileSync(archive, Buffer.from(await res.arrayBuffer()));
    const size = fs.statSync(archive).size;
    console.log(
      `  backup (10,000 users, 50 MB file): ${(performance.now() - started).toFixed(0)} ms, ${(size / 1024 / 1024).toFixed(1)} MB`,
    );
    console.log(`  memory after the backup: ${JSON.stringify(memory(port))} MB`);

    started = performance.now();
    const form = new FormData();
    form.append('file', new Blob([fs.readFileSync(archive)]), 'backup.tar.gz');
    const staged = await fetch(`${server.url}/api/backup/uploads`, { method: 'POST', headers: auth, body: form });
    const summary = (await staged.json()) as { id: string; tables: { name: string; rows: number }[] };
    console.log(`  upload and check: ${(performance.now() - started).toFixed(0)} ms (${staged.status})`);
    console.log(`  memory after the upload: ${JSON.stringify(memory(port))} MB`);

    started = performance.now();
    const restored = await fetch(`${server.url}/api/backup/uploads/${summary.id}/restore`, {
      method: 'POST',
      headers: auth,
    });
    console.log(
      `  restore: ${(performance.now() - started).toFixed(0)} ms (${restored.status}) ${await restored.text()}`,
    );
    console.log(`  memory after the restore: ${JSON.stringify(memory(port))} MB`);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
    await server.stop();
  }
}

await run('SQLite', {});
await onThrowawayPostgres((url) => run('PostgreSQL', { DATABASE_URL: url }));
