// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${NAME} is how the Asterisk dialplan reads variables.

import { FEATURE_CODES as FC } from '../feature-codes.ts';
import { allTrunks, type Destination, type PbxModel, type PbxProfile, type PbxUser } from '../model.ts';
import { BLOCKING_FILE, blockCheck, blocklistContextOf, permissionsInUse, renderCallPermission } from './blocking.ts';
import { callRecordingGlobals, recordStep, renderCallRecordingDialplan } from './call-recording.ts';
import { HEADER, noteText, value } from './common.ts';
import { followMeLines } from './follow-me.ts';
import { renderPhoneRecording } from './phone-recording.ts';
import { userAccounts } from './pjsip.ts';

/** Dial's options on every internal call but the ringing ('r', or 'm(class)' where a route plays music instead). */
const DIAL_FEATURES = 'HhTt';

/**
 * Dialplan of contract asterisk §5.4. Static parts (subroutines, feature codes, routes) live in
 * extensions.conf; each bucket of users has its own file with its part of ext-local.
 */

/** A context written as `exten => …` / `same => …` lines; `ext(…)` starts an extension. */
export class Context {
  private out: string;
  constructor(name: string, comment?: string) {
    this.out = `[${name}]${comment ? ` ; ${value(comment)}` : ''}\n`;
  }
  include(name: string): this {
    this.out += `include => ${name}\n`;
    return this;
  }
  ext(exten: string, first: string, ...rest: string[]): this {
    this.out += `exten => ${exten},1,${first}\n`;
    for (const line of rest) this.out += ` same => n${line.startsWith('(') ? '' : ','}${line}\n`;
    return this;
  }
  hint(exten: string, devices: string): this {
    this.out += `exten => ${exten},hint,${devices}\n`;
    return this;
  }
  toString(): string {
    return `${this.out}\n`;
  }
}

/** File of the call-flow contexts (render/flows.ts). */
export const FLOWS_FILE = 'extensions.flows.conf';
/** File of the ring groups of issue 42 (render/ring-groups.ts). */
export const RING_GROUPS_FILE = 'extensions.ringgroups.conf';
/** Where the ring groups' numbers live; ext-group includes it, so `ext-group,<n>,1` reaches them. */
export const RING_GROUPS_CONTEXT = 'ext-ringgroups';

/** `from-did-direct,<ext>,1` of the original is ext-local here; any other destination is used as is. */
export function gotoDestination(destination: Destination): string {
  return `Goto(${dialplanTarget(destination)})`;
}

/** A destination as Goto() takes it ('context,exten,priority'): direct extensions are reached through ext-local. */
export function dialplanTarget(destination: Destination): string {
  const [context = '', exten = '', priority = '1'] = destination.split(',');
  return `${context === 'from-did-direct' ? 'ext-local' : context},${exten},${priority}`;
}

/** Feature-code contexts and the profile permission that allows them (contract §1.8). */
const FEATURE_CONTEXTS: readonly { context: string; permission?: string }[] = [
  { context: 'app-dnd-on', permission: 'dnd' },
  { context: 'app-dnd-off', permission: 'dnd' },
  { context: 'app-dnd-toggle', permission: 'dnd' },
  { context: 'app-cf-on', permission: 'call_forward' },
  { context: 'app-cf-off', permission: 'call_forward' },
  { context: 'app-cf-busy-on', permission: 'call_forward' },
  { context: 'app-cf-busy-off', permission: 'call_forward' },
  { context: 'app-cf-unavailable-on', permission: 'call_forward' },
  { context: 'app-cf-unavailable-off', permission: 'call_forward' },
  { context: 'app-callwaiting-cwon' },
  { context: 'app-callwaiting-cwoff' },
  { context: 'app-vmmain' },
  { context: 'app-pickup', permission: 'pickup' },
  // Day/night switches (render/flows.ts): every phone may toggle them, as with FreePBX's *28.
  { context: 'app-daynight-toggle' },
  // Queue agents' *45<n> / *46<n> (render/queues.ts): each queue lets in only its own agents.
  { context: 'app-queue-toggle' },
  // Time condition overrides (*27<id>, render/time-conditions.ts), like day/night switches.
  { context: 'app-timecondition-toggle' },
  // Recording a sound from a phone (*77, render/phone-recording.ts), as with FreePBX.
  { context: 'app-record-sound' },
];

