import { type Words, words } from '../../words.ts';

export type { Words };

// ------------------------------------------------------------------------------------------ why Asterisk cannot run

export const binaryMissing = (file: string) =>
  words(
    `${file} (ASTERISK_BIN) is not an executable file: set ASTERISK_BIN to the Asterisk binary, or unset it.`,
    `${file} (ASTERISK_BIN) non è un file eseguibile: imposta ASTERISK_BIN sul programma Asterisk, o toglilo.`,
  );

export const binaryDoesNotRun = (file: string) =>
  words(
    `${file} does not run (asterisk -V failed): reinstall Asterisk or run npm install again.`,
    `${file} non parte (asterisk -V non riesce): reinstalla Asterisk o esegui di nuovo npm install.`,
  );

export const modulesMissing = (file: string) =>
  words(
    `${file} runs but its modules (res_pjsip.so) are missing: reinstall Asterisk or run npm install again.`,
    `${file} parte ma mancano i suoi moduli (res_pjsip.so): reinstalla Asterisk o esegui di nuovo npm install.`,
  );

export const buildIncomplete = (prefix: string) =>
  words(
    `The Asterisk build in ${prefix} is incomplete (no sbin/asterisk): delete it and run npm install again.`,
    `La compilazione di Asterisk in ${prefix} è incompleta (manca sbin/asterisk): cancellala ed esegui di nuovo npm install.`,
  );

export const buildFailed = (reason: string) =>
  words(
    `Building Asterisk failed (${reason}): fix it and run npm install again.`,
    `La compilazione di Asterisk non è riuscita (${reason}): correggi il problema ed esegui di nuovo npm install.`,
  );

export const notBuilt = () =>
  words(
    'No Asterisk is installed: run npm install as root (it builds one from ../shared/vendor/asterisk or ' +
      'ASTERISK_SOURCE_DIR), install one on the PATH, or set ASTERISK_BIN.',
    'Nessun Asterisk installato: esegui npm install come root (ne compila uno da ../shared/vendor/asterisk o ' +
      'ASTERISK_SOURCE_DIR), installane uno nel PATH o imposta ASTERISK_BIN.',
  );

export const configMissing = () =>
  words(
    'The PBX configuration could not be written (see the last apply): Asterisk waits for it.',
    "Non è stato possibile scrivere la configurazione del centralino (vedi l'ultima applicazione): Asterisk la attende.",
  );

export const portTaken = (port: number, protocol: string, setting: string) =>
  words(
    `Port ${port} (${protocol}) is taken by another program: stop it or choose another port with ${setting}. ` +
      'Asterisk starts as soon as the port is free.',
    `La porta ${port} (${protocol}) è occupata da un altro programma: fermalo o scegli un'altra porta con ${setting}. ` +
      'Asterisk parte appena la porta è libera.',
  );

/**
 * Asterisk died `times` times in a row soon after starting: by a signal, with an exit code, or neither when it was
 * one an earlier console process started (only seen to be gone). `output` is the last it said.
 */
export const crashing = (
  end: { signal?: string; exitCode?: number },
  times: number,
  output: string,
  retrySeconds: number,
) => {
  const said = output ? ` (${output})` : '';
  const en = end.signal
    ? `was stopped by ${end.signal}`
    : end.exitCode !== undefined
      ? `exited with code ${end.exitCode}`
      : 'ended';
  const it = end.signal
    ? `è stato fermato da ${end.signal}`
    : end.exitCode !== undefined
      ? `è uscito con il codice ${end.exitCode}`
      : 'si è fermato';
  return words(
    `Asterisk ${en}, ${times} times in a row soon after starting${said}: see its log. Tried again in ${retrySeconds} s.`,
    `Asterisk ${it}, ${times} volte di seguito poco dopo l'avvio${said}: guarda il suo log. ` +
      `Nuovo tentativo tra ${retrySeconds} s.`,
  );
};

// ------------------------------------------------------------------------------------------ missing beside Asterisk

const LANGUAGE_NAMES: Record<string, { en: string; it: string }> = {
  en: { en: 'English', it: 'inglese' },
  it: { en: 'Italian', it: 'italiano' },
};

/** `languages`: the prompt languages (en, it) whose Debian package is not installed. */
export const noVoicePrompts = (languages: string[]) => {
  const names = (lang: 'en' | 'it') => languages.map((l) => LANGUAGE_NAMES[l]?.[lang] ?? l);
  const packages = languages.map((l) => `asterisk-core-sounds-${l}`).join(' ');
  return words(
    `No ${names('en').join(' and ')} voice prompts: voicemail, IVRs and queues play silence. ` +
      `Install ${packages} (npm install as root does).`,
    `Mancano i messaggi vocali in ${names('it').join(' e ')}: segreteria, IVR e code restano in silenzio. ` +
      `Installa ${packages} (lo fa npm install eseguito come root).`,
  );
};

export const noMusicOnHold = () =>
  words(
    'No music on hold: callers on hold hear silence. Install asterisk-moh-opsound-gsm (npm install as root does).',
    'Manca la musica di attesa: chi è in attesa sente solo silenzio. Installa asterisk-moh-opsound-gsm (lo fa npm ' +
      'install eseguito come root).',
  );
