import { execFileSync } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';

/**
 * A small layer-2 network on this machine for scan tests: a bridge with a /22 address on the host and
 * one network namespace per device, each behind a veth pair with the MAC the test chooses. Needs root
 * (CAP_NET_ADMIN); `createNetLab` answers a reason instead when the kernel refuses.
 */
export interface NetLab {
  /** The host's address on the bridge (x.y.z.1). */
  hostIp: string;
  /** First three octets of the /24 the devices live in, e.g. "10.213.44". */
  prefix24: string;
  bridge: string;
  devices: { ip: string; mac: string }[];
  destroy(): void;
}

const ip = (...args: string[]) => execFileSync('ip', args, { stdio: ['ignore', 'ignore', 'pipe'], timeout: 10_000 });

export function createNetLab(devices: { suffix: number; mac: string }[]): NetLab | { skipped: string } {
  const id = randomBytes(3).toString('hex');
  const bridge = `czb${id}`;
  // A /22 of 10/8 chosen at random, so that parallel runs do not meet; the devices sit in its first /24.
  const second = randomInt(200, 250);
  const third = randomInt(0, 64) * 4;
  const prefix24 = `10.${second}.${third}`;
  const namespaces: string[] = [];
  const destroy = () => {
    for (const ns of namespaces) {
      try {
        ip('netns', 'del', ns);
      } catch {}
    }
    try {
      ip('link', 'del', bridge);
    } catch {}
  };
  try {
    ip('link', 'add', bridge, 'type', 'bridge');
    ip('addr', 'add', `${prefix24}.1/22`, 'dev', bridge);
    ip('link', 'set', bridge, 'up');
    devices.forEach((device, i) => {
      const ns = `czn${id}${i}`;
      const host = `czh${id}${i}`;
      const peer = `czp${id}${i}`;
      ip('netns', 'add', ns);
      namespaces.push(ns);
      ip('link', 'add', host, 'type', 'veth', 'peer', 'name', peer);
      ip('link', 'set', peer, 'netns', ns);
      ip('link', 'set', host, 'master', bridge);
      ip('link', 'set', host, 'up');
      ip('-n', ns, 'link', 'set', peer, 'address', device.mac);
      ip('-n', ns, 'addr', 'add', `${prefix24}.${device.suffix}/22`, 'dev', peer);
      ip('-n', ns, 'link', 'set', peer, 'up');
      ip('-n', ns, 'link', 'set', 'lo', 'up');
    });
  } catch (error) {
    destroy();
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    return { skipped: `cannot build a test network (${stderr || (error as Error).message})` };
  }
  return {
    hostIp: `${prefix24}.1`,
    prefix24,
    bridge,
    devices: devices.map((d) => ({ ip: `${prefix24}.${d.suffix}`, mac: d.mac.toUpperCase() })),
    destroy,
  };
}
