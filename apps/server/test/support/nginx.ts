import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const NGINX = process.env.NGINX_PATH || '/usr/sbin/nginx';
const SAMPLE = path.resolve(import.meta.dirname, '../../../../docs/nginx-centralino.conf');

/**
 * The README's sample configuration (docs/nginx-centralino.conf), pointed at a phone-file folder and ports, and with
 * the first-use log at `firstUseLog` (the folder's `first-use.log` unless told).
 */
export function frontSample(
  phoneFilesDir: string,
  listenPort: number,
  centralinoPort: number,
  firstUseLog = path.join(phoneFilesDir, 'first-use.log'),
): string {
  const servers = fs
    .readFileSync(SAMPLE, 'utf8')
    .replace('access_log /var/lib/centralino-phone-files/first-use.log ', `access_log ${firstUseLog} `)
    .replace('listen 80;', `listen 127.0.0.1:${listenPort};`)
    .replace('root /var/lib/centralino-phone-files;', `root ${phoneFilesDir};`)
    .replace('server 127.0.0.1:8080;', `server 127.0.0.1:${centralinoPort};`);
  const directives = servers.replace(/#.*$/gm, '');
  if (directives.includes('/var/lib/centralino-phone-files') || directives.includes('8080')) {
    throw new Error(`${SAMPLE} changed: the sample's folder or port is no longer where frontSample replaces it`);
  }
  return servers;
}

export interface RunningNginx {
  dir: string;
  stop(): Promise<void>;
}

/**
 * Debian's nginx as a child process with `server` blocks of our own (e.g. the README's sample configuration),
 * in a temp prefix; as root its workers run as `user` (so file permissions are tested as a real install has them).
 * Resolves once `probeUrl` answers.
 */
export async function startNginx(options: {
  servers: string;
  probeUrl: string;
  user?: string;
  workers?: number;
}): Promise<RunningNginx> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'centralino-nginx-'));
  fs.chmodSync(dir, 0o755);
  const conf = path.join(dir, 'nginx.conf');
  fs.writeFileSync(
    conf,
    `${options.user ? `user ${options.user};` : ''}
worker_processes ${options.workers ?? 1};
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  ${options.servers}
}
`,
  );
  const child: ChildProcess = spawn(NGINX, ['-c', conf, '-p', dir], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d) => {
    stderr += d;
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGQUIT');
      await exited;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) break;
    try {
      await (await fetch(options.probeUrl)).arrayBuffer();
      return { dir, stop };
    } catch {
      await new Promise((r) => setTimeout(r, 25));
    }
  }
  const log = fs.existsSync(path.join(dir, 'error.log')) ? fs.readFileSync(path.join(dir, 'error.log'), 'utf8') : '';
  await stop();
  throw new Error(`nginx did not start: ${stderr}${log}`);
}

const SEVERAL = path.resolve(import.meta.dirname, '../../../../docs/nginx-centralino-several.conf');

/** The README's sample for several processes (docs/nginx-centralino-several.conf), pointed at ports of this run. */
export function severalSample(listenPort: number, centralinoPorts: [number, number]): string {
  const servers = fs
    .readFileSync(SEVERAL, 'utf8')
    .replace('listen 80;', `listen 127.0.0.1:${listenPort};`)
    .replace('server 127.0.0.1:8081 ', `server 127.0.0.1:${centralinoPorts[0]} `)
    .replace('server 127.0.0.1:8082 ', `server 127.0.0.1:${centralinoPorts[1]} `);
  const directives = servers.replace(/#.*$/gm, '');
  // Whole port numbers: a free port of this run may end in 8081 (38081 failed a fresh-clone run).
  if (/\b808[12]\b|listen 80;/.test(directives)) {
    throw new Error(`${SEVERAL} changed: its ports are no longer where severalSample replaces them`);
  }
  return servers;
}
