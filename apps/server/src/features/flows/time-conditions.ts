import {
  TIME_CONDITION_FEATURE_CODE,
  type TimeCondition,
  type TimeConditionWrite,
  type TimeGroup,
  type TimeGroupWrite,
  timeConditionDestination,
  timeConditionWriteSchema,
  timeGroupWriteSchema,
} from '@centralino/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { AmiClient } from '../../pbx/ami/client.ts';
import { familyIfConnected, pbxNotConnected } from '../../pbx/live-state.ts';
import { checkFlowWrite, inUse, namedWrite, refuseWhileUsed } from './service.ts';

type Db = Kysely<Database>;

/**
 * Time groups and time conditions (issue 26). A group is a list of GotoIfTime ranges; a condition sends calls to one
 * destination while its group matches and to another otherwise. The override is Asterisk state (AstDB TC/<id>), read
 * and set over AMI like the day/night modes, so changing it needs no reload.
 */
export class TimeConditionsService {
  constructor(
    private readonly db: Db,
    private readonly ami?: AmiClient,
  ) {}

  // ---- time groups

  async listGroups(): Promise<TimeGroup[]> {
    const [groups, ranges, conditions] = await Promise.all([
      this.db.selectFrom('time_groups').selectAll().orderBy('name').execute(),
      this.db.selectFrom('time_group_ranges').selectAll().orderBy('group_id').orderBy('position').execute(),
      this.db.selectFrom('time_conditions').select(['time_group_id', 'name']).orderBy('name').execute(),
    ]);
    return groups.map((g) => ({
      id: Number(g.id),
      name: g.name,
      ranges: ranges
        .filter((r) => Number(r.group_id) === Number(g.id))
        .map((r) => ({ hours: r.hours, weekdays: r.weekdays, mdays: r.mdays, months: r.months })),
      used_by: conditions.filter((c) => Number(c.time_group_id) === Number(g.id)).map((c) => c.name),
    }));
  }

