// The embedded default: better-sqlite3 on a local file, run in a worker thread (worker.ts)
// that owns the one connection (issue 13). better-sqlite3 is synchronous: on the event loop, a
// statement scanning a million rows held /health and every other request for its whole length.
// Here the main thread sends each statement and awaits its answer; everything that decides
// *when* a statement runs stays on this side: whose turn it is on the connection (turns.ts),
// transactions spanning awaits, lock retries against the request's deadline, the file's
// identity.
//
// A lock held by another process is never waited for inside SQLite (busy_timeout 0): a
// statement that meets it is tried again on short timers here until the request's deadline, so
// a queue of requests behind a lock is bounded by their arrival, not by each one's turn.
import { Worker } from 'node:worker_threads'
import BetterSqlite3 from 'better-sqlite3'
import { sqlite } from './dialect.js'
import { bindValues, type Statement } from '../statement.js'
import { DuplicateKeyError, DatabaseUnavailableError, InvalidInputError, MissingValueError } from '../../errors.js'
import { servedFrom, type Arrival, type Database, type Row } from '../../db/database.js'
import { canWrite, FileIdentity } from './file.js'
import { sqliteCatalog, sqliteReferences } from './introspect.js'
import { openConnection } from './connection.js'
import { STREAM_BLOCK_ROWS } from '../blocks.js'
import { Turns } from './turns.js'
import { isBusy, whileLocked } from './while-locked.js'
import type { Reply, Request, WorkerSettings } from './worker.js'
import { parseSqliteUrl } from './url.js'

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
const PING_SQL = 'SELECT count(*) FROM sqlite_master'
/**
 * close() resolves within this (ms): calls already queued may finish, then the thread is
 * terminated; a statement still running in SQLite cannot be interrupted, so the thread is then
 * left unreferenced to end with its statement, and every later call fails as closed.
 */
const CLOSE_WAIT_MS = 2000
/** Of CLOSE_WAIT_MS, what is kept for the thread's termination. */
const TERMINATE_WAIT_MS = 250
const LOST = 'The database connection was lost during the transaction; nothing of it was saved.'

// Built (dist/), the worker is worker.js beside this file. Under a TypeScript loader (npm start's
// tsx, tap's own) it is worker.ts, and on Node 20 a Worker does not get its parent's loader
// hooks for its entry file (--import in execArgv included: "Unknown file extension .ts"), so a
// two-line bootstrap registers tsx in the thread first, then imports the worker.
const TYPESCRIPT = import.meta.url.endsWith('.ts')
const WORKER_URL = new URL(TYPESCRIPT ? './worker.ts' : './worker.js', import.meta.url)
// tsx is found from here, not from the working directory an eval'd worker resolves against.
const newWorker = (settings: WorkerSettings): Worker => TYPESCRIPT
  ? new Worker(`import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => { tsx.register(); return import(${JSON.stringify(WORKER_URL.href)}) })`, { eval: true, workerData: settings })
  : new Worker(WORKER_URL, { workerData: settings })

type Pending = { resolve: (reply: Reply & { ok: true }) => void, reject: (err: unknown) => void }

/**
 * The worker thread and the calls waiting for its answers. It is started on first use (and
 * again after it died), referenced only while a call is outstanding so an idle connection never
 * keeps the process alive, and terminated by close().
 */
class SqliteThread {
  private worker: Worker | undefined
  private opened: Promise<void> | undefined
  /** The current worker has opened its connection: a call goes straight to it. */
  private open = false
  private readonly pending = new Map<number, Pending>()
  private nextId = 1
  private closed = false
  /** Which start() the current worker is: a transaction belongs to the one that ran its BEGIN. */
  private generation = 0
  /** Plain reads asked for in this turn of the event loop, sent together when it ends (read()). */
  private batch: Request[] = []
  private batchFor: Worker | undefined

  constructor (private readonly settings: WorkerSettings) {}

  /**
   * One request to the worker; rejects with the statement's SqliteError as SQLite raised it.
   * Not async: every statement passes here, and each promise is paid for on each of them.
   */
  call (req: DistributiveOmit<Request, 'id'>): Promise<Reply & { ok: true }> {
    if (this.closed) return Promise.reject(new DatabaseUnavailableError('The database connection is closed.'))
    if (req.op === 'open' || (this.open && this.worker !== undefined)) return this.send(req)
    return this.ready().then(() => this.send(req))
  }

