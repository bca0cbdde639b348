import { RECORDING_FEATURE_CODE } from '@centralino/contract';

/**
 * Feature codes of the generated dialplan (contract asterisk §5.3). The dialplan renderer writes them
 * from here, and the numbering rules read them from here: a main extension N is refused when dialling
 * `*N` (direct voicemail) would reach one of these codes instead.
 */
export const FEATURE_CODES = {
  dndOn: '*78',
  dndOff: '*79',
  dndToggle: '*76',
  /** Alone it prompts for the number; followed by digits it forwards to them. */
  cfOn: '*72',
  cfOff: '*73',
  /** Followed by the number. */
  cfBusyOn: '*90',
  cfBusyOff: '*91',
  /** Followed by the number. */
  cfUnavailableOn: '*52',
  cfUnavailableOff: '*53',
  callWaitingOn: '*70',
  callWaitingOff: '*71',
  myVoicemail: '*97',
  dialVoicemail: '*98',
  /** features.conf pickupexten: the channel driver answers it before the dialplan. */
  groupPickup: '*8',
  /** Followed by an extension. */
  directedPickup: '**',
  /** Followed by a mailbox: direct dial to voicemail. */
  directVoicemail: '*',
  /** Followed by the switch's digit (0–9): day/night toggle. */
  dayNightToggle: '*28',
  /** Followed by a queue number: an agent logs in to or out of the queue. */
  queueLoginToggle: '*45',
  /** Followed by a queue number: a logged-in agent pauses or resumes. */
  queuePauseToggle: '*46',
  /** Followed by a time condition's id: sets or clears its override. */
  timeConditionToggle: '*27',
  /** Alone it records a new recording; followed by a recording's id it records that one again. */
  recordSound: RECORDING_FEATURE_CODE,
} as const;

export type FeatureCodeName = keyof typeof FEATURE_CODES;

/** Codes that take digits after them (`_*72.` in the dialplan) as well as, for some, standing alone. */
const TAKES_DIGITS: readonly FeatureCodeName[] = [
  'cfOn',
  'cfBusyOn',
  'cfUnavailableOn',
  'directedPickup',
  'dayNightToggle',
  'queueLoginToggle',
  'queuePauseToggle',
  'timeConditionToggle',
  'recordSound',
];

/** The feature code, other than direct voicemail, that a dialled string reaches; undefined if none. */
export function featureCodeReached(dialled: string): { name: FeatureCodeName; code: string } | undefined {
  for (const [name, code] of Object.entries(FEATURE_CODES) as [FeatureCodeName, string][]) {
    if (name === 'directVoicemail') continue;
    if (dialled === code) return { name, code };
    if (TAKES_DIGITS.includes(name) && dialled.startsWith(code) && dialled.length > code.length) return { name, code };
  }
  return undefined;
}

/** What each code does, for messages that name one. */
export const FEATURE_CODE_LABELS: Record<FeatureCodeName, { en: string; it: string }> = {
  dndOn: { en: 'Do Not Disturb on', it: 'Non disturbare attivo' },
  dndOff: { en: 'Do Not Disturb off', it: 'Non disturbare disattivo' },
  dndToggle: { en: 'Do Not Disturb toggle', it: 'Non disturbare (commuta)' },
  cfOn: { en: 'call forward', it: 'inoltro di chiamata' },
  cfOff: { en: 'call forward off', it: 'inoltro di chiamata disattivo' },
  cfBusyOn: { en: 'call forward on busy', it: 'inoltro se occupato' },
  cfBusyOff: { en: 'call forward on busy off', it: 'inoltro se occupato disattivo' },
  cfUnavailableOn: { en: 'call forward when unanswered', it: 'inoltro se non risponde' },
  cfUnavailableOff: { en: 'call forward when unanswered off', it: 'inoltro se non risponde disattivo' },
  callWaitingOn: { en: 'call waiting on', it: 'avviso di chiamata attivo' },
  callWaitingOff: { en: 'call waiting off', it: 'avviso di chiamata disattivo' },
  myVoicemail: { en: 'my voicemail', it: 'la mia segreteria' },
  dialVoicemail: { en: 'voicemail', it: 'segreteria' },
  groupPickup: { en: 'group pickup', it: 'risposta per assente di gruppo' },
  directedPickup: { en: 'directed pickup', it: 'risposta per assente' },
  directVoicemail: { en: 'direct voicemail', it: 'segreteria diretta' },
  dayNightToggle: { en: 'day/night toggle', it: 'commutazione giorno/notte' },
  queueLoginToggle: { en: 'queue agent login/logout', it: 'accesso/uscita agente dalla coda' },
  queuePauseToggle: { en: 'queue agent pause', it: 'pausa agente della coda' },
  timeConditionToggle: { en: 'time condition override', it: 'forzatura della condizione oraria' },
  recordSound: { en: 'record a recording', it: 'registrazione da telefono' },
};
