import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { type CompiledQuery, type Kysely, type KyselyPlugin, type QueryResult, TransactionBuilder } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** What the audit row of one API write says; carried through the request by AsyncLocalStorage. */
export interface AuditScope {
  actor: string;
  address: string;
  method: string;
  path: string;
  object: string;
  changes: () => unknown;
  /** The row is in the database (a transaction that wrote it committed). */
  written: boolean;
  /** A transaction is writing the row now (parallel transactions of one request write it once). */
  writing: boolean;
  /** The answer went out: later transactions (a job the request started) are not this request's change. */
  closed: boolean;
  /** The route only checks or previews: a row only with a change in the database, none from onSend. */
  checkOnly?: boolean;
  status: () => number;
}

export const auditScope = new AsyncLocalStorage<AuditScope>();

export interface AuditRow {
  actor: string;
  address: string;
  action: string;
  method: string;
  path: string;
  object: string;
  status: number;
  changes: unknown;
}

export async function insertAuditRow(db: Kysely<Database>, row: AuditRow, at: number): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({ id: randomUUID(), at, ...row, changes: JSON.stringify(row.changes ?? null) })
    .execute();
}

export function scopeRow(scope: AuditScope): AuditRow {
  return {
    actor: scope.actor,
    address: scope.address,
    action: 'change',
    method: scope.method,
    path: scope.path,
    object: scope.object,
    status: scope.status(),
    changes: scope.changes(),
  };
}

const WRITES = new Set(['InsertQueryNode', 'UpdateQueryNode', 'DeleteQueryNode', 'MergeQueryNode']);

/** Notes whether any statement run through it inserted, updated or deleted a row. */
function changeTracker(): { plugin: KyselyPlugin; changed: () => boolean } {
  const writes = new WeakSet<object>();
  let changed = false;
  const plugin: KyselyPlugin = {
    transformQuery(args) {
      if (WRITES.has(args.node.kind)) writes.add(args.queryId);
      return args.node;
    },
    async transformResult(args) {
      if (writes.has(args.queryId)) {
        // SQLite reports no count for a statement with RETURNING; its rows say it.
        if (changedRows(args.result)) changed = true;
      }
      return args.result;
    },
  };
  return { plugin, changed: () => changed };
}

/** A statement that may change rows: a built insert/update/delete/merge, or raw SQL that starts as one. */
function isWrite(query: CompiledQuery): boolean {
  if (WRITES.has(query.query.kind)) return true;
  return (
    query.query.kind === 'RawNode' && /^\s*(with\b[\s\S]*\b)?(insert|update|delete|replace|merge)\b/i.test(query.sql)
  );
}

function changedRows(result: QueryResult<unknown>): boolean {
  return (result.numAffectedRows ?? 0n) > 0n || result.rows.length > 0;
}

const PATCHED = Symbol('auditTransactions');

/**
 * Makes a request's change and its audit row commit together, whichever way the service writes; services need not
 * know about the audit log.
 * - Every `db.transaction().execute(fn)` run inside a request's audit scope inserts that request's audit row in the
 *   same transaction, after `fn` and before the commit: the change and its row commit or roll back together.
 * - A write statement run on `db` itself, outside any transaction (the single-statement writes), is run inside a
 *   transaction of its own with the audit row. Only that one statement is wrapped — never the handler — so no
 *   transaction stays open across a handler's other awaits (SQLite's single writer, imports and jobs that run long),
 *   and connection-bound work (`db.connection()`, the apply's advisory lock) keeps its own connection.
 */
export function installAuditTransactions(db: Kysely<Database>, now: () => number): void {
  const target = db as Kysely<Database> & { [PATCHED]?: true };
  if (target[PATCHED]) return;
  target[PATCHED] = true;
  const original = db.transaction.bind(db);
  const wrap = (builder: TransactionBuilder<Database>): TransactionBuilder<Database> =>
    new Proxy(builder, {
      get(inner, prop, receiver) {
        if (prop === 'execute') {
          return async <T>(fn: (trx: Parameters<Parameters<typeof inner.execute>[0]>[0]) => Promise<T>) => {
            const scope = auditScope.getStore();
            if (!scope || scope.closed || scope.written || scope.writing) return inner.execute(fn);
            scope.writing = true;
            try {
              // A transaction that changed nothing (a check that then refuses) is not the change: no row from it.
              const tracker = changeTracker();
              let inserted = false;
              const result = await inner.execute(async (trx) => {
                const value = await fn(trx.withPlugin(tracker.plugin));
                if (tracker.changed()) {
                  await insertAuditRow(trx, scopeRow(scope), now());
                  inserted = true;
                }
                return value;
              });
              if (inserted) scope.written = true;
              return result;
            } finally {
              scope.writing = false;
            }
          };
        }
        const value = Reflect.get(inner, prop, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          const out = value.apply(inner, args);
          return out instanceof TransactionBuilder ? wrap(out) : out;
        };
      },
    });
  db.transaction = (() => wrap(original())) as typeof db.transaction;

  // Statements on `db` go through its root executor; a transaction's or a connection's executor is a new object
  // (withConnectionProvider), so this patch sees exactly the statements that run outside any transaction.
  const executor = db.getExecutor();
  const plain = executor.executeQuery.bind(executor);
  executor.executeQuery = (async <R>(compiled: CompiledQuery): Promise<QueryResult<R>> => {
    const scope = auditScope.getStore();
    if (!scope || scope.closed || scope.written || scope.writing || !isWrite(compiled)) return plain<R>(compiled);
    scope.writing = true;
    try {
      let inserted = false;
      const result = await original().execute(async (trx) => {
        const out = await trx.getExecutor().executeQuery<R>(compiled);
        // A statement that matched no row changed nothing: no row from it (as for transactions above).
        if (changedRows(out)) {
          await insertAuditRow(trx, scopeRow(scope), now());
          inserted = true;
        }
        return out;
      });
      if (inserted) scope.written = true;
      return result;
    } finally {
      scope.writing = false;
    }
  }) as typeof executor.executeQuery;
}
