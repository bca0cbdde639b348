import type { MigrationDryRun, MigrationDryRunCount, UiLanguage } from '@centralino/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import { sniffAudio } from '../flows/audio.ts';
import { holdersOf } from '../numbering/holders.ts';
import { clashError, mainExtensionClash } from '../numbering/rules.ts';
import { ConfigMigration, type StepAnswer } from './config-steps.ts';
import { describe, type Message, msg, renderMessage } from './messages.ts';
import type { LegacySource } from './source.ts';
import { MigrationState, StepLog } from './state.ts';
import { type UsersMigration, userDerived } from './users.ts';

type Trx = Kysely<Database>;
type Report = MigrationDryRun['report'];

/** The state of a dry run: the status goes to its (rolled back) transaction, the report to memory. */
class DryState extends MigrationState {
  private readonly found = new Map<string, StepLog>();
  override async record(step: string, log: StepLog): Promise<void> {
    const entry = this.found.get(step) ?? new StepLog();
    entry.errors.push(...log.errors);
    entry.warnings.push(...log.warnings);
    entry.infos.push(...log.infos);
    this.found.set(step, entry);
  }

  /** What the steps found, in the reader's language. */
  reportIn(lang: UiLanguage): Report {
    const render = (list: Message[]) => list.map((m) => renderMessage(m, lang));
    return Object.fromEntries(
      [...this.found].map(([step, log]) => [
        step,
        { errors: render(log.errors), warnings: render(log.warnings), infos: render(log.infos) },
      ]),
    );
  }
}

/**
 * Recordings of a dry run: the audio is read and sniffed as the upload conversion does first, and the row written
 * (rolled back with the rest) without converting it; sox and the sounds folder are never touched.
 */
function dryRecordings(trx: Trx) {
  return {
    async create(meta: { displayname: string; description?: string }, bytes: Uint8Array): Promise<number> {
      if (!sniffAudio(bytes)) throw new AppError(400, 'audio_invalid');
      const now = Date.now();
      const row = await trx
        .insertInto('recordings')
        .values({
          displayname: meta.displayname,
          description: meta.description ?? '',
          audio: Buffer.from(bytes),
          duration_ms: 0,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return Number(row.id);
    },
  };
}

/** Rows of a table in the dry run's transaction. */
async function rows(trx: Trx, table: 'trunks' | keyof Database): Promise<number> {
  const r = await trx
    .selectFrom(table as 'trunks')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

class Sentinel extends Error {}

/**
 * POST /migration/dryrun: reads the whole old system and answers the report the migration would store, with what
 * it would create, without writing anything. The configuration steps run in the contract's order in one transaction
 * (each under a savepoint, rolled back to it if it fails, as its own transaction would be) that is always rolled
 * back; the PBX is never marked changed, the status and the stored report are never touched; the users are
 * checked (usernames, the numbering rules) as the import would, and those it would create stand as bare rows.
 */
export async function dryRun(
  db: Kysely<Database>,
  source: LegacySource,
  users: UsersMigration,
  lang: UiLanguage,
): Promise<MigrationDryRun> {
  const counts = Object.fromEntries([]) as Record<MigrationDryRunCount, number>;
  const old = await users.oldUsers();
  let report: Report = {};
  const trx = await db.startTransaction().execute();
  try {
    const state = new DryState(trx);
    const gateways: string[] = [];
    const config = new ConfigMigration(trx, source, state, undefined, dryRecordings(trx), { gateways });

    // Users: the checks the import applies, without importing.
    const log = new StepLog();
    const holders = await holdersOf(trx);
    const created: typeof old = [];
    const taken = new Set((await trx.selectFrom('users').select('username').execute()).map((u) => u.username));
    counts.users = 0;
    counts.usersRefused = 0;
    for (const u of old) {
      // A warning here, an info in the real step: the dry run is where an administrator checks the name first.
      if (u.username_from !== 'cti') log.warnings.push(userDerived(u, u.username, 'dry_user_derived'));
      const clash = mainExtensionClash(u.extension, holders);
      const reason = taken.has(u.username)
        ? msg('dry_username_taken', { username: u.username })
        : clash
          ? describe(clashError(u.extension, clash))
          : null;
      if (reason) {
        counts.usersRefused++;
        log.warnings.push(msg('dry_user_refused', { username: u.username, reason }));
        continue;
      }
      counts.users++;
      taken.add(u.username);
      holders.push({ number: u.extension, kind: 'user', userId: -counts.users, name: u.username });
      log.infos.push(msg('dry_user_created', { username: u.username, ext: u.extension }));
      created.push(u);
    }
    // The users the import would create, as bare rows of the (rolled back) transaction: the steps after find their
    // extensions (destinations, queue members, FXS ports) as they will after the real import.
    const now = Date.now();
    for (let i = 0; i < created.length; i += 200) {
      await trx
        .insertInto('users')
        .values(
          created.slice(i, i + 200).map((u) => ({
            username: u.username,
            displayname: u.name || u.username,
            fname: null,
            lname: null,
            email: null,
            source: 'local' as const,
            password_hash: null,
            password_clear: null,
            default_extension: u.extension,
            extension_order: Number(u.extension),
            outboundcid: null,
            mobile: null,
            // With a mailbox as the import makes one (the old `default` context): voicemail destinations find it.
            voicemail_pin: u.voicemail === 'default' ? '' : null,
            profile_id: null,
            busy_dest: null,
            noanswer_dest: null,
            unavailable_dest: null,
            search_key: `${u.username} ${u.name} ${u.extension}`.toLowerCase(),
            created_at: now,
            updated_at: now,
          })),
        )
        .execute();
    }
    await state.record('csvimport', log);

    /** A step, with the rows its table gained. */
    const step = async (run: () => Promise<StepAnswer>, count?: MigrationDryRunCount, table?: keyof Database) => {
      const before = table ? await rows(trx, table) : 0;
      await run();
      if (count && table) counts[count] = (await rows(trx, table)) - before;
    };
    await step(() => config.voipTrunks(), 'trunks', 'trunks');
    await step(() => config.gatewaysStep());
    counts.gateways = gateways.length;
    await step(() => config.iax());
    await step(() => config.outboundRoutes(), 'outboundRoutes', 'outbound_routes');
    await step(() => config.trunksRoutesAssignments());
    await step(() => config.ringGroups(), 'groups', 'ring_groups');
    await step(() => config.queues(), 'queues', 'queues');
    await step(() => config.ivrs(), 'ivrs', 'ivrs');
    await step(() => config.cqrs(), 'cqrs', 'cqrs');
    await step(() => config.recordingsStep(), 'recordings', 'recordings');
    await step(() => config.announcements(), 'announcements', 'announcements');
    await step(() => config.dayNight(), 'dayNight', 'daynight');
    await step(() => config.timeGroups(), 'timeGroups', 'time_groups');
    await step(() => config.timeConditions(), 'timeConditions', 'time_conditions');
    await step(() => config.inboundRoutes(), 'inboundRoutes', 'inbound_routes');
    const contacts = await rows(trx, 'phonebook_contacts');
    await step(() => config.postMigration(), 'cardTemplates', 'card_templates');
    counts.phonebookContacts = (await rows(trx, 'phonebook_contacts')) - contacts;
    report = state.reportIn(lang);
    throw new Sentinel();
  } catch (error) {
    await trx.rollback().execute();
    if (!(error instanceof Sentinel)) throw error;
  }
  return { report, counts };
}
