import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { usage } from '../src/features/call-recordings/files.ts';

/** The dashboard's disk figure: past days are summed once, and again when a file comes or goes. */
describe('recordings disk usage', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'centralino-usage-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const put = (day: string, name: string, bytes: number) => {
    fs.mkdirSync(path.join(dir, day), { recursive: true });
    fs.writeFileSync(path.join(dir, day, name), Buffer.alloc(bytes));
  };

  it('counts every day folder, follows a file added to or removed from an old day, and a recording growing today', async () => {
    put('2026-11-01', 'a.wav', 100);
    put('2026-11-01', 'b.wav', 50);
    put('2026-11-02', 'c.wav', 10);
    put('2026-11-03', 'd.wav', 1);
    fs.writeFileSync(path.join(dir, 'not-a-day.txt'), 'x');
    expect(await usage(dir)).toEqual({ bytes: 161, files: 4 });
    // Summed again once the old folder changed.
    put('2026-11-01', 'e.wav', 1000);
    expect(await usage(dir)).toEqual({ bytes: 1161, files: 5 });
    fs.rmSync(path.join(dir, '2026-11-01', 'a.wav'));
    expect(await usage(dir)).toEqual({ bytes: 1061, files: 4 });
    // Today's recording grows in place (its folder's time does not move).
    fs.appendFileSync(path.join(dir, '2026-11-03', 'd.wav'), Buffer.alloc(9));
    expect(await usage(dir)).toEqual({ bytes: 1070, files: 4 });
  });
});
