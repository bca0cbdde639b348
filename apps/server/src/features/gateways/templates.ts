import type { GatewayModel } from '@centralino/contract';

/**
 * Configuration files of the catalogue's gateways, one renderer per vendor family, each in the
 * vendor's own syntax: Patton SmartWare CLI (TRINITY and SmartNode), Grandstream XML provisioning
 * (P-values), Sangoma Vega CLI script and Mediatrix DGW configuration script. They carry what
 * contract §3.17 lists: addresses, mask, default gateway, PBX address, one SIP registration per
 * ISDN/PRI/FXO port (trunk name and secret, dial prefix), ISDN protocol, FXO line numbers, FXS accounts.
 * Every value written here was validated on input (addresses, digits, [A-Za-z0-9_] secrets), so no
 * quoting rules of the vendors are needed.
 */

export interface TrunkPort {
  /** Trunk name: the SIP user the port registers with. */
  username: string;
  secret: string;
  /** Prefix the PBX dials before the number; the gateway strips it. */
  trunkNumber: string;
}
export interface IsdnPort extends TrunkPort {
  protocol: 'pp' | 'pmp';
}
export interface FxoPort extends TrunkPort {
  /** The analog line's own number ('' when not given). */
  number: string;
}
export interface FxsPort {
  /** Device number of the port's account; null when the port is not linked to a user. */
  extension: string | null;
  secret: string | null;
}

export interface GatewayConfigInput {
  model: GatewayModel;
  name: string;
  /** Upper-case, colon-separated. */
  mac: string;
  /** The gateway's (new) address. */
  ip: string;
  netmask: string;
  defaultGateway: string;
  /** PBX address: registrar and proxy of every account. */
  pbx: string;
  isdn: IsdnPort[];
  pri: TrunkPort[];
  fxo: FxoPort[];
  fxs: FxsPort[];
  /** Generation time (written in the header; Grandstream's UTIME). */
  now: Date;
  /** The PBX's SIP ports (SIP_PORT, SIP_TLS_PORT), which the gateway registers to; 5060 / 5061 when left out. */
  pbxPorts?: { sip: number; tls: number };
}

const pad = (n: number) => String(n).padStart(2, '0');
/** dd/mm/yyyy H:MM:SS as the original's DATE placeholder. */
export function formatDate(d: Date): string {
  return `${pad(d.getUTCDate())}/${pad(d.getUTCMonth() + 1)}/${d.getUTCFullYear()} ${d.getUTCHours()}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} UTC`;
}
/** The gateway's own SIP port (its local listener). */
const sipPort = (tls: boolean) => (tls ? 5061 : 5060);
/** The PBX's port the gateway's accounts register and send calls to. */
const pbxPort = (input: GatewayConfigInput, tls = input.model.tls) =>
  tls ? (input.pbxPorts?.tls ?? 5061) : (input.pbxPorts?.sip ?? 5060);
type Part = string | false | readonly Part[];
function flatten(parts: readonly Part[], out: string[] = []): string[] {
  for (const p of parts) {
    if (typeof p === 'string') out.push(p);
    else if (p !== false) flatten(p, out);
  }
  return out;
}
const lines = (...parts: Part[]) => `${flatten(parts).join('\n')}\n`;

function mask2prefix(mask: string): number {
  return mask.split('.').reduce((n, o) => n + Number(o).toString(2).replaceAll('0', '').length, 0);
}

// ---------------------------------------------------------------- Patton (SmartWare CLI)

interface PattonTrunk extends TrunkPort {
  id: string;
  /** SmartWare port statement and the interface type it binds. */
  port: string[];
  kind: 'isdn' | 'fxo' | 'pri';
  number?: string;
}