  private async writeGroup(trx: Db, id: number | null, input: TimeGroupWrite): Promise<number> {
    const v = timeGroupWriteSchema.parse(input);
    let groupId: number;
    if (id === null) {
      groupId = Number(
        (await trx.insertInto('time_groups').values({ name: v.name }).returning('id').executeTakeFirstOrThrow()).id,
      );
    } else {
      const result = await trx.updateTable('time_groups').set({ name: v.name }).where('id', '=', id).executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) throw new AppError(404, 'not_found');
      await trx.deleteFrom('time_group_ranges').where('group_id', '=', id).execute();
      groupId = id;
    }
    await trx
      .insertInto('time_group_ranges')
      .values(v.ranges.map((r, position) => ({ group_id: groupId, position, ...r })))
      .execute();
    return groupId;
  }

  /** Inside a caller's transaction (the migration's step): the same checks, committed or rolled back with it. */
  createGroupIn(trx: Db, input: TimeGroupWrite): Promise<number> {
    return this.writeGroup(trx, null, input);
  }

  createGroup(input: TimeGroupWrite): Promise<number> {
    return namedWrite(this.db, input.name, (trx) => this.writeGroup(trx, null, input));
  }

  async updateGroup(id: number, input: TimeGroupWrite): Promise<void> {
    await namedWrite(this.db, input.name, (trx) => this.writeGroup(trx, id, input));
  }

  async removeGroup(id: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('time_groups').select('name').where('id', '=', id).executeTakeFirst();
      if (!row) throw new AppError(404, 'not_found');
      const users = await trx
        .selectFrom('time_conditions')
        .select('name')
        .where('time_group_id', '=', id)
        .orderBy('name')
        .execute();
      if (users.length > 0) {
        throw inUse({ en: `Time group ${row.name}`, it: `Il gruppo orario ${row.name}` }, (lang) =>
          users.map((u) => `${lang === 'it' ? 'condizione oraria' : 'time condition'} ${u.name}`).join(', '),
        );
      }
      await trx.deleteFrom('time_group_ranges').where('group_id', '=', id).execute();
      await trx.deleteFrom('time_groups').where('id', '=', id).execute();
    });
  }

  // ---- time conditions

  async listConditions(): Promise<TimeCondition[]> {
    const [rows, overrides] = await Promise.all([
      this.db.selectFrom('time_conditions').selectAll().orderBy('name').execute(),
      // The overrides Asterisk holds (AstDB TC/...); null when it cannot be asked.
      familyIfConnected(this.ami, 'TC'),
    ]);
    return rows.map((r) => {
      const held = overrides?.get(String(r.id));
      return {
        id: Number(r.id),
        name: r.name,
        time_group_id: Number(r.time_group_id),
        true_dest: r.true_dest,
        false_dest: r.false_dest,
        destination: timeConditionDestination(Number(r.id)),
        feature_code: `${TIME_CONDITION_FEATURE_CODE}${r.id}`,
        override: overrides === null ? 'unknown' : held === 'inside' || held === 'outside' ? held : 'auto',
      };
    });
  }

  private async writeCondition(trx: Db, id: number | null, input: TimeConditionWrite): Promise<number> {
    const v = timeConditionWriteSchema.parse(input);
    if (!(await trx.selectFrom('time_groups').select('id').where('id', '=', v.time_group_id).executeTakeFirst())) {
      throw new AppError(400, 'validation', undefined, (lang) => ({
        time_group_id: lang === 'it' ? 'Questo gruppo orario non esiste' : 'This time group does not exist',
      }));
    }
    const row = { name: v.name, time_group_id: v.time_group_id, true_dest: v.true_dest, false_dest: v.false_dest };
    let conditionId: number;
    if (id === null) {
      conditionId = Number(
        (await trx.insertInto('time_conditions').values(row).returning('id').executeTakeFirstOrThrow()).id,
      );
    } else {
      const result = await trx.updateTable('time_conditions').set(row).where('id', '=', id).executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) throw new AppError(404, 'not_found');
      conditionId = id;
    }
    await checkFlowWrite(trx, [
      ['true_dest', v.true_dest],
      ['false_dest', v.false_dest],
    ]);
    return conditionId;
  }

  /** Inside a caller's transaction (the migration's step): the same checks, committed or rolled back with it. */
  createConditionIn(trx: Db, input: TimeConditionWrite): Promise<number> {
    return this.writeCondition(trx, null, input);
  }

  createCondition(input: TimeConditionWrite): Promise<number> {
    return namedWrite(this.db, input.name, (trx) => this.writeCondition(trx, null, input));
  }

  async updateCondition(id: number, input: TimeConditionWrite): Promise<void> {
    await namedWrite(this.db, input.name, (trx) => this.writeCondition(trx, id, input));
  }

  async removeCondition(id: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('time_conditions').select('name').where('id', '=', id).executeTakeFirst();
      if (!row) throw new AppError(404, 'not_found');
      await refuseWhileUsed(
        trx,
        timeConditionDestination(id),
        { kind: 'timecondition', name: row.name },
        { en: `Time condition ${row.name}`, it: `La condizione oraria ${row.name}` },
      );
      await trx.deleteFrom('time_conditions').where('id', '=', id).execute();
    });
  }

  /** Sets or clears the override in Asterisk at once, as the feature code does (the dialplan reads AstDB). */
  async setOverride(id: number, override: 'auto' | 'inside' | 'outside'): Promise<void> {
    if (!(await this.db.selectFrom('time_conditions').select('id').where('id', '=', id).executeTakeFirst())) {
      throw new AppError(404, 'not_found');
    }
    const ami = this.ami;
    if (ami?.state !== 'connected') throw pbxNotConnected(ami);
    // Deleting a key that is not there is an error to Asterisk and nothing to us: it is 'auto' either way.
    if (override === 'auto') await ami.action('DBDel', { Family: 'TC', Key: String(id) }).catch(() => {});
    else await ami.action('DBPut', { Family: 'TC', Key: String(id), Val: override });
    await ami.command(`devstate change Custom:TC${id} ${override === 'auto' ? 'NOT_INUSE' : 'INUSE'}`);
  }
}