function renderFeatureCodes(): string {
  const set = (family: string, v: string) => `Gosub(sub-set-all,s,1(${family},${v}))`;
  const done = (sound: string) => [`Playback(${sound})`, 'Hangup()'];
  const own = 'ExecIf($["${MAINEXT}" = ""]?Hangup())';
  const contexts = [
    new Context('app-dnd-on').ext(FC.dndOn, own, 'Answer()', set('DND', 'YES'), ...done('do-not-disturb&activated')),
    new Context('app-dnd-off').ext(FC.dndOff, own, 'Answer()', set('DND', ''), ...done('do-not-disturb&de-activated')),
    new Context('app-dnd-toggle').ext(
      FC.dndToggle,
      own,
      'Answer()',
      'GotoIf($["${DB(DND/${MAINEXT})}" = ""]?on)',
      set('DND', ''),
      ...done('do-not-disturb&de-activated'),
      `(on),${set('DND', 'YES')}`,
      ...done('do-not-disturb&activated'),
    ),
    new Context('app-cf-on')
      .ext(
        FC.cfOn,
        own,
        'Answer()',
        'Read(CFNUM,call-fwd-unconditional&please-enter-your&extension&then-press-pound,,,,)',
        'GotoIf($["${CFNUM}" = ""]?end)',
        set('CF', '${CFNUM}'),
        'Playback(call-fwd-unconditional&for&extension&is-set-to)',
        'SayDigits(${CFNUM})',
        '(end),Hangup()',
      )
      .ext(
        `_${FC.cfOn}.`,
        own,
        'Answer()',
        set('CF', '${EXTEN:3}'),
        'Playback(call-fwd-unconditional&is-set-to)',
        'SayDigits(${EXTEN:3})',
        'Hangup()',
      ),
    new Context('app-cf-off').ext(
      FC.cfOff,
      own,
      'Answer()',
      set('CF', ''),
      ...done('call-fwd-unconditional&de-activated'),
    ),
    new Context('app-cf-busy-on').ext(
      `_${FC.cfBusyOn}.`,
      own,
      'Answer()',
      set('CFB', '${EXTEN:3}'),
      ...done('call-fwd-on-busy&is-set-to'),
    ),
    new Context('app-cf-busy-off').ext(
      FC.cfBusyOff,
      own,
      'Answer()',
      set('CFB', ''),
      ...done('call-fwd-on-busy&de-activated'),
    ),
    new Context('app-cf-unavailable-on').ext(
      `_${FC.cfUnavailableOn}.`,
      own,
      'Answer()',
      set('CFU', '${EXTEN:3}'),
      ...done('call-fwd-no-ans&is-set-to'),
    ),
    new Context('app-cf-unavailable-off').ext(
      FC.cfUnavailableOff,
      own,
      'Answer()',
      set('CFU', ''),
      ...done('call-fwd-no-ans&de-activated'),
    ),
    new Context('app-callwaiting-cwon').ext(
      FC.callWaitingOn,
      own,
      'Answer()',
      set('CW', 'ENABLED'),
      ...done('call-waiting&activated'),
    ),
    new Context('app-callwaiting-cwoff').ext(
      FC.callWaitingOff,
      own,
      'Answer()',
      // Stored, not deleted: without a key the user's configured call waiting applies, which may be on.
      set('CW', 'DISABLED'),
      ...done('call-waiting&de-activated'),
    ),
    new Context('app-vmmain')
      .ext(FC.myVoicemail, own, 'Answer()', 'VoiceMailMain(${MAINEXT}@default)', 'Hangup()')
      .ext(FC.dialVoicemail, 'Answer()', 'VoiceMailMain(@default)', 'Hangup()'),
    new Context('app-pickup').ext(`_${FC.directedPickup}X.`, 'Pickup(${EXTEN:2}@PICKUPMARK)', 'Hangup()'),
    // Last of the feature codes: '*<ext>' would otherwise shadow the codes above. The numbering rules
    // (features/numbering) refuse a main extension N whose '*N' one of them would take.
    new Context('app-dialvm').ext(
      `_${FC.directVoicemail}X.`,
      'Answer()',
      'VoiceMail(${EXTEN:1}@default,u)',
      'Hangup()',
    ),
  ];
  return contexts.join('');
}

