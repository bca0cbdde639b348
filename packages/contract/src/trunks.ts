import { z } from 'zod';
import { musicChoiceSchema } from './music.ts';
import { secret } from './secret.ts';
import { noControlChars } from './text.ts';

/**
 * VoIP providers (contract api-admin §1.7): each provider is a PJSIP template applied when a trunk is
 * created. Settings every template shares are in PROVIDER_BASELINE; a provider lists only what differs
 * (null removes a baseline key).
 */
export const PROVIDER_BASELINE: Readonly<Record<string, string>> = {
  aor_contact: '',
  aors: '',
  auth_rejection_permanent: 'off',
  auth_username: '',
  authentication: 'outbound',
  client_uri: '',
  dialopts: '',
  dialoutopts_cb: 'sys',
  direct_media: 'no',
  disabletrunk: 'off',
  dtmfmode: 'auto',
  expiration: '300',
  failtrunk_enable: '0',
  fatal_retry_interval: '0',
  fax_detect: 'no',
  forbidden_retry_interval: '10',
  force_rport: 'yes',
  hcid: 'on',
  identify_by: 'default',
  inband_progress: 'no',
  language: '',
  match: '',
  max_retries: '10000',
  maxchans: '',
  media_address: '',
  media_encryption: 'no',
  message_context: '',
  npanxx: '',
  outbound_proxy: '',
  peerdetails: '',
  pjsip_line: 'true',
  qualify_frequency: '60',
  register: '',
  registration: 'send',
  retry_interval: '60',
  rewrite_contact: 'yes',
  rtp_symmetric: 'no',
  send_connected_line: 'false',
  sendrpid: 'no',
  server_uri: '',
  support_path: 'no',
  sv_usercontext: '',
  t38_udptl: 'no',
  t38_udptl_ec: 'none',
  t38_udptl_maxdatagram: '',
  t38_udptl_nat: 'no',
  transport: '0.0.0.0-udp',
  trust_id_outbound: 'no',
  trust_rpid: 'no',
  user_eq_phone: 'no',
  userconfig: '',
};

export interface VoipProvider {
  id: number;
  provider: string;
  description: string;
  sipServer: string;
  sipServerPort: number;
  fromDomain: string;
  codecs: string;
  context: 'from-pstn' | 'from-pstn-toheader' | 'from-internal';
  /** Differences from the baseline; null removes the key. */
  overrides?: Record<string, string | null>;
  /** Applied after the request's values, with $PHONE and $USERNAME replaced. */
  special?: Record<string, string>;
  /** The proxy is told not to hide topology / not to require SRTP for this provider's trunks. */
  disableTopos: boolean | null;
  disableSrtpHeader: boolean;
}

const ALL = 'ulaw,alaw,gsm,g726,g722,g729';
const p = (
  id: number,
  provider: string,
  description: string,
  sipServer: string,
  sipServerPort: number,
  fromDomain: string,
  codecs: string,
  context: VoipProvider['context'],
  extra: Partial<Pick<VoipProvider, 'overrides' | 'special'>> & { topos?: boolean | null; srtp?: boolean } = {},
): VoipProvider => ({
  id,
  provider,
  description,
  sipServer,
  sipServerPort,
  fromDomain,
  codecs,
  context,
  ...(extra.overrides ? { overrides: extra.overrides } : {}),
  ...(extra.special ? { special: extra.special } : {}),
  disableTopos: extra.topos === undefined ? false : extra.topos,
  disableSrtpHeader: extra.srtp ?? true,
});

