import { type Words, words } from '../words.ts';

/**
 * What an apply says Asterisk did not take up (the console's "Asterisk did not take up all of the
 * configuration" banner), in English and Italian. The Asterisk commands and file names stay as they are.
 */

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export const transportMissing = (name: string, tls: boolean): Words =>
  tls
    ? words(
        `Asterisk did not create the SIP transport ${name}: check that its certificate and key exist and are readable by Asterisk (see its log)`,
        `Asterisk non ha creato il trasporto SIP ${name}: controlla che il certificato e la chiave esistano e che Asterisk possa leggerli (vedi il suo log)`,
      )
    : words(
        `Asterisk did not create the SIP transport ${name} (see its log)`,
        `Asterisk non ha creato il trasporto SIP ${name} (vedi il suo log)`,
      );

export const transportsUnread = (error: unknown): Words =>
  words(
    `Could not list Asterisk's SIP transports: ${reasonOf(error)}`,
    `Impossibile elencare i trasporti SIP di Asterisk: ${reasonOf(error)}`,
  );

export const identifyMissing = (trunk: string, host: string): Words =>
  words(
    `Asterisk did not load how it recognises calls from trunk ${trunk}: check that its host ${host} resolves (see its log); incoming calls from this provider are refused meanwhile`,
    `Asterisk non ha caricato come riconoscere le chiamate dal fascio ${trunk}: controlla che il suo host ${host} si risolva (vedi il suo log); nel frattempo le chiamate in arrivo da questo operatore sono rifiutate`,
  );

export const identifiesUnread = (error: unknown): Words =>
  words(
    `Could not list Asterisk's trunk identifies: ${reasonOf(error)}`,
    `Impossibile elencare come Asterisk riconosce i fasci: ${reasonOf(error)}`,
  );

export const wssMissing = (port: number | undefined): Words =>
  words(
    `Asterisk's HTTPS listener for web phones (WSS${port ? `, port ${port}` : ''}) is not running: check its certificate and key (see its log)`,
    `Il servizio HTTPS di Asterisk per i telefoni web (WSS${port ? `, porta ${port}` : ''}) non è attivo: controlla il certificato e la chiave (vedi il suo log)`,
  );

export const httpUnread = (error: unknown): Words =>
  words(
    `Could not read Asterisk's HTTP status: ${reasonOf(error)}`,
    `Impossibile leggere lo stato HTTP di Asterisk: ${reasonOf(error)}`,
  );

export const notConnected = (state: string, why: string | undefined): Words =>
  words(
    `Asterisk was not connected over AMI (${state}${why ? `: ${why}` : ''}): the files are written and Asterisk takes them up once the console reconnects, which applies again`,
    `Asterisk non era collegato via AMI (${state}${why ? `: ${why}` : ''}): i file sono scritti e Asterisk li adotta quando la console si ricollega, che applica di nuovo`,
  );

// ------------------------------------------------------------------------------------------ a restart still owed

export const restartNoConnection = (): Words =>
  words(
    'Asterisk was not restarted: no AMI connection of its own to ask for it',
    'Asterisk non è stato riavviato: non c’è una connessione AMI propria con cui chiederlo',
  );

export const restartLoginFailed = (why: string | undefined): Words =>
  words(
    `Asterisk was not restarted: a second AMI connection to ask for it could not log in${why ? ` (${why})` : ''}`,
    `Asterisk non è stato riavviato: una seconda connessione AMI per chiederlo non ha potuto accedere${why ? ` (${why})` : ''}`,
  );

export const restartRefused = (answer: string): Words =>
  words(
    `Asterisk answered the restart request without restarting: ${answer}`,
    `Asterisk ha risposto alla richiesta di riavvio senza riavviarsi: ${answer}`,
  );

export const restartWhenIdle = (): Words =>
  words(
    "Asterisk restarts once no call is up: changes to transports, modules or the web phones' listener wait for it",
    'Asterisk si riavvia quando non ci sono chiamate in corso: le modifiche a trasporti, moduli o al servizio dei telefoni web lo attendono',
  );

export const restartNotBack = (seconds: number): Words =>
  words(
    `Asterisk went down to restart and was not back within ${seconds} s`,
    `Asterisk si è fermato per riavviarsi e non è tornato entro ${seconds} s`,
  );
