// The thread that owns the SQLite connection (issue 13). better-sqlite3 is synchronous: a
// statement scanning a million rows holds whatever thread runs it, so it runs here, never on
// the event loop that answers /health. This side only executes; ordering, transactions that
// span awaits, lock retries, deadlines and the file's identity stay on the main thread
// (driver.ts), which sends each statement (plain reads in batches) and waits for its answer.
//
// Rows cross back as arrays under their column names, sent once per answer: as their JSON
// text when JSON gives back exactly these values, else cloned (carried, below). Plain reads
// asked for together come as one batch and go back as one message (driver.ts).
import { parentPort, workerData } from 'node:worker_threads'
import type BetterSqlite3 from 'better-sqlite3'
import { openConnection } from './connection.js'

/** What the main thread asks. `values` are already bound and converted (driver.ts toSqlite). */
export type Request =
  | { id: number, op: 'open' }
  | { id: number, op: 'run', sql: string, values: Record<string, unknown> }
  | { id: number, op: 'stream', sql: string, values: Record<string, unknown>, block: number }
  | { id: number, op: 'more' }
  | { id: number, op: 'end' }
  | { id: number, op: 'exec', sql: string }
  | { id: number, op: 'rollback' }
  | { id: number, op: 'close' }

/**
 * The answer: rows as arrays under their column names (`json`, their JSON text, or `rows`, the
 * arrays themselves, cloned), a write's nothing, or the error's parts.
 */
export type Reply =
  | { id: number, ok: true, columns?: string[], json?: string, rows?: unknown[][], done?: boolean, blobs?: boolean }
  | { id: number, ok: false, error: { name: string, message: string, code?: string, stack?: string } }

export interface WorkerSettings { file: string, readonly: boolean }

/** Statements prepared on the open connection, by SQL text (a reopen starts afresh). */
const PREPARED_MAX = 1000

/** A read has `columns`; its statement gives rows as arrays. */
interface Prepared { stmt: BetterSqlite3.Statement, columns?: string[] }

let db: BetterSqlite3.Database | undefined
let prepared = new Map<string, Prepared>()
/** The one read being delivered in blocks (Database.stream), if any. */
let cursor: { it: IterableIterator<unknown[]>, block: number } | undefined

function open ({ file, readonly }: WorkerSettings): void {
  // busy_timeout 0: a lock is never waited for in SQLite; the driver retries on timers until
  // the request's deadline (while-locked.ts).
  const fresh = openConnection(file, { readonly, busyTimeoutMs: 0 })
  // Opened first, so a replacement that cannot be opened leaves the old connection as it was.
  closeCursor()
  db?.close()
  db = fresh
  prepared = new Map()
}

function prepare (sql: string): Prepared {
  if (!db) throw Object.assign(new Error('The database connection is closed.'), { code: 'SQLITE_MISUSE' })
  let p = prepared.get(sql)
  if (p) return p
  const stmt = db.prepare(sql)
  if (stmt.reader) {
    p = { stmt: stmt.raw(true), columns: stmt.columns().map((c) => c.name) }
  } else {
    p = { stmt }
  }
  if (prepared.size >= PREPARED_MAX) prepared.delete(prepared.keys().next().value as string)
  prepared.set(sql, p)
  return p
}

function closeCursor (): void {
  if (cursor) {
    try { cursor.it.return?.() } catch { /* closing only */ }
    cursor = undefined
  }
}

function nextBlock (id: number): Reply & { ok: true } {
  const c = cursor as NonNullable<typeof cursor>
  const rows: unknown[][] = []
  let done = false
  for (let i = 0; i < c.block; i++) {
    const r = c.it.next()
    if (r.done === true) {
      cursor = undefined
      done = true
      break
    }
    rows.push(r.value)
  }
  return { id, ok: true, ...carried(rows), done }
}

/**
 * Rows as the reply carries them: their JSON text when it gives back exactly these values
 * (text, NULL, finite numbers but -0), as it mostly does and costs both threads less than a
 * clone; else the arrays, cloned. A BLOB arrives on the other side as a plain Uint8Array, and
 * the main thread turns it back into the Buffer better-sqlite3 gives, only when told to look
 * (`blobs`).
 */
function carried (rows: unknown[][]): { json: string } | { rows: unknown[][], blobs: boolean } {
  let exact = true
  for (const row of rows) {
    for (const v of row) {
      if (typeof v === 'string' || v === null || (typeof v === 'number' && Number.isFinite(v) && !Object.is(v, -0))) continue
      if (typeof v === 'object') return { rows, blobs: true }
      exact = false
    }
  }
  return exact ? { json: JSON.stringify(rows) } : { rows, blobs: false }
}

function handle (req: Request): Reply {
  switch (req.op) {
    case 'open':
      open(workerData as WorkerSettings)
      return { id: req.id, ok: true }
    case 'run': {
      // A read being streamed would hold the connection busy; the driver never interleaves.
      closeCursor()
      const { stmt, columns } = prepare(req.sql)
      if (!columns) {
        stmt.run(req.values)
        return { id: req.id, ok: true }
      }
      return { id: req.id, ok: true, columns, ...carried(stmt.all(req.values) as unknown[][]) }
    }
    case 'stream': {
      closeCursor()
      const { stmt, columns } = prepare(req.sql)
      if (!columns) {
        stmt.run(req.values)
        return { id: req.id, ok: true, rows: [], done: true }
      }
      cursor = { it: stmt.iterate(req.values) as IterableIterator<unknown[]>, block: Math.max(1, req.block) }
      return { ...nextBlock(req.id), columns }
    }
    case 'more':
      // The driver gives a stream the connection's whole turn: the cursor open is this one's.
      if (!cursor) return { id: req.id, ok: true, rows: [], done: true }
      return nextBlock(req.id)
    case 'end':
      closeCursor()
      return { id: req.id, ok: true }
    case 'exec':
      closeCursor()
      if (!db) throw Object.assign(new Error('The database connection is closed.'), { code: 'SQLITE_MISUSE' })
      db.exec(req.sql)
      return { id: req.id, ok: true }
    case 'rollback':
      closeCursor()
      if (db?.inTransaction === true) db.exec('ROLLBACK')
      return { id: req.id, ok: true }
    case 'close':
      closeCursor()
      db?.close()
      db = undefined
      prepared = new Map()
      return { id: req.id, ok: true }
  }
}

/** One request's answer; a failure is answered, never thrown, so one bad statement spares its batch. */
function answer (req: Request): Reply {
  try {
    return handle(req)
  } catch (err) {
    if (req.op === 'more' || req.op === 'stream') closeCursor()
    const e = err as Error & { code?: unknown }
    return { id: req.id, ok: false, error: { name: e.name ?? 'Error', message: e.message ?? String(err), code: typeof e.code === 'string' ? e.code : undefined, stack: e.stack } }
  }
}

const port = parentPort
if (port) {
  // A batch (plain reads asked for together) is run in order and answered in one message:
  // one wake-up of each thread for all of them.
  port.on('message', (req: Request | Request[]) => {
    port.postMessage(Array.isArray(req) ? req.map(answer) : answer(req))
  })
}