  /**
   * A plain read (turns.ts shared), sent with the others asked for in the same turn of the event
   * loop as one message, answered in one: each statement alone woke both threads once each.
   */
  read (req: DistributiveOmit<Request, 'id'>): Promise<Reply & { ok: true }> {
    if (this.closed) return Promise.reject(new DatabaseUnavailableError('The database connection is closed.'))
    if (this.open && this.worker !== undefined) return this.send(req, true)
    return this.ready().then(() => this.send(req, true))
  }

  /**
   * BEGIN on the current worker (started if need be); returns its generation, to which every
   * later statement of the transaction is bound (callIn).
   */
  async begin (sql: string): Promise<number> {
    if (this.closed) throw new DatabaseUnavailableError('The database connection is closed.')
    await this.ready()
    const generation = this.generation
    await this.send({ op: 'exec', sql })
    return generation
  }

  /**
   * A call on the worker of `generation` only. If that worker has died, its connection took the
   * open transaction with it (rolled back); the call fails without starting another, where it
   * would run outside the transaction and autocommit.
   */
  async callIn (generation: number, req: DistributiveOmit<Request, 'id'>): Promise<Reply & { ok: true }> {
    if (this.closed) throw new DatabaseUnavailableError('The database connection is closed.')
    if (this.worker === undefined || this.generation !== generation) throw new DatabaseUnavailableError(LOST)
    return await this.send(req)
  }

  /** The worker now serving (a new one after a crash): a stream's later blocks are bound to it, as a transaction's statements. */
  get current (): number { return this.generation }

  /** Ends the thread as a test would see a crash (test/unit/sql/sqlite/worker.test.ts). */
  async terminateForTest (): Promise<void> {
    await this.worker?.terminate()
  }

  /** (Re)opens the connection on the file now at the path; the old one stays if this fails. */
  async reopen (): Promise<void> {
    await this.ready()
    await this.send({ op: 'open' })
  }

  /** Resolves by `end` (performance.now()), whatever the worker is doing. */
  async close (end: number): Promise<void> {
    if (this.closed) return
    this.closed = true
    const worker = this.worker
    if (!worker) return
    // Closed by SQLite if the worker is free soon; terminated in any case.
    await Promise.race([this.send({ op: 'close' }).catch(() => {}), sleep(end - TERMINATE_WAIT_MS - performance.now())])
    this.worker = undefined
    this.opened = undefined
    this.open = false
    // Whoever still waits (a statement running) hears now, not when the statement ends.
    const failure = new DatabaseUnavailableError('The database connection is closed.')
    for (const p of this.pending.values()) p.reject(failure)
    this.pending.clear()
    // terminate() cannot interrupt a native sqlite3_step: the thread ends when the statement
    // does. Not waited for past `end`, and unreferenced so it keeps no process alive.
    worker.unref()
    await Promise.race([worker.terminate().catch(() => {}), sleep(end - performance.now())])
  }

  private async ready (): Promise<void> {
    if (!this.worker) this.start()
    await this.opened
  }

  private start (): void {
    const worker = newWorker(this.settings)
    this.generation++
    this.open = false
    worker.unref()
    this.worker = worker
    worker.on('message', (reply: Reply | Reply[]) => {
      if (Array.isArray(reply)) for (const r of reply) this.answered(r)
      else this.answered(reply)
      if (this.pending.size === 0) worker.unref()
    })
    const died = (err: unknown): void => {
      if (this.worker !== worker) return
      this.worker = undefined
      this.opened = undefined
      this.open = false
      const failure = new DatabaseUnavailableError(undefined, err)
      for (const p of this.pending.values()) p.reject(failure)
      this.pending.clear()
    }
    worker.on('error', died)
    worker.on('exit', (code) => { died(new Error(`the SQLite worker exited (code ${code})`)) })
    this.opened = this.send({ op: 'open' }).then(() => { if (this.worker === worker) this.open = true }, (err: unknown) => {
      // Not opened: the next call starts afresh (the file may be back by then).
      if (this.worker === worker) { this.worker = undefined; this.opened = undefined }
      void worker.terminate()
      throw new DatabaseUnavailableError('The database file cannot be opened.', err)
    })
    // A failed open is reported to whoever asks next, not as an unhandled rejection.
    this.opened.catch(() => {})
  }

