// The embedded default: better-sqlite3 on a local file. Synchronous underneath, which is
// fine for a single clinic's volume and keeps transactions trivially serial.
import BetterSqlite3 from 'better-sqlite3'
import { sqlite } from '../sql/sqlite.js'
import { bindValues, type Statement } from '../sql/statement.js'
import { foldName } from '../normalise/text.js'
import { ConflictError, DatabaseUnavailableError, InvalidInputError, MissingValueError } from '../errors.js'
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
  const run = (statement: Statement, args: Record<string, unknown>): Row[] => {
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
      const code = (err as { code?: string }).code ?? ''
      if (code === 'SQLITE_BUSY') throw new DatabaseUnavailableError('The database is locked by another writer.', err)
      if (code.startsWith('SQLITE_IOERR') || code.startsWith('SQLITE_CANTOPEN') || code === 'SQLITE_FULL') throw new DatabaseUnavailableError(undefined, err)
      if (code === 'SQLITE_CONSTRAINT_NOTNULL') throw missingValue(err)
      if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') throw new ConflictError('The clinic database already holds a row with that key.')
      if (code === 'SQLITE_CONSTRAINT_FOREIGNKEY') throw new InvalidInputError('A related record the clinic database requires does not exist.')
      throw err
    }
  }
  // One connection serves every request, and a transaction spans awaits: everything else
  // waits its turn, so no request reads another's uncommitted rows.
  let turn: Promise<unknown> = Promise.resolve()
  const exclusive = <T>(fn: () => Promise<T> | T): Promise<T> => {
    const next = turn.then(fn, fn)
    turn = next.catch(() => undefined)
    return next
  }
  return {
    dialect: sqlite,
    raw: db,
    stats,
    async query (statement, args = {}) {
      return await exclusive(() => run(statement, args))
    },
    async transaction (fn) {
      return await exclusive(async () => {
        try {
          db.exec('BEGIN IMMEDIATE')
        } catch (err) {
          throw new DatabaseUnavailableError('The database is locked by another writer.', err)
        }
        try {
          const result = await fn({ query: async (statement, args = {}) => run(statement, args) })
          db.exec('COMMIT')
          return result
        } catch (err) {
          if (db.inTransaction) db.exec('ROLLBACK')
          throw err
        }
      })
    },
    async ping () { db.prepare('SELECT 1').get() },
    async close () { db.close() }
  }
}

function toSqlite (v: unknown): unknown {
  if (v === undefined) return null
  if (typeof v === 'boolean') return v ? 1 : 0
  // Wall-clock text, as SQLite databases of legacy systems hold it (never shifted through UTC).
  if (v instanceof Date) return `${v.getFullYear()}-${pad(v.getMonth() + 1)}-${pad(v.getDate())} ${pad(v.getHours())}:${pad(v.getMinutes())}:${pad(v.getSeconds())}`
  return v
}

// "NOT NULL constraint failed: appointments.clinic_id": the column, for the log and for the
// service that knows which request field writes it.
function missingValue (err: unknown): MissingValueError {
  const column = /failed: (?:\S+\.)?(\S+)/.exec((err as Error).message)?.[1]
  return new MissingValueError(column, err)
}

const pad = (n: number): string => String(n).padStart(2, '0')
