import { z } from 'zod';
import { noControlChars } from './text.ts';

/**
 * Physical gateways (contract api-admin §3): the catalogue of models, the naming of their port
 * trunks, and the requests and answers of /api/devices/gateways.
 */

export type GatewayTech = 'fxo' | 'fxs' | 'isdn' | 'pri';
export type GatewayPortType = 'isdn' | 'pri' | 'fxo';
/** Vendor families that share one configuration syntax (one template each). */
export type GatewayFamily =
  | 'patton-trinity'
  | 'patton-smartnode'
  | 'grandstream-ht'
  | 'grandstream-gxw'
  | 'sangoma'
  | 'mediatrix';

export interface GatewayModel {
  id: number;
  manufacturer: string;
  model: string;
  tech: GatewayTech;
  n_pri_trunks: number;
  n_isdn_trunks: number;
  n_fxo_trunks: number;
  n_fxs_ext: number;
  /** As in the original's data (Italian, '(sic)' errors kept): what the API answers and the Italian console shows. */
  description: string;
  /** What the English console shows (the model numbers the Italian copies wrongly are right here). */
  descriptionEn: string;
  family: GatewayFamily;
  /** SIP over TLS (port 5061) with SRTP instead of UDP on 5060. */
  tls: boolean;
}

type Row = [
  id: number,
  manufacturer: string,
  model: string,
  tech: GatewayTech,
  counts: [number, number, number, number],
  description: string,
  descriptionEn: string,
];

/**
 * Every model of contract §3.15: the 25 of the newest catalogue keep their ids; the 21 models only the
 * legacy catalogue had get ids from 47 on, in the contract's order. Counts are [PRI, ISDN, FXO, FXS].
 */