  private send (req: DistributiveOmit<Request, 'id'>, batched = false): Promise<Reply & { ok: true }> {
    const worker = this.worker
    if (!worker) return Promise.reject(new DatabaseUnavailableError('The database connection is closed.'))
    const id = this.nextId++
    return new Promise((resolve, reject) => {
      if (this.pending.size === 0) worker.ref()
      this.pending.set(id, { resolve, reject })
      const message = { ...req, id } as Request
      if (!batched) {
        // What was asked for before it is sent first: the worker runs everything in order.
        this.flush()
        worker.postMessage(message)
        return
      }
      // Reads queued for a worker that has died since were failed with it: dropped here.
      if (this.batchFor !== worker) this.flush()
      if (this.batch.length === 0) {
        this.batchFor = worker
        setImmediate(this.flush)
      }
      this.batch.push(message)
    })
  }

  private readonly flush = (): void => {
    if (this.batch.length === 0) return
    const batch = this.batch
    this.batch = []
    // A worker that died meanwhile has failed these calls already (died, close).
    if (this.batchFor === this.worker) this.worker?.postMessage(batch.length === 1 ? batch[0] : batch)
    this.batchFor = undefined
  }

  private answered (reply: Reply): void {
    const p = this.pending.get(reply.id)
    if (!p) return
    this.pending.delete(reply.id)
    if (reply.ok) p.resolve(reply)
    else p.reject(sqliteError(reply.error))
  }
}

const sleep = async (ms: number): Promise<void> => { await new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)).unref()) }

type DistributiveOmit<T, K extends keyof any> = T extends unknown ? Omit<T, K> : never

/** The worker's error as better-sqlite3 raised it, so translate() reads its code as before. */
function sqliteError (e: { name: string, message: string, code?: string, stack?: string }): Error {
  const err = e.code !== undefined ? new BetterSqlite3.SqliteError(e.message, e.code) : new Error(e.message)
  if (e.code === undefined) err.name = e.name
  if (e.stack !== undefined) err.stack = e.stack
  return err
}

/**
 * Rows as better-sqlite3 gives them: one object per row, keyed by column name, built from the
 * arrays the worker sends (worker.ts). A name given twice keeps its first place and its last
 * value; a column named `__proto__` is kept as a property (better-sqlite3 loses it).
 */
function toRows (columns: string[], arrays: unknown[][], blobs = false): Row[] {
  const plain = !columns.includes('__proto__')
  const out = new Array<Row>(arrays.length)
  for (let r = 0; r < arrays.length; r++) {
    const a = arrays[r]
    const row: Row = {}
    for (let i = 0; i < columns.length; i++) {
      let v = a[i]
      // A BLOB crosses the thread as a plain Uint8Array.
      if (blobs && v instanceof Uint8Array && !Buffer.isBuffer(v)) v = Buffer.from(v.buffer, v.byteOffset, v.byteLength)
      if (plain || columns[i] !== '__proto__') row[columns[i]] = v
      else Object.defineProperty(row, '__proto__', { value: v, enumerable: true, writable: true, configurable: true })
    }
    out[r] = row
  }
  return out
}

/** The rows of a reply, as arrays. */
const arraysOf = (reply: Reply & { ok: true }): unknown[][] => reply.json !== undefined ? JSON.parse(reply.json) as unknown[][] : reply.rows ?? []

/** A read's rows as objects; a write's none. */
const rowsOf = (reply: Reply & { ok: true }): Row[] => reply.columns ? toRows(reply.columns, arraysOf(reply), reply.blobs) : []

/** Tests only: ends the database's worker thread as a crash would. */
export const TERMINATE_WORKER = Symbol('terminate the SQLite worker (tests)')

/** The file a `sqlite:` DATABASE_URL names, as every folder's driver opens its URL. */
export function openSqliteUrl (url: string): Database {
  const { file, options } = parseSqliteUrl(url)
  return openSqlite(file, options)
}