function renderSubroutines(recordings: boolean): string {
  const dialOptions = recordings ? '${DIAL_OPTIONS}${REC_DIALOPT}' : '${DIAL_OPTIONS}';
  // Writes one AstDB key for the caller's main number and every device, with the two idioms the CTI
  // watches for in Newexten events: Set(DB(FAM/x)=v) and NoOp(Deleting: FAM/x ...) (contract §5.3).
  const setAll = new Context('sub-set-all', 'ARG1 family, ARG2 value (empty deletes)').ext(
    's',
    'Set(LIST=${USERNUMS})',
    '(next),Set(X=${SHIFT(LIST,&)})',
    'GotoIf($["${X}" = ""]?done)',
    'GotoIf($["${ARG2}" = ""]?del)',
    'Set(DB(${ARG1}/${X})=${ARG2})',
    'GotoIf($["${ARG1}" != "DND"]?next)',
    'Set(DEVICE_STATE(Custom:DND${X})=BUSY)',
    'Goto(next)',
    '(del),NoOp(Deleting: ${ARG1}/${X} ${DB_DELETE(${ARG1}/${X})})',
    'GotoIf($["${ARG1}" != "DND"]?next)',
    'Set(DEVICE_STATE(Custom:DND${X})=NOT_INUSE)',
    'Goto(next)',
    '(done),Return()',
  );
  const dialAccounts = new Context(
    'sub-dial-accounts',
    'ARG1 accounts joined by &, ARG2 timeout; rings every registered contact',
  ).ext(
    's',
    'Set(TARGETS=)',
    'Set(LIST=${ARG1})',
    '(next),Set(ACC=${SHIFT(LIST,&)})',
    'GotoIf($["${ACC}" = ""]?built)',
    'Set(CONTACTS=${PJSIP_DIAL_CONTACTS(${ACC})})',
    'GotoIf($["${CONTACTS}" = ""]?next)',
    'Set(TARGETS=${TARGETS}${IF($["${TARGETS}" = ""]?:&)}${CONTACTS})',
    'Goto(next)',
    '(built),GotoIf($["${TARGETS}" = ""]?none)',
    `Dial(\${TARGETS},\${ARG2},${dialOptions})`,
    'Return()',
    '(none),Set(DIALSTATUS=CHANUNAVAIL)',
    'Return()',
  );
  const dialUser = new Context(
    'sub-dial-user',
    'ARG1 number, ARG2 accounts, ARG3 timeout (empty rings on), ARG4 main extension, ARG5 call waiting as ' +
      "configured (ENABLED or DISABLED; a phone's *70/*71 in AstDB CW wins), ARG6 the user's recording policy; sets " +
      'DIALRESULT',
  ).ext(
    's',
    'Set(DIALRESULT=)',
    // The caller's own recording policy, then the called user's (a queue's member: the queue decided).
    ...(recordings
      ? [
          'GotoIf($["${QUEUECALL}" = "yes"]?recorded)',
          'Gosub(sub-record,s,1(${REC_OWN},out))',
          'Gosub(sub-record,s,1(${ARG6},in))',
          '(recorded),NoOp()',
        ]
      : []),
    'Set(__PICKUPMARK=${ARG4})',
    'Set(CFNUM=${DB(CF/${ARG1})})',
    'GotoIf($["${CFNUM}" != "" & "${CFNUM}" != "${CALLERID(num)}"]?forward)',
    'GotoIf($["${DB(DND/${ARG1})}" != ""]?busy)',
    'Set(CWSET=${ARG5})',
    'GotoIf($[${DB_EXISTS(CW/${ARG1})} = 0]?cw)',
    'Set(CWSET=${DB_RESULT})',
    '(cw),GotoIf($["${CWSET}" = "ENABLED"]?dial)',
    'Set(STATE=${EXTENSION_STATE(${ARG1}@ext-local)})',
    'GotoIf($["${STATE}" != "NOT_INUSE" & "${STATE}" != "UNAVAILABLE" & "${STATE}" != "UNKNOWN"]?busy)',
    '(dial),Set(TIMEOUT=${ARG3})',
    'ExecIf($["${TIMEOUT}" = "" & "${DB(CFU/${ARG1})}${DB(CFB/${ARG1})}" != ""]?Set(TIMEOUT=${RINGTIMER_DEFAULT}))',
    'Gosub(sub-dial-accounts,s,1(${ARG2},${TIMEOUT}))',
    'GotoIf($["${DIALSTATUS}" = "ANSWER"]?answered)',
    'GotoIf($["${DIALSTATUS}" = "BUSY"]?busy)',
    'Set(DIALRESULT=${IF($["${DIALSTATUS}" = "CHANUNAVAIL"]?CHANUNAVAIL:NOANSWER)})',
    'Set(CFNUM=${DB(CFU/${ARG1})})',
    'GotoIf($["${CFNUM}" != ""]?forward)',
    'Return()',
    '(busy),Set(DIALRESULT=BUSY)',
    'Set(CFNUM=${DB(CFB/${ARG1})})',
    'GotoIf($["${CFNUM}" != ""]?forward)',
    'Return()',
    '(forward),GotoIf($["${CFNUM:0:3}" = "vmu" | "${CFNUM:0:1}" = "*"]?tovm)',
    'Set(__KEEPCID=TRUE)',
    'Dial(Local/${CFNUM}@from-forward/n,,${DIAL_OPTIONS})',
    'Set(DIALRESULT=FORWARDED)',
    'Return()',
    '(tovm),VoiceMail(${IF($["${CFNUM:0:1}" = "*"]?${CFNUM:1}:${CFNUM:3})}@default,u)',
    '(answered),Set(DIALRESULT=ANSWER)',
    'Return()',
  );
  // Outbound caller ID: route override > user outboundcid > route CID > trunk CID; forwarded calls
  // keep the original caller (contract §1.10, §5.4 step 7).
  const dialTrunk = new Context('sub-dial-trunk', 'ARG1 trunk id, ARG2 number; returns to try the next trunk').ext(
    's',
    'GotoIf($["${OUTDISABLE_${ARG1}}" = "on"]?next)',
    'GotoIf($["${OUTMAXCHANS_${ARG1}}" = ""]?cid)',
    'GotoIf($[${GROUP_COUNT(OUT_${ARG1})} >= ${OUTMAXCHANS_${ARG1}}]?next)',
    '(cid),Set(CID=${OUTCID_${ARG1}})',
    'ExecIf($["${USEROUTCID}" != ""]?Set(CID=${USEROUTCID}))',
    'ExecIf($["${ROUTECID}" != "" & ("${ROUTECIDOVERRIDE}" = "yes" | "${USEROUTCID}" = "")]?Set(CID=${ROUTECID}))',
    'ExecIf($["${KEEPCID}" = "TRUE"]?Set(CID=))',
    'ExecIf($["${CID}" != ""]?Set(CALLERID(num)=${CID}))',
    // The provider gets the number, not the caller's internal name (From and P-Asserted-Identity carry
    // CALLERID(name)): none, as the caller IDs here have no name; a forwarded outside caller keeps theirs.
    'ExecIf($["${KEEPCID}" != "TRUE"]?Set(CALLERID(name)=))',
    'Set(GROUP()=OUT_${ARG1})',
    // Every SIP response a dialled channel gets adds its name to HANGUPCAUSE_KEYS(): unchanged after the
    // Dial, the trunk sent no response at all (its INVITE timed out here, which Asterisk also calls cause
    // 18 "no answer"): try the next trunk instead of stopping (docs/differences.md).
    'Set(CAUSEKEYS=${LEN(${HANGUPCAUSE_KEYS()})})',
    // b(): the trunk's channel gets the trunk's music class, which its far end hears when our side holds.
    `Dial(\${OUT_\${ARG1}}/\${OUTPREFIX_\${ARG1}}\${ARG2}\${OUT_\${ARG1}_SUFFIX},\${TRUNK_RING_TIMER},\${TRUNK_OPTIONS}b(sub-trunk-moh^s^1(\${ARG1}))${recordings ? '${REC_DIALOPT}' : ''})`,
    'GotoIf($["${DIALSTATUS}" = "ANSWER"]?answered)',
    // "Continue if busy" (contract `continue=on`): every failed call tries the next trunk, busy too.
    'GotoIf($["${OUTCONTINUE_${ARG1}}" = "yes"]?next)',
    'GotoIf($["${DIALSTATUS}" = "BUSY"]?busy)',
    'GotoIf($[${LEN(${HANGUPCAUSE_KEYS()})} = ${CAUSEKEYS}]?next)',
    'GotoIf($["${HANGUPCAUSE}" = "17"]?busy)',
    'GotoIf($["${HANGUPCAUSE}" = "18" | "${HANGUPCAUSE}" = "1" | "${HANGUPCAUSE}" = "28" | "${HANGUPCAUSE}" = "22" | "${HANGUPCAUSE}" = "23"]?stop)',
    '(next),Return()',
    '(busy),Busy(20)',
    '(stop),Congestion(20)',
    '(answered),Hangup()',
  );
  const trunkMoh = new Context(
    'sub-trunk-moh',
    "ARG1 trunk id; runs on the trunk's new channel before it is dialled",
  ).ext('s', 'Set(CHANNEL(musicclass)=${OUTMOH_${ARG1}})', 'Return()');
  return [setAll, dialAccounts, dialUser, dialTrunk, trunkMoh].join('');
}

