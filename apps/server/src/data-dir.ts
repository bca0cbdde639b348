import fs from 'node:fs';
import path from 'node:path';

/** Files of DATA_DIR that hold secrets in clear (SIP, trunk and directory passwords): owner only. */
const DATABASE_FILES = ['centralino.db', 'centralino.db-wal', 'centralino.db-shm'];

const octal = (mode: number) => `0${(mode & 0o777).toString(8)}`;

/**
 * Makes DATA_DIR private to the service before anything is written into it, and answers what is wider
 * than that in an existing installation (warnings for the log; nothing is changed behind the
 * administrator's back). The folder is 0700; when the Asterisk configuration or the call recordings live inside it and Asterisk
 * runs as another group, 0710 with that group, so Asterisk can pass through to its own folder (group-owned
 * 0750 by the writer) without listing or reading anything else. Files are private through the umask the
 * server sets at start (0077).
 */
export function prepareDataDir(
  dataDir: string,
  asterisk: { configDir: string; gid: number | null; recordingsDir?: string },
): { warnings: string[] } {
  const inside = (dir: string | undefined) => {
    if (dir === undefined) return false;
    const relative = path.relative(dataDir, dir);
    return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
  };
  // Asterisk writes call recordings into DATA_DIR/recordings (the default) as it reads its configuration there.
  const holdsAsterisk = asterisk.gid !== null && (inside(asterisk.configDir) || inside(asterisk.recordingsDir));
  const wanted = holdsAsterisk ? 0o710 : 0o700;
  const warnings: string[] = [];
  if (!fs.existsSync(dataDir)) {
    fs.mkdirSync(dataDir, { recursive: true, mode: wanted });
    fs.chmodSync(dataDir, wanted);
    if (holdsAsterisk && asterisk.gid !== null) {
      try {
        fs.chownSync(dataDir, -1, asterisk.gid);
      } catch (error) {
        warnings.push(
          `Could not give ${dataDir} to Asterisk's group (${(error as Error).message}): Asterisk cannot reach its configuration inside it`,
        );
      }
    }
    return { warnings };
  }
  const mode = fs.statSync(dataDir).mode;
  if ((mode & 0o777 & ~wanted) !== 0) {
    warnings.push(
      `DATA_DIR ${dataDir} is ${octal(mode)}: other local users can reach the database and its passwords. Make it ${octal(wanted)} (chmod ${octal(wanted)} ${dataDir})`,
    );
  }
  for (const name of DATABASE_FILES) {
    const file = path.join(dataDir, name);
    const st = fs.statSync(file, { throwIfNoEntry: false });
    if (st && (st.mode & 0o077) !== 0) {
      warnings.push(`${file} is ${octal(st.mode)}: it holds passwords in clear. Make it 0600 (chmod 600 ${file})`);
    }
  }
  return { warnings };
}
