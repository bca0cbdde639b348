import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mysql from 'mysql2/promise';

/**
 * Builds the older system's databases (NethVoice 11: FreePBX 11 + CTI 2) on the local MariaDB, with the old
 * products' table layouts and made-up but realistic content, for the migration tests and the bench. Each caller
 * passes its own prefix, so suites running at once never share a database.
 *
 * Names follow the contract (§11.1): the PBX database `asterisk11`, the call records `asteriskcdrdb11`, the CTI
 * database `nethcti2`. Where the public schemas leave it open, the CTI 2 users live in the PBX database
 * (`nethcti_users`, beside `nethcti_profiles`), and the call-record table carries an auto-increment `id` (the key
 * the copy walks; NethServer's call-record database has one).
 */
export const LEGACY_MARIADB = { host: '127.0.0.1', port: 3306, user: 'root', password: '' };

export interface LegacyOptions {
  /** Prefix of the three database names, e.g. `mig_1234_`. */
  prefix: string;
  users?: number;
  /** Call records to create (tests: a few thousand; the bench: a million). */
  cdr?: number;
}

export interface LegacyDatabases {
  pbx: string;
  cdr: string;
  cti: string;
  /** MIGRATION_DB_URL for a server reading them. */
  url: string;
  /** The old sounds folder with the recordings' audio (MIGRATION_SOUNDS_DIR). */
  soundsDir: string;
  /** The old CTI's customer-card templates (MIGRATION_CTI_TEMPLATES_DIR). */
  templatesDir: string;
  /** Environment selecting these databases. */
  env: Record<string, string>;
  drop(): Promise<void>;
}

export function legacyNames(prefix: string) {
  return { pbx: `${prefix}asterisk11`, cdr: `${prefix}asteriskcdrdb11`, cti: `${prefix}nethcti2` };
}

/** The old sounds folder of a prefix (under the system's temporary folder). */
export const legacySoundsDir = (prefix: string) => path.join(os.tmpdir(), `${prefix}sounds`);

/** The old CTI templates folder of a prefix. */
export const legacyTemplatesDir = (prefix: string) => path.join(os.tmpdir(), `${prefix}cti-templates`);

/**
 * NethCTI's customer-card templates (EJS): one a loop over the rows with an if, as cards commonly are; one that
 * runs JavaScript of its own (it would read a file on the old server), which the migration must refuse to convert.
 */
function writeTemplates(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'decorator_cc_crm.ejs'),
    [
      '<div class="card">',
      '<% results.forEach(function (row) { %>',
      '  <p><b><%= row.company %></b> <%= row.name %></p>',
      '  <% if (row.level == "gold") { %><span>Gold customer</span><% } %>',
      '<% }) %>',
      '</div>',
      '',
    ].join('\n'),
  );
  fs.writeFileSync(
    path.join(dir, 'decorator_cc_invoices.ejs'),
    [
      '<ul>',
      "<% var secret = require('fs').readFileSync('/etc/shadow'); %>",
      '<li><%= secret %></li>',
      '</ul>',
      '',
    ].join('\n'),
  );
  fs.writeFileSync(path.join(dir, 'README.txt'), 'not a template');
}

/**
 * The recordings' audio as FreePBX 11 left it: `custom/welcome.wav` at CD quality (the upload conversion makes it
 * 8 kHz mono), `closed` in the Italian language folder, a `.wav` that is not audio, `hold` in GSM (Asterisk's own
 * format, not an upload's); `lost` has no file at all.
 * Made with sox (scripts/ensure-audio-tools.mjs installs it).
 */
function writeSounds(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, 'custom'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'it', 'custom'), { recursive: true });
  const sox = process.env.SOX_PATH || 'sox';
  execFileSync(sox, [
    '-n',
    '-r',
    '44100',
    '-c',
    '2',
    path.join(dir, 'custom', 'welcome.wav'),
    'synth',
    '1.5',
    'sine',
    '440',
  ]);
  execFileSync(sox, [
    '-n',
    '-r',
    '16000',
    '-c',
    '1',
    path.join(dir, 'it', 'custom', 'closed.wav'),
    'synth',
    '2',
    'sine',
    '330',
  ]);
  fs.writeFileSync(path.join(dir, 'custom', 'broken.wav'), 'this is not audio');
  execFileSync(sox, ['-n', '-r', '8000', '-c', '1', path.join(dir, 'custom', 'hold.gsm'), 'synth', '1', 'sine', '500']);
}

const FIRST = ['Mario', 'Luca', 'Giulia', 'Anna', 'Paolo', 'Sara', 'Marco', 'Elena', 'Davide', 'Chiara', 'Franco'];
const LAST = ['Rossi', 'Bianchi', 'Verdi', 'Russo', 'Ferrari', 'Esposito', 'Romano', 'Colombo', 'Ricci', 'Greco'];

/** Extension numbers of the fixture's users: 201, 202, … */
export const legacyExtension = (i: number) => String(201 + i);