function pattonPorts(input: GatewayConfigInput, trinity: boolean): PattonTrunk[] {
  const out: PattonTrunk[] = [];
  input.isdn.forEach((p, i) => {
    // SmartNode leaves Point-MultiPoint at the firmware default: an empty PROTOCOLTYPE in the original.
    const protocol = p.protocol === 'pp' || trinity ? [`      protocol ${p.protocol}`] : [];
    out.push({
      ...p,
      id: `ISDN_${i}`,
      kind: 'isdn',
      port: [
        `port bri 0 ${i}`,
        '  clock auto',
        '  encapsulation q921',
        '  q921',
        '    uni-side auto',
        '    encapsulation q931',
        '    q931',
        ...protocol,
        '      uni-side user',
        '      encapsulation cc-isdn',
        `      bind interface IF_ISDN_${i} switch`,
        `port bri 0 ${i}`,
        '  no shutdown',
      ],
    });
  });
  input.pri.forEach((p, i) => {
    out.push({
      ...p,
      id: `PRI_${i}`,
      kind: 'pri',
      port: [
        `port e1t1 0 ${i}`,
        '  port-type e1',
        '  e1',
        '    clock auto',
        '    framing crc4',
        '    encapsulation q921',
        '    q921',
        '      uni-side auto',
        '      encapsulation q931',
        '      q931',
        '        protocol dss1',
        '        uni-side user',
        '        bchan-number-order ascending',
        '        encapsulation cc-isdn',
        `        bind interface IF_PRI_${i} switch`,
        `port e1t1 0 ${i}`,
        '  no shutdown',
      ],
    });
  });
  input.fxo.forEach((p, i) => {
    out.push({
      ...p,
      id: `FXO_${i}`,
      kind: 'fxo',
      port: [
        `port fxo 0 ${i}`,
        '  use profile fxo default',
        '  encapsulation cc-fxo',
        `  bind interface IF_FXO_${i} switch`,
        `port fxo 0 ${i}`,
        '  no shutdown',
      ],
    });
  });
  return out;
}

