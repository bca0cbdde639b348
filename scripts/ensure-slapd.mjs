// The directory tests run a throwaway OpenLDAP server (slapd) of their own. Install it from Debian's
// packages when missing and we are root; otherwise explain. The packaged service is never used.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { ensurePackages } from './apt-install.mjs';

const SLAPD = '/usr/sbin/slapd';
const LDAPADD = '/usr/bin/ldapadd';
const installed = () => existsSync(SLAPD) && existsSync(LDAPADD);

if (!installed()) {
  ensurePackages(() => (installed() ? [] : ['slapd', 'ldap-utils']), 'The directory tests', {
    howToInstall:
      "Install with: echo 'slapd slapd/no_configuration boolean true' | sudo debconf-set-selections\n" +
      '              sudo apt-get install -y --no-install-recommends slapd ldap-utils',
    // Without this the package creates and starts a configured directory we would never use.
    beforeInstall: (env) =>
      execFileSync('debconf-set-selections', { input: 'slapd slapd/no_configuration boolean true\n', env }),
  });
  // Tests start their own slapd on free ports; keep the packaged one off port 389.
  spawnSync('service', ['slapd', 'stop'], { stdio: 'ignore' });
}