const PBX_TABLES = `
CREATE TABLE users (extension varchar(20) NOT NULL PRIMARY KEY, password varchar(20), name varchar(50),
  voicemail varchar(50), ringtimer int(3), noanswer varchar(100), recording varchar(50), outboundcid varchar(50),
  sipname varchar(50), noanswer_cid varchar(20) NOT NULL DEFAULT '', busy_cid varchar(20) NOT NULL DEFAULT '',
  chanunavail_cid varchar(20) NOT NULL DEFAULT '', noanswer_dest varchar(255) NOT NULL DEFAULT '',
  busy_dest varchar(255) NOT NULL DEFAULT '', chanunavail_dest varchar(255) NOT NULL DEFAULT '',
  mohclass varchar(80) DEFAULT 'default');
CREATE TABLE devices (id varchar(20) NOT NULL PRIMARY KEY, tech varchar(10) NOT NULL, dial varchar(50) NOT NULL,
  devicetype varchar(5) NOT NULL, user varchar(50), description varchar(50), emergency_cid varchar(100));
CREATE TABLE sip (id varchar(20) NOT NULL DEFAULT '-1', keyword varchar(30) NOT NULL, data varchar(255) NOT NULL,
  flags int(1) NOT NULL DEFAULT 0, PRIMARY KEY (id, keyword));
CREATE TABLE iax (id varchar(20) NOT NULL DEFAULT '-1', keyword varchar(30) NOT NULL, data varchar(255) NOT NULL,
  flags int(1) NOT NULL DEFAULT 0, PRIMARY KEY (id, keyword));
CREATE TABLE trunks (trunkid int(11) NOT NULL PRIMARY KEY, name varchar(50) NOT NULL DEFAULT '',
  tech varchar(20) NOT NULL, outcid varchar(40) NOT NULL DEFAULT '', keepcid varchar(4) DEFAULT 'off',
  maxchans varchar(6) DEFAULT '', failscript varchar(255) NOT NULL DEFAULT '', dialoutprefix varchar(255) NOT NULL DEFAULT '',
  channelid varchar(255) NOT NULL DEFAULT '', usercontext varchar(255), provider varchar(40),
  disabled varchar(4) DEFAULT 'off', \`continue\` varchar(4) DEFAULT 'off');
CREATE TABLE outbound_routes (route_id int(11) NOT NULL AUTO_INCREMENT PRIMARY KEY, name varchar(40),
  outcid varchar(40), outcid_mode varchar(20), password varchar(30), emergency_route varchar(4),
  intracompany_route varchar(4), mohclass varchar(80), time_group_id int(11));
CREATE TABLE outbound_route_patterns (route_id int(11) NOT NULL, match_pattern_prefix varchar(60) NOT NULL DEFAULT '',
  match_pattern_pass varchar(60) NOT NULL DEFAULT '', match_cid varchar(60) NOT NULL DEFAULT '',
  prepend_digits varchar(100) NOT NULL DEFAULT '');
CREATE TABLE outbound_route_sequence (route_id int(11) NOT NULL, seq int(11) NOT NULL, PRIMARY KEY (route_id, seq));
CREATE TABLE outbound_route_trunks (route_id int(11) NOT NULL, trunk_id int(11) NOT NULL, seq int(11) NOT NULL,
  PRIMARY KEY (route_id, trunk_id, seq));
CREATE TABLE ringgroups (grpnum varchar(20) NOT NULL PRIMARY KEY, strategy varchar(50) NOT NULL, grptime smallint NOT NULL,
  grppre varchar(100), grplist varchar(255) NOT NULL, annmsg_id int(11), postdest varchar(255),
  description varchar(35) NOT NULL, alertinfo varchar(255), remotealert_id int(11), needsconf varchar(10),
  toolate_id int(11), ringing varchar(80), cwignore varchar(10), cfignore varchar(10), cpickup varchar(10),
  recording varchar(10) DEFAULT 'dontcare');
CREATE TABLE findmefollow (grpnum varchar(20) NOT NULL PRIMARY KEY, strategy varchar(50) NOT NULL,
  grptime smallint NOT NULL, grppre varchar(100), grplist varchar(255) NOT NULL, annmsg_id int(11),
  postdest varchar(255), dring varchar(255), rvolume varchar(2) NOT NULL DEFAULT '', remotealert_id int(11),
  needsconf varchar(10), toolate_id int(11), pre_ring smallint NOT NULL DEFAULT 0, ringing varchar(80));
CREATE TABLE recordings (id int(11) NOT NULL AUTO_INCREMENT PRIMARY KEY, displayname varchar(50),
  filename blob, description varchar(254), fcode tinyint(1) DEFAULT 0, fcode_pass varchar(20));
CREATE TABLE announcement (announcement_id int NOT NULL AUTO_INCREMENT PRIMARY KEY, description varchar(50),
  recording_id int(11), allow_skip int(11), post_dest varchar(255), return_ivr tinyint(1) NOT NULL DEFAULT 0,
  noanswer tinyint(1) NOT NULL DEFAULT 0, repeat_msg varchar(2) NOT NULL DEFAULT '');
CREATE TABLE ivr_details (id int(11) NOT NULL AUTO_INCREMENT PRIMARY KEY, name varchar(50), description varchar(150),
  announcement int(11), directdial varchar(50), invalid_loops varchar(10), invalid_retry_recording varchar(25),
  invalid_destination varchar(50), timeout_enabled varchar(50), invalid_recording varchar(25), retvm varchar(8),
  timeout_time int(11), timeout_recording varchar(25), timeout_retry_recording varchar(25),
  timeout_destination varchar(50), timeout_loops varchar(10), timeout_append_announce tinyint(1) NOT NULL DEFAULT 1,
  invalid_append_announce tinyint(1) NOT NULL DEFAULT 1, timeout_ivr_ret tinyint(1) NOT NULL DEFAULT 0,
  invalid_ivr_ret tinyint(1) NOT NULL DEFAULT 0);
CREATE TABLE ivr_entries (ivr_id int(11) NOT NULL, selection varchar(10), dest varchar(200), ivr_ret tinyint(1) NOT NULL DEFAULT 0);
CREATE TABLE meetme (exten varchar(50) NOT NULL PRIMARY KEY, options varchar(15), userpin varchar(50),
  adminpin varchar(50), description varchar(50), joinmsg_id int(11), music varchar(80), users tinyint(4) DEFAULT 0);
CREATE TABLE parkplus (id bigint NOT NULL AUTO_INCREMENT PRIMARY KEY, defaultlot varchar(10) NOT NULL DEFAULT 'no',
  type varchar(10) NOT NULL DEFAULT 'public', name varchar(40) NOT NULL DEFAULT '', parkext varchar(40) NOT NULL DEFAULT '',
  parkpos varchar(40) NOT NULL DEFAULT '', numslots int NOT NULL DEFAULT 4, parkingtime int NOT NULL DEFAULT 45,
  parkedmusicclass varchar(100) DEFAULT 'default', generatefc varchar(10) NOT NULL DEFAULT 'yes',
  generatehints varchar(10) NOT NULL DEFAULT 'yes', findslot varchar(10) NOT NULL DEFAULT 'first',
  parkedplay varchar(10) NOT NULL DEFAULT 'both', parkedcalltransfers varchar(10) NOT NULL DEFAULT 'caller',
  parkedcallreparking varchar(10) NOT NULL DEFAULT 'caller', alertinfo varchar(254) NOT NULL DEFAULT '',
  rvolume varchar(2) NOT NULL DEFAULT '', cidpp varchar(100) NOT NULL DEFAULT '', autocidpp varchar(10) NOT NULL DEFAULT 'none',
  announcement_id int, comebacktoorigin varchar(10) NOT NULL DEFAULT 'yes',
  dest varchar(100) NOT NULL DEFAULT 'app-blackhole,hangup,1');
CREATE TABLE music (id int(11) NOT NULL AUTO_INCREMENT PRIMARY KEY, category varchar(190) UNIQUE, type varchar(100),
  random tinyint(1), application varchar(255), format varchar(10));
CREATE TABLE queues_config (extension varchar(20) NOT NULL DEFAULT '' PRIMARY KEY, descr varchar(35) NOT NULL DEFAULT '',
  grppre varchar(100) NOT NULL DEFAULT '', alertinfo varchar(254) NOT NULL DEFAULT '', ringing tinyint(1) NOT NULL DEFAULT 0,
  maxwait varchar(8) NOT NULL DEFAULT '', password varchar(20) NOT NULL DEFAULT '', ivr_id varchar(8) NOT NULL DEFAULT '0',
  dest varchar(50) NOT NULL DEFAULT '', cwignore tinyint(1) NOT NULL DEFAULT 0, qregex varchar(255), agentannounce_id int,
  joinannounce_id int, queuewait tinyint(1) DEFAULT 0, use_queue_context tinyint(1) DEFAULT 0, togglehint tinyint(1) DEFAULT 0,
  qnoanswer tinyint(1) DEFAULT 0, callconfirm tinyint(1) DEFAULT 0, callconfirm_id int, monitor_type varchar(5),
  monitor_heard int, monitor_spoken int, callback_id varchar(8) NOT NULL DEFAULT '');
CREATE TABLE queues_details (id varchar(45) NOT NULL DEFAULT '-1', keyword varchar(30) NOT NULL DEFAULT '',
  data varchar(150) NOT NULL DEFAULT '', flags int(1) NOT NULL DEFAULT 0, PRIMARY KEY (id, keyword, data));
CREATE TABLE timegroups_groups (id int(11) NOT NULL AUTO_INCREMENT PRIMARY KEY, description varchar(50) NOT NULL DEFAULT '',
  UNIQUE KEY display (description));
CREATE TABLE timegroups_details (id int(11) NOT NULL AUTO_INCREMENT PRIMARY KEY, timegroupid int(11) NOT NULL DEFAULT 0,
  time varchar(100) NOT NULL DEFAULT '');
CREATE TABLE timeconditions (timeconditions_id int(11) NOT NULL AUTO_INCREMENT PRIMARY KEY, displayname varchar(50),
  time int(11), truegoto varchar(50), falsegoto varchar(50), deptname varchar(50), generate_hint tinyint(1) DEFAULT 0);
CREATE TABLE daynight (ext varchar(10) NOT NULL DEFAULT '', dmode varchar(40) NOT NULL DEFAULT '',
  dest varchar(255) NOT NULL DEFAULT '', PRIMARY KEY (ext, dmode, dest));
CREATE TABLE incoming (cidnum varchar(20), extension varchar(50), destination varchar(50), privacyman tinyint(1),
  alertinfo varchar(255), ringing varchar(20), mohclass varchar(80) NOT NULL DEFAULT 'default', description varchar(80),
  grppre varchar(80), delay_answer int(2), pricid varchar(20), pmmaxretries varchar(2), pmminlength varchar(2));
CREATE TABLE admin (variable varchar(20) NOT NULL PRIMARY KEY, value varchar(80) NOT NULL DEFAULT '');
CREATE TABLE nethcti_profiles (id int(11) NOT NULL AUTO_INCREMENT PRIMARY KEY, name varchar(50) NOT NULL);
CREATE TABLE nethcti_profile_permissions (profile_id int(11) NOT NULL, permission varchar(50) NOT NULL,
  PRIMARY KEY (profile_id, permission));
CREATE TABLE nethcti_users (username varchar(100) NOT NULL PRIMARY KEY, extension varchar(20) NOT NULL,
  cellphone varchar(40) NOT NULL DEFAULT '', email varchar(100) NOT NULL DEFAULT '', profile_id int(11),
  cti_groups varchar(255) NOT NULL DEFAULT '');
CREATE TABLE nethgateway_models (id int(11) NOT NULL AUTO_INCREMENT PRIMARY KEY, model varchar(100) NOT NULL,
  manufacturer varchar(100) NOT NULL);
CREATE TABLE nethgateway_config (id int(11) NOT NULL AUTO_INCREMENT PRIMARY KEY, model_id int(11) NOT NULL,
  name varchar(100), ipv4 varchar(20), netmask varchar(20), gateway varchar(20), mac varchar(20),
  ipv4_new varchar(20), ipv4_green varchar(20), netmask_green varchar(20));
CREATE TABLE nethgateway_config_fxo (id int(11) NOT NULL AUTO_INCREMENT PRIMARY KEY, config_id int(11) NOT NULL,
  trunk int(11), number varchar(40));
CREATE TABLE nethgateway_config_fxs (id int(11) NOT NULL AUTO_INCREMENT PRIMARY KEY, config_id int(11) NOT NULL,
  extension varchar(20));CREATE TABLE nethcqr_details (id_cqr int(11) NOT NULL AUTO_INCREMENT PRIMARY KEY, name varchar(60) NOT NULL UNIQUE,
  description varchar(120), announcement int(11), use_code tinyint(1) DEFAULT 0, manual_code tinyint(1) DEFAULT 0,
  use_workphone tinyint(1) DEFAULT 1, cod_cli_announcement int(11), err_announcement int(11), code_length int(2) DEFAULT 5,
  code_retries int(1) DEFAULT 3, db_type varchar(30) DEFAULT 'mysql', db_url varchar(60) DEFAULT 'localhost',
  db_name varchar(30), db_user varchar(30), db_pass varchar(90), query varchar(8000), cc_db_type varchar(30) DEFAULT 'mysql',
  cc_db_url varchar(60) DEFAULT 'localhost', cc_db_name varchar(30), cc_db_user varchar(30), cc_db_pass varchar(90),
  cc_query varchar(8000), ccc_query varchar(8000), default_destination varchar(50)) DEFAULT CHARSET=latin1;
CREATE TABLE nethcqr_entries (id_dest int(11) NOT NULL AUTO_INCREMENT PRIMARY KEY, id_cqr int(11) NOT NULL,
  position int(11), \`condition\` varchar(8000), destination varchar(50)) DEFAULT CHARSET=latin1;
`;

