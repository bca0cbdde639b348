import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { pbxProblemCodes } from '@centralino/contract';
import {
  binaryDoesNotRun,
  binaryMissing,
  buildFailed,
  buildIncomplete,
  modulesMissing,
  notBuilt,
  type Words,
} from './messages.ts';

/** An Asterisk this process can run: its binary and what it needs beside it. */
export interface AsteriskInstallation {
  binary: string;
  /** Loadable modules (res_pjsip.so, ...). */
  modulesDir: string;
  /** The XML documentation Asterisk reads at start (optional: without it, only a warning). */
  documentationDir: string | null;
  /** As `asterisk -V` says it, e.g. "Asterisk 22.10.1". */
  version: string;
  /** Where it was found: an explicit ASTERISK_BIN, the PATH, or the build made by `npm install`. */
  source: 'ASTERISK_BIN' | 'PATH' | 'build cache';
}

/** Why no Asterisk can run: a code and its values for programs, and what to do in the reader's language. */
export interface PbxProblem {
  code: (typeof pbxProblemCodes)[number];
  values: Record<string, string | number>;
  detail: Words;
}

const executable = (file: string) => {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
};

function onPath(name: string, searchPath: string): string | undefined {
  // /usr/sbin is not on every user's PATH, and is where Debian-style packages put it.
  const dirs = [...searchPath.split(path.delimiter), '/usr/sbin', '/usr/local/sbin'].filter(Boolean);
  return dirs.map((d) => path.join(d, name)).find(executable);
}

/** Finished builds in the cache (scripts/ensure-asterisk.mjs marks each with .centralino-built), newest first. */
function cachedBuilds(cacheDir: string): { prefix: string; complete: boolean }[] {
  let names: string[];
  try {
    names = fs.readdirSync(cacheDir);
  } catch {
    return [];
  }
  return names
    .filter((n) => /^asterisk-[0-9a-f]{16}$/.test(n))
    .map((n) => path.join(cacheDir, n))
    .filter((prefix) => fs.existsSync(path.join(prefix, '.centralino-built')))
    .map((prefix) => ({
      prefix,
      complete: executable(path.join(prefix, 'sbin/asterisk')),
      at: fs.statSync(path.join(prefix, '.centralino-built')).mtimeMs,
    }))
    .sort((a, b) => b.at - a.at);
}

function failedBuild(cacheDir: string): string | undefined {
  try {
    const marker = fs.readdirSync(cacheDir).find((n) => /^asterisk-[0-9a-f]{16}\.failed$/.test(n));
    return marker ? fs.readFileSync(path.join(cacheDir, marker), 'utf8').trim() : undefined;
  } catch {
    return undefined;
  }
}

function version(binary: string): string | undefined {
  const r = spawnSync(binary, ['-V'], { encoding: 'utf8', timeout: 10_000 });
  const line = r.status === 0 ? r.stdout.trim() : '';
  return /^Asterisk\s+\S+/.test(line) ? line : undefined;
}

/** The prefix a binary was installed under (/usr for /usr/sbin/asterisk). */
const prefixOf = (binary: string) => path.dirname(path.dirname(fs.realpathSync(binary)));

function describe(binary: string, source: AsteriskInstallation['source']): AsteriskInstallation | PbxProblem {
  const v = version(binary);
  if (!v) {
    return {
      code: 'binary_broken',
      values: { path: binary },
      detail: binaryDoesNotRun(binary),
    };
  }
  const prefix = prefixOf(binary);
  const modulesDir = [path.join(prefix, 'lib/asterisk/modules'), '/usr/lib/asterisk/modules'].find((d) =>
    fs.existsSync(path.join(d, 'res_pjsip.so')),
  );
  if (!modulesDir) {
    return {
      code: 'binary_broken',
      values: { path: binary },
      detail: modulesMissing(binary),
    };
  }
  const documentationDir =
    [
      path.join(prefix, 'var/lib/asterisk/documentation'),
      '/var/lib/asterisk/documentation',
      '/usr/share/asterisk/documentation',
    ].find((d) => fs.existsSync(d)) ?? null;
  return { binary, modulesDir, documentationDir, version: v, source };
}

/**
 * The Asterisk a managed PBX runs: ASTERISK_BIN when set, else one on the PATH, else the build `npm install` made
 * in the cache. A problem says exactly what is missing, so the console can start and show it.
 */
export function findInstallation(options: {
  bin: string | undefined;
  cacheDir: string;
  searchPath: string;
}): AsteriskInstallation | PbxProblem {
  if (options.bin) {
    if (!executable(options.bin)) {
      return {
        code: 'binary_missing',
        values: { path: options.bin },
        detail: binaryMissing(options.bin),
      };
    }
    return describe(options.bin, 'ASTERISK_BIN');
  }
  const installed = onPath('asterisk', options.searchPath);
  if (installed) return describe(installed, 'PATH');
  const builds = cachedBuilds(options.cacheDir);
  const complete = builds.find((b) => b.complete);
  if (complete) return describe(path.join(complete.prefix, 'sbin/asterisk'), 'build cache');
  if (builds.length > 0) {
    const prefix = builds[0]?.prefix as string;
    return {
      code: 'binary_broken',
      values: { path: prefix },
      detail: buildIncomplete(prefix),
    };
  }
  const failed = failedBuild(options.cacheDir);
  if (failed) {
    return {
      code: 'build_failed',
      values: { reason: failed },
      detail: buildFailed(failed),
    };
  }
  return {
    code: 'not_built',
    values: { cache: options.cacheDir },
    detail: notBuilt(),
  };
}

export const isProblem = (x: AsteriskInstallation | PbxProblem): x is PbxProblem => 'code' in x;

/** Debian's prompt and music packages (asterisk-core-sounds-*, asterisk-moh-opsound-*) install here. */
export const DISTRIBUTION_SOUNDS = '/usr/share/asterisk/sounds';
export const DISTRIBUTION_MOH = '/usr/share/asterisk/moh';