// biome-ignore format: one model per line reads as a table
const rows: Row[] = [
  [11, 'Patton', 'TRI_FXO_2', 'fxo', [0, 0, 2, 0], 'TRINITY Analogico 2 Porte FXO', 'TRINITY Analog 2 FXO ports'],
  [12, 'Patton', 'TRI_FXO_4', 'fxo', [0, 0, 4, 0], 'TRINITY Analogico 4 Porte FXO', 'TRINITY Analog 4 FXO ports'],
  [13, 'Patton', 'TRI_FXO_8', 'fxo', [0, 0, 8, 0], 'TRINITY Analogico 8 Porte FXO', 'TRINITY Analog 8 FXO ports'],
  [16, 'Patton', 'TRI_ISDN_1', 'isdn', [0, 1, 0, 0], 'TRINITY ISDN 1 Porta', 'TRINITY ISDN 1 port'],
  [17, 'Patton', 'TRI_ISDN_2', 'isdn', [0, 2, 0, 0], 'TRINITY ISDN 2 Porte', 'TRINITY ISDN 2 ports'],
  [18, 'Patton', 'TRI_ISDN_4', 'isdn', [0, 4, 0, 0], 'TRINITY ISDN 4 Porte', 'TRINITY ISDN 4 ports'],
  [19, 'Patton', 'TRI_PRI_1', 'pri', [1, 0, 0, 0], 'TRINITY PRI 1 Porta', 'TRINITY PRI 1 port'],
  [20, 'Patton', 'TRI_PRI_2', 'pri', [2, 0, 0, 0], 'TRINITY PRI 2 Porte', 'TRINITY PRI 2 ports'],
  [21, 'Patton', 'TRI_PRI_4', 'pri', [4, 0, 0, 0], 'TRINITY PRI 4 Porte', 'TRINITY PRI 4 ports'],
  [31, 'Grandstream', 'ht801', 'fxs', [0, 0, 0, 1], 'HT801 SIP 1 Porta FXS', 'HT801 SIP 1 FXS port'],
  [32, 'Grandstream', 'ht801TLS', 'fxs', [0, 0, 0, 1], 'HT801 SIP TLS 1 Porta FXS', 'HT801 SIP TLS 1 FXS port'],
  [33, 'Grandstream', 'ht802', 'fxs', [0, 0, 0, 2], 'HT802 SIP 2 Porte FXS', 'HT802 SIP 2 FXS ports'],
  [34, 'Grandstream', 'ht802TLS', 'fxs', [0, 0, 0, 2], 'HT802 SIP TLS 2 Porte FXS', 'HT802 SIP TLS 2 FXS ports'],
  [35, 'Grandstream', 'ht812', 'fxs', [0, 0, 0, 2], 'HT812 SIP 2 Porte FXS', 'HT812 SIP 2 FXS ports'],
  [36, 'Grandstream', 'ht812TLS', 'fxs', [0, 0, 0, 2], 'HT812 SIP TLS 2 Porte FXS', 'HT812 SIP TLS 2 FXS ports'],
  [37, 'Grandstream', 'ht814', 'fxs', [0, 0, 0, 4], 'HT814 SIP 4 Porte FXS', 'HT814 SIP 4 FXS ports'],
  [38, 'Grandstream', 'ht814TLS', 'fxs', [0, 0, 0, 4], 'HT814 SIP TLS 4 Porte FXS', 'HT814 SIP TLS 4 FXS ports'],
  [39, 'Grandstream', 'gxw4216', 'fxs', [0, 0, 0, 16], 'GXW4216 SIP 16 Porte FXS', 'GXW4216 SIP 16 FXS ports'],
  [40, 'Grandstream', 'gxw4216TLS', 'fxs', [0, 0, 0, 16], 'GXW4216 SIP TLS 16 Porte FXS', 'GXW4216 SIP TLS 16 FXS ports'],
  [41, 'Grandstream', 'gxw4224', 'fxs', [0, 0, 0, 24], 'GXW4224 SIP 24 Porte FXS', 'GXW4224 SIP 24 FXS ports'],
  [42, 'Grandstream', 'gxw4224TLS', 'fxs', [0, 0, 0, 24], 'GXW4224 SIP TLS 24 Porte FXS', 'GXW4224 SIP TLS 24 FXS ports'],
  [43, 'Grandstream', 'gxw4232', 'fxs', [0, 0, 0, 32], 'GXW4216 SIP 32 Porte FXS', 'GXW4232 SIP 32 FXS ports'],
  [44, 'Grandstream', 'gxw4232TLS', 'fxs', [0, 0, 0, 32], 'GXW4232 SIP TLS 32 Porte FXS', 'GXW4232 SIP TLS 32 FXS ports'],
  [45, 'Grandstream', 'gxw4248', 'fxs', [0, 0, 0, 48], 'GXW4216 SIP 48 Porte FXS', 'GXW4248 SIP 48 FXS ports'],
  [46, 'Grandstream', 'gxw4248TLS', 'fxs', [0, 0, 0, 48], 'GXW4216 SIP TLS 48 Porte FXS', 'GXW4248 SIP TLS 48 FXS ports'],
  [47, 'Patton', '4552', 'isdn', [0, 1, 0, 0], 'SMARTNODE ISDN 1 Porta', 'SMARTNODE ISDN 1 port'],
  [48, 'Patton', '4554', 'isdn', [0, 2, 0, 0], 'SMARTNODE ISDN 2 Porte', 'SMARTNODE ISDN 2 ports'],
  [49, 'Patton', '4638', 'isdn', [0, 4, 0, 0], 'SMARTNODE ISDN 4 Porte', 'SMARTNODE ISDN 4 ports'],
  [50, 'Patton', '4661', 'isdn', [0, 8, 0, 0], 'SMARTNODE ISDN 8 Porte', 'SMARTNODE ISDN 8 ports'],
  [51, 'Patton', '4112fxs', 'fxs', [0, 0, 0, 2], 'SMARTNODE Analogico 2 Porte FXS', 'SMARTNODE Analog 2 FXS ports'],
  [52, 'Patton', '4112fxo', 'fxo', [0, 0, 2, 0], 'SMARTNODE Analogico 2 Porte FXO', 'SMARTNODE Analog 2 FXO ports'],
  [53, 'Patton', '4114fxs', 'fxs', [0, 0, 0, 4], 'SMARTNODE Analogico 4 Porte FXS', 'SMARTNODE Analog 4 FXS ports'],
  [54, 'Patton', '4114fxo', 'fxo', [0, 0, 4, 0], 'SMARTNODE Analogico 4 Porte FXO', 'SMARTNODE Analog 4 FXO ports'],
  [55, 'Patton', '4526fxs', 'fxs', [0, 0, 0, 6], 'SMARTNODE Analogico 6 Porte FXS', 'SMARTNODE Analog 6 FXS ports'],
  [56, 'Patton', '4118fxs', 'fxs', [0, 0, 0, 8], 'SMARTNODE Analogico 8 Porte FXS', 'SMARTNODE Analog 8 FXS ports'],
  [57, 'Patton', '4970', 'pri', [1, 0, 0, 0], 'SMARTNODE PRI 1 Porta', 'SMARTNODE PRI 1 port'],
  [58, 'Patton', '4970_4', 'pri', [4, 0, 0, 0], 'SMARTNODE PRI 4 Porte', 'SMARTNODE PRI 4 ports'],
  [59, 'Sangoma', 'Vega_50_24fxs', 'fxs', [0, 0, 0, 24], 'Vega 3000 FXS 24 Porte', 'Vega 3000 FXS 24 ports'],
  [60, 'Sangoma', 'Vega_60_4fxo', 'fxo', [0, 0, 4, 0], 'Vega 60 FXO 4 Porte', 'Vega 60 FXO 4 ports'],
  [61, 'Sangoma', 'Vega_60_2isdn', 'isdn', [0, 2, 0, 0], 'Vega 60 ISDN 2 Porte', 'Vega 60 ISDN 2 ports'],
  [62, 'Sangoma', 'Vega_60_4isdn', 'isdn', [0, 4, 0, 0], 'Vega 60 ISDN 4 Porte', 'Vega 60 ISDN 4 ports'],
  [63, 'Sangoma', 'Vega_100_1pri', 'pri', [1, 0, 0, 0], 'Vega 100 PRI 1 Porta', 'Vega 100 PRI 1 port'],
  [64, 'Sangoma', 'Vega_200_2pri', 'pri', [2, 0, 0, 0], 'Vega 200 PRI 2 Porte', 'Vega 200 PRI 2 ports'],
  [65, 'Mediatrix', 'M4401', 'isdn', [0, 1, 0, 0], '4401 ISDN 1 Porta', '4401 ISDN 1 port'],
  [66, 'Mediatrix', 'M4402', 'isdn', [0, 2, 0, 0], '4402 ISDN 2 Porte', '4402 ISDN 2 ports'],
  [67, 'Mediatrix', 'M4404', 'isdn', [0, 4, 0, 0], '4404 ISDN 4 Porte', '4404 ISDN 4 ports'],
];

