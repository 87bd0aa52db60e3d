// The embedded default: better-sqlite3 on a local file. Synchronous underneath, which is
// fine for a single clinic's volume and keeps transactions trivially serial.
//
// Synchronous also means a lock held by another process must never be waited for inside the
// driver (busy_timeout would block the event loop, /health included): busy_timeout is 0, and a
// statement that meets the lock is tried again on short timers until the request's deadline.
import BetterSqlite3 from 'better-sqlite3'
import { sqlite } from './dialect.js'
import { bindValues, type Statement } from '../statement.js'
import { foldName } from '../../normalise/text.js'
import { ConflictError, DatabaseUnavailableError, InvalidInputError, MissingValueError } from '../../errors.js'
import type { Database, Row } from '../../db/database.js'
import { canWrite, FileIdentity } from './file.js'
import { arrivedAt } from '../../db/request-clock.js'
import { sqliteCatalog, sqliteTextColumns } from './introspect.js'

export interface SqliteOptions {
  readonly?: boolean
  /**
   * How long a request waits for another process's lock before a 503 (ms), counted from when
   * it asked for the database, not from when its turn on the one connection came.
   */
  busyTimeoutMs?: number
}

export const DEFAULT_BUSY_TIMEOUT_MS = 5000

const LOCKED = 'The clinic database is locked by another process.'
/** How long /ready waits for a lock before saying so (orchestrators' probes time out at about 1 s). */
const READY_PROBE_MS = 800
const GONE = 'The database file was removed or moved.'

/** One open connection and the statements prepared on it (a reopen starts both afresh). */
interface Connection {
  db: BetterSqlite3.Database
  prepared: WeakMap<Statement, BetterSqlite3.Statement>
}

export function openSqlite (file: string, options: SqliteOptions = {}): Database & { readonly raw: BetterSqlite3.Database } {
  const bound = Math.max(0, Math.trunc(options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS))
  let conn = openConnection(file, options)
  const identity = new FileIdentity(file)
  const stats = { statements: 0 }

  // Called at the start of each turn, so no transaction spans a reopen.
  const ensureFile = async (): Promise<Connection> => {
    const state = await identity.current()
    if (state === 'gone') throw new DatabaseUnavailableError(GONE)
    if (state === 'replaced') {
      // A file is back at the path (restored, or moved back as a copy): serve that one.
      let fresh: Connection
      try {
        fresh = openConnection(file, options)
      } catch (err) {
        throw new DatabaseUnavailableError('The database file was replaced by one that cannot be opened.', err)
      }
      conn.db.close()
      conn = fresh
      identity.remember()
    }
    return conn
  }

  const run = (c: Connection, statement: Statement, args: Record<string, unknown>): Row[] => {
    let stmt = c.prepared.get(statement)
    if (!stmt) {
      stmt = c.db.prepare(statement.sql)
      c.prepared.set(statement, stmt)
    }
    const values = Object.fromEntries(bindValues(statement, args).map((v, i) => [`p${i + 1}`, toSqlite(v)]))
    return stmt.reader ? stmt.all(values) as Row[] : (stmt.run(values), [])
  }

  // One connection serves every request, and a transaction spans awaits: everything else
  // waits its turn, so no request reads another's uncommitted rows. The deadline counts from
  // the request's arrival (db/request-clock.ts; from the call outside a request): N requests
  // queued behind a lock, or one request of several statements, all answer within the bound.
  let turn: Promise<unknown> = Promise.resolve()
  // Calls given the connection or waiting for it: the pool gauge of a one-connection database.
  let calls = 0
  const exclusive = <T>(fn: (deadline: number) => Promise<T>): Promise<T> => {
    const deadline = arrivedAt(performance.now()) + bound
    const go = async (): Promise<T> => await fn(deadline)
    const next = turn.then(go, go)
    calls++
    turn = next.then(() => { calls-- }, () => { calls-- })
    return next
  }

  const database: Database & { readonly raw: BetterSqlite3.Database } = {
    dialect: sqlite,
    get raw () { return conn.db },
    introspect: {
      catalog: async () => await sqliteCatalog(database),
      textColumns: async (table) => await sqliteTextColumns(database, table)
    },
    stats,
    pool: () => ({ inUse: Math.min(calls, 1), waiting: Math.max(calls - 1, 0) }),
    async query (statement, args = {}) {
      return await exclusive(async (deadline) => {
        const c = await ensureFile()
        stats.statements++
        try {
          return await whileLocked(() => run(c, statement, args), deadline)
        } catch (err) {
          throw translate(err)
        }
      })
    },
    async transaction (fn) {
      return await exclusive(async (deadline) => {
        const c = await ensureFile()
        try {
          await whileLocked(() => c.db.exec('BEGIN IMMEDIATE'), deadline)
        } catch (err) {
          throw translate(err)
        }
        try {
          // Inside the transaction a statement that meets a lock is not retried: SQLite asks
          // for a rollback then (only COMMIT may be tried again).
          const result = await fn({
            query: async (statement, args = {}) => {
              stats.statements++
              try { return run(c, statement, args) } catch (err) { throw translate(err) }
            }
          })
          await whileLocked(() => c.db.exec('COMMIT'), deadline)
          return result
        } catch (err) {
          try {
            if (c.db.inTransaction) c.db.exec('ROLLBACK')
          } catch { /* the original failure is the one to report */ }
          throw translate(err)
        }
      })
    },
    async ping () {
      await exclusive(async (deadline) => {
        const c = await ensureFile()
        // Reads the file's header and schema: a lock, a truncated or foreign file shows here.
        try {
          // A readiness probe wants an answer within its own short timeout, not the requests' bound.
          await whileLocked(() => c.db.prepare('SELECT count(*) FROM sqlite_master').get(), Math.min(deadline, performance.now() + READY_PROBE_MS))
        } catch (err) {
          throw translate(err)
        }
      })
      if (options.readonly !== true && !await canWrite(file)) {
        throw new DatabaseUnavailableError('The database file or its folder cannot be written.')
      }
    },
    async close () { conn.db.close() }
  }
  return database
}