const CDR_TABLE = `
CREATE TABLE cdr (id int(11) NOT NULL AUTO_INCREMENT PRIMARY KEY, calldate datetime NOT NULL DEFAULT '0000-00-00 00:00:00',
  clid varchar(80) NOT NULL DEFAULT '', src varchar(80) NOT NULL DEFAULT '', dst varchar(80) NOT NULL DEFAULT '',
  dcontext varchar(80) NOT NULL DEFAULT '', channel varchar(80) NOT NULL DEFAULT '',
  dstchannel varchar(80) NOT NULL DEFAULT '', lastapp varchar(80) NOT NULL DEFAULT '',
  lastdata varchar(80) NOT NULL DEFAULT '', duration int(11) NOT NULL DEFAULT 0, billsec int(11) NOT NULL DEFAULT 0,
  disposition varchar(45) NOT NULL DEFAULT '', amaflags int(11) NOT NULL DEFAULT 0,
  accountcode varchar(20) NOT NULL DEFAULT '', uniqueid varchar(32) NOT NULL DEFAULT '',
  userfield varchar(255) NOT NULL DEFAULT '', did varchar(50) NOT NULL DEFAULT '',
  recordingfile varchar(255) NOT NULL DEFAULT '', cnum varchar(40) NOT NULL DEFAULT '',
  cnam varchar(40) NOT NULL DEFAULT '', outbound_cnum varchar(40) NOT NULL DEFAULT '',
  outbound_cnam varchar(40) NOT NULL DEFAULT '', dst_cnam varchar(40) NOT NULL DEFAULT '',
  KEY calldate (calldate));
`;

