import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { SettingsStore } from '../../db/settings-store.ts';

const KEY = (step: string) => `migration_progress_${step}`;

interface Stored {
  /** Objects this run has saved. */
  created: string[];
  /** The object being saved when the run stopped, if it did: it may or may not be there. */
  creating: string | null;
}

/**
 * The objects saved so far by a step that saves each one in a transaction of its own (through another service:
 * CTI profiles, gateways, recordings) or that has more to do after its transaction (the post-migration's apply),
 * kept in the settings until the step has recorded its report. A run cut short
 * (the console killed, a crash) leaves the list behind; run again, the step takes the objects it finds on the list
 * as its own — "migrated", as a run that was never stopped would say — rather than as objects that were there
 * before ("already migrated"), and the report holds each line once. A step that ends clears the list, so running it
 * once more says "already migrated" again.
 */
export class StepProgress {
  private constructor(
    private readonly db: Kysely<Database>,
    private readonly step: string,
    private readonly stored: Stored,
  ) {}

  static async load(db: Kysely<Database>, step: string): Promise<StepProgress> {
    const stored = await new SettingsStore(db).get<Stored>(KEY(step));
    return new StepProgress(db, step, { created: stored?.created ?? [], creating: stored?.creating ?? null });
  }

  /** Whether `name`, found here, was saved by an earlier run of this step that stopped before its end. */
  savedByThisStep(name: string): boolean {
    return this.stored.created.includes(name) || this.stored.creating === name;
  }

  /** Said before the object is saved: a kill between its commit and `saved` does not make it someone else's. */
  async saving(name: string): Promise<void> {
    this.stored.creating = name;
    await new SettingsStore(this.db).set(KEY(this.step), this.stored);
  }

  async saved(name: string): Promise<void> {
    this.stored.created.push(name);
    this.stored.creating = null;
    await new SettingsStore(this.db).set(KEY(this.step), this.stored);
  }

  /** The step has ended: pass the transaction that records its report, so that the list goes with the report. */
  finish(trx: Kysely<Database>): Promise<void> {
    return StepProgress.finish(trx, this.step);
  }

  static async finish(trx: Kysely<Database>, step: string): Promise<void> {
    await trx.deleteFrom('settings').where('key', '=', KEY(step)).execute();
  }
}
