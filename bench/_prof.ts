import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ApplyPipeline } from '../apps/server/src/pbx/apply.ts';
import { bigModel } from './pbx-model.ts';

const model = bigModel();
for (let i = 0; i < 3; i++) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'prof-'));
  const p = new ApplyPipeline(dir);
  const t = performance.now();
  await p.run(model);
  console.log('full', Math.round(performance.now() - t), JSON.stringify(p.lastTimings));
  fs.rmSync(dir, { recursive: true });
}