const CTI_TABLES = `
CREATE TABLE cti_phonebook (id int(11) NOT NULL AUTO_INCREMENT PRIMARY KEY, owner_id varchar(255) NOT NULL DEFAULT '',
  type varchar(255) NOT NULL DEFAULT '', homeemail varchar(255), workemail varchar(255), homephone varchar(25),
  workphone varchar(25), cellphone varchar(25), fax varchar(25), title varchar(255), company varchar(255),
  notes text, name varchar(255), homestreet varchar(255), homecity varchar(255), workstreet varchar(255),
  workcity varchar(255), url varchar(255), speeddial_num varchar(255));
`;

/** Creates (or re-creates) the three databases with their content. */
export async function createLegacyDatabases(options: LegacyOptions): Promise<LegacyDatabases> {
  const names = legacyNames(options.prefix);
  const users = options.users ?? 300;
  const cdrRows = options.cdr ?? 2000;
  const conn = await mysql.createConnection({ ...LEGACY_MARIADB, multipleStatements: true });
  try {
    for (const db of Object.values(names)) {
      await conn.query(`DROP DATABASE IF EXISTS \`${db}\``);
      await conn.query(`CREATE DATABASE \`${db}\` CHARACTER SET utf8mb4`);
    }
    await conn.query(`USE \`${names.pbx}\``);
    await conn.query(PBX_TABLES);
    await fillPbx(conn, users);
    await conn.query(`USE \`${names.cti}\``);
    await conn.query(CTI_TABLES);
    await fillCti(conn);
    await conn.query(`USE \`${names.cdr}\``);
    await conn.query(CDR_TABLE);
    await fillCdr(conn, cdrRows, users);
  } finally {
    await conn.end();
  }
  const soundsDir = legacySoundsDir(options.prefix);
  writeSounds(soundsDir);
  const templatesDir = legacyTemplatesDir(options.prefix);
  writeTemplates(templatesDir);
  const url = `mysql://${LEGACY_MARIADB.user}@${LEGACY_MARIADB.host}:${LEGACY_MARIADB.port}`;
  return {
    ...names,
    url,
    soundsDir,
    templatesDir,
    env: {
      MIGRATION_DB_URL: url,
      MIGRATION_PBX_DB: names.pbx,
      MIGRATION_CDR_DB: names.cdr,
      MIGRATION_CTI_DB: names.cti,
      MIGRATION_SOUNDS_DIR: soundsDir,
      MIGRATION_CTI_TEMPLATES_DIR: templatesDir,
    },
    drop: () => dropLegacyDatabases(options.prefix),
  };
}

