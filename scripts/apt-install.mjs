// Installs Debian packages a test tier needs, when they are missing and we are root; otherwise stops the run
// and says what to install. Shared by the ensure-* scripts that need nothing more than packages.
import { execFileSync, spawnSync } from 'node:child_process';

/**
 * `missing()` answers the packages still to install (it is asked again after installing); `purpose` says which
 * tests need them, for the message a non-root user reads (`howToInstall` replaces its install line);
 * `beforeInstall(env)` runs just before apt-get (debconf answers).
 */
export function ensurePackages(missing, purpose, { beforeInstall, howToInstall } = {}) {
  const packages = missing();
  if (packages.length === 0) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) {
    console.error(
      `${purpose} need ${packages.join(', ')}.\n` +
        (howToInstall ?? `Install with: sudo apt-get install -y --no-install-recommends ${packages.join(' ')}`),
    );
    process.exit(1);
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  console.log(`Installing ${packages.join(', ')} from Debian packages (${purpose})…`);
  beforeInstall?.(env);
  const install = () =>
    spawnSync(
      'apt-get',
      ['-o', 'DPkg::Lock::Timeout=300', 'install', '-y', '-qq', '--no-install-recommends', ...packages],
      { stdio: 'inherit', env },
    );
  if (install().status !== 0) {
    console.log('Install failed; refreshing the package lists and trying again…');
    execFileSync('apt-get', ['-o', 'DPkg::Lock::Timeout=300', 'update', '-qq'], { stdio: 'inherit', env });
    if (install().status !== 0) {
      console.error(`Could not install ${packages.join(' ')} with apt-get.`);
      process.exit(1);
    }
  }
  const still = missing();
  if (still.length > 0) {
    console.error(`Installed, but still missing: ${still.join(', ')}.`);
    process.exit(1);
  }
  console.log(`${packages.join(', ')} installed.`);
}
