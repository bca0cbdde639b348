import type { EngineSettings } from '../../src/pbx/load.ts';
import { defaultPbxSettings, type PbxModel, type PbxTrunk, type PbxUser } from '../../src/pbx/model.ts';

export function user(extension: string, overrides: Partial<PbxUser> = {}): PbxUser {
  return {
    username: `user${extension}`,
    name: `User ${extension}`,
    extension,
    secret: `secret${extension}`.padEnd(32, '0'),
    devices: [],
    outboundcid: null,
    email: null,
    mobile: null,
    voicemail: null,
    profileId: null,
    ringTime: 0,
    callWaiting: true,
    callGroup: '',
    pickupGroup: '',
    groups: [],
    destinations: { busy: null, noAnswer: null, unavailable: null },
    ...overrides,
  };
}

export function voipTrunk(id: number, name: string, overrides: Partial<PbxTrunk> = {}): PbxTrunk {
  return {
    id,
    name,
    host: `sip.${name.toLowerCase()}.example`,
    port: 5060,
    username: `0612345${id}`,
    password: `trunkpass${id}`,
    authUsername: null,
    fromDomain: `${name.toLowerCase()}.example`,
    fromUser: `0612345${id}`,
    callerIdHeader: 'pai',
    registration: 'send',
    authentication: 'outbound',
    context: 'from-pstn-toheader',
    codecs: ['alaw', 'ulaw'],
    transport: 'udp',
    mediaEncryption: 'no',
    outcid: `0612345${id}`,
    maxChannels: null,
    dialPrefix: '',
    disabled: false,
    continueOnFailure: false,
    expiration: 300,
    retryInterval: 60,
    qualifyFrequency: 60,
    ...overrides,
  };
}