export async function dropLegacyDatabases(prefix: string): Promise<void> {
  const conn = await mysql.createConnection(LEGACY_MARIADB);
  try {
    for (const db of Object.values(legacyNames(prefix))) await conn.query(`DROP DATABASE IF EXISTS \`${db}\``);
  } finally {
    await conn.end();
  }
  fs.rmSync(legacySoundsDir(prefix), { recursive: true, force: true });
  fs.rmSync(legacyTemplatesDir(prefix), { recursive: true, force: true });
}

const nameOf = (i: number) => `${FIRST[i % FIRST.length]} ${LAST[Math.floor(i / FIRST.length) % LAST.length]}`;
const usernameOf = (i: number) =>
  `${(FIRST[i % FIRST.length] ?? '').toLowerCase()}.${(LAST[Math.floor(i / FIRST.length) % LAST.length] ?? '').toLowerCase()}${i >= FIRST.length * LAST.length ? i : ''}`;

async function fillPbx(conn: mysql.Connection, count: number) {
  const userRows: unknown[][] = [];
  const deviceRows: unknown[][] = [];
  const sipRows: unknown[][] = [];
  const ctiUsers: unknown[][] = [];
  for (let i = 0; i < count; i++) {
    const ext = legacyExtension(i);
    // One in five has no mailbox; the others' busy destination is their voicemail.
    const vm = i % 5 === 4 ? 'novm' : 'default';
    userRows.push([ext, '', nameOf(i), vm, 0, '', '', '', '', vm === 'default' ? `ext-local,vmb${ext},1` : '']);
    deviceRows.push([ext, 'sip', `SIP/${ext}`, 'fixed', ext, nameOf(i), '']);
    for (const [keyword, data] of [
      ['secret', `OldSecret${ext}x`],
      ['context', 'from-internal'],
      ['host', 'dynamic'],
      ['type', 'friend'],
      ['dtmfmode', 'rfc2833'],
      ['callerid', `device <${ext}>`],
    ]) {
      sipRows.push([ext, keyword, data, 0]);
    }
    // Nine in ten have a CTI account (the rest are extensions without a user).
    if (i % 10 !== 9) {
      ctiUsers.push([
        usernameOf(i),
        ext,
        `33312${String(i).padStart(5, '0')}`,
        `${usernameOf(i)}@example.com`,
        (i % 3) + 1,
        i % 2 ? 'Sales' : 'Support',
      ]);
    }
  }
  await conn.query(
    'INSERT INTO users (extension, password, name, voicemail, ringtimer, noanswer, recording, outboundcid, sipname, busy_dest) VALUES ?',
    [userRows],
  );
  await conn.query('INSERT INTO devices (id, tech, dial, devicetype, user, description, emergency_cid) VALUES ?', [
    deviceRows,
  ]);
  // chan_sip trunks: two providers, one gateway-style account (handled by the gateway step), one dynamic peer.
  const trunks: [number, string, string, string, Record<string, string>][] = [
    [
      1,
      'Eutelia',
      'sip',
      '0612345678',
      { host: 'voip.eutelia.example', username: '0612345678', secret: 'EuteliaPw1', type: 'peer' },
    ],
    [
      2,
      'Messagenet',
      'sip',
      '0698765432',
      { host: 'sip.messagenet.example', username: '5301234', secret: 'MsgnetPw2', type: 'peer' },
    ],
    [3, 'GW-fxo-2001', 'sip', '', { host: '192.168.5.20', username: '2001', secret: 'GwPw3', type: 'friend' }],
    [4, 'RemoteOffice', 'sip', '', { host: 'dynamic', username: 'remote', secret: 'RemotePw4', type: 'friend' }],
    [5, 'OldIaxLink', 'iax2', '', { host: 'iax.partner.example', username: 'partner', secret: 'IaxPw5', type: 'peer' }],
  ];
  for (const [id, name, tech, outcid, settings] of trunks) {
    await conn.query(
      'INSERT INTO trunks (trunkid, name, tech, outcid, channelid, disabled, `continue`) VALUES (?, ?, ?, ?, ?, ?, ?)',
      [id, name, tech, outcid, name, 'off', 'on'],
    );
    const rows = Object.entries(settings).map(([keyword, data]) => [`tr-peer-${id}`, keyword, data, 0]);
    if (tech === 'iax2') {
      await conn.query('INSERT INTO iax (id, keyword, data, flags) VALUES ?', [rows]);
    } else {
      sipRows.push(...rows, [
        `tr-reg-${id}`,
        'register',
        `${settings.username}:${settings.secret}@${settings.host}`,
        0,
      ]);
    }
  }
  for (let i = 0; i < sipRows.length; i += 1000) {
    await conn.query('INSERT INTO sip (id, keyword, data, flags) VALUES ?', [sipRows.slice(i, i + 1000)]);
  }
  await conn.query(
    'INSERT INTO outbound_routes (route_id, name, outcid, outcid_mode, password, emergency_route, intracompany_route, mohclass, time_group_id) VALUES ?',
    [
      [
        [1, 'national', '', '', '', '', '', 'default', null],
        [2, 'mobile', '', '', '', '', '', 'default', null],
        [3, 'emergency', '', '', '', 'YES', '', 'default', null],
      ],
    ],
  );
  await conn.query(
    'INSERT INTO outbound_route_patterns (route_id, match_pattern_prefix, match_pattern_pass, match_cid, prepend_digits) VALUES ?',
    [
      [
        [1, '0', '0XXXXX.', '', ''],
        [2, '', '3XXXXXXXX.', '', ''],
        [3, '', '112', '', ''],
        [3, '', '113', '', ''],
      ],
    ],
  );
  await conn.query('INSERT INTO outbound_route_sequence (route_id, seq) VALUES ?', [
    [
      [1, 0],
      [2, 1],
      [3, 2],
    ],
  ]);
  await conn.query('INSERT INTO outbound_route_trunks (route_id, trunk_id, seq) VALUES ?', [
    [
      [1, 1, 0],
      [1, 2, 1],
      [2, 2, 0],
      [2, 1, 1],
      [3, 1, 0],
      [3, 5, 1],
    ],
  ]);
  await conn.query('INSERT INTO recordings (id, displayname, filename, description, fcode, fcode_pass) VALUES ?', [
    [
      [1, 'welcome', 'custom/welcome', 'Welcome message', 0, ''],
      [2, 'closed', 'custom/closed', 'Office closed', 0, ''],
      [3, 'lost', 'custom/lost', 'Its file was never copied', 0, ''],
      [4, 'broken', 'custom/broken', 'Not audio', 0, ''],
      [5, 'hold', 'custom/hold', 'Hold message in GSM', 0, ''],
    ],
  ]);
  await conn.query(
    'INSERT INTO announcement (announcement_id, description, recording_id, allow_skip, post_dest, return_ivr, noanswer, repeat_msg) VALUES ?',
    [
      [
        [1, 'Closed notice', 2, 0, 'app-blackhole,hangup,1', 0, 0, ''],
        [2, 'Conference info', 1, 1, 'ext-meetme,600,1', 0, 0, ''],
        // Leads to a time condition, migrated after the announcements.
        [3, 'After hours', 3, 0, 'timeconditions,2,1', 0, 0, ''],
      ],
    ],
  );
  await conn.query(
    'INSERT INTO ringgroups (grpnum, strategy, grptime, grppre, grplist, postdest, description, ringing, recording, needsconf, alertinfo) VALUES ?',
    [
      [
        [
          '600',
          'ringall',
          20,
          'SALES:',
          // An outside number ends with '#'; the group asks outside legs to confirm.
          `${legacyExtension(0)}-${legacyExtension(1)}-${legacyExtension(2)}-999-0612345999#`,
          `ext-local,vmb${legacyExtension(0)},1`,
          'Sales',
          'Ring',
          'dontcare',
          'CHECKED',
          '',
        ],
        [
          '601',
          'memoryhunt-prim',
          15,
          '',
          `${legacyExtension(3)}-${legacyExtension(4)}`,
          // A queue, migrated after the ring groups: linked once it exists.
          'ext-queues,801,1',
          'Support',
          'Ring',
          // Every call recorded.
          'force',
          '',
          '<http://127.0.0.1>;info=ring2',
        ],
      ],
    ],
  );
  await conn.query(
    'INSERT INTO findmefollow (grpnum, strategy, grptime, grppre, grplist, postdest, needsconf, pre_ring, ringing) VALUES ?',
    [
      [
        // The own extension first, as FreePBX writes it; a colleague and a mobile that must press 1.
        [
          legacyExtension(0),
          'ringallv2-prim',
          20,
          '',
          `${legacyExtension(0)}-${legacyExtension(1)}-3331234567#`,
          `ext-local,vmu${legacyExtension(0)},1`,
          'CHECKED',
          7,
          'Ring',
        ],
        // Only the own extension: nothing to follow.
        [legacyExtension(1), 'ringallv2', 20, '', legacyExtension(1), '', '', 0, 'Ring'],
        // An extension no user has.
        ['999', 'hunt', 15, '', '999-3339999999#', 'app-blackhole,hangup,1', '', 5, 'Ring'],
      ],
    ],
  );
  await conn.query(
    'INSERT INTO ivr_details (id, name, description, announcement, directdial, invalid_loops, invalid_destination, timeout_enabled, timeout_time, timeout_destination, timeout_loops) VALUES ?',
    [
      [
        [
          1,
          'Main menu',
          'Reception menu',
          1,
          'ext-local',
          '3',
          'app-blackhole,hangup,1',
          '',
          10,
          'ext-group,600,1',
          '3',
        ],
      ],
    ],
  );
  await conn.query('INSERT INTO ivr_entries (ivr_id, selection, dest, ivr_ret) VALUES ?', [
    [
      [1, '1', 'ext-group,600,1', 0],
      [1, '2', `from-did-direct,${legacyExtension(3)},1`, 0],
      [1, '3', 'app-announcement-2,s,1', 0],
      [1, '4', 'ext-queues,801,1', 0],
      [1, '5', 'timeconditions,1,1', 0],
      [1, '6', 'nethcqr,1,1', 0],
      [1, '9', 'custom-ctx,s,1', 0],
    ],
  ]);
  // Music on hold categories: the default, a shuffled one the first queue and room play, one whose name needs
  // changing, and a program (custom) Centralino does not run. Their files stayed on the old machine.
  await conn.query('INSERT INTO music (category, type, random, application, format) VALUES ?', [
    [
      ['default', 'files', 0, '', ''],
      ['jazz', 'files', 1, '', ''],
      ['Hold Tunes', 'files', 0, '', ''],
      ['radio', 'custom', 0, '/usr/bin/mpg123 -q -s http://radio.example/stream', 'slin'],
    ],
  ]);
  // Conference rooms: one with PINs, music, announcements, recording and options Centralino lacks (w, c), a member
  // limit above Centralino's; one bare and quiet. 600 is a ring group, so ext-meetme,600,1 names no room.
  await conn.query(
    'INSERT INTO meetme (exten, options, userpin, adminpin, description, joinmsg_id, music, users) VALUES ?',
    [
      [
        ['700', 'MIrwc', '1234', '9999', 'Weekly meeting', 0, 'jazz', 120],
        ['701', 'q', '', '', '', 0, '', 0],
      ],
    ],
  );
  // A parking lot (FreePBX parkplus): 70, slots 71–78, a call nobody picks up goes to ring group 600; a caller-name
  // prefix Centralino does not keep.
  await conn.query(
    'INSERT INTO parkplus (defaultlot, name, parkext, parkpos, numslots, parkingtime, parkedmusicclass, cidpp, comebacktoorigin, dest) VALUES ?',
    [[['yes', 'Default Lot', '70', '71', 8, 60, 'default', 'PARK:', 'no', 'ext-group,600,1']]],
  );
  // Queues: numbers outside the users' range; one member per row as FreePBX 11 stores them (999 is nobody's).
  await conn.query(
    'INSERT INTO queues_config (extension, descr, grppre, alertinfo, ringing, maxwait, password, ivr_id, dest, cwignore) VALUES ?',
    [
      [
        ['801', 'Support queue', 'SUP:', '', 0, '300', '', '0', `ext-local,vmu${legacyExtension(0)},1`, 0],
        ['802', 'Sales queue', '', '', 1, '', '', '0', 'ivr-1,s,1', 0],
      ],
    ],
  );
  await conn.query('INSERT INTO queues_details (id, keyword, data, flags) VALUES ?', [
    [
      ['801', 'strategy', 'rrmemory', 0],
      ['801', 'timeout', '20', 0],
      ['801', 'music', 'jazz', 0],
      ['801', 'announce-position', 'yes', 0],
      ['801', 'member', `Local/${legacyExtension(3)}@from-queue/n,0`, 0],
      ['801', 'member', `Local/${legacyExtension(4)}@from-queue/n,0`, 1],
      ['801', 'member', 'Local/999@from-queue/n,0', 2],
      ['802', 'strategy', 'linear', 0],
      ['802', 'timeout', '0', 0],
      ['802', 'music', 'default', 0],
      ['802', 'member', `SIP/${legacyExtension(1)},0`, 0],
    ],
  ]);
  // Caller query routing (latin1 as FreePBX 11 created it: four 8000-character queries fit a row only so): by the caller's customer level in a CRM database; one by customer code (not migrated).
  await conn.query(
    'INSERT INTO nethcqr_details (id_cqr, name, description, announcement, use_code, db_type, db_url, db_name, db_user, db_pass, query, cc_query, default_destination) VALUES ?',
    [
      [
        [
          1,
          'Customer level',
          'Gold customers skip the queue',
          1,
          0,
          'mysql',
          'crm.example.com:3307',
          'crm',
          'crmreader',
          'CrmPw1',
          "SELECT level FROM customers WHERE phone LIKE '%%CID%' LIMIT 1",
          '',
          'ext-queues,801,1',
        ],
        [
          2,
          'By customer code',
          '',
          null,
          1,
          'mysql',
          'localhost',
          'crm',
          'crmreader',
          'CrmPw1',
          "SELECT route FROM codes WHERE code = '%CUSTOMERCODE%'",
          "SELECT code FROM customers WHERE phone = '%CID%'",
          'app-blackhole,hangup,1',
        ],
      ],
    ],
  );
  await conn.query('INSERT INTO nethcqr_entries (id_cqr, position, `condition`, destination) VALUES ?', [
    [
      [1, 0, 'gold', 'ext-group,600,1'],
      // An announcement, migrated after the CQRs: linked once it exists.
      [1, 1, 'blocked', 'app-announcement-1,s,1'],
      [1, 2, '', 'app-blackhole,hangup,1'],
      [1, 3, 'vip', `from-did-direct,${legacyExtension(2)},1`],
      [2, 0, 'A', 'ext-queues,801,1'],
    ],
  ]);
  await conn.query('INSERT INTO timegroups_groups (id, description) VALUES ?', [
    [
      [1, 'Working hours'],
      [2, 'Holidays'],
    ],
  ]);
  await conn.query('INSERT INTO timegroups_details (timegroupid, time) VALUES ?', [
    [
      [1, '08:30-12:30|mon-fri|*|*'],
      [1, '14:00-18:00|mon-fri|*|*'],
      [1, '9:00-12:00|sat-sat|*|*'],
      [2, '*|*|25|dec'],
      [2, '*|*|1|jan'],
      [2, 'bogus'],
    ],
  ]);
  await conn.query(
    'INSERT INTO timeconditions (timeconditions_id, displayname, time, truegoto, falsegoto, deptname) VALUES ?',
    [
      [
        [1, 'Office open', 1, 'ext-queues,801,1', 'app-announcement-1,s,1', ''],
        [2, 'Holiday closing', 2, 'app-announcement-1,s,1', 'timeconditions,1,1', ''],
        [3, 'Orphan', 9, 'app-blackhole,hangup,1', 'app-blackhole,hangup,1', ''],
      ],
    ],
  );
  await conn.query('INSERT INTO daynight (ext, dmode, dest) VALUES ?', [
    [
      ['0', 'day', 'ivr-1,s,1'],
      ['0', 'night', 'app-announcement-1,s,1'],
      ['0', 'fc_description', 'Office hours'],
      // A second switch whose day mode follows a time condition (migrated after the switches) and night rings a group.
      ['1', 'day', 'timeconditions,1,1'],
      ['1', 'night', 'ext-group,601,1'],
      ['1', 'fc_description', 'Warehouse'],
    ],
  ]);
  await conn.query(
    'INSERT INTO incoming (cidnum, extension, destination, privacyman, alertinfo, ringing, mohclass, description, grppre, delay_answer, pricid, pmmaxretries, pmminlength) VALUES ?',
    [
      [
        ['', '0612345678', 'app-daynight,0,1', 0, '', '', 'default', 'Main number', '', 0, '', '', ''],
        [
          '',
          '0612345679',
          `from-did-direct,${legacyExtension(0)},1`,
          0,
          '',
          '',
          'default',
          'Direct Mario',
          '',
          0,
          '',
          '',
          '',
        ],
        ['', '0612345680', 'ext-meetme,700,1', 0, '', '', 'default', 'Conference line', '', 0, '', '', ''],
        ['', '0612345690', 'timeconditions,2,1', 0, '', '', 'default', 'Support line', '', 0, '', '', ''],
      ],
    ],
  );
  await conn.query('INSERT INTO admin (variable, value) VALUES ?', [
    [
      ['need_reload', 'false'],
      ['version', '2.11.0'],
    ],
  ]);
  await conn.query('INSERT INTO nethcti_profiles (id, name) VALUES ?', [
    [
      [1, 'Base'],
      [2, 'Reception'],
      [3, 'Supervisors'],
    ],
  ]);
  const advanced = [
    'phonebook',
    'cdr',
    'queues',
    'offhour',
    'admin_call',
    'admin_cdr',
    'admin_queues',
    'chat',
    'dnd',
    'spy',
    'intrude',
    'pickup',
    'recording',
    'admin_sms',
  ];
  await conn.query('INSERT INTO nethcti_profile_permissions (profile_id, permission) VALUES ?', [
    [
      [1, 'phonebook'],
      [2, 'phonebook'],
      [2, 'cdr'],
      [2, 'chat'],
      [2, 'attended_transfer'],
      ...advanced.map((p) => [3, p]),
    ],
  ]);
  await conn.query(
    'INSERT INTO nethcti_users (username, extension, cellphone, email, profile_id, cti_groups) VALUES ?',
    [ctiUsers],
  );
  await conn.query('INSERT INTO nethgateway_models (id, model, manufacturer) VALUES ?', [
    [
      [1, 'TRI_FXO_2', 'Patton'],
      [2, 'Vega_50_24fxs', 'Sangoma'],
      [3, 'Patton_SN4112_JO', 'Patton'],
    ],
  ]);
  await conn.query(
    'INSERT INTO nethgateway_config (id, model_id, name, ipv4, netmask, gateway, mac, ipv4_new, ipv4_green, netmask_green) VALUES ?',
    [
      [
        [
          1,
          1,
          'Patton office',
          '192.168.5.20',
          '255.255.255.0',
          '192.168.5.1',
          '00:A0:BA:0B:0C:01',
          '192.168.5.20',
          '192.168.5.2',
          '255.255.255.0',
        ],
        [
          2,
          2,
          'Vega hall',
          '192.168.5.21',
          '255.255.255.0',
          '192.168.5.1',
          '00:50:58:0A:0B:02',
          '192.168.5.21',
          '',
          '',
        ],
        // A model the new catalogue does not have: reported, not migrated.
        [
          3,
          3,
          'Old Patton',
          '192.168.5.22',
          '255.255.255.0',
          '192.168.5.1',
          '00:A0:BA:0B:0C:03',
          '192.168.5.22',
          '',
          '',
        ],
      ],
    ],
  );
  await conn.query('INSERT INTO nethgateway_config_fxo (config_id, trunk, number) VALUES ?', [
    [
      [1, 3, '0612345681'],
      [1, 3, '0612345682'],
    ],
  ]);
  await conn.query('INSERT INTO nethgateway_config_fxs (config_id, extension) VALUES ?', [
    [
      [2, legacyExtension(5)],
      [2, legacyExtension(6)],
    ],
  ]);
}