function deviceContextFor(name: string, features: string[], routes: string[]): string {
  const context = new Context(name);
  for (const feature of features) context.include(feature);
  context
    .include('ext-local')
    .include('ext-group')
    .include('ext-queues')
    .include('ext-meetme')
    // Parking lots and slots (render/parking.ts); a blind transfer to a lot number is looked up here too.
    .include('ext-parking')
    .include('app-dialvm');
  for (const route of routes) context.include(route);
  context.include('bad-number');
  return `${context.toString().trimEnd()}\nexten => h,1,Hangup()\n\n`;
}

function profileContext(profile: PbxProfile, model: PbxModel): string {
  const features = FEATURE_CONTEXTS.filter((f) => !f.permission || profile.permissions.includes(f.permission)).map(
    (f) => f.context,
  );
  const limited = model.outboundRoutes.length > 0 && Object.keys(profile.routes).length > 0;
  const routes = limited
    ? model.outboundRoutes.filter((r) => profile.routes[r.id] !== false).map((r) => `outrt-${r.id}`)
    : ['outbound-allroutes'];
  return deviceContextFor(`cti-profile-${profile.id}`, features, routes);
}

/** Number of characters of a pattern prefix as Asterisk counts them: a [...] range is one digit. */
export function patternLength(prefix: string): number {
  return prefix.replace(/\[[^\]]*\]/g, 'X').length;
}

