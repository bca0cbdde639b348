// The directory tests run a throwaway OpenLDAP server (slapd) of their own. Install it from Debian's
// packages when missing and we are root; otherwise explain. The packaged service is never used.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const SLAPD = '/usr/sbin/slapd';
const LDAPADD = '/usr/bin/ldapadd';

if (existsSync(SLAPD) && existsSync(LDAPADD)) process.exit(0);

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
if (!isRoot) {
  console.error(
    `OpenLDAP (${SLAPD} and ldapadd) is needed for the directory tests and was not found.\n` +
      "Install it with: echo 'slapd slapd/no_configuration boolean true' | sudo debconf-set-selections\n" +
      '                 sudo apt-get install -y --no-install-recommends slapd ldap-utils',
  );
  process.exit(1);
}

const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
const packages = ['slapd', 'ldap-utils'];

console.log('Installing OpenLDAP (slapd, ldap-utils) from Debian packages for the directory tests…');
// Without this the package creates and starts a configured directory we would never use.
execFileSync('debconf-set-selections', { input: 'slapd slapd/no_configuration boolean true\n', env });
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
// Tests start their own slapd on free ports; keep the packaged one off port 389.
spawnSync('service', ['slapd', 'stop'], { stdio: 'ignore' });
if (!existsSync(SLAPD) || !existsSync(LDAPADD)) {
  console.error(`slapd and ldap-utils were installed but ${SLAPD} or ${LDAPADD} is still missing.`);
  process.exit(1);
}
console.log('OpenLDAP installed.');