export const voipProviders: readonly VoipProvider[] = [
  p(
    1,
    'activenetwork',
    'Active Network',
    'sip.activenetwork.it',
    5060,
    'sip.activenetwork.it',
    'ulaw,alaw',
    'from-pstn-toheader',
  ),
  p(2, 'clouditalia', 'Clouditalia', 'voip.eutelia.it', 5060, 'voip.eutelia.it', ALL, 'from-pstn-toheader', {
    overrides: { rewrite_contact: 'no' },
  }),
  p(3, 'fibering', 'Fibering s.p.a.', 'voip.sixcommgroup.it', 5060, '', 'g729', 'from-pstn-toheader', {
    overrides: { dialoutopts_cb: '', failtrunk_enable: 'off', media_encryption: 'sdes' },
    srtp: false,
  }),
  p(4, 'messagenet', 'MessageNet', 'sip.messagenet.it', 5060, 'sip.messagenet.it', ALL, 'from-pstn-toheader', {
    overrides: { failtrunk_enable: '1' },
  }),
  p(
    5,
    'neomedia',
    'Neomedia',
    'sip.neomedia.it',
    5060,
    'sip.neomedia.it',
    'ulaw,alaw,g729,gsm,g726,g722',
    'from-pstn-toheader',
  ),
  p(6, 'opensolution_gnr', 'Opensolution GNR', '77.239.128.13', 5060, '77.239.128.13', ALL, 'from-pstn-toheader', {
    overrides: { authentication: 'off', registration: 'none' },
    special: { secret: '', username: '' },
  }),
  p(
    7,
    'opensolution_sip',
    'Opensolution Sip',
    'sip.opensolution.it',
    5060,
    'sip.opensolution.it',
    ALL,
    'from-pstn-toheader',
  ),
  p(
    8,
    'opensolution_voip',
    'Opensolution Voip',
    'voip.opensolution.it',
    5060,
    'voip.opensolution.it',
    ALL,
    'from-pstn-toheader',
  ),
  p(9, 'plink', 'Plink', 'sipuser.plink.it', 5060, 'sipuser.plink.it', ALL, 'from-pstn-toheader'),
  p(10, 'sixcomm', 'Six Comm Group', 'voip.sixcomm.net', 5060, '', 'g729', 'from-pstn-toheader', {
    overrides: { dialoutopts_cb: '', failtrunk_enable: 'off', media_encryption: 'sdes' },
    srtp: false,
  }),
  p(11, 'talkho', 'Talkho', 'sip.talkho.com', 5060, 'sip.talkho.com', ALL, 'from-pstn-toheader'),
  p(12, 'timenet', 'Timenet', 'voce.voipvox.it', 5060, 'voce.voipvox.it', ALL, 'from-pstn-toheader'),
  p(13, 'twt', 'TWT', 'res.sip.twt.it', 5060, 'res.sip.twt.it', ALL, 'from-pstn'),
  p(14, 'viatek', 'Viatek', '185.144.72.100', 5083, '', ALL, 'from-pstn-toheader', {
    special: { client_uri: 'sip:$USERNAME@CHANGE_ME' },
  }),
  p(15, 'vivavox', 'VivaVox', 'sip.vivavox.it', 5060, 'sip.vivavox.it', ALL, 'from-pstn'),
  p(16, 'voipeasy', 'VoipEasy', 'sip.voipeasy.it', 5060, 'sip.voipeasy.it', 'g729', 'from-pstn', {
    overrides: { dialoutopts_cb: 'or' },
  }),
  p(17, 'voiptel', 'VoipTel', 'voip.voiptelitalia.it', 5060, 'voip.voiptelitalia.it', 'g729,ulaw,alaw', 'from-pstn'),
  p(
    18,
    'voipvoice-sip',
    'VoipVoice (sip.voipvoice.it)',
    'sip.voipvoicetel.it',
    5060,
    'sip.voipvoicetel.it',
    ALL,
    'from-pstn-toheader',
    {
      overrides: { dialoutopts_cb: 'or' },
    },
  ),
  p(
    19,
    'voipvoice-trunk',
    'VoipVoice (trunk.voipvoice.it)',
    'trunk.voipvoice.it',
    5060,
    'trunk.voipvoice.it',
    ALL,
    'from-pstn-toheader',
  ),
  p(
    20,
    'voipvoice-user',
    'VoipVoice (user.voipvoice.it)',
    'user.voipvoice.it',
    5060,
    'user.voipvoice.it',
    ALL,
    'from-pstn-toheader',
  ),
  p(21, 'wicity', 'WiCity', 'sip.wicity.it', 5060, 'sip.wicity.it', 'alaw,ulaw', 'from-pstn'),
  p(22, 'wic', 'WiC SIP', 'sip.mywic.it', 5060, 'sip.mywic.it', 'g729', 'from-pstn-toheader', {
    overrides: { sendrpid: 'both' },
  }),
  p(23, 'xstream', 'XStream', '128.65.200.18', 5083, 'nomecliente.site', 'ulaw,alaw,g729', 'from-pstn-toheader', {
    special: { client_uri: 'sip:$USERNAME@nomecliente.site:5083' },
  }),
  p(
    24,
    'digitalia',
    'Digitalia ICT',
    'sip.digiclex.it',
    5060,
    'sip.digiclex.it',
    'ulaw,alaw,g729',
    'from-pstn-toheader',
  ),
  p(
    25,
    'voiptel2',
    'VoipTel 2',
    'voip2.voiptelitalia.it',
    5060,
    'voip2.voiptelitalia.it',
    'g729,ulaw,alaw',
    'from-pstn',
  ),
  p(26, 'terrecablate', 'Terrecablate', 'sbc.tcrs.it', 5060, 'sbc.tcrs.it', 'g729,ulaw,alaw', 'from-pstn'),
  p(27, 'wic-voip', 'WiC VoIP', 'voip.mywic.it', 5060, 'voip.mywic.it', 'alaw,ulaw', 'from-pstn-toheader', {
    special: { username: '$PHONE', auth_username: '$USERNAME', contact_user: '$PHONE', from_user: '$PHONE' },
    topos: null,
  }),
  p(28, 'netoip', 'NetoIP', 'voipnet.netoip.com', 5062, 'voipnet.netoip.com', 'g729,ulaw,alaw', 'from-pstn-toheader', {
    overrides: { rewrite_contact: 'no' },
    topos: true,
  }),
  p(
    29,
    'mynet',
    'MyNet (cloud1b.voicer.it)',
    'cloud1b.voicer.it',
    5060,
    'cloud1b.voicer.it',
    'g729,ulaw,alaw',
    'from-pstn',
    {
      overrides: { send_connected_line: null },
    },
  ),
  p(30, 'oval', 'OVAL', 'sip.oval.it', 5060, 'sip.oval.it', 'g729,ulaw,alaw', 'from-pstn', {
    overrides: {
      auth_username: null,
      expiration: '330',
      pjsip_line: null,
      send_connected_line: null,
      trust_id_outbound: null,
      user_eq_phone: null,
    },
  }),
  p(31, 'enegan', 'Enegan', 'sip.enegan.it', 5060, 'sip.enegan.it', 'g729,ulaw,alaw', 'from-pstn-toheader', {
    overrides: {
      auth_username: null,
      client_uri: 'sip:USERNAME@sip.enegan.it:5060',
      outbound_proxy: 'sip:proxysip.tlc.enegan.it;lr;hide',
      pjsip_line: null,
      retry_interval: '180',
      send_connected_line: null,
      server_uri: 'sip:sip.enegan.it:5060',
      trust_id_outbound: null,
      user_eq_phone: null,
    },
    topos: true,
  }),
  p(
    32,
    'elevenlabs',
    'ElevenLabs',
    'sip.rtc.elevenlabs.io',
    5060,
    'sip.rtc.elevenlabs.io',
    'ulaw,alaw,gsm,g726,g722,vp8,h264',
    'from-internal',
    {
      overrides: {
        auth_username: null,
        authentication: 'inbound',
        expiration: '3600',
        forbidden_retry_interval: '30',
        identify_by: 'auth_username',
        registration: 'none',
        rewrite_contact: 'no',
        rtp_symmetric: 'yes',
        transport: '0.0.0.0-tcp',
      },
      special: { auth_username: '$USERNAME' },
      srtp: false,
    },
  ),
];