/** Extension name for literal digits, or a pattern with its leading '_'. */
export function patternName(pattern: string): string {
  return /^[0-9*#+]*$/.test(pattern) ? pattern : `_${pattern}`;
}

function renderOutbound(model: PbxModel): string {
  const checked = permissionsInUse(model);
  const all = new Context('outbound-allroutes');
  for (const route of model.outboundRoutes) all.include(`outrt-${route.id}`);
  let out = all.toString();
  if (checked) out += renderCallPermission(model.callClasses);
  for (const route of model.outboundRoutes) {
    const context = new Context(`outrt-${route.id}`, route.name);
    const seen = new Set<string>();
    for (const pattern of route.patterns) {
      const exten =
        patternName(`${pattern.prefix}${pattern.pass}`) + (pattern.cid ? `/${patternName(pattern.cid)}` : '');
      // The same pattern twice in a route can only mean the first one.
      if (seen.has(exten)) continue;
      seen.add(exten);
      const number = `${pattern.prepend}\${EXTEN:${patternLength(pattern.prefix)}}`;
      const tail = route.failover
        ? [gotoDestination(route.failover)]
        : ['Playback(all-circuits-busy-now&pls-try-call-later,noanswer)', 'Congestion(20)'];
      context.ext(
        exten,
        `Set(ROUTEID=${route.id})`,
        `Set(ROUTENAME=${noteText(route.name)})`,
        `Set(ROUTECID=${route.outcid})`,
        `Set(ROUTECIDOVERRIDE=${route.outcidOverride || route.emergency ? 'yes' : 'no'})`,
        `Set(DIAL_NUMBER=${number})`,
        // The caller's outbound permission (issue 42 item 7), before anything is dialled or recorded.
        ...(checked ? ['Gosub(sub-call-permission,s,1(${DIAL_NUMBER}))'] : []),
        // The calling user's recording policy (REC_OWN, on their endpoint).
        ...(model.settings.callRecording ? ['Gosub(sub-record,s,1(${REC_OWN},out))'] : []),
        ...route.trunkIds.map((id) => `Gosub(sub-dial-trunk,s,1(${id},\${DIAL_NUMBER}))`),
        ...tail,
      );
    }
    out += context.toString();
  }
  return out;
}

function renderInbound(model: PbxModel): string {
  const first = new Context('ext-did-0001', 'DID and caller ID, or neither');
  const second = new Context('ext-did-0002', 'DID only, or caller ID only');
  const body = (route: PbxModel['inboundRoutes'][number]) => {
    // Blocked callers first (issue 42 item 7): nothing after this line hears of them.
    const blocklist = blocklistContextOf(model, route.id);
    const lines = [
      ...(blocklist ? blockCheck(blocklist) : []),
      'Set(__DIRECTION=INBOUND)',
      'Set(CDR(did)=${FROM_DID})',
      'ExecIf($["${CALLERID(name)}" = ""]?Set(CALLERID(name)=${CALLERID(num)}))',
    ];
    if (route.cidNamePrefix) lines.push(`Set(CALLERID(name)=${route.cidNamePrefix}\${CALLERID(name)})`);
    lines.push('UserEvent(CallIn,value: ${FROM_DID})');
    if (model.settings.callRecording) lines.push(...recordStep(route.recording, 'in'));
    if (route.music) {
      // The route's class for this caller's every hold and queue (the channel's class wins, preferchannelclass), and
      // music instead of ringing while phones ring: every Dial of the call, Local legs too, reads DIAL_OPTIONS.
      lines.push(`Set(CHANNEL(musicclass)=${route.music})`, `Set(__DIAL_OPTIONS=${DIAL_FEATURES}m(${route.music}))`);
    }
    lines.push(gotoDestination(route.destination));
    return lines;
  };
  const seen = new Set<string>();
  for (const route of model.inboundRoutes) {
    // DID and caller ID identify a route (the original's primary key): the first one wins.
    if (seen.has(`${route.did}/${route.cid}`)) continue;
    seen.add(`${route.did}/${route.cid}`);
    const cid = route.cid ? `/${patternName(route.cid)}` : '';
    const target = route.did && route.cid ? first : !route.did && !route.cid ? first : second;
    if (route.did) {
      target.ext(`${patternName(route.did)}${cid}`, 'Set(__FROM_DID=${EXTEN})', ...body(route));
    } else {
      for (const any of ['_X.', '_+X.']) target.ext(`${any}${cid}`, 'Set(__FROM_DID=${EXTEN})', ...body(route));
      target.ext(`s${cid}`, 'Set(__FROM_DID=)', ...body(route));
    }
  }
  const catchall = new Context('ext-did-catchall');
  for (const any of ['_X.', '_+X.', 's']) {
    catchall.ext(any, 'Answer()', 'Playback(ss-noservice)', 'Hangup()');
  }
  const fromPstn = new Context('from-pstn').include('ext-did-0001').include('ext-did-0002').include('ext-did-catchall');
  // Some providers put the DID only in the To header (contract §4.1).
  const toHeader = new Context('from-pstn-toheader')
    .ext('_X.', 'Goto(from-pstn,${CUT(CUT(PJSIP_HEADER(read,To),@,1),:,2)},1)')
    .ext('_+X.', 'Goto(from-pstn,${CUT(CUT(PJSIP_HEADER(read,To),@,1),:,2)},1)')
    .ext('s', 'Goto(from-pstn,${CUT(CUT(PJSIP_HEADER(read,To),@,1),:,2)},1)');
  // Gateways give the caller in P-Asserted-Identity (contract §4.4).
  const identity = new Context('from-pstn-identity');
  for (const any of ['_X.', '_+X.', 's']) {
    identity.ext(
      any,
      'Set(PAI=${PJSIP_HEADER(read,P-Asserted-Identity)})',
      'ExecIf($["${PAI}" != ""]?Set(CALLERID(num)=${CUT(CUT(PAI,@,1),:,2)}))',
      'Goto(from-pstn,${EXTEN},1)',
    );
  }
  return [first, second, catchall, fromPstn, toHeader, identity].join('');
}

/** The SIP accounts of the user whose main extension this is (none for an unknown number). */
export type AccountsOf = (extension: string) => readonly string[] | undefined;

function renderRingGroups(model: PbxModel, accountsOf?: AccountsOf): string {
  const context = new Context('ext-group').include(RING_GROUPS_CONTEXT);
  let find = accountsOf;
  if (!find && model.ringGroups.length > 0) {
    const accounts = new Map(model.users.map((u) => [u.extension, userAccounts(u).map((d) => d.number)]));
    find = (extension) => accounts.get(extension);
  }
  for (const group of model.ringGroups) {
    const members = group.members.flatMap((m) => find?.(m) ?? []);
    // A group nobody is in yet still answers its callers (busy), so routes to it stay valid.
    if (members.length === 0) {
      context.ext(group.key, `NoOp(Ring group ${noteText(group.name)} has no members)`, 'Busy(20)');
      continue;
    }
    context.ext(
      group.key,
      `NoOp(Ring group ${noteText(group.name)})`,
      `Set(__PICKUPMARK=${group.key})`,
      `Gosub(sub-dial-accounts,s,1(${members.join('&')},${group.ringTime}))`,
      'Hangup()',
    );
  }
  return context.toString();
}

function renderStaticContexts(): string {
  const blackhole = new Context('app-blackhole')
    .ext('hangup', 'Hangup()')
    .ext('congestion', 'Answer()', 'Playtones(congestion)', 'Congestion(5)')
    .ext('busy', 'Answer()', 'Playtones(busy)', 'Busy(20)')
    .ext('ring', 'Answer()', 'Playtones(ring)', 'Wait(300)')
    .ext('musiconhold', 'Answer()', 'MusicOnHold(default)')
    .ext('zapateller', 'Answer()', 'Zapateller()', 'Hangup()')
    .ext('no-service', 'Answer()', 'Playback(ss-noservice)', 'Hangup()');
  const bad = new Context('bad-number');
  for (const any of ['_X.', '_*.', '_+.', '_#.']) {
    bad.ext(any, 'Progress()', 'Playback(cannot-complete-as-dialed,noanswer)', 'Congestion(20)');
  }
  const forward = new Context('from-forward')
    .include('ext-local')
    .include('ext-group')
    .include('ext-queues')
    .include('ext-meetme')
    .include('outbound-allroutes')
    .include('bad-number');
  // Unknown callers (no endpoint matched) are turned away (contract §5.4 step 9).
  const external = new Context('from-sip-external');
  for (const any of ['_X.', '_+X.', 's']) {
    external.ext(any, 'Log(NOTICE,Call from an unknown SIP endpoint rejected)', 'Hangup(21)');
  }
  return [blackhole, bad, forward, external].join('');
}

export function renderGlobals(model: PbxModel): string {
  const lines: string[] = [
    `RINGTIMER_DEFAULT=${model.settings.ringTimerDefault}`,
    'TRUNK_RING_TIMER=300',
    `DIAL_OPTIONS=${DIAL_FEATURES}r`,
    'TRUNK_OPTIONS=T',
    'VMCONTEXT=default',
  ];
  for (const trunk of [...allTrunks(model)].sort((a, b) => a.id - b.id)) {
    const id = trunk.id;
    lines.push(
      `OUT_${id}=PJSIP`,
      `OUT_${id}_SUFFIX=@${trunk.name}`,
      `OUTPREFIX_${id}=${trunk.dialPrefix}`,
      `OUTCID_${id}=${trunk.outcid}`,
      `OUTMAXCHANS_${id}=${trunk.maxChannels ?? ''}`,
      `OUTDISABLE_${id}=${trunk.disabled ? 'on' : 'off'}`,
      `OUTCONTINUE_${id}=${trunk.continueOnFailure ? 'yes' : 'no'}`,
      `OUTMOH_${id}=${trunk.music ?? 'default'}`,
    );
  }
  if (model.settings.callRecording) lines.push(...callRecordingGlobals(model.settings.callRecording));
  return `[globals]\n${lines.map((l) => `${value(l)}\n`).join('')}\n`;
}

/** extensions.conf: globals and every context that does not depend on one user. */
export function renderDialplanRoot(model: PbxModel, userFiles: string[], accountsOf?: AccountsOf): string {
  let out = `${HEADER}[general]\nstatic = yes\nwriteprotect = yes\nclearglobalvars = yes\n\n`;
  out += renderGlobals(model);
  out += deviceContextFor(
    'from-internal',
    FEATURE_CONTEXTS.map((f) => f.context),
    ['outbound-allroutes'],
  );
  for (const profile of [...model.profiles].sort((a, b) => a.id - b.id)) out += profileContext(profile, model);
  out += renderFeatureCodes();
  out += renderPhoneRecording(model.settings.phoneRecording);
  out += renderSubroutines(Boolean(model.settings.callRecording));
  if (model.settings.callRecording) out += renderCallRecordingDialplan();
  out += renderStaticContexts();
  out += renderRingGroups(model, accountsOf);
  out += renderOutbound(model);
  out += renderInbound(model);
  // Announcements and IVRs (issue 26) in a file of their own, so a change to one leaves this file alone.
  out += `#include ${FLOWS_FILE}\n`;
  out += `#include ${RING_GROUPS_FILE}\n\n`;
  // Conference rooms (issue 42, render/conferences.ts).
  out += '#include extensions.conferences.conf\n\n';
  // Parking lots (issue 42, render/parking.ts).
  out += '#include extensions.parking.conf\n\n';
  // Blocked callers (issue 42 item 7, render/blocking.ts).
  out += `#include ${BLOCKING_FILE}\n\n`;
  // ext-local must exist even before the first user has an extension.
  out += '[ext-local]\n\n';
  for (const file of userFiles) out += `#include ${file}\n`;
  return out;
}

function failover(user: PbxUser, kind: 'busy' | 'noAnswer' | 'unavailable'): string {
  const destination = user.destinations[kind];
  if (destination) return gotoDestination(destination);
  const m = user.extension;
  if (user.voicemail) return `Goto(ext-local,${kind === 'busy' ? 'vmb' : 'vmu'}${m},1)`;
  return kind === 'busy' ? 'Busy(20)' : 'Congestion(20)';
}

/** A user's part of ext-local: main number, device numbers, voicemail entry points (contract §5.4 step 3). */
export function renderUserDialplan(user: PbxUser): string {
  const m = user.extension;
  const accounts = userAccounts(user).map((d) => d.number);
  // A ring time of its own always bounds the ringing. 0 (none set) rings until the caller hangs up, unless an
  // unanswered call has somewhere to go (voicemail, a no-answer destination): then the system default applies.
  const goesOn = user.voicemail || Object.values(user.destinations).some((d) => d !== null);
  const fm = user.followMe;
  // With follow-me, the user's own phones ring alone for its first time, then the list takes over.
  const timeout = fm
    ? String(fm.preRing)
    : user.ringTime > 0
      ? String(user.ringTime)
      : goesOn
        ? '${RINGTIMER_DEFAULT}'
        : '';
  const out: string[] = [];
  out.push(`exten => ${m},hint,${accounts.map((a) => `PJSIP/${a}`).join('&')}&Custom:DND${m},CustomPresence:${m}\n`);
  const cw = user.callWaiting ? 'ENABLED' : 'DISABLED';
  // The recording policy only when it decides something: on demand (the default) leaves the lines as they were.
  const rec = user.recording && user.recording !== 'on_demand' ? `,${user.recording}` : '';
  out.push(`exten => ${m},1,Gosub(sub-dial-user,s,1(${m},${accounts.join('&')},${timeout},${m},${cw}${rec}))\n`);
  // Rung by a queue (from-queue): the queue moves on; the user's busy / no-answer destinations are not for it.
  out.push(' same => n(result),ExecIf($["${QUEUECALL}" = "yes"]?Hangup())\n');
  out.push(' same => n,GotoIf($["${DIALRESULT}" = "BUSY"]?busy)\n');
  if (fm) out.push(' same => n,GotoIf($["${DIALRESULT}" = "NOANSWER" | "${DIALRESULT}" = "CHANUNAVAIL"]?followme)\n');
  out.push(' same => n,GotoIf($["${DIALRESULT}" = "NOANSWER"]?noanswer)\n');
  out.push(' same => n,GotoIf($["${DIALRESULT}" = "CHANUNAVAIL"]?unavail)\n');
  out.push(' same => n,Hangup()\n');
  out.push(` same => n(busy),${failover(user, 'busy')}\n`);
  out.push(` same => n(noanswer),${failover(user, 'noAnswer')}\n`);
  out.push(` same => n(unavail),${failover(user, 'unavailable')}\n`);
  if (fm) for (const line of followMeLines(fm)) out.push(` same => n${line.startsWith('(') ? '' : ','}${line}\n`);
  for (const account of accounts.slice(1)) {
    out.push(`exten => ${account},hint,PJSIP/${account}&Custom:DND${account},CustomPresence:${account}\n`);
    out.push(`exten => ${account},1,Gosub(sub-dial-user,s,1(${account},${account},${timeout},${m},${cw}${rec}))\n`);
    out.push(` same => n,Goto(ext-local,${m},result)\n`);
  }
  if (user.voicemail) {
    for (const [prefix, options] of [
      ['vmb', 'b'],
      ['vmu', 'u'],
      ['vms', 's'],
      ['vmi', ''],
    ] as const) {
      out.push(`exten => ${prefix}${m},1,VoiceMail(${m}@default,${options})\n same => n,Hangup()\n`);
    }
  }
  return out.join('');
}
