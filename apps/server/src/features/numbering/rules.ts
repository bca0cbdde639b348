import type { UiLanguage } from '@centralino/contract';
import { AppError } from '../../errors.ts';
import { FEATURE_CODE_LABELS, type FeatureCodeName, featureCodeReached } from '../../pbx/feature-codes.ts';
import type { NumberHolder } from './holders.ts';

/**
 * The numbering plan's rules, in one place (contract asterisk §1.2): what a main extension reserves,
 * which number a new device gets, which trunk names would collide with an extension. Pure functions of
 * the holders (holders.ts), so a single write asks the database for a few numbers and a bulk import
 * loads them all once, and both decide the same way.
 */

/** Device numbers of main extension N are P‖N for P in 90…99, so the main extension reserves them too. */
export function companionNumbers(main: string): string[] {
  return Array.from({ length: 10 }, (_, i) => `9${i}${main}`);
}

/** The main extension M whose companion N is (N = 9x‖M), if N has that shape. */
export function companionOf(n: string): string | undefined {
  return /^9\d(\d{2,})$/.exec(n)?.[1];
}

/** The numbers to look up before giving a user main extension N. */
export function mainExtensionCandidates(main: string): string[] {
  const of = companionOf(main);
  return [main, ...companionNumbers(main), ...(of ? [of] : [])];
}

export type Clash =
  | { number: string; holder: NumberHolder }
  | { number: string; featureCode: { name: FeatureCodeName; code: string } };

/** What belongs to the user themself: their main number, devices and linked FXS ports. */
function ownedBy(h: NumberHolder, userId: number | undefined): boolean {
  return userId !== undefined && h.userId === userId;
}

/**
 * Why user `userId` (undefined: a user not yet stored) cannot have main extension N, or undefined.
 * N and 90N…99N must be free of anyone else's numbers and trunk names, N must not be another user's
 * device range, and `*N` (direct voicemail) must not dial a feature code.
 */
export function mainExtensionClash(main: string, holders: NumberHolder[], userId?: number): Clash | undefined {
  const featureCode = featureCodeReached(`*${main}`);
  if (featureCode) return { number: main, featureCode };
  const reserved = new Set([main, ...companionNumbers(main)]);
  const of = companionOf(main);
  // The number typed first, then its device numbers, then the range it falls in.
  const order = (h: NumberHolder) => (h.number === main ? 0 : h.number === of ? 2 : 1);
  const clash = holders
    .filter((h) => !ownedBy(h, userId) && (reserved.has(h.number) || (h.number === of && h.kind === 'user')))
    .sort((a, b) => order(a) - order(b))[0];
  return clash ? { number: clash.number, holder: clash } : undefined;
}

/**
 * The first free number for a new device of main extension N among `prefixes` (91…98 for devices,
 * 91…99 for FXS ports); `withMain` offers N itself first (the first device of a user reuses it).
 */
export function freeDeviceNumber(
  main: string,
  holders: NumberHolder[],
  options: { withMain: boolean; prefixes: number[] },
): string | undefined {
  const taken = new Set(holders.filter((h) => h.kind !== 'user' || h.number !== main).map((h) => h.number));
  if (options.withMain && !taken.has(main)) return main;
  return options.prefixes.map((p) => `${p}${main}`).find((n) => !taken.has(n));
}

/** The extension number a trunk name would take as a PJSIP section name ('201', '201-auth'), if any. */
export function numberOfTrunkName(name: string): string | undefined {
  return /^(\d+)(?:-auth)?$/.exec(name)?.[1];
}

/** The numbers to look up before naming a trunk. */
export function trunkNameCandidates(name: string): string[] {
  const n = numberOfTrunkName(name);
  if (!n) return [];
  const of = companionOf(n);
  return [n, ...(of ? [of] : [])];
}

/** A trunk may not be named after a number in use, nor after a number a main extension reserves. */
export function trunkNameClash(name: string, holders: NumberHolder[], trunkName?: string): Clash | undefined {
  const n = numberOfTrunkName(name);
  if (!n) return undefined;
  const of = companionOf(n);
  const clash = holders.find(
    (h) => !(h.kind === 'trunk' && h.name === trunkName) && (h.number === n || (h.number === of && h.kind === 'user')),
  );
  return clash ? { number: clash.number, holder: clash } : undefined;
}

/** The numbers to look up before giving a queue number N: N itself and the main extension whose device range it is in. */
export function queueNumberCandidates(n: string): string[] {
  const of = companionOf(n);
  return [n, ...(of ? [of] : [])];
}

/**
 * A queue (or a ring group or a conference room, `kind`) takes its number alone (no device range): it may not be
 * anyone else's number, nor one of the 90N…99N a user's main extension N reserves for devices.
 */