/** Codecs offered for VoIP trunks (contract §1.8), and the initial choice of the create form. */
export const VOIP_CODECS = ['alaw', 'ulaw', 'g729'] as const;
export const DEFAULT_VOIP_CODECS = ['alaw', 'ulaw'];

/** Trunk names become PBX channel ids and section names: keep them to safe characters. */
export const TRUNK_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,49}$/;
/**
 * Credentials end up in PJSIP files: refuse characters that would end a value or start a comment
 * (line breaks, ';', '#', '"') and other control characters.
 */
export const TRUNK_SECRET_PATTERN = /^[^\s;#"\\]{1,128}$/;
const phonePattern = /^\+?[0-9]{2,20}$/;

const trunkName = z
  .string()
  .trim()
  .regex(
    TRUNK_NAME_PATTERN,
    'Letters, digits, dot, underscore or hyphen, starting with a letter or digit (at most 50)',
  );
const username = z
  .string()
  .trim()
  .min(1, 'Username is required')
  .max(128)
  .regex(/^[^\s;#"\\]+$/, 'No spaces, ; # " or \\')
  .check(noControlChars);
const password = secret(
  z
    .string()
    .min(1, 'Password is required')
    .max(128)
    .regex(TRUNK_SECRET_PATTERN, 'No spaces, ; # " or \\')
    .check(noControlChars),
);
const phone = z.string().trim().regex(phonePattern, 'A phone number of digits, optionally starting with +');
const codecs = z.array(z.enum(VOIP_CODECS)).min(1, 'Choose at least one codec').max(VOIP_CODECS.length);

export const voipTrunkCreateSchema = z
  .object({
    provider: z.string().min(1, 'Provider is required').max(64).check(noControlChars),
    name: trunkName,
    username,
    password,
    phone,
    codecs,
    forceCodec: z.boolean(),
    /** Try the route's next trunk whatever this one answered (busy, number unknown, ...); off by default. */
    continue: z.boolean().optional(),
    /** Music class of the trunk's calls on hold (the server checks it exists); left out: `default`. */
    music: musicChoiceSchema.optional(),
  })
  .meta({ id: 'VoipTrunkCreate' });
export type VoipTrunkCreate = z.infer<typeof voipTrunkCreateSchema>;

/** PATCH: every field optional; an empty password keeps the stored one. */
export const voipTrunkPatchSchema = z
  .object({
    username: username.optional(),
    password: secret(z.union([z.literal(''), password])).optional(),
    phone: phone.optional(),
    codecs: codecs.optional(),
    forceCodec: z.boolean().optional(),
    continue: z.boolean().optional(),
    music: musicChoiceSchema.optional(),
  })
  .meta({ id: 'VoipTrunkPatch' });
export type VoipTrunkPatch = z.infer<typeof voipTrunkPatchSchema>;

export const trunkSchema = z
  .object({
    trunkid: z.number().int(),
    name: z.string(),
    tech: z.literal('pjsip'),
    kind: z.enum(['voip', 'gateway']),
    provider: z.string().nullable(),
    outcid: z.string().nullable(),
    username: z.string().nullable(),
    codecs: z.array(z.string()),
    forceCodec: z.boolean(),
    /** After a failed call the route always tries its next trunk (contract `continue=on`). */
    continue: z.boolean(),
    /** The gateway a port trunk belongs to. */
    gateway_id: z.number().int().nullable(),
    /** Provider server and port from the template (VoIP), null for gateway ports. */
    server: z.string().nullable(),
    port: z.number().int().nullable(),
    /** Music class its calls hear on hold. */
    music: z.string(),
  })
  .meta({ id: 'Trunk' });
export type Trunk = z.infer<typeof trunkSchema>;
export const trunkListSchema = z.array(trunkSchema).meta({ id: 'TrunkList' });

export const providerSchema = z.object({ id: z.number().int(), provider: z.string(), description: z.string() });
export const providerListSchema = z.array(providerSchema).meta({ id: 'ProviderList' });
export const codecListSchema = z.array(z.object({ codec: z.string(), enabled: z.boolean() })).meta({ id: 'CodecList' });