/** The small reference system of the golden files: one of everything the renderer knows. */
export function referenceModel(): PbxModel {
  return {
    settings: {
      ...defaultPbxSettings,
      language: 'it',
      toneZone: 'it',
      externalAddress: '203.0.113.10',
      localNetworks: ['192.168.1.0/24'],
      ami: { port: 5038, bindAddress: '127.0.0.1', users: [{ username: 'centralino', secret: 'amisecret' }] },
      version: '1.0.0',
      phoneRecording: {
        dir: '/var/lib/centralino/sounds/phone-recorded',
        url: 'http://127.0.0.1:8080/api/internal/phone-recording',
        tokenFile: '/etc/asterisk/keys/voicemail-stt.token',
      },
    },
    users: [
      user('201', {
        username: 'alice',
        name: 'Alice Rossi',
        email: 'alice@example.com',
        voicemail: { pin: '1234' },
        profileId: 3,
        outboundcid: '0612345100',
        groups: ['sales'],
        // Named pickup groups join the CTI group's name (once).
        pickupGroup: 'sales,reception,2',
        devices: [
          { number: '201', type: 'physical', secret: 'a'.repeat(32), encrypted: true },
          { number: '91201', type: 'webrtc', secret: 'b'.repeat(32), encrypted: false },
          { number: '92201', type: 'mobile', secret: 'c'.repeat(32), encrypted: false },
        ],
      }),
      user('202', {
        username: 'bob',
        name: 'Bob "The Builder"; Bianchi',
        profileId: 1,
        ringTime: 25,
        callWaiting: false,
        callGroup: '1,3-4',
        pickupGroup: '1',
        destinations: { busy: 'ext-local,vmb201,1', noAnswer: 'from-did-direct,201,1', unavailable: null },
        // Outbound calls limited to Italian fixed and mobile numbers (render/blocking.ts).
        callPermission: ['national', 'mobile'],
      }),
      // A ring time without voicemail or a destination: the Dial still times out after it.
      // Follow-me (issue 42): a colleague, then her mobile, which must press 1.
      user('1001', {
        username: 'carol',
        name: 'Carol',
        ringTime: 40,
        followMe: {
          preRing: 10,
          strategy: 'hunt',
          confirmExternal: true,
          legs: [
            { kind: 'user', number: '202', ringTime: 15 },
            { kind: 'external', number: '3331234567', ringTime: 25 },
          ],
        },
      }),
    ],
    trunks: [
      voipTrunk(1, 'Provider1'),
      voipTrunk(2, 'Provider2', {
        registration: 'none',
        context: 'from-pstn',
        maxChannels: 4,
        transport: 'tls',
        mediaEncryption: 'sdes',
        music: 'sales',
      }),
    ],
    gateways: [
      {
        id: 1,
        manufacturer: 'Patton',
        mac: '00A0BAA1B2C3',
        ip: '192.168.1.50',
        encrypted: false,
        ports: [
          { kind: 'fxo', index: 0, trunkId: 3, trunkNumber: '20003', secret: 'gwsecret00003' },
          { kind: 'fxo', index: 1, trunkId: 4, trunkNumber: '20004', secret: 'gwsecret00004' },
        ],
      },
    ],
    outboundRoutes: [
      {
        id: 1,
        name: 'national_it',
        patterns: [
          { prefix: '', pass: '0ZXXX.', cid: '', prepend: '' },
          { prefix: '0039', pass: '0ZXXX.', cid: '', prepend: '' },
        ],
        trunkIds: [1, 3],
        outcid: '',
        outcidOverride: false,
        emergency: false,
        failover: null,
      },
      {
        id: 2,
        name: 'cellphone_it',
        patterns: [{ prefix: '', pass: '3XXXXXX.', cid: '', prepend: '' }],
        trunkIds: [2, 1],
        outcid: '0612345999',
        outcidOverride: true,
        emergency: false,
        failover: 'app-blackhole,congestion,1',
      },
      {
        id: 3,
        name: 'emergency',
        patterns: [{ prefix: '', pass: '112', cid: '', prepend: '' }],
        trunkIds: [1],
        outcid: '',
        outcidOverride: false,
        emergency: true,
        failover: null,
      },
    ],
    inboundRoutes: [
      {
        id: 1,
        did: '0612345100',
        cid: '',
        description: 'Main number',
        destination: 'ext-group,cti-group-1,1',
        cidNamePrefix: '',
      },
      {
        id: 2,
        did: '0612345101',
        cid: '3331234567',
        description: 'VIP',
        destination: 'from-did-direct,201,1',
        music: 'sales',
        cidNamePrefix: 'VIP:',
      },
      { id: 3, did: '', cid: '', description: 'Any', destination: 'ext-local,vmu201,1', cidNamePrefix: '' },
    ],
    ringGroups: [{ key: 'cti-group-1', name: 'sales', members: ['201', '202'], ringTime: 20 }],
    numberedRingGroups: [
      {
        number: '600',
        name: 'Front desk',
        strategy: 'ringall',
        ringTime: 25,
        confirmExternal: true,
        failover: 'ext-local,vmu201,1',
        members: [
          { kind: 'user', number: '201' },
          { kind: 'user', number: '202' },
          { kind: 'external', number: '+393331234567' },
        ],
      },
      {
        number: '601',
        name: 'Support (hunt)',
        strategy: 'hunt',
        ringTime: 10,
        confirmExternal: false,
        failover: 'ext-queues,500,1',
        members: [
          { kind: 'user', number: '202' },
          { kind: 'external', number: '0612345999' },
        ],
      },
      {
        number: '602',
        name: 'Growing',
        strategy: 'memoryhunt',
        ringTime: 8,
        confirmExternal: false,
        failover: 'app-blackhole,hangup,1',
        members: [
          { kind: 'user', number: '201' },
          { kind: 'user', number: '202' },
        ],
      },
      {
        number: '603',
        name: 'Anyone',
        strategy: 'random',
        ringTime: 12,
        confirmExternal: false,
        failover: 'ivr-1,s,1',
        members: [
          { kind: 'user', number: '201' },
          { kind: 'user', number: '202' },
        ],
      },
    ],
    profiles: [
      { id: 1, name: 'Base', permissions: ['dnd'], routes: { 1: true, 2: false } },
      { id: 3, name: 'Advanced', permissions: ['dnd', 'call_forward', 'pickup'], routes: {} },
    ],
    announcements: [
      {
        id: 1,
        description: 'Welcome (main)',
        recording: '/var/lib/centralino/sounds/recording-1',
        allowSkip: false,
        destination: 'ivr-1,s,1',
        returnIvr: false,
        noAnswer: false,
        repeatKey: '',
      },
      {
        id: 2,
        description: 'Opening hours',
        recording: '/var/lib/centralino/sounds/recording-2',
        allowSkip: true,
        destination: 'app-blackhole,hangup,1',
        returnIvr: true,
        noAnswer: true,
        repeatKey: '*',
      },
    ],
    ivrs: [
      {
        id: 1,
        name: 'Main menu',
        announcement: '/var/lib/centralino/sounds/recording-3',
        directDial: true,
        timeout: 10,
        invalidLoops: 3,
        invalidDestination: 'app-blackhole,hangup,1',
        timeoutLoops: 2,
        timeoutDestination: 'ext-group,cti-group-1,1',
        entries: [
          { selection: '1', destination: 'ext-group,cti-group-1,1' },
          { selection: '2', destination: 'app-announcement-2,s,1' },
          { selection: '0', destination: 'from-did-direct,201,1' },
          { selection: '#', destination: 'ext-local,vmu201,1' },
        ],
      },
    ],
    dayNight: [
      {
        index: 0,
        name: 'Office (main)',
        dayDestination: 'ivr-1,s,1',
        nightDestination: 'app-announcement-2,s,1',
      },
    ],
    queues: [
      {
        number: '500',
        name: 'Support, first line',
        strategy: 'rrmemory',
        ringTime: 15,
        maxWait: 120,
        failover: 'ext-local,vmu201,1',
        music: 'sales',
        announcePosition: true,
        members: [{ extension: '201', name: 'Alice Rossi' }],
        agents: ['202'],
      },
    ],
    timeConditions: [
      {
        id: 1,
        name: 'Office hours',
        ranges: [
          { hours: '08:30-12:30', weekdays: 'mon-fri', mdays: '*', months: '*' },
          { hours: '14:00-18:00', weekdays: 'mon-thu', mdays: '*', months: '*' },
        ],
        trueDestination: 'ivr-1,s,1',
        falseDestination: 'app-daynight,0,1',
      },
    ],
    cqrs: [{ id: 1, name: 'Known customers', timeout: 3, defaultDestination: 'from-did-direct,201,1' }],
    conferences: [
      {
        number: '600',
        name: 'Weekly meeting',
        userPin: '1234',
        adminPin: '9999',
        maxMembers: 10,
        musicWhenAlone: true,
        announceJoinLeave: false,
        record: true,
      },
      {
        number: '601',
        name: 'Open room',
        userPin: null,
        adminPin: null,
        maxMembers: 0,
        musicWhenAlone: false,
        announceJoinLeave: true,
        record: false,
      },
      {
        number: '602',
        name: 'Board',
        userPin: null,
        adminPin: '4321',
        maxMembers: 0,
        musicWhenAlone: true,
        musicClass: 'sales',
        announceJoinLeave: false,
        record: false,
      },
    ],
    parkingLots: [
      {
        id: 1,
        number: '70',
        name: 'Reception',
        slots: ['71', '72', '73', '74', '75', '76', '77', '78'],
        timeout: 45,
        timeoutDestination: 'from-did-direct,201,1',
        musicClass: 'default',
      },
      {
        id: 2,
        number: '80',
        name: 'Warehouse (back), $x',
        slots: ['81', '82'],
        timeout: 120,
        timeoutDestination: null,
        musicClass: 'default',
      },
    ],
    musicClasses: [
      { name: 'empty', order: 'alpha', dir: '/var/lib/centralino/sounds/moh/empty', files: [] },
      { name: 'sales', order: 'random', dir: '/var/lib/centralino/sounds/moh/sales', files: ['jingle', 'theme-2'] },
    ],
    blockedCallers: [
      {
        id: 1,
        match: 'number',
        number: '0298765432',
        // A name that would run a command inside NoOp() if '$' reached the dialplan.
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the dialplan syntax is the point.
        description: 'Telemarketing ${SHELL(id)}',
        response: 'busy',
        sound: null,
        destination: null,
        routes: null,
      },
      {
        id: 2,
        match: 'prefix',
        number: '+4470',
        description: '',
        response: 'recording',
        sound: '/var/lib/centralino/sounds/recording-2',
        destination: null,
        routes: null,
      },
      {
        id: 3,
        match: 'anonymous',
        number: '',
        description: 'Withheld numbers',
        response: 'not_available',
        sound: null,
        destination: null,
        routes: [1],
      },
      {
        id: 4,
        match: 'prefix',
        number: '0544',
        description: 'Old customers',
        response: 'destination',
        sound: null,
        destination: 'app-blackhole,zapateller,1',
        routes: [1, 2],
      },
    ],
  };
}

