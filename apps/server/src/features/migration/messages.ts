import { errorDetails, type UiLanguage } from '@centralino/contract';
import { AppError } from '../../errors.ts';

/**
 * Every sentence the migration steps answer or put in the report, in English and Italian. A step keeps a key and its
 * parameters, not a sentence: the report is stored once and read in the language of whoever opens it (the step's
 * answer, GET /migration/report and the PDF the console builds from it). `{name}` is a parameter.
 */
export const migrationMessages = {
  // Whatever a database, a service or the old data said in its own words (a parameter may itself be in both).
  text: { en: '{text}', it: '{text}' },
  with_reason: { en: '{subject}: {reason}', it: '{subject}: {reason}' },
  status_changed: { en: 'migration_status changed', it: 'Stato della migrazione aggiornato' },

  // The users step: every old extension is either migrated or listed, saying why (issue 38).
  extension_label: { en: 'Extension {ext} ({name})', it: 'Interno {ext} ({name})' },
  extension_label_bare: { en: 'Extension {ext}', it: 'Interno {ext}' },
  user_derived: {
    en: '{label} had no CTI user name in the old system: it was given the user name {username} ({how})',
    it: '{label} non aveva un nome utente CTI nel vecchio sistema: ha ricevuto il nome utente {username} ({how})',
  },
  derived_from_name: { en: 'made from its name', it: 'ricavato dal suo nome' },
  derived_from_extension: { en: 'made from its extension number', it: "ricavato dal numero dell'interno" },
  derived_by_hand: { en: 'chosen on the users step', it: 'scelto nel passaggio degli utenti' },
  user_left_out: {
    en: '{label} not migrated: it was left without a user on the users step; create its user by hand',
    it: '{label} non migrato: è stato lasciato senza utente nel passaggio degli utenti; crea il suo utente a mano',
  },
  users_migrated: {
    en: '{count} of the {total} old extensions migrated with their user',
    it: '{count} dei {total} interni del vecchio sistema migrati con il proprio utente',
  },

  profile_exists: { en: 'Profile "{name}" already migrated', it: 'Profilo "{name}" già migrato' },
  profile_migrated: { en: 'Profile "{name}" migrated', it: 'Profilo "{name}" migrato' },
  profile_label: { en: 'Profile "{name}"', it: 'Profilo "{name}"' },

  trunk_dynamic: {
    en: 'Trunk "{name}" not migrated: it has no fixed address (dynamic)',
    it: 'Fascio "{name}" non migrato: non ha un indirizzo fisso (dynamic)',
  },
  trunk_exists: { en: 'Trunk "{name}" already migrated', it: 'Fascio "{name}" già migrato' },
  trunk_migrated: { en: 'Trunk "{name}" migrated', it: 'Fascio "{name}" migrato' },

  gateway_model: {
    en: 'Gateway "{name}" not migrated: model {model} is not supported',
    it: 'Gateway "{name}" non migrato: il modello {model} non è supportato',
  },
  gateway_exists: { en: 'Gateway "{name}" already migrated', it: 'Gateway "{name}" già migrato' },
  // Stored before issue 38 with the new gateway's id as its name: kept so that those rows still read.
  gateway_migrated: { en: 'Gateway "{name}" migrated', it: 'Gateway "{name}" migrato' },
  gateway_migrated_model: {
    en: 'Gateway "{name}" migrated as a {model}',
    it: 'Gateway "{name}" migrato come {model}',
  },
  gateway_label: { en: 'Gateway "{name}"', it: 'Gateway "{name}"' },

  iax_trunk: {
    en: 'IAX trunk "{name}" not migrated: Centralino has no IAX; create it again as a SIP trunk',
    it: 'Fascio IAX "{name}" non migrato: Centralino non supporta IAX; ricrealo come fascio SIP',
  },
  iax_extensions: {
    en: '{count} IAX extensions not migrated: Centralino has no IAX',
    it: '{count} interni IAX non migrati: Centralino non supporta IAX',
  },
  iax_none: { en: 'No IAX extensions to migrate', it: 'Nessun interno IAX da migrare' },

  outbound_exists: { en: 'Outbound route "{name}" already migrated', it: 'Rotta in uscita "{name}" già migrata' },
  outbound_migrated: { en: 'Outbound route "{name}" migrated', it: 'Rotta in uscita "{name}" migrata' },
  // Stored before issue 38, with the ids: kept so that those rows still read.
  route_trunk: { en: '{trunk} used for route {route}', it: 'Fascio {trunk} usato per la rotta {route}' },
  route_trunk_named: {
    en: 'Outbound route "{route}" uses trunk "{trunk}" (number {position} in its order)',
    it: 'La rotta in uscita "{route}" usa il fascio "{trunk}" (numero {position} nel suo ordine)',
  },

  ring_group_label: { en: 'Ring group {number} - {description}', it: 'Gruppo di chiamata {number} - {description}' },
  ring_groups_none: { en: 'No ring groups to migrate', it: 'Nessun gruppo di chiamata da migrare' },
  ring_group_taken: {
    en: '{label} not migrated: ring group {number} already exists',
    it: '{label} non migrato: il gruppo di chiamata {number} esiste già',
  },
  ring_group_migrated_here: {
    en: '{label} migrated ({strategy}, {members} members{confirm})',
    it: '{label} migrato ({strategy}, {members} membri{confirm})',
  },
  followme_label: { en: 'Follow-me of {ext}', it: 'Seguimi di {ext}' },
  followme_none: { en: 'No follow-me lists to migrate', it: 'Nessun seguimi da migrare' },
  followme_no_user: {
    en: '{label} not migrated: no user has extension {ext}',
    it: "{label} non migrato: nessun utente ha l'interno {ext}",
  },
  followme_exists: {
    en: '{label} not migrated: the user has a follow-me already',
    it: "{label} non migrato: l'utente ha già un seguimi",
  },
  followme_empty: {
    en: '{label} not migrated: its list has nothing but the user’s own extension',
    it: "{label} non migrato: l'elenco contiene solo l'interno dell'utente",
  },
  followme_migrated: {
    en: '{label} migrated ({strategy}, {legs} numbers{confirm}), switched off: the old system kept whether it was on outside its database; switch it on on the user’s Follow-me',
    it: "{label} migrato ({strategy}, {legs} numeri{confirm}), spento: il vecchio sistema teneva l'attivazione fuori dal suo database; attivalo dal Seguimi dell'utente",
  },
  followme_postdest: {
    en: '{label}: unanswered calls now take the user’s no-answer path, not {destination}',
    it: "{label}: le chiamate senza risposta seguono ora la destinazione di mancata risposta dell'utente, non {destination}",
  },
  followme_time_changed: {
    en: '{label}: {what} {old} s became {new} s',
    it: '{label}: {what} di {old} s è diventato {new} s',
  },
  followme_pre_ring: { en: 'the own phones’ ring time', it: 'il tempo di squillo dei telefoni propri' },
  followme_list_time: { en: 'the list’s ring time', it: "il tempo di squillo dell'elenco" },
  ring_group_not_kept: { en: '{label}: {what} is not kept', it: '{label}: non si mantiene {what}' },
  ring_group_announcement: { en: 'the announcement played to callers', it: "l'annuncio riprodotto ai chiamanti" },
  ring_group_alertinfo: { en: 'the Alert-Info ring tone', it: 'la suoneria Alert-Info' },
  ring_group_confirm_prompts: {
    en: 'the own prompts of the confirmation',
    it: 'i messaggi propri della conferma',
  },
  ring_group_confirm: {
    en: ', outside numbers press 1 to accept',
    it: ', i numeri esterni premono 1 per accettare',
  },
  // Stored before issue 42, when a ring group became a queue: kept so that those rows still read.
  ring_group_queue_taken: {
    en: '{label} not migrated: queue {number} already exists',
    it: '{label} non migrato: la coda {number} esiste già',
  },
  ring_group_migrated: {
    en: '{label} migrated as queue {number} ({strategy}, static members): Centralino has no numbered ring groups',
    it: '{label} migrato come coda {number} ({strategy}, membri statici): Centralino non ha gruppi di chiamata numerati',
  },

  queue_label: { en: 'Queue {number} {description}', it: 'Coda {number} {description}' },
  queue_label_bare: { en: 'Queue {number}', it: 'Coda {number}' },
  queues_none: { en: 'No queues to migrate', it: 'Nessuna coda da migrare' },
  conference_label: { en: 'Conference {number} {description}', it: 'Conferenza {number} {description}' },
  conference_label_bare: { en: 'Conference {number}', it: 'Conferenza {number}' },
  conferences_none: { en: 'No conferences to migrate', it: 'Nessuna conferenza da migrare' },
  parking_label: { en: 'Parking lot {number} {name}', it: 'Parcheggio {number} {name}' },
  parking_none: { en: 'No parking lots to migrate', it: 'Nessun parcheggio da migrare' },
  parking_slots_changed: {
    en: '{label}: {old} slots became {new}',
    it: '{label}: {old} posti diventati {new}',
  },
  parking_timeout_changed: {
    en: '{label}: timeout {old} s became {new} s',
    it: '{label}: attesa di {old} s diventata {new} s',
  },
  parking_not_kept: { en: '{label}: {what} is not kept', it: '{label}: {what} non viene mantenuto' },
  parking_announcement: { en: 'the announcement to the parker', it: "l'annuncio a chi parcheggia" },
  parking_alertinfo: { en: 'the Alert-Info ring tone', it: 'la suoneria Alert-Info' },
  parking_cidpp: { en: 'the caller name prefix', it: 'il prefisso del nome del chiamante' },
  parking_private: {
    en: 'the private lot (every phone may use it here)',
    it: 'il parcheggio privato (qui ogni telefono può usarlo)',
  },
  music_class_label: { en: 'Music class {name}', it: 'Classe musicale {name}' },
  music_class_renamed: {
    en: 'Music class {old} is named {name} here (lower-case letters, digits, - and _)',
    it: 'La classe musicale {old} qui si chiama {name} (lettere minuscole, cifre, - e _)',
  },
  music_class_not_files: {
    en: 'Music class {name} played a program ({type}), not files: it was not migrated, what used it plays the default',
    it: 'La classe musicale {name} suonava un programma ({type}), non file: non è stata migrata, chi la usava suona la predefinita',
  },
  music_files_not_copied: {
    en: 'Music class {name}: its files were not copied (the old music folder is not reachable from here): upload them on the Music on hold page; until then it plays the default music',
    it: 'Classe musicale {name}: i suoi file non sono stati copiati (la vecchia cartella della musica non è raggiungibile da qui): caricali nella pagina Musica di attesa; fino ad allora suona la musica predefinita',
  },
  conference_options_dropped: {
    en: '{label}: options {options} have no counterpart here and were not kept',
    it: '{label}: le opzioni {options} non hanno un equivalente qui e non sono state mantenute',
  },
  conference_members_limited: {
    en: '{label}: member limit {old} lowered to {new}',
    it: '{label}: limite di partecipanti {old} ridotto a {new}',
  },
  conference_joinmsg_dropped: {
    en: '{label}: the join message was not migrated',
    it: '{label}: il messaggio di ingresso non è stato migrato',
  },
  member_missing: {
    en: '{label}: member {member} not migrated, no user has that extension',
    it: "{label}: membro {member} non migrato, nessun utente ha quell'interno",
  },
  strategy_changed: { en: '{label}: strategy {old} became {new}', it: '{label}: la strategia {old} è diventata {new}' },
  ring_time_changed: {
    en: '{label}: ring time {old} s became {new} s',
    it: '{label}: il tempo di squillo di {old} s è diventato {new} s',
  },
  prefix_dropped: {
    en: '{label}: caller name prefix {prefix} is not kept',
    it: '{label}: il prefisso {prefix} del nome del chiamante non viene mantenuto',
  },
  music_missing: {
    en: '{label}: music class {music} is not here, the default music on hold is used',
    it: '{label}: la classe musicale {music} qui non esiste, si usa la musica di attesa predefinita',
  },
  dynamic_agents: {
    en: "Dynamic queue agents are not migrated: the old PBX kept them outside its database; add them on each queue's page",
    it: 'Gli agenti dinamici delle code non vengono migrati: il vecchio centralino li teneva fuori dal suo database; aggiungili nella pagina di ogni coda',
  },

  // Said of a queue, a ring group or a CQR: the Italian avoids agreeing with a gender it does not know.
  label_exists: { en: '{label} already migrated', it: '{label}: migrazione già eseguita' },
  label_migrated: { en: '{label} migrated', it: '{label}: migrazione completata' },

  ivr_exists: { en: 'IVR {name} already migrated', it: 'IVR {name} già migrato' },
  ivr_migrated: { en: 'IVR {name} migrated', it: 'IVR {name} migrato' },
  ivr_entry_migrated: { en: 'IVR entry migrated', it: 'Voci IVR migrate' },
  ivr_greeting: {
    en: 'IVR {name}: its greeting was not migrated, choose a recording',
    it: 'IVR {name}: il messaggio di benvenuto non è stato migrato, scegli una registrazione',
  },

  cqr_label: { en: 'CQR "{name}"', it: 'CQR "{name}"' },
  cqr_none: { en: 'No caller query routing to migrate', it: 'Nessun instradamento per chiamante (CQR) da migrare' },
  cqr_customer_code: {
    en: "{label} not migrated: it asked for a customer code, which Centralino's CQR does not do",
    it: '{label} non migrato: chiedeva un codice cliente, che il CQR di Centralino non gestisce',
  },
  cqr_query_values: {
    en: "{label} not migrated: its query uses values other than the caller's number",
    it: '{label} non migrato: la sua query usa valori diversi dal numero del chiamante',
  },
  cqr_empty_entry: {
    en: '{label}: an entry without a value was not migrated',
    it: '{label}: una voce senza valore non è stata migrata',
  },
  cqr_announcement: {
    en: '{label}: the message it played first is not played here',
    it: "{label}: il messaggio che riproduceva all'inizio qui non viene riprodotto",
  },
  cqr_db_type: {
    en: '{label} not migrated: database type {type} is not supported',
    it: '{label} non migrato: il tipo di database {type} non è supportato',
  },
  cqr_db_invalid: {
    en: '{label} not migrated: its database {reason}',
    it: '{label} non migrato: il suo database non è valido ({reason})',
  },
  cqr_source_clash: {
    en: '{label} not migrated: a card source named {name} with another connection exists',
    it: "{label} non migrato: esiste già una sorgente delle schede cliente di nome {name} con un'altra connessione",
  },
  cqr_source_created: {
    en: '{label}: its database {name} on {host} ({type}) is now a card source; check that it answers from here',
    it: '{label}: il suo database {name} su {host} ({type}) ora è una sorgente delle schede cliente; verifica che risponda da questo server',
  },
  cqr_source_local: {
    en: '{label}: its database was on the old server itself ({host}); point the card source at it',
    it: '{label}: il suo database era sul vecchio server stesso ({host}); fai puntare lì la sorgente delle schede cliente',
  },

  recordings_none: { en: 'No recordings to migrate', it: 'Nessuna registrazione da migrare' },
  recording_exists: { en: 'Recording "{name}" already migrated', it: 'Registrazione "{name}" già migrata' },
  recording_no_file: {
    en: 'Recording "{name}" not migrated: it has no file, upload it again',
    it: 'Registrazione "{name}" non migrata: non ha un file, caricala di nuovo',
  },
  recording_no_dir: {
    en: 'Recording "{name}" not migrated: MIGRATION_SOUNDS_DIR is not set, upload it again',
    it: 'Registrazione "{name}" non migrata: MIGRATION_SOUNDS_DIR non è impostata, caricala di nuovo',
  },
  recording_audio_missing: {
    en: 'Recording "{name}" not migrated: its audio {file} is not in the old sounds folder',
    it: 'Registrazione "{name}" non migrata: il suo audio {file} non è nella cartella dei suoni del vecchio sistema',
  },
  recording_audio_other: {
    en: 'Recording "{name}" not migrated: its audio is {format}, which is not converted here; upload it as WAV, MP3 or OGG',
    it: 'Registrazione "{name}" non migrata: il suo audio è {format}, che qui non viene convertito; caricala come WAV, MP3 o OGG',
  },
  recording_failed: {
    en: 'Recording "{name}" not migrated: {reason}',
    it: 'Registrazione "{name}" non migrata: {reason}',
  },
  recording_first_part: {
    en: 'Recording "{name}": only its first part {file} was migrated',
    it: 'Registrazione "{name}": è stata migrata solo la prima parte, {file}',
  },
  recording_migrated: { en: 'Recording "{name}" migrated', it: 'Registrazione "{name}" migrata' },
  sox_missing: {
    en: 'the audio converter (sox) is missing on this server',
    it: 'su questo server manca il convertitore audio (sox)',
  },
  not_audio: { en: 'its file is not WAV, MP3 or OGG audio', it: 'il file non è audio WAV, MP3 o OGG' },

  announcement_exists: {
    en: '{description} announcement already migrated',
    it: 'Annuncio {description} già migrato',
  },
  announcement_no_recording: {
    en: '{description}: its recording was not migrated, choose one',
    it: '{description}: la sua registrazione non è stata migrata, scegline una',
  },
  announcement_migrated: { en: '{description} announcement migrated', it: 'Annuncio {description} migrato' },

  daynight_empty: { en: 'DayNight empty', it: 'Nessun commutatore giorno/notte da migrare' },
  daynight_exists: {
    en: 'Day/night switch {code} already migrated',
    it: 'Commutatore giorno/notte {code} già migrato',
  },
  daynight_migrated: { en: 'DayNight migrated', it: 'Commutatori giorno/notte migrati' },

  time_groups_none: { en: 'No time groups to migrate', it: 'Nessun gruppo orario da migrare' },
  time_group_exists: { en: 'Time group {name} already migrated', it: 'Gruppo orario {name} già migrato' },
  time_group_range: {
    en: 'Time group {name}: range {range} not migrated, it cannot be read',
    it: 'Gruppo orario {name}: intervallo {range} non migrato, non è leggibile',
  },
  time_group_empty: {
    en: 'Time group {name} not migrated: it has no range',
    it: 'Gruppo orario {name} non migrato: non ha intervalli',
  },
  time_group_migrated: { en: 'Time group {name} migrated', it: 'Gruppo orario {name} migrato' },
  time_group_label: { en: 'Time group {name}', it: 'Gruppo orario {name}' },

  time_conditions_none: { en: 'No time conditions to migrate', it: 'Nessuna condizione oraria da migrare' },
  time_condition_exists: {
    en: 'Time condition {name} already migrated',
    it: 'Condizione oraria {name} già migrata',
  },
  time_condition_no_group: {
    en: 'Time condition {name} not migrated: its time group was not migrated',
    it: 'Condizione oraria {name} non migrata: il suo gruppo orario non è stato migrato',
  },
  time_condition_migrated: { en: 'Time condition {name} migrated', it: 'Condizione oraria {name} migrata' },
  time_condition_label: { en: 'Time condition {name}', it: 'Condizione oraria {name}' },

  inbound_exists: {
    en: 'Inbound route "{description}" already migrated',
    it: 'Rotta in ingresso "{description}" già migrata',
  },
  inbound_migrated: { en: '{description} inbound route migrated', it: 'Rotta in ingresso {description} migrata' },

  // Lines stored before issue 38 carry the old destination as it was written: they keep reading as they did.
  destination_not_migrated: {
    en: '{destination} destination not migrated',
    it: 'Destinazione {destination} non migrata',
  },
  // A destination named in words (destinations.ts: describeDestination): what it was and why it is not here.
  destination_lost: {
    en: 'Destination changed to hang up: {what}',
    it: 'Destinazione cambiata in riaggancio: {what}',
  },
  dest_conference: {
    en: 'conference {number} (no such room in the old system)',
    it: 'conferenza {number} (stanza inesistente nel vecchio sistema)',
  },
  dest_custom: {
    en: 'the custom destination {context} (not migrated)',
    it: 'la destinazione personalizzata {context} (non migrata)',
  },
  dest_extension: {
    en: 'extension {number} (no migrated user has it)',
    it: "l'interno {number} (nessun utente migrato lo ha)",
  },
  dest_voicemail: {
    en: 'the voicemail of extension {number} (no migrated user has a mailbox there)',
    it: "la segreteria dell'interno {number} (nessun utente migrato ha lì una casella vocale)",
  },
  dest_daynight: {
    en: 'day/night switch {number} (not migrated)',
    it: 'il commutatore giorno/notte {number} (non migrato)',
  },
  dest_ivr: { en: 'IVR {id} of the old system (not migrated)', it: "l'IVR {id} del vecchio sistema (non migrato)" },
  dest_announcement: {
    en: 'announcement {id} of the old system (not migrated)',
    it: "l'annuncio {id} del vecchio sistema (non migrato)",
  },
  dest_queue: { en: 'queue {number} (not migrated)', it: 'la coda {number} (non migrata)' },
  dest_ring_group: { en: 'ring group {number} (not migrated)', it: 'il gruppo di chiamata {number} (non migrato)' },
  dest_cqr: { en: 'CQR {id} of the old system (not migrated)', it: 'il CQR {id} del vecchio sistema (non migrato)' },
  dest_time_condition: {
    en: 'time condition {id} of the old system (not migrated)',
    it: 'la condizione oraria {id} del vecchio sistema (non migrata)',
  },
  dest_paging: {
    en: 'paging group {number} (paging groups are not migrated yet)',
    it: 'il gruppo di paging {number} (i gruppi di paging non vengono ancora migrati)',
  },
  dest_disa: { en: 'DISA {id} (DISA is not migrated yet)', it: 'il DISA {id} (il DISA non viene ancora migrato)' },
  dest_other: {
    en: 'the old destination {raw}, which Centralino has no equivalent for',
    it: 'la vecchia destinazione {raw}, che in Centralino non ha un equivalente',
  },

  phonebook_none: { en: 'No CTI phonebook to migrate', it: 'Nessuna rubrica CTI da migrare' },
  phonebook_migrated: { en: 'CTI phonebook: {count} contacts migrated', it: 'Rubrica CTI: {count} contatti migrati' },
  phonebook_private: {
    en: "CTI phonebook: {count} private contacts not migrated: Centralino's phonebook is shared by every phone",
    it: 'Rubrica CTI: {count} contatti privati non migrati: la rubrica di Centralino è condivisa da tutti i telefoni',
  },
  templates_no_dir: {
    en: 'Customer-card templates: MIGRATION_CTI_TEMPLATES_DIR is not set, none migrated',
    it: 'Modelli delle schede cliente: MIGRATION_CTI_TEMPLATES_DIR non è impostata, nessun modello migrato',
  },
  templates_none: { en: 'No customer-card templates to migrate', it: 'Nessun modello di scheda cliente da migrare' },
  template_bad_name: {
    en: 'Customer-card template {file} not migrated: its name has no letters or digits',
    it: 'Modello di scheda cliente {file} non migrato: il nome non contiene né lettere né cifre',
  },
  template_exists: {
    en: 'Customer-card template {name} already migrated',
    it: 'Modello di scheda cliente {name} già migrato',
  },
  template_failed: {
    en: 'Customer-card template {name} not migrated: {reason}',
    it: 'Modello di scheda cliente {name} non migrato: {reason}',
  },
  template_migrated: { en: 'Customer-card template {name} migrated', it: 'Modello di scheda cliente {name} migrato' },
  postmig_by_hand: {
    en: 'The queue log, DISA, paging groups and custom contexts are not migrated by this version of Centralino: recreate them by hand',
    it: 'Il registro delle code, il DISA, i gruppi di paging e i contesti personalizzati non vengono migrati da questa versione di Centralino: ricreali a mano',
  },

  // The dry run (POST /migration/dryrun) and the PBX configuration check after the last step.
  dry_user_derived: {
    en: '{label} has no CTI user name in the old system: it would get the user name {username} ({how})',
    it: '{label} non ha un nome utente CTI nel vecchio sistema: riceverebbe il nome utente {username} ({how})',
  },
  dry_username_taken: { en: 'Username already used: {username}', it: 'Nome utente già usato: {username}' },
  dry_user_refused: {
    en: 'User {username} would be refused: {reason}',
    it: "L'utente {username} verrebbe rifiutato: {reason}",
  },
  dry_user_created: {
    en: 'User {username} would be created with extension {ext}',
    it: "L'utente {username} verrebbe creato con l'interno {ext}",
  },
  dry_gateway: { en: 'Gateway "{name}" would be migrated', it: 'Il gateway "{name}" verrebbe migrato' },
  pbx_valid: {
    en: 'The configuration was applied once, at the end, and the PBX validator found it valid',
    it: 'La configurazione è stata applicata una sola volta, alla fine, e il validatore del PBX la trova valida',
  },
  pbx_invalid: {
    en: 'The PBX validator refused the migrated configuration: {count} problem(s)',
    it: 'Il validatore del PBX ha rifiutato la configurazione migrata: {count} problemi',
  },
  pbx_failed: {
    en: 'The migrated configuration could not be applied: {reason}',
    it: 'Non è stato possibile applicare la configurazione migrata: {reason}',
  },
} as const satisfies Record<string, Localized>;