export function openSqlite (file: string, options: SqliteOptions = {}): Database & { readonly raw: BetterSqlite3.Database, [TERMINATE_WORKER]: () => Promise<void> } {
  const bound = Math.max(0, Math.trunc(options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS))
  const readonly = options.readonly ?? false
  // Opened here once, synchronously, so a path that is not a database fails at once, as before
  // the worker; the worker then opens its own connection.
  try {
    new BetterSqlite3(file, { fileMustExist: true, readonly }).close()
  } catch (err) {
    throw new DatabaseUnavailableError(`cannot open the SQLite database ${file}: ${(err as Error).message}`, err)
  }
  const thread = new SqliteThread({ file, readonly })
  const identity = new FileIdentity(file)
  const stats = { statements: 0 }
  // Tests and tools that read the file beside Ponte (not on the Database interface): a second
  // connection on this thread, opened when first asked for, with ponte_fold as the worker's has.
  // Being another connection, it waits (synchronously, on this thread) for a lock the worker
  // holds: never used by a request.
  let raw: BetterSqlite3.Database | undefined

  // Called at the start of each turn, so no transaction spans a reopen.
  const ensureFile = async (): Promise<void> => {
    const state = await identity.current()
    if (state === 'gone') throw new DatabaseUnavailableError(GONE)
    if (state === 'replaced') {
      // A file is back at the path (restored, or moved back as a copy): serve that one.
      try {
        await thread.reopen()
      } catch (err) {
        throw new DatabaseUnavailableError('The database file was replaced by one that cannot be opened.', err)
      }
      raw?.close()
      raw = undefined
      identity.remember()
    }
  }

  // One connection serves every request (turns.ts): plain reads share it, a transaction or a
  // stream has it alone. The deadline counts from the request's arrival (db/database.ts Arrival;
  // from the call outside a request): N requests queued behind a lock, or one request of
  // several statements, all answer within the bound.
  const turns = new Turns()
  const deadline = (at: Arrival): number => (at ?? performance.now()) + bound
  const exclusive = <T>(fn: (deadline: number) => Promise<T>, at?: Arrival): Promise<T> => {
    const by = deadline(at)
    return turns.exclusive(async () => await fn(by))
  }

  const database: Database & { readonly raw: BetterSqlite3.Database, [TERMINATE_WORKER]: () => Promise<void> } = {
    dialect: sqlite,
    [TERMINATE_WORKER]: async () => { await thread.terminateForTest() },
    get raw () {
      raw ??= openConnection(file, { readonly, busyTimeoutMs: DEFAULT_BUSY_TIMEOUT_MS })
      return raw
    },
    introspect: {
      catalog: async (at) => await sqliteCatalog(servedFrom(database, at)),
      references: async () => await sqliteReferences(database)
    },
    stats,
    pool: () => ({ inUse: Math.min(turns.busy, 1), waiting: Math.max(turns.busy - 1, 0) }),
    query (statement, args = {}, at) {
      let bound: Record<string, unknown>
      try {
        bound = namedValues(statement, args)
      } catch (err) {
        return Promise.reject(translate(err))
      }
      const sql = statement.sql
      const read = (by: number): Promise<Row[]> => {
        stats.statements++
        return whileLocked(() => thread.read({ op: 'run', sql, values: bound }).then(rowsOf), by).catch((err: unknown) => { throw translate(err) })
      }
      const by = deadline(at)
      if (identity.unchanged()) return turns.shared(() => read(by))
      // Checked at most once a second, one stat shared by every caller meanwhile; only a file
      // replaced or gone (rare) is dealt with, and reopened, with the connection alone.
      return identity.current().then((state) => state === 'same'
        ? turns.shared(() => read(by))
        : exclusive(async (d) => { await ensureFile(); return await read(d) }, at))
    },
    stream (statement, args = {}, at) {
      return streamRows(statement, args, at)
    },
    async transaction (fn, at) {
      return await exclusive(async (deadline) => {
        await ensureFile()
        let generation: number
        try {
          generation = await whileLocked(async () => await thread.begin('BEGIN IMMEDIATE'), deadline)
        } catch (err) {
          throw translate(err)
        }
        try {
          // Inside the transaction a statement that meets a lock is not retried: SQLite asks
          // for a rollback then (only COMMIT may be tried again).
          const result = await fn({
            query: async (statement, args = {}) => {
              stats.statements++
              try {
                const reply = await thread.callIn(generation, { op: 'run', sql: statement.sql, values: namedValues(statement, args) })
                return rowsOf(reply)
              } catch (err) { throw translate(err) }
            }
          })
          await whileLocked(async () => await thread.callIn(generation, { op: 'exec', sql: 'COMMIT' }), deadline)
          return result
        } catch (err) {
          try {
            // Only on the connection that holds the transaction (a dead one rolled it back).
            await thread.callIn(generation, { op: 'rollback' })
          } catch { /* the original failure is the one to report */ }
          throw translate(err)
        }
      }, at)
    },
    async ping () {
      await exclusive(async (deadline) => {
        await ensureFile()
        // Reads the file's header and schema: a lock, a truncated or foreign file shows here.
        try {
          // A readiness probe wants an answer within its own short timeout, not the requests' bound.
          await whileLocked(async () => await thread.call({ op: 'run', sql: PING_SQL, values: {} }), Math.min(deadline, performance.now() + READY_PROBE_MS))
        } catch (err) {
          throw translate(err)
        }
      })
      if (!readonly && !await canWrite(file)) {
        throw new DatabaseUnavailableError('The database file or its folder cannot be written.')
      }
    },
    async close () {
      // After the calls already queued, so none is cut off, but not waiting on them forever
      // (a stream nobody finishes, a statement still running): then no thread is left behind.
      const end = performance.now() + CLOSE_WAIT_MS
      await Promise.race([exclusive(async () => {}), sleep(end - TERMINATE_WAIT_MS - performance.now())])
      await thread.close(end)
      raw?.close()
      raw = undefined
    }
  }

  /**
   * A long read delivered in blocks of rows as the worker steps through it, so a caller never
   * holds all of them. The connection is this read's until the last block is taken or the
   * loop is left (break, throw): everything else waits its turn meanwhile.
   */
  async function * streamRows (statement: Statement, args: Record<string, unknown>, at: Arrival): AsyncGenerator<Row[]> {
    let release!: () => void
    const held = new Promise<void>((resolve) => { release = resolve })
    let started!: (deadline: number) => void
    const given = new Promise<number>((resolve) => { started = resolve })
    const turnDone = exclusive(async (deadline) => { started(deadline); await held }, at)
    let done = false
    try {
      const deadline = await given
      await ensureFile()
      stats.statements++
      let reply: Reply & { ok: true }
      try {
        reply = await whileLocked(async () => await thread.call({ op: 'stream', sql: statement.sql, values: namedValues(statement, args), block: STREAM_BLOCK_ROWS }), deadline)
      } catch (err) {
        throw translate(err)
      }
      const columns = reply.columns ?? []
      // The cursor lives in this worker: were it to die between blocks, a fresh one would say
      // "done" and the list would end early yet parse. Its next block fails instead (503).
      const generation = thread.current
      for (;;) {
        done = reply.done === true
        const arrays = arraysOf(reply)
        if (arrays.length > 0) yield toRows(columns, arrays, reply.blobs)
        if (done) break
        try {
          reply = await thread.callIn(generation, { op: 'more' })
        } catch (err) {
          done = true
          throw translate(err)
        }
      }
    } finally {
      // Left early: the worker's cursor would be closed by its next statement; close it now.
      if (!done) await thread.call({ op: 'end' }).catch(() => {})
      release()
      await turnDone
    }
  }

  return database
}

