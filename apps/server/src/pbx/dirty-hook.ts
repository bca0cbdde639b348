import type { FastifyInstance } from 'fastify';

/** Requests that write no PBX configuration: sessions, the apply itself, runtime-only state (AstDB). */
const NOT_CONFIGURATION = [
  /^\/api\/log(in|out)\b/,
  /^\/api\/pbx\//,
  // A time condition's override is AstDB state, like a day/night mode: nothing in the files changes.
  /^\/api\/timeconditions\/\d+\/override\b/,
  // Muting or kicking someone in a conference room acts on the call, over AMI.
  /^\/api\/conferences\/\d+\/participants\b/,
  // Parked calls and picking one up are calls, over AMI.
  /^\/api\/parking\/calls\b/,
  /^\/api\/user\/presence\b/,
  /^\/api\/phones\/reconfigure\b/,
  // Reads and previews of the bulk editor sent as POST (a selection too long for a path): they write nothing.
  /^\/api\/bulk\/(settings|preview)\/?$/,
  // Phonebook sources fill the phonebook the phones search; the PBX configuration does not hold it.
  /^\/api\/phonebook\/(config|test|getcolumns|syncnow|uploadfile)\b/,
  // Customer-card sources and their check: cards are shown by the console, the PBX configuration holds none.
  /^\/api\/(cti\/dbconn|dbconn\/test)\b/,
  // Customer cards, their templates and the preview: shown by the CTI, nothing of them is in the PBX files.
  /^\/api\/(cti\/customer_card|custcard\/preview)\b/,
  // Parameterised URLs are opened by the CTI client; the streaming Check only fetches a picture; the Google key
  // is read by the mail command when it runs (the switch, which changes voicemail.conf, is not listed).
  /^\/api\/cti\/(paramurl|sources\/test)\b/,
  /^\/api\/configuration\/googleauth\/?$/,
  // The migration's configuration steps change the database only; post-migration, the last, applies once
  // (features/migration/service.ts); a dry run writes nothing; the status, the users import and the CDR copy
  // report their own changes or have none in the PBX files.
  /^\/api\/migration\//,
];

/**
 * Every successful write through the API marks the PBX configuration changed, so no feature can
 * forget to: an apply whose files come out unchanged writes and reloads nothing. Background jobs
 * (imports, directory syncs) report their own changes when they finish.
 */
export function markPbxDirtyAfterWrites(app: FastifyInstance, markDirty: () => void): void {
  app.addHook('onResponse', async (request, reply) => {
    if (request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS') return;
    if (reply.statusCode >= 400) return;
    const url = request.url.split('?')[0] ?? '';
    if (!url.startsWith('/api/') || NOT_CONFIGURATION.some((re) => re.test(url))) return;
    markDirty();
  });
}