export type MigrationMessageKey = keyof typeof migrationMessages;

/** A text in both languages: a parameter from another service that already speaks both. */
export type Localized = Record<UiLanguage, string>;
export type MessageParam = string | number | Localized | Message;

/** One line of a step's answer or of the report, rendered in the reader's language. */
export interface Message {
  key: MigrationMessageKey;
  params?: Record<string, MessageParam>;
}

export function msg(key: MigrationMessageKey, params?: Record<string, MessageParam>): Message {
  return params ? { key, params } : { key };
}

/** The `{name}` placeholders of a template, sorted (the two languages must name the same ones). */
export function placeholders(template: string): string[] {
  return [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? '').sort();
}

function renderParam(param: MessageParam, lang: UiLanguage): string {
  if (typeof param === 'string' || typeof param === 'number') return String(param);
  if ('key' in param) return renderMessage(param, lang);
  return param[lang] ?? param.en;
}

/** The message in `lang`, English when the key is unknown to that language (or to this version: a newer row). */
export function renderMessage(message: Message, lang: UiLanguage): string {
  const entry = (migrationMessages as Record<string, Localized>)[message.key];
  if (!entry) return message.params?.text !== undefined ? renderParam(message.params.text, lang) : message.key;
  const template = entry[lang] ?? entry.en;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const param = message.params?.[name];
    return param === undefined ? whole : renderParam(param, lang);
  });
}

/** Why the console's own schema refused what was built from an old row: each field and its message. */
export function schemaRefusal(error: { issues: { path: PropertyKey[]; message: string }[] }): string {
  return error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
}

/** A free text (an exception's message, a database error) as a line. */
export function textMessage(text: MessageParam): Message {
  return msg('text', { text });
}

/**
 * A service's refusal in words for the report, in both languages. A refusal's own detail says it all (its fields
 * point the console's form at an input, which a report has not: `extension: 271` after it read as noise); a refusal
 * with only its code's general message gets the fields it names.
 */
export function describe(error: unknown): Localized {
  if (error instanceof AppError) {
    const inLang = (lang: UiLanguage) => {
      const own = typeof error.detail === 'function' ? error.detail(lang) : error.detail;
      if (own) return own;
      const fields = typeof error.fields === 'function' ? error.fields(lang) : error.fields;
      const parts = Object.entries(fields ?? {}).map(([field, message]) => `${field}: ${message}`);
      return [errorDetails[lang][error.code] ?? error.message, ...parts].join('; ');
    };
    return { en: inLang('en'), it: inLang('it') };
  }
  const text = error instanceof Error ? error.message : String(error);
  return { en: text, it: text };
}