async function fillCti(conn: mysql.Connection) {
  const rows: unknown[][] = [];
  for (let i = 0; i < 200; i++) {
    rows.push([
      i % 4 === 0 ? usernameOf(i % 50) : '',
      i % 4 === 0 ? 'private' : 'public',
      `Contact ${i}`,
      `Company ${i % 30}`,
      `0${String(2_000_000 + i * 7)}`,
      i % 3 === 0 ? `3${String(300_000_000 + i)}` : '',
      `contact${i}@company${i % 30}.example`,
      i % 5 === 0 ? 'Key customer' : '',
    ]);
  }
  await conn.query(
    'INSERT INTO cti_phonebook (owner_id, type, name, company, workphone, cellphone, workemail, notes) VALUES ?',
    [rows],
  );
}

/** Call records spread over the last year, a mix of internal, inbound and outbound calls. */
async function fillCdr(conn: mysql.Connection, count: number, users: number) {
  const start = Date.UTC(2025, 0, 1);
  const batch = 5000;
  for (let done = 0; done < count; done += batch) {
    const rows: unknown[][] = [];
    for (let i = done; i < Math.min(count, done + batch); i++) {
      const when = new Date(start + i * 30_000).toISOString().slice(0, 19).replace('T', ' ');
      const ext = legacyExtension(i % Math.max(users, 1));
      const kind = i % 3;
      const src = kind === 1 ? `0${String(2_000_000 + (i % 5000))}` : ext;
      const dst = kind === 2 ? `3${String(300_000_000 + (i % 9000))}` : legacyExtension((i * 7) % Math.max(users, 1));
      const answered = i % 4 !== 0;
      const duration = 5 + (i % 600);
      rows.push([
        when,
        `"${nameOf(i % 100)}" <${src}>`,
        src,
        dst,
        kind === 1 ? 'from-trunk' : 'from-internal',
        `SIP/${src}-0000${(i % 10000).toString(16)}`,
        `SIP/${dst}-0000${((i + 1) % 10000).toString(16)}`,
        'Dial',
        `SIP/${dst},20`,
        duration,
        answered ? duration - 5 : 0,
        answered ? 'ANSWERED' : 'NO ANSWER',
        3,
        '',
        `${Math.floor((start + i * 30_000) / 1000)}.${i}`,
        i % 10 === 0 ? `${src}|${nameOf(i % 100)}|Company ${i % 30}` : '',
        src,
        nameOf(i % 100),
      ]);
    }
    await conn.query(
      'INSERT INTO cdr (calldate, clid, src, dst, dcontext, channel, dstchannel, lastapp, lastdata, duration, billsec, disposition, amaflags, accountcode, uniqueid, userfield, cnum, cnam) VALUES ?',
      [rows],
    );
  }
}