function familyOf(manufacturer: string, model: string): GatewayFamily {
  if (manufacturer === 'Patton') return model.startsWith('TRI_') ? 'patton-trinity' : 'patton-smartnode';
  if (manufacturer === 'Grandstream') return model.startsWith('gxw') ? 'grandstream-gxw' : 'grandstream-ht';
  if (manufacturer === 'Sangoma') return 'sangoma';
  return 'mediatrix';
}

export const gatewayModels: readonly GatewayModel[] = rows.map(
  ([id, manufacturer, model, tech, [pri, isdn, fxo, fxs], description, descriptionEn]) => ({
    id,
    manufacturer,
    model,
    tech,
    n_pri_trunks: pri,
    n_isdn_trunks: isdn,
    n_fxo_trunks: fxo,
    n_fxs_ext: fxs,
    description,
    descriptionEn,
    family: familyOf(manufacturer, model),
    // TRINITY trunks register over TLS in the original's templates; Grandstream has TLS twins of each model.
    tls: model.startsWith('TRI_') || model.endsWith('TLS'),
  }),
);

export function gatewayModel(id: number): GatewayModel | undefined {
  return gatewayModels.find((m) => m.id === id);
}

/**
 * Description of a gateway model in the console's language; the API keeps answering the original's Italian
 * text, so a model the catalogue does not know shows that text.
 */
