// npm run bench: runs every benchmark in turn and prints its figures.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { root } from './lib.ts';

const benches = [
  'foundation.ts',
  'users.ts',
  'users-unpaged.ts',
  'pbx.ts',
  'call-flows.ts',
  'provisioning.ts',
  'dashboard.ts',
  'bulk.ts',
  'phonebook.ts',
  'phonebook-ldap.ts',
  'card-previews.ts',
  'console-size.ts',
  'backup.ts',
  'migration.ts',
  'call-history.ts',
  'managed-pbx.ts',
];
let failed = false;
for (const bench of benches) {
  console.log(`\n## ${bench}`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'bench', bench)], {
    stdio: 'inherit',
  });
  failed ||= result.status !== 0;
}
process.exit(failed ? 1 : 0);
