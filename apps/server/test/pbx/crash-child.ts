// Child process of crash.test.ts: applies a large configuration into a directory, and is killed
// (SIGKILL) by the test while it writes. Usage: node --import tsx crash-child.ts <dir> <variant> <users>
import { ApplyPipeline } from '../../src/pbx/apply.ts';
import { largeModel } from './fixtures.ts';

const [dir, variant, users] = process.argv.slice(2);
if (!dir || !variant) throw new Error('usage: crash-child.ts <dir> <variant> <users>');
const model = largeModel(Number(users ?? 3000), variant);
process.stdout.write('applying\n');
const written = await new ApplyPipeline(dir).run(model);
process.stdout.write(`done ${written.length}\n`);