/** The named values better-sqlite3 binds for a call of a statement (`p1`, `p2` …). */
export function namedValues (statement: Statement, args: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  const bound = bindValues(statement, args)
  for (let i = 0; i < bound.length; i++) out[parameterName(i)] = toSqlite(bound[i])
  return out
}

// `p1`, `p2` …, spelt once: a client search binds about a hundred on every call.
const PARAMETER_NAMES: string[] = []
const parameterName = (i: number): string => PARAMETER_NAMES[i] ?? (PARAMETER_NAMES[i] = `p${i + 1}`)

const sqliteCode = (err: unknown): string => (err as { code?: unknown }).code as string ?? ''

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
  if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') return duplicateKey(err)
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

// "UNIQUE constraint failed: person.email" (or "t.a, t.b"), or "…: index 'ix_name'" for an
// index on an expression: the key's table and columns, or its name. The value is never in it.
function duplicateKey (err: unknown): DuplicateKeyError {
  const said = /constraint failed: (.+)$/.exec((err as Error).message)?.[1] ?? ''
  const index = /^index '(.+)'$/.exec(said)?.[1]
  if (index !== undefined) return new DuplicateKeyError({ name: index })
  const columns = said.split(', ').map((c) => /^(.+)\.([^.]+)$/.exec(c)).filter((m) => m !== null)
  return new DuplicateKeyError(columns.length === 0 ? {} : { table: columns[0][1], columns: columns.map((m) => m[2]) })
}

const pad = (n: number): string => String(n).padStart(2, '0')