function renderPatton(input: GatewayConfigInput): string {
  const trinity = input.model.family === 'patton-trinity';
  const tls = input.model.tls;
  const port = pbxPort(input);
  const transport = tls ? 'tls' : 'udp';
  const trunks = pattonPorts(input, trinity);
  const fxs = input.fxs.map((p, i) => ({ ...p, i })).filter((p) => p.extension);
  const ifName = (t: PattonTrunk) => `IF_${t.id}`;
  return lines(
    '#----------------------------------------------------------------#',
    `# ${input.name}`,
    `# Patton ${trinity ? 'TRINITY' : 'SmartNode'} ${input.model.model}, MAC ${input.mac}`,
    `# Generated by Centralino on ${formatDate(input.now)}`,
    '#----------------------------------------------------------------#',
    '',
    'cli version 3.20',
    'webserver port 80 language en',
    '',
    `dns-client server ${input.defaultGateway}`,
    `sntp-client server primary ${input.pbx} port 123 version 4`,
    'sntp-client',
    '',
    'system',
    '  ic voice 0',
    '    low-bitrate-codec g729',
    '',
    'profile voip default',
    '  codec 0 g711alaw64k rx-length 20 tx-length 20',
    '  codec 1 g711ulaw64k rx-length 20 tx-length 20',
    '  codec 2 g729 rx-length 20 tx-length 20',
    ...(tls
      ? [
          '  media-protection mode srtp',
          '  media-protection crypto-suite aes-cm-128-hmac-sha1-80',
          '',
          'profile tls TLS_PBX',
          '  no authentication incoming',
          '  no authentication outgoing',
        ]
      : []),
    '',
    'context ip router',
    '',
    '  interface IF_IP_LAN',
    `    ipaddress ${input.ip} ${input.netmask}`,
    '    tcp adjust-mss rx mtu',
    '    tcp adjust-mss tx mtu',
    '',
    `  route 0.0.0.0 0.0.0.0 ${input.defaultGateway} 0`,
    '',
    'context cs switch',
    '  national-prefix 0',
    '  international-prefix 00',
    '',
    // Calls from the PBX carry the port's trunk number in front of the number: strip it.
    '  routing-table called-e164 RT_FROM_PBX',
    trunks.map((t) => `    route ${t.trunkNumber}T dest-interface ${ifName(t)} MT_STRIP_${t.id}`),
    '',
    trunks.map((t) => [
      `  mapping-table called-e164 to called-e164 MT_STRIP_${t.id}`,
      `    map ${t.trunkNumber}(T) to \\1`,
      '',
    ]),
    trunks.map((t) => {
      const type = t.kind === 'fxo' ? 'fxo' : 'isdn';
      return [
        `  interface ${type} ${ifName(t)}`,
        `    route call dest-interface IF_SIP_${t.id}`,
        ...(t.kind === 'fxo' && t.number ? [`    ring-number on-caller-id`, `    destination-number ${t.number}`] : []),
        '',
        `  interface sip IF_SIP_${t.id}`,
        `    bind context sip-gateway GW_SIP`,
        '    route call dest-table RT_FROM_PBX',
        `    remote ${input.pbx} ${port}`,
        `    address-translation outgoing-call request-uri user-part fix ${t.username} host-part fix ${input.pbx}`,
        `    address-translation incoming-call called-e164 request-uri`,
        `    identity ${t.username} inherit`,
        '',
      ];
    }),
    fxs.map((p) => [
      `  interface fxs IF_FXS_${p.i}`,
      `    route call dest-interface IF_SIP_FXS_${p.i}`,
      `    subscriber-number ${p.extension}`,
      '',
      `  interface sip IF_SIP_FXS_${p.i}`,
      '    bind context sip-gateway GW_SIP',
      `    route call dest-interface IF_FXS_${p.i}`,
      `    remote ${input.pbx} ${port}`,
      `    identity ${p.extension} inherit`,
      '',
    ]),
    'context sip-gateway GW_SIP',
    '  interface LAN',
    `    bind interface IF_IP_LAN context router port ${port}${tls ? ' transport tls tls-profile TLS_PBX' : ''}`,
    '',
    'context sip-gateway GW_SIP',
    '  bind location-service LS_PBX',
    '  no shutdown',
    '',
    'location-service LS_PBX',
    `  domain 1 ${input.pbx} ${port}`,
    '',
    trunks.map((t) => [
      `  identity ${t.username}`,
      '    authentication outbound',
      `      authenticate 1 authentication-service AS_PBX username ${t.username}`,
      '    registration outbound',
      `      registrar ${input.pbx} ${port} transport ${transport}`,
      `      outbound-proxy ${input.pbx} ${port} transport ${transport}`,
      '      lifetime 300',
      '      register auto',
      '',
    ]),
    fxs.map((p) => [
      `  identity ${p.extension}`,
      '    authentication outbound',
      `      authenticate 1 authentication-service AS_PBX username ${p.extension}`,
      '    registration outbound',
      `      registrar ${input.pbx} ${port} transport ${transport}`,
      '      lifetime 300',
      '      register auto',
      '',
    ]),
    'authentication-service AS_PBX',
    `  realm 1 ${input.pbx}`,
    trunks.map((t) => `  username ${t.username} password ${t.secret}`),
    fxs.map((p) => `  username ${p.extension} password ${p.secret}`),
    '',
    'port ethernet 0 0',
    '  medium auto',
    '  encapsulation ip',
    '  bind interface IF_IP_LAN router',
    'port ethernet 0 0',
    '  no shutdown',
    '',
    trunks.map((t) => [...t.port, '']),
    fxs.map((p) => [
      `port fxs 0 ${p.i}`,
      '  encapsulation cc-fxs',
      `  bind interface IF_FXS_${p.i} switch`,
      `port fxs 0 ${p.i}`,
      '  no shutdown',
      '',
    ]),
  );
}

// ---------------------------------------------------------------- Grandstream (XML P-values)

/**
 * HT801/HT802/HT812 have one account block per port (port 1 P47…, port 2 P747…); HT814 and the
 * GXW42xx share one SIP profile and keep per-port accounts in ranges (user P4060+k, auth P4120+k,
 * password P4180+k, name P4240+k, enable P4300+k).
 */
