import { ConfigError, loadConfig } from './config.ts';
import { migrateToLatest, openDatabase } from './db/database.ts';
import { TwoFactor } from './features/auth/two-factor.ts';

/**
 * Maintenance commands run on the server itself, with the same environment as the console (DATA_DIR or
 * DATABASE_URL):
 *   node apps/server/dist/cli.js reset-2fa <user>   turns off the account's second factor (lost phone and codes)
 */
async function main(argv: string[]): Promise<number> {
  const [command, user] = argv;
  if (command !== 'reset-2fa' || !user) {
    process.stderr.write('Usage: node apps/server/dist/cli.js reset-2fa <user>\n');
    return 2;
  }
  const config = loadConfig(process.env);
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await migrateToLatest(database.db);
    const name = user.trim().toLowerCase();
    if (!(await new TwoFactor(database.db, Date.now).reset(name))) {
      process.stderr.write(`No console account named ${name}.\n`);
      return 1;
    }
    process.stdout.write(
      `Two-factor sign-in of ${name} is off: it signs in with its password alone until it enrols again.\n`,
    );
    return 0;
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`${error instanceof ConfigError ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
