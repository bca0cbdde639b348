import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lookupId } from '../../src/config.ts';
import { ConfigWriter } from '../../src/pbx/write-files.ts';

// A group other than root's, to see the files change hands (needs root to give them away).
const group = lookupId('group', 'nogroup') ?? lookupId('group', 'daemon');
const reason = process.getuid?.() !== 0 ? 'needs root to change file groups' : group === null ? 'no spare group' : '';
if (reason) console.log(`Skipped the group-ownership test: ${reason}`);

describe.skipIf(reason !== '')('config writer: files Asterisk can read as its own group', () => {
  it('writes files 0640 and the directory 0750, owned by the group, and regroups unchanged files', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'centralino-writer-'));
    const dir = path.join(root, 'asterisk');
    try {
      const gid = group as number;
      const files = new Map([
        ['pjsip.conf', '[global]\ntype = global\n'],
        ['extensions.conf', '[general]\n'],
      ]);
      const first = await new ConfigWriter(dir, gid).stage(files);
      expect((await first.commit()).changed).toEqual(['extensions.conf', 'pjsip.conf']);
      const dirStat = fs.statSync(dir);
      expect(dirStat.gid).toBe(gid);
      expect(dirStat.mode & 0o777).toBe(0o750);
      for (const name of [...files.keys(), '.centralino-files.json']) {
        const st = fs.statSync(path.join(dir, name));
        expect(st.gid, name).toBe(gid);
        expect(st.mode & 0o777, name).toBe(0o640);
      }

      // Files written before the group was set: same text, another group, private mode.
      fs.chownSync(path.join(dir, 'pjsip.conf'), 0, 0);
      fs.chmodSync(path.join(dir, 'pjsip.conf'), 0o600);
      const again = await new ConfigWriter(dir, gid).stage(files);
      expect((await again.commit()).changed).toEqual([]);
      const st = fs.statSync(path.join(dir, 'pjsip.conf'));
      expect(st.gid).toBe(gid);
      expect(st.mode & 0o777).toBe(0o640);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
