// The large system of the PBX benchmark: 10,000 users × 2 devices, 100 VoIP trunks, 10 gateways, 400 routes.
import { defaultPbxSettings, type PbxModel } from '../apps/server/src/pbx/model.ts';

export function bigModel(): PbxModel {
  const users: PbxModel['users'] = [];
  for (let i = 0; i < 10_000; i++) {
    const ext = String(1000 + i);
    users.push({
      username: `user${i}`,
      name: `User Number ${i}`,
      extension: ext,
      secret: `${i}`.padStart(32, 'a'),
      // As the console numbers them: the first device takes the main number, the second 91N.
      devices: [
        { number: ext, type: 'physical', secret: `${i}`.padStart(32, 'a'), encrypted: i % 3 === 0 },
        { number: `91${ext}`, type: i % 2 ? 'webrtc' : 'mobile', secret: `${i}`.padStart(32, 'c'), encrypted: false },
      ],
      outboundcid: i % 5 === 0 ? '0612345678' : null,
      email: `user${i}@example.com`,
      mobile: null,
      voicemail: i % 2 === 0 ? { pin: String(1000 + (i % 9000)) } : null,
      profileId: [null, 1, 2, 3][i % 4] ?? null,
      ringTime: 0,
      callWaiting: true,
      callGroup: '',
      pickupGroup: '',
      groups: i % 10 === 0 ? ['sales'] : [],
      destinations: {
        busy: null,
        noAnswer: i % 7 === 0 ? `from-did-direct,${1000 + ((i + 1) % 10_000)},1` : null,
        unavailable: null,
      },
    });
  }
  const trunks: PbxModel['trunks'] = Array.from({ length: 100 }, (_, i) => ({
    id: i + 1,
    name: `Provider${i + 1}`,
    host: `sip${i}.provider.example`,
    port: 5060,
    username: `user${i}`,
    password: `pass${i}`,
    authUsername: null,
    fromDomain: `provider${i}.example`,
    fromUser: `user${i}`,
    callerIdHeader: 'pai',
    registration: 'send',
    authentication: 'outbound',
    context: 'from-pstn-toheader',
    codecs: ['alaw', 'ulaw'],
    transport: 'udp',
    mediaEncryption: 'no',
    outcid: `06000${i}`,
    maxChannels: null,
    dialPrefix: '',
    disabled: false,
    continueOnFailure: false,
    expiration: 300,
    retryInterval: 60,
    qualifyFrequency: 60,
  }));
  const gateways: PbxModel['gateways'] = Array.from({ length: 10 }, (_, g) => ({
    id: g + 1,
    manufacturer: 'Patton',
    mac: `00A0BA0000${String(g).padStart(2, '0')}`,
    ip: `192.168.1.${50 + g}`,
    encrypted: false,
    ports: Array.from({ length: 4 }, (_, p) => ({
      kind: 'fxo' as const,
      index: p,
      trunkId: 200 + g * 4 + p,
      trunkNumber: `20${String(g * 4 + p).padStart(3, '0')}`,
      secret: `gw${g}${p}`.padEnd(13, '0'),
    })),
  }));
  const passes = ['0ZXXX.', '3XXXXXX.', '00XXX.', '1XX', '8ZXXXX.'];
  const outboundRoutes: PbxModel['outboundRoutes'] = Array.from({ length: 200 }, (_, i) => ({
    id: i + 1,
    name: `route${i}`,
    patterns: [{ prefix: String(i).padStart(3, '0'), pass: passes[i % passes.length] as string, cid: '', prepend: '' }],
    trunkIds: [1 + (i % 100), 1 + ((i + 1) % 100), 200 + (i % 40)],
    outcid: '',
    outcidOverride: false,
    emergency: false,
    failover: null,
  }));
  const inboundRoutes: PbxModel['inboundRoutes'] = Array.from({ length: 200 }, (_, i) => ({
    did: `0612${String(i).padStart(6, '0')}`,
    cid: '',
    description: `did ${i}`,
    destination: `from-did-direct,${1000 + i},1`,
    cidNamePrefix: '',
  }));
  return {
    settings: {
      ...defaultPbxSettings,
      ami: { port: 5038, bindAddress: '127.0.0.1', users: [{ username: 'c', secret: 'secret123' }] },
    },
    users,
    trunks,
    gateways,
    outboundRoutes,
    inboundRoutes,
    ringGroups: [
      {
        key: 'cti-group-1',
        name: 'sales',
        members: users.filter((_, i) => i % 10 === 0).map((u) => u.extension),
        ringTime: 20,
      },
    ],
    profiles: [1, 2, 3].map((id) => ({ id, name: `P${id}`, permissions: ['dnd', 'call_forward'], routes: {} })),
    announcements: [],
    ivrs: [],
    dayNight: [],
    queues: [],
    timeConditions: [],
    cqrs: [],
  };
}
