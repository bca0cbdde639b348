import type { PbxUser } from '../model.ts';
import { byNumber, displayName, HEADER } from './common.ts';

/** voicemail.conf (contract §2 [Std]): file storage, one box per user with a PIN, in context default. */
export function renderVoicemail(users: PbxUser[]): string {
  let out = VOICEMAIL_HEAD;
  const boxes = users.filter((u) => u.voicemail).sort((a, b) => byNumber(a.extension, b.extension));
  for (const user of boxes) out += voicemailBox(user);
  return out;
}

/** The mailbox line of a user with voicemail, '' without. */
export function voicemailBox(user: PbxUser): string {
  if (!user.voicemail) return '';
  // Commas and pipes separate the fields and options of a mailbox line: names and emails lose them.
  const email = (user.email ?? '').replace(/[,|;\s]/g, '');
  const name = displayName(user.name);
  return `${user.extension} => ${user.voicemail.pin},${name},${email},,attach=${email ? 'yes' : 'no'}|saycid=no|envelope=no|delete=no\n`;
}

/**
 * The head with the mail command notification e-mails go through (the transcription helper while voicemail
 * transcription is on; Asterisk's default, sendmail, otherwise).
 */
export function voicemailHead(mailCmd: string | null): string {
  return mailCmd ? VOICEMAIL_HEAD.replace('[general]\n', `[general]\nmailcmd = ${mailCmd}\n`) : VOICEMAIL_HEAD;
}

/**
 * Everything of voicemail.conf before the mailboxes. Silence does not end a message (maxsilence 0): a
 * silence limit at or above minsecs would keep empty messages, and Asterisk warns about it.
 */
export const VOICEMAIL_HEAD = `${HEADER}[general]
format = wav
serveremail = centralino
attach = yes
maxmsg = 100
maxsecs = 300
minsecs = 1
maxsilence = 0
silencethreshold = 128
maxlogins = 3
minpassword = 0
maxgreet = 60
pollmailboxes = yes
pollfreq = 10
envelope = yes
review = no
saycid = no
sayduration = yes
searchcontexts = no
sendvoicemail = yes
tempgreetwarn = yes
usedirectory = yes
moveheard = yes
nextaftercmd = yes
charset = UTF-8

[default]
`;