function grandstreamAccounts(input: GatewayConfigInput): [string, string][] {
  const port = pbxPort(input);
  const server = `${input.pbx}:${port}`;
  // Transport: 0 UDP, 2 TLS. SRTP: 0 off, 2 enabled and forced.
  const transport = input.model.tls ? '2' : '0';
  const srtp = input.model.tls ? '2' : '0';
  const perAccount = input.model.family === 'grandstream-ht' && input.model.n_fxs_ext <= 2;
  const out: [string, string][] = [];
  if (perAccount) {
    const blocks = [
      {
        active: 'P271',
        server: 'P47',
        proxy: 'P48',
        user: 'P35',
        auth: 'P36',
        pass: 'P34',
        name: 'P3',
        transport: 'P130',
        srtp: 'P183',
      },
      {
        active: 'P401',
        server: 'P747',
        proxy: 'P748',
        user: 'P735',
        auth: 'P736',
        pass: 'P734',
        name: 'P703',
        transport: 'P730',
        srtp: 'P443',
      },
    ];
    input.fxs.forEach((p, k) => {
      const b = blocks[k];
      if (!b) return;
      out.push(
        [b.active, p.extension ? '1' : '0'],
        [b.server, p.extension ? server : ''],
        [b.proxy, p.extension ? server : ''],
        [b.user, p.extension ?? ''],
        [b.auth, p.extension ?? ''],
        [b.pass, p.secret ?? ''],
        [b.name, p.extension ?? ''],
        [b.transport, transport],
        [b.srtp, srtp],
      );
    });
    return out;
  }
  out.push(['P47', server], ['P48', server], ['P130', transport], ['P183', srtp]);
  input.fxs.forEach((p, k) => {
    out.push(
      [`P${4060 + k}`, p.extension ?? ''],
      [`P${4120 + k}`, p.extension ?? ''],
      [`P${4180 + k}`, p.secret ?? ''],
      [`P${4240 + k}`, p.extension ?? ''],
      [`P${4300 + k}`, p.extension ? '1' : '0'],
    );
  });
  return out;
}

function renderGrandstream(input: GatewayConfigInput): string {
  const octets = (addr: string, first: number) => addr.split('.').map((o, i): [string, string] => [`P${first + i}`, o]);
  const values: [string, string][] = [
    // Static address (P8 = 1) with IP, mask, router and DNS octets.
    ['P8', '1'],
    ...octets(input.ip, 9),
    ...octets(input.netmask, 13),
    ...octets(input.defaultGateway, 17),
    ...octets(input.defaultGateway, 21),
    // SIP registration on, expiry 60 minutes, local SIP port.
    ['P31', '1'],
    ['P32', '60'],
    ['P40', String(sipPort(input.model.tls))],
    // Preferred codecs: PCMA, PCMU, G.729 (8, 0, 18).
    ['P57', '8'],
    ['P58', '0'],
    ['P59', '18'],
    ...grandstreamAccounts(input),
  ];
  return lines(
    '<?xml version="1.0" encoding="UTF-8" ?>',
    `<!-- ${input.name}: Grandstream ${input.model.model}, generated by Centralino on ${formatDate(input.now)} -->`,
    '<gs_provision version="1">',
    `  <mac>${input.mac.replaceAll(':', '')}</mac>`,
    '  <config version="1">',
    values.map(([k, v]) => `    <${k}>${v}</${k}>`),
    `    <!-- UTIME ${Math.floor(input.now.getTime() / 1000)} -->`,
    '  </config>',
    '</gs_provision>',
  );
}

// ---------------------------------------------------------------- Sangoma Vega (CLI script)