/**
 * A large system built on the reference one: `count` users from extension 1000 with two devices
 * each. `variant` changes every file (names, ring times, the version in the User-Agent), so two
 * variants tell apart, file by file, which one is on disk.
 */
export function largeModel(count: number, variant: string): PbxModel {
  const model = referenceModel();
  model.settings = { ...model.settings, version: `1.0.0-${variant}` };
  for (let i = 0; i < count; i++) {
    const ext = String(1000 + i);
    model.users.push(
      user(ext, {
        username: `bulk${i}`,
        name: `Bulk User ${i} ${variant}`,
        ringTime: variant === 'old' ? 20 : 30,
        voicemail: i % 2 === 0 ? { pin: String(1000 + i) } : null,
        devices: [
          { number: `91${ext}`, type: 'physical', secret: `p${i}`.padEnd(32, 'x'), encrypted: false },
          { number: `92${ext}`, type: 'webrtc', secret: `w${i}`.padEnd(32, 'x'), encrypted: false },
        ],
      }),
    );
  }
  // Carol (1001) of the reference system would clash with the bulk users.
  model.users = model.users.filter((u) => u.username !== 'carol');
  return model;
}

/** What `loadPbxModel` takes from the environment, when a test compares two reads of the database: any will do. */
export const TEST_ENGINE = {
  tls: null,
  ami: null,
  system: null,
  version: 'test',
  soundsDir: '/nonexistent',
} as unknown as EngineSettings;
