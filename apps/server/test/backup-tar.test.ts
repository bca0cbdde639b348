import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readTar, TarWriter } from '../src/features/backup/tar.ts';

async function pack(entries: { name: string; bytes: Buffer }[]): Promise<Buffer> {
  const gzip = zlib.createGzip();
  const chunks: Buffer[] = [];
  gzip.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise((r) => gzip.on('end', r));
  const tar = new TarWriter(gzip);
  for (const e of entries) await tar.add(e.name, e.bytes.length, [e.bytes]);
  await tar.end();
  await ended;
  return Buffer.concat(chunks);
}

async function unpack(archive: Buffer): Promise<{ name: string; bytes: Buffer }[]> {
  const out: { name: string; bytes: Buffer }[] = [];
  await readTar(zlib.createGunzip().end(archive), async (entry, content) => {
    const chunks: Buffer[] = [];
    for await (const c of content) chunks.push(c);
    out.push({ name: entry.name, bytes: Buffer.concat(chunks) });
  });
  return out;
}

describe('backup tar format', () => {
  it('reads back what it wrote: empty, block-sized, large, and long names', async () => {
    const entries = [
      { name: 'db/empty.jsonl', bytes: Buffer.alloc(0) },
      { name: 'db/block.jsonl', bytes: Buffer.alloc(512, 1) },
      { name: 'files/provisioning/files/firmware/big', bytes: Buffer.alloc(300_001, 2) },
      { name: `files/phonebook/${'d'.repeat(120)}/${'n'.repeat(90)}.csv`, bytes: Buffer.from('a,b\n') },
      { name: 'files/tls/città è.pem', bytes: Buffer.from('pem') },
    ];
    expect(await unpack(await pack(entries))).toEqual(entries);
  });

  it('is readable by GNU tar', async () => {
    const { spawnSync } = await import('node:child_process');
    const archive = await pack([{ name: 'files/tls/cert.pem', bytes: Buffer.from('hello') }]);
    const listed = spawnSync('tar', ['-tzvf', '-'], { input: archive, encoding: 'utf8' });
    expect(listed.status, listed.stderr).toBe(0);
    expect(listed.stdout).toContain('files/tls/cert.pem');
  });

  it('refuses a truncated archive and a damaged header', async () => {
    const archive = await pack([{ name: 'db/a.jsonl', bytes: Buffer.alloc(2000, 3) }]);
    const raw = zlib.gunzipSync(archive);
    await expect(unpack(zlib.gzipSync(raw.subarray(0, 1000)))).rejects.toThrow(/truncated/);
    await expect(unpack(zlib.gzipSync(raw.subarray(0, 512 + 2048)))).rejects.toThrow(/truncated/);
    const damaged = Buffer.from(raw);
    damaged[10] = 0x41;
    await expect(unpack(zlib.gzipSync(damaged))).rejects.toThrow(/damaged/);
  });
});
