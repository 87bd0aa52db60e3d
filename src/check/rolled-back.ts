// The database as the write probe's services see it: every statement, their own transactions
// included, runs inside ONE transaction of the real database that is always rolled back, so
// the server's own code can write, read back and be judged while nothing is ever kept.
import type { Database, Querier } from '../db/database.js'
import type { LiveCatalog } from '../db/columns.js'
import { fittingWrites } from '../db/column-values.js'

/** Thrown at the end of every probe: the driver rolls back on it, and `inRolledBack` returns what the probe found. */
class RolledBack<T> extends Error {
  constructor (readonly result: T) { super('rolled back by ponte check') }
}

export interface Schema {
  /** Read before the transaction opens (SQLite has one connection): the services' column fitting reads it. */
  catalog: LiveCatalog
}

/**
 * Runs `probe` against a Database whose every statement is part of one transaction that is
 * rolled back when the probe ends, however it ends. A service's own transaction is the same
 * one: what it throws propagates to the probe (the probe reports it), and booking's claims are
 * not taken (the probe's writes are never kept, so they need not wait for anyone's).
 */
export async function inRolledBack<T> (db: Database, schema: Schema, probe: (db: Database) => Promise<T>): Promise<T> {
  try {
    // Written values fitted to their columns as the server's own database does (ponte.ts).
    await db.transaction(async (tx) => { throw new RolledBack(await probe(fittingWrites(over(db, tx, schema), async () => schema.catalog))) })
  } catch (err) {
    if (err instanceof RolledBack) return err.result as T
    throw err
  }
  throw new Error('unreachable: the probe transaction committed')
}

function over (db: Database, tx: Querier, schema: Schema): Database {
  return {
    dialect: db.dialect,
    stats: db.stats,
    introspect: {
      catalog: async () => schema.catalog,
      references: async () => await db.introspect.references()
    },
    query: async (statement, args) => await tx.query(statement, args),
    transaction: async (fn) => await fn(tx),
    ping: async () => {},
    close: async () => {}
  }
}
