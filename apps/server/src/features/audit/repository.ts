import type { AuditFilters } from '@centralino/contract';
import { type Expression, type ExpressionBuilder, type Kysely, type SqlBool, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';

type Filters = AuditFilters;

/** Escapes LIKE wildcards so a typed % or _ matches itself. */
function contains(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export class AuditRepository {
  constructor(private readonly db: Kysely<Database>) {}

  private where(filters: Filters) {
    return (eb: ExpressionBuilder<Database, 'audit_log'>) => {
      const all: Expression<SqlBool>[] = [];
      if (filters.q) {
        const like = contains(filters.q);
        all.push(
          eb.or(
            (['actor', 'address', 'action', 'path', 'object', 'changes'] as const).map(
              (column) => sql<SqlBool>`lower(${sql.ref(column)}) like ${like} escape '\\'`,
            ),
          ),
        );
      }
      if (filters.user) all.push(eb('actor', '=', filters.user.trim().toLowerCase()));
      if (filters.object) all.push(sql<SqlBool>`lower(object) like ${contains(filters.object)} escape '\\'`);
      if (filters.from !== undefined) all.push(eb('at', '>=', filters.from));
      if (filters.to !== undefined) all.push(eb('at', '<=', filters.to));
      return eb.and(all);
    };
  }

  async count(filters: Filters): Promise<number> {
    const row = await this.db
      .selectFrom('audit_log')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where(this.where(filters))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  page(filters: Filters, offset: number, limit: number) {
    return this.db
      .selectFrom('audit_log')
      .selectAll()
      .where(this.where(filters))
      .orderBy('at', 'desc')
      .orderBy('id')
      .offset(offset)
      .limit(limit)
      .execute();
  }

  /** Every matching row, newest first, read in pages so an export of a year stays small in memory. */
  async *stream(filters: Filters) {
    const size = 1000;
    for (let offset = 0; ; offset += size) {
      const rows = await this.page(filters, offset, size);
      yield* rows;
      if (rows.length < size) return;
    }
  }

  async deleteOlderThan(cutoff: number): Promise<number> {
    const result = await this.db.deleteFrom('audit_log').where('at', '<', cutoff).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
