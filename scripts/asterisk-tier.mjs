// Where the real-PBX test tier finds its Asterisk: one answer for the build script and the tests.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

export function asteriskTier() {
  const sourceDir = process.env.ASTERISK_SOURCE_DIR ?? path.resolve(root, '../shared/vendor/asterisk');
  const cacheRoot = process.env.ASTERISK_CACHE_DIR ?? '/var/cache/centralino';
  const find = (re) => {
    try {
      return fs
        .readdirSync(sourceDir)
        .filter((f) => re.test(f))
        .map((f) => path.join(sourceDir, f))[0];
    } catch {
      return undefined;
    }
  };
  const tarball = find(/^asterisk-[\d.]+\.tar\.gz$/);
  const pjprojectTarball = find(/^pjproject-[\d.]+\.tar\.bz2$/);
  const base = { sourceDir, cacheRoot, tarball, pjprojectTarball, ready: false, buildable: false };
  if (!tarball || !pjprojectTarball) {
    return {
      ...base,
      reason: `no Asterisk source (asterisk-*.tar.gz and pjproject-*.tar.bz2) in ${sourceDir}; set ASTERISK_SOURCE_DIR`,
    };
  }
  const sum = createHash('sha256').update(fs.readFileSync(tarball)).digest('hex').slice(0, 16);
  const prefix = path.join(cacheRoot, `asterisk-${sum}`);
  const readyMarker = path.join(prefix, '.centralino-built');
  const failedMarker = `${prefix}.failed`;
  const isReady = () => fs.existsSync(readyMarker) && fs.existsSync(path.join(prefix, 'sbin/asterisk'));
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const tier = { ...base, prefix, readyMarker, failedMarker, isReady, sipp: '/usr/bin/sipp' };
  if (isReady()) {
    if (!isRoot) return { ...tier, reason: 'the real-Asterisk tests need root (network namespaces)' };
    if (!fs.existsSync(tier.sipp)) return { ...tier, reason: 'sipp (Debian package sip-tester) is not installed' };
    return { ...tier, ready: true };
  }
  if (!isRoot) return { ...tier, reason: 'building Asterisk and running it in a network namespace needs root' };
  if (fs.existsSync(failedMarker)) {
    return {
      ...tier,
      reason: `the Asterisk build failed earlier (${fs.readFileSync(failedMarker, 'utf8').trim()}); delete ${failedMarker} to retry`,
    };
  }
  return {
    ...tier,
    buildable: true,
    reason: `Asterisk is not built yet in ${prefix}: run node scripts/ensure-asterisk.mjs`,
  };
}
