import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { ApplyPipeline } from '../../src/pbx/apply.ts';
import { parseConf } from '../../src/pbx/conf-parser.ts';
import { renderConfiguration } from '../../src/pbx/render/index.ts';
import { largeModel } from './fixtures.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../../../..');
const USERS = 3000;
const MANIFEST = '.centralino-files.json';
const TEMP_MARK = '.centralino-tmp-';

/** Starts the child apply and kills it with SIGKILL once the first configuration file is replaced. */
function applyAndKill(dir: string): Promise<{ killedAfterRename: boolean; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(here, 'crash-child.ts'), dir, 'new', String(USERS)],
      { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    let killedAfterRename = false;
    child.stdout.on('data', (d) => {
      output += d;
    });
    child.stderr.on('data', (d) => {
      output += d;
    });
    // A rename onto a configuration file (not a temp file) means the apply is writing.
    const watcher = fs.watch(dir, (_event, name) => {
      if (!name || name.startsWith(TEMP_MARK) || name === MANIFEST || killedAfterRename) return;
      killedAfterRename = true;
      child.kill('SIGKILL');
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('exit', (_code, signal) => {
      watcher.close();
      clearTimeout(timer);
      if (signal !== 'SIGKILL') reject(new Error(`the apply was not killed: ${output}`));
      else resolve({ killedAfterRename, output });
    });
  });
}

describe('an apply killed while it writes', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('leaves every file complete, old or new, and the next apply finishes the job', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'centralino-crash-'));
    const oldModel = largeModel(USERS, 'old');
    const newModel = largeModel(USERS, 'new');
    const oldFiles = renderConfiguration(oldModel);
    const newFiles = renderConfiguration(newModel);
    // Every file but the ones that do not depend on data differs between the two versions.
    const differing = [...newFiles.keys()].filter((name) => oldFiles.get(name) !== newFiles.get(name));
    expect(differing.length).toBeGreaterThan(50);

    // A previous good configuration on disk.
    expect((await new ApplyPipeline(dir).run(oldModel)).length).toBe(oldFiles.size);

    const { killedAfterRename, output } = await applyAndKill(dir);
    expect(killedAfterRename, output).toBe(true);

    let oldCount = 0;
    let newCount = 0;
    const names = fs.readdirSync(dir);
    for (const name of names) {
      if (name === MANIFEST) continue;
      // The only other files are temp files: hidden, and named by no #include.
      if (!oldFiles.has(name)) {
        expect(name.startsWith(TEMP_MARK), `unexpected file ${name}`).toBe(true);
        continue;
      }
      const text = fs.readFileSync(path.join(dir, name), 'utf8');
      expect(parseConf(name, text).errors, name).toEqual([]);
      const isOld = text === oldFiles.get(name);
      const isNew = text === newFiles.get(name);
      expect(isOld || isNew, `${name} is neither the old nor the new version`).toBe(true);
      if (isOld && !isNew) oldCount++;
      if (isNew && !isOld) newCount++;
    }
    // Every configuration file is still there, and the kill came half way.
    for (const name of oldFiles.keys()) expect(names, name).toContain(name);
    expect(newCount).toBeGreaterThan(0);
    expect(oldCount).toBeGreaterThan(0);
    // The roots (which include the others) are written last: they still name only files that exist.
    for (const root of ['pjsip.conf', 'extensions.conf']) {
      for (const include of parseConf(root, fs.readFileSync(path.join(dir, root), 'utf8')).includes) {
        expect(names).toContain(include.file);
      }
    }

    // The next apply (a new process: nothing cached) writes what is left and removes the temp files.
    const written = await new ApplyPipeline(dir).run(newModel);
    expect(written.length).toBeGreaterThan(0);
    expect(written.length).toBeLessThanOrEqual(oldCount + 1);
    const after = fs.readdirSync(dir).filter((name) => name !== MANIFEST);
    expect(after.sort()).toEqual([...newFiles.keys()].sort());
    for (const [name, text] of newFiles) expect(fs.readFileSync(path.join(dir, name), 'utf8'), name).toBe(text);
  }, 120_000);
});