function renderSangoma(input: GatewayConfigInput): string {
  const trunks: (TrunkPort & { kind: 'isdn' | 'pri' | 'fxo'; i: number; protocol?: string; number?: string })[] = [
    ...input.isdn.map((p, i) => ({ ...p, kind: 'isdn' as const, i })),
    ...input.pri.map((p, i) => ({ ...p, kind: 'pri' as const, i })),
    ...input.fxo.map((p, i) => ({ ...p, kind: 'fxo' as const, i })),
  ];
  const fxs = input.fxs.map((p, i) => ({ ...p, i })).filter((p) => p.extension);
  const users = [
    ...trunks.map((t) => ({ user: t.username, secret: t.secret })),
    ...fxs.map((p) => ({ user: p.extension ?? '', secret: p.secret ?? '' })),
  ];
  const interfaceOf = (t: (typeof trunks)[number]) => t.i + 1;
  return lines(
    `; ${input.name}`,
    `; Sangoma ${input.model.model}, MAC ${input.mac}`,
    `; Generated by Centralino on ${formatDate(input.now)}`,
    '',
    'set .lan.if.1.use_dhcp=0',
    `set .lan.if.1.ip=${input.ip}`,
    `set .lan.if.1.subnet=${input.netmask}`,
    `set .lan.gateway.ip=${input.defaultGateway}`,
    `set .lan.dns=${input.defaultGateway}`,
    '',
    `set .sip.reg_domain=${input.pbx}`,
    `set .sip.proxy.1.ipname=${input.pbx}:${pbxPort(input, false)}`,
    'set .sip.proxy.1.enable=1',
    'set .sip.reg_expiry=300',
    '',
    users.map((u, n) => [
      `set .sip.reg.user.${n + 1}.enable=1`,
      `set .sip.reg.user.${n + 1}.username=${u.user}`,
      `set .sip.reg.user.${n + 1}.auth_user_index=${n + 1}`,
      `set .sip.auth.user.${n + 1}.enable=1`,
      `set .sip.auth.user.${n + 1}.username=${u.user}`,
      `set .sip.auth.user.${n + 1}.password=${u.secret}`,
      '',
    ]),
    trunks.map((t) =>
      t.kind === 'fxo'
        ? [
            `set .fxo.port.${interfaceOf(t)}.enable=1`,
            ...(t.number ? [`set .fxo.port.${interfaceOf(t)}.tel=${t.number}`] : []),
          ]
        : t.kind === 'isdn'
          ? [`set .bri.port.${interfaceOf(t)}.line_type=te`, `set .bri.port.${interfaceOf(t)}.topology=${t.protocol}`]
          : [`set .pri.port.${interfaceOf(t)}.line_type=te`, `set .pri.port.${interfaceOf(t)}.line_encoding=hdb3`],
    ),
    fxs.map((p) => `set .fxs.port.${p.i + 1}.tel=${p.extension}`),
    '',
    // Dial plan: calls from the PBX start with the port's trunk number, which is stripped here.
    trunks.map((t, n) => {
      const dest =
        t.kind === 'fxo'
          ? `FXO:${interfaceOf(t)}`
          : t.kind === 'isdn'
            ? `BRI:${interfaceOf(t)}`
            : `PRI:${interfaceOf(t)}`;
      return [
        `set .planner.profile.1.plan.${n + 1}.name=From_PBX_${t.kind}_${interfaceOf(t)}`,
        `set .planner.profile.1.plan.${n + 1}.srce=IF:99,TEL:${t.trunkNumber}<.*>`,
        `set .planner.profile.1.plan.${n + 1}.dest=IF:${dest},TEL:<1>`,
        `set .planner.profile.1.plan.${trunks.length + n + 1}.name=To_PBX_${t.kind}_${interfaceOf(t)}`,
        `set .planner.profile.1.plan.${trunks.length + n + 1}.srce=IF:${dest},TEL:<.*>`,
        `set .planner.profile.1.plan.${trunks.length + n + 1}.dest=IF:99,TEL:<1>,USER:${t.username}`,
      ];
    }),
    '',
    'save',
  );
}

/** The boot script a Vega runs after loading its configuration (the original's script.txt). */
export function sangomaScript(configFile: string, pbx: string, tftpPort: number): string {
  return lines(`; Centralino boot script`, `get tftp:${pbx}:${tftpPort}/${configFile}`, 'save', 'apply');
}

// ---------------------------------------------------------------- Mediatrix (DGW configuration script)

