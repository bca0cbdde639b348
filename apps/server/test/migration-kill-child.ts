// Child process of migration-kill.test.ts: the console, built as main.ts builds it, running one migration step
// until the test kills it with SIGKILL. It loads the server first and says `ready`, so that the test can start it
// while the previous step is still being checked; then it reads one line (a Job, JSON) from stdin.
//
// The step is caught in progress by its own writes: every insert, update or delete the console sends to the
// database passes through a Kysely plugin, and when the step writes the `nth` row statement on `table` (or the call
// record copy commits its `cdrBatch`th batch) the child says `caught …` and holds still, its transaction open, until
// the kill arrives: the test never guesses a moment with a sleep.
import fs from 'node:fs';
import readline from 'node:readline';
import type { KyselyPlugin, QueryId, RootOperationNode } from 'kysely';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { migrateToLatest, openDatabase } from '../src/db/database.ts';
import { cdrCopyHooks } from '../src/features/migration/cdr.ts';

export interface Job {
  env: Record<string, string>;
  /** A session of the administrator's, signed in once by the test (sessions outlive a restart). */
  headers: { user: string; secretkey: string };
  request: { method: 'POST'; url: string; body?: unknown };
  /** Where to hold still: the nth write statement on a table, or the nth committed call-record batch. */
  trigger: { table: string; nth: number } | { cdrBatch: number };
  /** Print every write statement (to choose a trigger). */
  trace?: boolean;
}

const say = (line: string) => fs.writeSync(1, `${line}\n`);

/** Stops the whole process (its event loop included) until the test's SIGKILL ends it. */
function holdStill(what: string): never {
  say(`caught ${what}`);
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60_000);
  say('not killed');
  process.exit(3);
}

/** The table an insert, update or delete writes; undefined for reads and raw SQL. */
function writtenTable(node: RootOperationNode): string | undefined {
  const name = (table: unknown) =>
    (table as { table?: { identifier?: { name?: string } } } | undefined)?.table?.identifier?.name;
  if (node.kind === 'InsertQueryNode') return name(node.into);
  if (node.kind === 'UpdateQueryNode') return name(node.table);
  if (node.kind === 'DeleteQueryNode') return name(node.from.froms[0]);
  return undefined;
}

say('ready');
const lines = readline.createInterface({ input: process.stdin });
const first = await new Promise<string>((resolve) => lines.once('line', resolve));
lines.close();
const job = JSON.parse(first) as Job;
const trigger = job.trigger;

const started = performance.now();
const mark = (what: string) => {
  if (job.trace) say(`${what} at ${Math.round(performance.now() - started)} ms`);
};
/** Only the step's writes count: the console's own at start (its PBX state, sessions) are not the step's. */
let armed = false;
const writes = new Map<string, number>();
const pending = new WeakMap<QueryId, string>();
const spy: KyselyPlugin = {
  transformQuery({ node, queryId }) {
    const table = writtenTable(node);
    if (table) pending.set(queryId, `${node.kind.replace('QueryNode', '').toLowerCase()} ${table}`);
    return node;
  },
  async transformResult({ result, queryId }) {
    const what = pending.get(queryId);
    if (!what || !armed) return result;
    const table = what.split(' ')[1] as string;
    const n = (writes.get(table) ?? 0) + 1;
    writes.set(table, n);
    if (job.trace) say(`write ${what} #${n}`);
    if ('table' in trigger && trigger.table === table && trigger.nth === n) holdStill(`${what} #${n}`);
    return result;
  },
};
if ('cdrBatch' in trigger) {
  let batches = 0;
  cdrCopyHooks.afterBatch = async (copied) => {
    if (++batches === trigger.cdrBatch) holdStill(`call-record batch ${batches} (${copied} copied)`);
  };
}

mark('job read');
const config = loadConfig(job.env);
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
await migrateToLatest(database.db);
const { app, jobs } = await buildApp({
  config,
  database: { ...database, db: database.db.withPlugin(spy) },
  logger: false,
});
await jobs.watchInterrupted();
await app.ready();
mark('app ready');
const headers = job.headers;
armed = true;
const res = await app.inject({
  method: job.request.method,
  url: job.request.url,
  headers,
  ...(job.request.body === undefined ? {} : { payload: job.request.body as object }),
});
// The step answered without being caught (or went on in the background): the test fails on this line, or waits
// for the background work to reach the trigger.
say(`answered ${res.statusCode} ${res.body.slice(0, 2000)}`);