export function queueNumberClash(
  n: string,
  holders: NumberHolder[],
  queueId?: number,
  kind: 'queue' | 'ringgroup' | 'conference' | 'parking' = 'queue',
): Clash | undefined {
  const of = companionOf(n);
  const clash = holders.find(
    (h) =>
      !(h.kind === kind && queueId !== undefined && h.detail === String(queueId)) &&
      (h.number === n || (h.number === of && h.kind === 'user')),
  );
  return clash ? { number: clash.number, holder: clash } : undefined;
}

/** A parking lot takes its number and each slot as a queue takes its number (lotId: the lot being changed). */
export function parkingNumberClash(numbers: string[], holders: NumberHolder[], lotId?: number): Clash | undefined {
  for (const n of numbers) {
    const clash = queueNumberClash(n, holders, lotId, 'parking');
    if (clash) return clash;
  }
  return undefined;
}

/** Names the holder of a number in the user's language. */
export function describeHolder(h: NumberHolder, lang: UiLanguage): string {
  const it = lang === 'it';
  switch (h.kind) {
    case 'user':
      return it ? `utente ${h.name}` : `user ${h.name}`;
    case 'device':
      return it ? `dispositivo ${h.detail ?? ''} di ${h.name}` : `${h.detail ?? ''} device of ${h.name}`;
    case 'fxs_port':
      return it
        ? `porta FXS ${h.detail ?? ''} del gateway ${h.name}`
        : `FXS port ${h.detail ?? ''} of gateway ${h.name}`;
    case 'trunk':
      return it ? `fascio ${h.name}` : `trunk ${h.name}`;
    case 'queue':
      return it ? `coda ${h.name}` : `queue ${h.name}`;
    case 'ringgroup':
      return it ? `gruppo di chiamata ${h.name}` : `ring group ${h.name}`;
    case 'conference':
      return it ? `conferenza ${h.name}` : `conference ${h.name}`;
    case 'parking':
      return it ? `parcheggio ${h.name}` : `parking lot ${h.name}`;
  }
}

/** The API's refusal of a clash: 422 extension_in_use, naming who holds the number. */
export function clashError(
  wanted: string,
  clash: Clash,
  taking: 'extension' | 'trunk' | 'queue' | 'ringgroup' | 'conference' | 'parking' = 'extension',
): AppError {
  return new AppError(
    422,
    'extension_in_use',
    (lang) => {
      const it = lang === 'it';
      if ('featureCode' in clash) {
        const label = FEATURE_CODE_LABELS[clash.featureCode.name][it ? 'it' : 'en'];
        return it
          ? `L'interno ${wanted} non può essere usato: componendo *${wanted} per la sua segreteria si attiverebbe il codice ${clash.featureCode.code} (${label})`
          : `Extension ${wanted} cannot be used: dialling *${wanted} for its voicemail would reach the feature code ${clash.featureCode.code} (${label})`;
      }
      const who = describeHolder(clash.holder, lang);
      if (taking === 'queue') {
        return it
          ? `La coda non può avere il numero ${wanted}: il numero ${clash.number} è già in uso (${who})`
          : `The queue cannot have number ${wanted}: number ${clash.number} is already in use by ${who}`;
      }
      if (taking === 'ringgroup') {
        return it
          ? `Il gruppo di chiamata non può avere il numero ${wanted}: il numero ${clash.number} è già in uso (${who})`
          : `The ring group cannot have number ${wanted}: number ${clash.number} is already in use by ${who}`;
      }
      if (taking === 'conference') {
        return it
          ? `La conferenza non può avere il numero ${wanted}: il numero ${clash.number} è già in uso (${who})`
          : `The conference cannot have number ${wanted}: number ${clash.number} is already in use by ${who}`;
      }
      if (taking === 'parking') {
        return it
          ? `Il parcheggio non può usare il numero ${wanted}: il numero ${clash.number} è già in uso (${who})`
          : `The parking lot cannot use number ${wanted}: number ${clash.number} is already in use by ${who}`;
      }
      if (taking === 'trunk') {
        return it
          ? `Il fascio non può chiamarsi ${wanted}: il numero ${clash.number} è già in uso (${who})`
          : `The trunk cannot be named ${wanted}: number ${clash.number} is already in use by ${who}`;
      }
      if (clash.number === wanted) {
        return it ? `Interno ${wanted} già in uso (${who})` : `Extension ${wanted} already in use by ${who}`;
      }
      return it
        ? `Interno ${wanted} già in uso: il numero ${clash.number} appartiene a ${who}`
        : `Extension ${wanted} already in use: number ${clash.number} belongs to ${who}`;
    },
    { extension: wanted },
  );
}
