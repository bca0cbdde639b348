/**
 * A Patton ISDN gateway with two BRI ports (one point-to-point, one point-to-multipoint), as the console sends
 * it. The device is 'now' on loopback, where nothing answers on the console port of a suite.
 */
export const PATTON_GATEWAY = {
  model: 17,
  mac: '00:a0:ba:0b:1c:2d',
  ipv4: '127.0.0.1',
  ipv4_new: '192.168.1.250',
  netmask_green: '255.255.255.0',
  gateway: '192.168.1.1',
  ipv4_green: '192.168.1.2',
  trunks_isdn: [{ type: 'pp' }, { type: 'pmp' }],
};
