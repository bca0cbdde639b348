// nginx, from Debian's packages: the phone-file front test serves PHONE_FILES_DIR through the README's sample
// configuration (docs/nginx-centralino.conf), and the benches compare phone files with static serving.
import { existsSync } from 'node:fs';
import { ensurePackages } from './apt-install.mjs';

ensurePackages(
  () => (existsSync('/usr/sbin/nginx') ? [] : ['nginx-light']),
  'The phone-file front web server test and the benches',
);