function openConnection (file: string, options: SqliteOptions): Connection {
  let db: BetterSqlite3.Database
  try {
    db = new BetterSqlite3(file, { fileMustExist: true, readonly: options.readonly ?? false })
  } catch (err) {
    throw new DatabaseUnavailableError(`cannot open the SQLite database ${file}: ${(err as Error).message}`, err)
  }
  db.pragma('busy_timeout = 0')
  // Name search folds case and accents on both sides (see sqlite/dialect.ts foldedLike).
  db.function('ponte_fold', { deterministic: true }, (x: unknown) => x === null || x === undefined ? null : foldName(String(x)))
  return { db, prepared: new WeakMap() }
}

const sqliteCode = (err: unknown): string => (err as { code?: unknown }).code as string ?? ''
const isBusy = (err: unknown): boolean => sqliteCode(err).startsWith('SQLITE_BUSY')

/**
 * Runs `attempt` until it does not meet another process's lock, waiting on timers (1, 2, 4 …
 * 50 ms) so the event loop stays free, and gives up with a 503 at `deadline`. Always tries once.
 */
async function whileLocked<T> (attempt: () => T, deadline: number): Promise<T> {
  // Every wait lasts at least 1 ms, so this many tries always outlast the deadline.
  const tries = Math.max(1, Math.ceil(deadline - performance.now()) + 1)
  let wait = 1
  for (let i = 0; i < tries; i++) {
    try {
      return attempt()
    } catch (err) {
      if (!isBusy(err)) throw err
      const left = deadline - performance.now()
      if (left <= 0) break
      await new Promise((resolve) => setTimeout(resolve, Math.min(wait, left)))
      wait = Math.min(wait * 2, 50)
    }
  }
  throw new DatabaseUnavailableError(LOCKED)
}

// The file, its folder or the disk failing (removed, read-only, full, not a database, torn
// by a crash) or a lock: the database is unavailable, not Ponte broken. Messages stay ours:
// SQLite's name paths.
const UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|READONLY|CANTOPEN|IOERR|FULL|NOTADB|CORRUPT|PROTOCOL|PERM)/

function translate (err: unknown): unknown {
  const code = sqliteCode(err)
  if (err instanceof DatabaseUnavailableError || code === '') return err
  if (isBusy(err)) return new DatabaseUnavailableError(LOCKED, err)
  if (code.startsWith('SQLITE_READONLY')) return new DatabaseUnavailableError('The clinic database cannot be written right now.', err)
  if (UNAVAILABLE.test(code)) return new DatabaseUnavailableError(undefined, err)
  if (code === 'SQLITE_CONSTRAINT_NOTNULL') return missingValue(err)
  if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') return new ConflictError('The clinic database already holds a row with that key.')
  if (code === 'SQLITE_CONSTRAINT_FOREIGNKEY') return new InvalidInputError('A related record the clinic database requires does not exist.')
  // A value of the wrong type for an INTEGER PRIMARY KEY: SQL Server's conversion errors answer the same.
  if (code === 'SQLITE_MISMATCH') return new InvalidInputError('A value does not fit the type of its clinic database column.')
  return err
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
