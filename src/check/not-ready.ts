// The database of an installation whose mapping does not fit it (STRUCTURAL_CHECK=not-ready):
// no statement runs (each would fail on a missing table or column, or read values wrongly),
// so every route that reads or writes answers 503 "not ready" — never a 500 — and so does
// /ready, with the findings. The catalog stays readable, and the database it guards can be
// found again: a reload checks the corrected mapping against it and, when it fits, serves it.
import type { Database } from '../db/database.js'
import { InstallationNotReadyError } from '../errors.js'
import type { Finding } from './findings.js'

// By the catalog reader, which every wrapper (not-ready, metrics) passes through unchanged:
// the Ponte in service holds the metrics wrapper around this one, not this one.
const guarded = new WeakMap<object, Database>()

export function notReady (db: Database, findings: Finding[]): Database {
  const refuse = async (): Promise<never> => { throw new InstallationNotReadyError(findings) }
  guarded.set(db.introspect, db)
  return {
    get dialect () { return db.dialect },
    get stats () { return db.stats },
    get introspect () { return db.introspect },
    query: refuse,
    transaction: refuse,
    ping: refuse,
    close: async () => { await db.close() },
    ...(db.pool ? { pool: db.pool.bind(db) } : {})
  }
}

/** The database a not-ready installation guards; undefined when `db` answers (ready, or merely down). */
export async function guardedBy (db: Database): Promise<Database | undefined> {
  try {
    await db.ping()
    return undefined
  } catch (err) {
    return err instanceof InstallationNotReadyError ? guarded.get(db.introspect) : undefined
  }
}