export function gatewayModelDescription(id: number | null | undefined, fallback: string, language: string): string {
  const model = id == null ? undefined : gatewayModel(id);
  if (!model) return fallback;
  return language.startsWith('it') ? model.description : model.descriptionEn;
}

/** Vendors whose devices are gateways, by MAC prefix (contract §3.2); Sangoma is confirmed by a web probe. */
export const GATEWAY_OUIS: Readonly<Record<string, readonly string[]>> = {
  Mediatrix: ['00:90:F8'],
  Patton: ['00:A0:BA'],
  Sangoma: ['00:50:58'],
};

/** Port numbers in trunk names start at 0 for Patton and at 1 for every other vendor (contract §3.16). */
export function firstPortNumber(manufacturer: string): number {
  return manufacturer === 'Patton' ? 0 : 1;
}

/** Trunk name of a port: Vendor_<last 6 hex digits of the MAC, lower case>_<type>_<port>. */
export function gatewayTrunkName(manufacturer: string, mac: string, type: GatewayPortType, port: number): string {
  const uid = mac
    .replace(/[^0-9a-fA-F]/g, '')
    .slice(-6)
    .toLowerCase();
  return `${manufacturer}_${uid}_${type}_${port}`;
}

/** Configuration name the console shows and the download file is named after (contract §3.11). */
export function gatewayConfigName(model: GatewayModel): string {
  return `${model.manufacturer}-${model.description}`;
}

/**
 * A gateway's configuration name in a language: the name Centralino gave it (manufacturer and the original's
 * Italian description, kept as stored and as the API answers it) with the description in `language`; a name
 * set otherwise stays as it is.
 */
export function gatewayNameIn(name: string, modelId: number | null | undefined, language: string): string {
  const model = modelId == null ? undefined : gatewayModel(modelId);
  if (!model || name !== gatewayConfigName(model)) return name;
  return `${model.manufacturer}-${gatewayModelDescription(model.id, model.description, language)}`;
}

/** File name a download is saved as: first word of the configuration name, .xml for Grandstream. */
export function gatewayDownloadName(name: string, manufacturer: string): string {
  return `${name.split(' ')[0]}${manufacturer === 'Grandstream' ? '.xml' : '.cfg'}`;
}

const octet = '(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])';
export const IPV4_PATTERN = new RegExp(`^${octet}(\\.${octet}){3}$`);
/** Six colon-separated hex pairs, as the New Gateway dialog asks (spec §5). */
export const GATEWAY_MAC_PATTERN = /^[0-9A-Fa-f]{2}(:[0-9A-Fa-f]{2}){5}$/;

/** A dotted mask whose bits are contiguous ones then zeros (255.255.255.0, not 255.0.255.0). */
export function isNetmask(value: string): boolean {
  if (!IPV4_PATTERN.test(value)) return false;
  const bits = value
    .split('.')
    .map((o) => Number(o).toString(2).padStart(8, '0'))
    .join('');
  return /^1*0*$/.test(bits);
}

const ipv4 = z.string().trim().regex(IPV4_PATTERN, 'Enter a valid IPv4 address');
export const gatewayIpv4Schema = ipv4;
export const gatewayNetmaskSchema = z.string().trim().refine(isNetmask, 'Enter a valid netmask');
export const gatewayMacSchema = z
  .string()
  .trim()
  .regex(GATEWAY_MAC_PATTERN, 'Enter a MAC address like 00:11:22:AA:BB:CC')
  .transform((mac) => mac.toUpperCase());
/** The analog line's number ends up in the gateway file: digits only (optionally a leading +). */
export const FXO_NUMBER_PATTERN = /^\+?[0-9]{1,20}$/;

export const isdnTypes = ['pp', 'pmp'] as const;

