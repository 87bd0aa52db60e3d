// The embedded default: better-sqlite3 on a local file. Synchronous underneath, which is
// fine for a single clinic's volume and keeps transactions trivially serial.
import BetterSqlite3 from 'better-sqlite3'
import { sqlite } from '../sql/sqlite.js'
import { bindValues, type Statement } from '../sql/statement.js'
import { foldName } from '../normalise/text.js'
import { DatabaseUnavailableError } from '../errors.js'
import type { Database, Row } from './database.js'

export interface SqliteOptions {
  readonly?: boolean
  /** How long to wait for another writer's lock before giving up (ms). */
  busyTimeoutMs?: number
}

export function openSqlite (file: string, options: SqliteOptions = {}): Database & { raw: BetterSqlite3.Database } {
  let db: BetterSqlite3.Database
  try {
    db = new BetterSqlite3(file, { fileMustExist: true, readonly: options.readonly ?? false })
  } catch (err) {
    throw new DatabaseUnavailableError(`cannot open the SQLite database ${file}: ${(err as Error).message}`, err)
  }
  db.pragma(`busy_timeout = ${Math.trunc(options.busyTimeoutMs ?? 5000)}`)
  // Name search folds case and accents on both sides (see sql/sqlite.ts foldedLike).
  db.function('ponte_fold', { deterministic: true }, (x: unknown) => x === null || x === undefined ? null : foldName(String(x)))
  const prepared = new WeakMap<Statement, BetterSqlite3.Statement>()
  const stats = { statements: 0 }
  return {
    dialect: sqlite,
    raw: db,
    stats,
    async query (statement, args = {}) {
      let stmt = prepared.get(statement)
      if (!stmt) {
        stmt = db.prepare(statement.sql)
        prepared.set(statement, stmt)
      }
      stats.statements++
      const values = Object.fromEntries(bindValues(statement, args).map((v, i) => [`p${i + 1}`, toSqlite(v)]))
      try {
        return stmt.reader ? stmt.all(values) as Row[] : (stmt.run(values), [])
      } catch (err) {
        if ((err as { code?: string }).code === 'SQLITE_BUSY') throw new DatabaseUnavailableError('The database is locked by another writer.', err)
        throw err
      }
    },
    async ping () { db.prepare('SELECT 1').get() },
    async close () { db.close() }
  }
}

function toSqlite (v: unknown): unknown {
  if (v === undefined) return null
  if (typeof v === 'boolean') return v ? 1 : 0
  if (v instanceof Date) return v.toISOString()
  return v
}