function renderMediatrix(input: GatewayConfigInput): string {
  const prefix = mask2prefix(input.netmask);
  return lines(
    `# ${input.name}`,
    `# Mediatrix ${input.model.model}, MAC ${input.mac}`,
    `# Generated by Centralino on ${formatDate(input.now)}`,
    '',
    'Eth.Networks[Name=Uplink].AddressSource="Static"',
    `Eth.Networks[Name=Uplink].StaticIpAddr="${input.ip}/${prefix}"`,
    `Eth.Networks[Name=Uplink].StaticDefaultRouter="${input.defaultGateway}"`,
    `Bni.StaticDnsServers="${input.defaultGateway}"`,
    '',
    `SipEp.DefaultStaticRegistrar="${input.pbx}:${pbxPort(input, false)}"`,
    `SipEp.DefaultStaticProxy="${input.pbx}:${pbxPort(input, false)}"`,
    'SipEp.DefaultRegistrationRefreshTime="300"',
    '',
    input.isdn.map((p, i) => {
      const bri = `Bri${i + 1}`;
      return [
        `Isdn.InterfaceBri[InterfaceName=${bri}].EndpointType="TE"`,
        `Isdn.InterfaceBri[InterfaceName=${bri}].ConnectionType="${p.protocol === 'pp' ? 'PointToPoint' : 'PointToMultiPoint'}"`,
        `SipEp.UserAgent[EpId=${bri}].UserName="${p.username}"`,
        `SipEp.UserAgent[EpId=${bri}].FriendlyName="${p.username}"`,
        `SipEp.UserAgent[EpId=${bri}].Register="Enable"`,
        `SipEp.AuthenticationUnit[Index=${i + 1}].Criteria="EndpointId"`,
        `SipEp.AuthenticationUnit[Index=${i + 1}].EndpointId="${bri}"`,
        `SipEp.AuthenticationUnit[Index=${i + 1}].User="${p.username}"`,
        `SipEp.AuthenticationUnit[Index=${i + 1}].Password="${p.secret}"`,
        // Calls from the PBX carry the port's trunk number first: route on it and strip it.
        `Cr.RoutesRow[Index=${i + 1}].Criteria="Called-E164"`,
        `Cr.RoutesRow[Index=${i + 1}].CriteriaValue="${p.trunkNumber}(.*)"`,
        `Cr.RoutesRow[Index=${i + 1}].Destination="isdn-${bri}"`,
        `Cr.RoutesRow[Index=${i + 1}].Mappings="strip${i + 1}"`,
        `Cr.MappingsRow[Name=strip${i + 1}].Type="E164"`,
        `Cr.MappingsRow[Name=strip${i + 1}].Transformation="\\1"`,
        `Cr.RoutesRow[Index=${input.isdn.length + i + 1}].Criteria="Calling-Interface"`,
        `Cr.RoutesRow[Index=${input.isdn.length + i + 1}].CriteriaValue="isdn-${bri}"`,
        `Cr.RoutesRow[Index=${input.isdn.length + i + 1}].Destination="sip-${p.username}"`,
        '',
      ];
    }),
  );
}

/** The gateway's configuration file in its vendor's syntax. */
export function renderGatewayConfig(input: GatewayConfigInput): string {
  switch (input.model.family) {
    case 'patton-trinity':
    case 'patton-smartnode':
      return renderPatton(input);
    case 'grandstream-ht':
    case 'grandstream-gxw':
      return renderGrandstream(input);
    case 'sangoma':
      return renderSangoma(input);
    case 'mediatrix':
      return renderMediatrix(input);
  }
}

/** Name of the file the device fetches over TFTP (contract §3.18). */
export function tftpFileName(model: GatewayModel, mac: string): string {
  const plain = mac.replaceAll(':', '').toUpperCase();
  if (model.manufacturer === 'Sangoma') return `${plain}config.txt`;
  // Grandstream devices look for cfg<mac>.xml when their config server is set to this PBX.
  if (model.manufacturer === 'Grandstream') return `cfg${plain.toLowerCase()}.xml`;
  return `${plain}.cfg`;
}