/** POST /api/devices/gateways (contract §3.11). Extra UI fields the original console sends are ignored. */
export const gatewayCreateSchema = z
  .object({
    model: z.coerce.number({ error: 'Select a model' }).int().min(1, 'Select a model'),
    mac: gatewayMacSchema,
    /** Address the device has now; empty for a gateway added by hand. */
    ipv4: z.union([z.literal(''), ipv4]).default(''),
    ipv4_new: ipv4,
    netmask_green: gatewayNetmaskSchema,
    gateway: ipv4,
    /** PBX address written into the file; empty uses the server's own address. */
    ipv4_green: z.union([z.literal(''), ipv4]).default(''),
    trunks_isdn: z.array(z.object({ type: z.enum(isdnTypes).default('pp') })).default([]),
    trunks_pri: z.array(z.object({})).default([]),
    trunks_fxo: z
      .array(
        z.object({
          number: z.union([z.literal(''), z.string().trim().regex(FXO_NUMBER_PATTERN, 'Digits only')]).default(''),
        }),
      )
      .default([]),
    trunks_fxs: z
      .array(z.object({ linked_extension: z.union([z.literal(''), z.string().regex(/^[0-9]{2,6}$/)]).nullish() }))
      .default([]),
  })
  .meta({ id: 'GatewayCreate' });
export type GatewayCreate = z.input<typeof gatewayCreateSchema>;
export type GatewayCreateParsed = z.output<typeof gatewayCreateSchema>;

export const gatewayCreatedSchema = z
  .object({
    status: z.literal(true),
    errors: z.array(z.string()),
    warnings: z.array(z.string()),
    infos: z.array(z.string()),
    id: z.number().int(),
  })
  .meta({ id: 'GatewayCreated' });

export const gatewayPushSchema = z
  .object({ mac: gatewayMacSchema, name: z.string().max(255).check(noControlChars).optional() })
  .meta({ id: 'GatewayPush' });

const portTrunk = { name: z.string(), trunkid: z.number().int() };

/** A gateway of the list: configured (id set) or only discovered on the network (id null). */
export const gatewaySchema = z
  .object({
    id: z.number().int().nullable(),
    model_id: z.number().int().nullable(),
    /** Same as model_id (the original's field). */
    model: z.number().int().nullable(),
    name: z.string(),
    manufacturer: z.string(),
    description: z.string().nullable(),
    mac: z.string(),
    ipv4: z.string(),
    ipv4_new: z.string(),
    gateway: z.string(),
    ipv4_green: z.string(),
    netmask_green: z.string(),
    proxy: z.string(),
    isConfigured: z.boolean(),
    isConnected: z.boolean(),
    isGrandStream: z.boolean(),
    /** Push is possible for this vendor (all but Grandstream). */
    canPush: z.boolean(),
    trunks_isdn: z.array(z.object({ ...portTrunk, type: z.enum(isdnTypes) })),
    trunks_pri: z.array(z.object(portTrunk)),
    trunks_fxo: z.array(z.object({ ...portTrunk, number: z.string() })),
    trunks_fxs: z.array(
      z.object({
        name: z.string(),
        linked_extension: z.string().nullable(),
        physical_extension: z.string().nullable(),
      }),
    ),
  })
  .meta({ id: 'Gateway' });
export type Gateway = z.infer<typeof gatewaySchema>;
export const gatewayListSchema = z.array(gatewaySchema).meta({ id: 'GatewayList' });

export const gatewayModelSchema = z.object({
  id: z.number().int(),
  model: z.string(),
  manufacturer: z.string(),
  tech: z.enum(['fxo', 'fxs', 'isdn', 'pri']),
  n_pri_trunks: z.number().int(),
  n_isdn_trunks: z.number().int(),
  n_fxo_trunks: z.number().int(),
  n_fxs_ext: z.number().int(),
  description: z.string(),
  tls: z.boolean(),
  proxy: z.string(),
  ipv4_green: z.string(),
});
export const gatewayManufacturersSchema = z
  .record(z.string(), z.array(gatewayModelSchema))
  .meta({ id: 'GatewayManufacturers' });
export type GatewayManufacturers = z.infer<typeof gatewayManufacturersSchema>;
