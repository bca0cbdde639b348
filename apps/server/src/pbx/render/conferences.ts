// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${NAME} is how the Asterisk dialplan reads variables.

import type { PbxConference } from '../model.ts';
import { byNumber, type Entry, HEADER, noteText, section } from './common.ts';
import { Context } from './dialplan.ts';

/**
 * Conference rooms (issue 42 item 1, app_confbridge). confbridge.conf holds, per room, a bridge profile
 * `conf-<n>` (member limit, recording) and two user profiles, `conf-<n>-user` and `conf-<n>-admin` (admin and
 * marked; music while alone, join/leave announcements or quiet), with one menu for users and one for admins.
 * The dialplan's ext-meetme,<n>,1 (FreePBX's destination for its meetme rooms, so migrated routes keep it) asks
 * for a PIN when the room has one and joins the caller with the profile their PIN gives.
 */

export const CONFERENCE_FILE = 'extensions.conferences.conf';
export const CONFBRIDGE_FILE = 'confbridge.conf';

const bridgeProfile = (n: string) => `conf-${n}`;
const userProfile = (n: string, admin: boolean) => `conf-${n}-${admin ? 'admin' : 'user'}`;
const USER_MENU = 'conf-menu-user';
const ADMIN_MENU = 'conf-menu-admin';

const sorted = (rooms: readonly PbxConference[]) => [...rooms].sort((a, b) => byNumber(a.number, b.number));

/** confbridge.conf; `recordings`: a call recordings folder exists (REC_DIR), else no room records. */
export function renderConfbridgeConf(rooms: readonly PbxConference[], recordings: boolean): string {
  // *1 mute or unmute oneself for everyone; *2..*4 for admins only (kick the last one in, lock, mute the others).
  let out = `${HEADER}${section('general', [])}${section(USER_MENU, [
    ['type', 'menu'],
    ['*1', 'toggle_mute'],
    ['*8', 'leave_conference'],
  ])}${section(ADMIN_MENU, [
    ['type', 'menu'],
    ['*1', 'toggle_mute'],
    ['*2', 'admin_kick_last'],
    ['*3', 'admin_toggle_conference_lock'],
    ['*4', 'admin_toggle_mute_participants'],
    ['*8', 'leave_conference'],
  ])}`;
  for (const room of sorted(rooms)) {
    const bridge: Entry[] = [['type', 'bridge']];
    if (room.maxMembers > 0) bridge.push(['max_members', room.maxMembers]);
    const record = room.record && recordings;
    bridge.push(['record_conference', record ? 'yes' : 'no']);
    // The dialplan names the file as the call recordings are named; a timestamp would break that name.
    if (record) bridge.push(['record_file_timestamp', 'no'], ['record_file_append', 'yes']);
    out += section(bridgeProfile(room.number), bridge);
    for (const admin of [false, true]) {
      const user: Entry[] = [['type', 'user']];
      if (admin) user.push(['admin', 'yes'], ['marked', 'yes']);
      user.push(
        ['music_on_hold_when_empty', room.musicWhenAlone ? 'yes' : 'no'],
        ['music_on_hold_class', room.musicClass ?? 'default'],
        ['announce_join_leave', room.announceJoinLeave ? 'yes' : 'no'],
        // Without announcements the room is quiet: no enter/leave sounds either.
        ['quiet', room.announceJoinLeave ? 'no' : 'yes'],
        ['dtmf_passthrough', 'no'],
      );
      out += section(userProfile(room.number, admin), user);
    }
  }
  return out;
}

/** ext-meetme (always there: phones include it) and sub-conference-pin. */
export function renderConferencesDialplan(rooms: readonly PbxConference[], recordings: boolean): string {
  const ext = new Context('ext-meetme', 'Conference rooms');
  for (const room of sorted(rooms)) {
    const n = room.number;
    // No argument separators, and no '$': NoOp() substitutes its argument, so ${...} in a name would run.
    const steps: string[] = [`NoOp(Conference ${noteText(room.name)})`, 'Answer()'];
    if (room.userPin !== null || room.adminPin !== null) {
      // Falls through to (user). ARG1 the user PIN, ARG2 the admin PIN ('' for none); answers CONF_ROLE user, admin or '' (refused).
      steps.push(
        `Gosub(sub-conference-pin,s,1(${room.userPin ?? ''},${room.adminPin ?? ''}))`,
        'GotoIf($["${CONF_ROLE}" = "admin"]?admin)',
        'GotoIf($["${CONF_ROLE}" != "user"]?refused)',
      );
    }
    const join = (admin: boolean) => {
      const menu = admin ? ADMIN_MENU : USER_MENU;
      if (!(room.record && recordings)) {
        return [`ConfBridge(${n},${bridgeProfile(n)},${userProfile(n, admin)},${menu})`, 'Hangup()'];
      }
      // The one who opens the room names its recording as a call recording is named (<day>/<linked id>.wav), and
      // their call links it; the bridge keeps the profile of whoever opened it, so the others' names go unused.
      return [
        `Set(CONFBRIDGE(bridge,template)=${bridgeProfile(n)})`,
        'Set(CONF_REC=${STRFTIME(${CUT(CHANNEL(linkedid),.,1)},,%Y-%m-%d)}/${CHANNEL(linkedid)}.wav)',
        'Set(CONFBRIDGE(bridge,record_file)=${REC_DIR}/${CONF_REC})',
        `ExecIf($["\${CONFBRIDGE_INFO(parties,${n})}" = "0" | "\${CONFBRIDGE_INFO(parties,${n})}" = ""]?Set(MASTER_CHANNEL(CDR(recordingfile))=\${CONF_REC}))`,
        `ConfBridge(${n},,${userProfile(n, admin)},${menu})`,
        'Hangup()',
      ];
    };
    if (room.userPin === null && room.adminPin === null) steps.push(...join(false));
    else {
      const [first, ...rest] = join(false);
      const [adminFirst, ...adminRest] = join(true);
      steps.push(`(user),${first}`, ...rest, `(admin),${adminFirst}`, ...adminRest);
      steps.push('(refused),Playback(vm-goodbye)', 'Hangup()');
    }
    ext.ext(n, steps[0] as string, ...steps.slice(1));
  }
  // Three tries. With an admin PIN alone, anything but it (an empty entry too) joins as a user.
  const pin = new Context('sub-conference-pin', 'ARG1 user PIN, ARG2 admin PIN: sets CONF_ROLE').ext(
    's',
    'Set(CONF_ROLE=)',
    'Set(CONF_TRIES=0)',
    '(ask),Read(CONF_PIN,conf-getpin,12,,1,10)',
    'GotoIf($["${ARG2}" != "" & "${CONF_PIN}" = "${ARG2}"]?admin)',
    'GotoIf($["${ARG1}" = "" | "${CONF_PIN}" = "${ARG1}"]?user)',
    'Set(CONF_TRIES=$[${CONF_TRIES} + 1])',
    'GotoIf($[${CONF_TRIES} >= 3]?done)',
    'Playback(conf-invalidpin)',
    'Goto(ask)',
    '(admin),Set(CONF_ROLE=admin)',
    'Return()',
    '(user),Set(CONF_ROLE=user)',
    '(done),Return()',
  );
  return `${HEADER}${ext}${pin}`;
}
