/**
 * Template names as the scopes store them (`tmpl_phone`, `tmpl_firmware`, … keep the original engine's
 * values so model data stays comparable) and the Liquid file that renders each, one folder per vendor.
 */
export type Vendor = 'yealink' | 'snom' | 'gigaset' | 'fanvil' | 'nethesis' | 'sangoma' | 'akuvox' | 'grandstream';

export interface TemplateEntry {
  /** Liquid file under templates/, or 'fallback' for the dispatcher of phones without a model. */
  file: string;
  vendor: Vendor | 'any';
  /** Passed to the template as `variant` (sub-families sharing one file). */
  variant: string;
}

export const TEMPLATES: Readonly<Record<string, TemplateEntry>> = {
  'fallback.tmpl': { file: 'fallback', vendor: 'any', variant: '' },
  'variables.tmpl': { file: 'common/variables', vendor: 'any', variant: '' },
  'yealink.tmpl': { file: 'yealink/phone', vendor: 'yealink', variant: '' },
  'snom.tmpl': { file: 'snom/phone', vendor: 'snom', variant: 'snom' },
  'snomD8XX.tmpl': { file: 'snom/phone', vendor: 'snom', variant: 'snomD8XX' },
  'snom-firmware.tmpl': { file: 'snom/firmware', vendor: 'snom', variant: '' },
  'gigasetP.tmpl': { file: 'gigaset/p-series', vendor: 'gigaset', variant: 'gigasetP' },
  'gigasetP8XX.tmpl': { file: 'gigaset/p-series', vendor: 'gigaset', variant: 'gigasetP8XX' },
  'gigasetP-firmware.tmpl': { file: 'gigaset/p-firmware', vendor: 'gigaset', variant: '' },
  'gigaset-Maxwell.tmpl': { file: 'gigaset/maxwell', vendor: 'gigaset', variant: '' },
  'fanvil-X5.tmpl': { file: 'fanvil/phone', vendor: 'fanvil', variant: 'X5' },
  'fanvil-X3.tmpl': { file: 'fanvil/phone', vendor: 'fanvil', variant: 'X3' },
  'fanvil-V67.tmpl': { file: 'fanvil/phone', vendor: 'fanvil', variant: 'V67' },
  'nethesis.tmpl': { file: 'nethesis/phone', vendor: 'nethesis', variant: '' },
  'nethesis-firmware.tmpl': { file: 'nethesis/firmware', vendor: 'nethesis', variant: 'v1' },
  'nethesis-firmware-v2.tmpl': { file: 'nethesis/firmware', vendor: 'nethesis', variant: 'v2' },
  'sangoma.tmpl': { file: 'sangoma/phone', vendor: 'sangoma', variant: '' },
  'akuvox.tmpl': { file: 'akuvox/phone', vendor: 'akuvox', variant: 'desk' },
  'akuvox410w.tmpl': { file: 'akuvox/phone', vendor: 'akuvox', variant: 'WP410' },
  'akuvox480w.tmpl': { file: 'akuvox/phone', vendor: 'akuvox', variant: 'WP480' },
  'grandstream.tmpl': { file: 'grandstream/phone', vendor: 'grandstream', variant: '' },
};

export const TEMPLATE_NAMES: ReadonlySet<string> = new Set(Object.keys(TEMPLATES));

/** Which template variable and content type a requested file name selects (contract §4.4, gaps fixed). */
export interface FileRule {
  pattern: RegExp;
  /** Variable naming the template, e.g. tmpl_phone. */
  templateVariable: string;
  contentType: string;
  /** Index of the capture group holding the MAC, when the name carries one. */
  macGroup?: number;
}

const TEXT = 'text/plain; charset=utf-8';
const XML = 'text/xml; charset=utf-8';

export const FILE_RULES: readonly FileRule[] = [
  { pattern: /^((?:0c1105|9c7514)[0-9a-f]{6})\.cfg$/i, templateVariable: 'tmpl_phone', contentType: TEXT, macGroup: 1 },
  // 00a85a is matched too (the original's rule had a typo and never matched those phones).
  {
    pattern: /^((?:00a859|00a85a|0c383e)[0-9a-f]{6})\.cfg$/i,
    templateVariable: 'tmpl_phone',
    contentType: TEXT,
    macGroup: 1,
  },
  {
    pattern: /^((?:7c2f80|589ec6|002104|14b370)[0-9a-f]{6})\.xml$/i,
    templateVariable: 'tmpl_phone',
    contentType: XML,
    macGroup: 1,
  },
  // Snom and Gigaset P phones share the Snom OUIs; with a token the model picks the template.
  { pattern: /^((?:000413|1c7126)[0-9a-f]{6})\.xml$/i, templateVariable: 'tmpl_phone', contentType: XML, macGroup: 1 },
  { pattern: /^(00acdce[34][0-9a-f]{4})\.xml$/i, templateVariable: 'tmpl_phone', contentType: XML, macGroup: 1 },
  { pattern: /^(e0e656[0-9a-f]{6})\.cfg$/i, templateVariable: 'tmpl_phone', contentType: TEXT, macGroup: 1 },
  { pattern: /^nethesis_np_x[35]_hwv1_0\.txt$/, templateVariable: 'tmpl_firmware', contentType: TEXT },
  { pattern: /^nethesis_np_x5_hwv2_0\.txt$/, templateVariable: 'tmpl_firmware_v2', contentType: TEXT },
  { pattern: /^cfg(005058[0-9a-f]{6})\.xml$/i, templateVariable: 'tmpl_phone', contentType: XML, macGroup: 1 },
  { pattern: /^snom-firmware\.xml$/, templateVariable: 'tmpl_firmware', contentType: XML },
  { pattern: /^gigasetP-firmware\.xml$/, templateVariable: 'tmpl_firmware', contentType: XML },
  { pattern: /^variables\.md$/, templateVariable: 'tmpl_variables', contentType: TEXT },
  {
    pattern: /^((?:001565|249ad8|44dbd2|805e0c|805ec0|c4fc22)[0-9a-f]{6})\.cfg$/i,
    templateVariable: 'tmpl_phone',
    contentType: TEXT,
    macGroup: 1,
  },
  {
    pattern: /^cfg((?:000b82|c074ad|ec74d7|144cff)[0-9a-f]{6})(?:\.xml)?$/i,
    templateVariable: 'tmpl_phone',
    contentType: XML,
    macGroup: 1,
  },
];

export function matchFileRule(filename: string): { rule: FileRule; mac?: string } | undefined {
  for (const rule of FILE_RULES) {
    const match = rule.pattern.exec(filename);
    if (!match) continue;
    const hex = rule.macGroup ? match[rule.macGroup]?.toUpperCase() : undefined;
    return { rule, mac: hex?.match(/../g)?.join('-') };
  }
  return undefined;
}
