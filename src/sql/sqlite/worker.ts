// The thread that owns the SQLite connection (issue 13). better-sqlite3 is synchronous: a
// statement scanning a million rows holds whatever thread runs it, so it runs here, never on
// the event loop that answers /health. This side only executes; ordering, transactions that
// span awaits, lock retries, deadlines and the file's identity stay on the main thread
// (driver.ts), which sends one message per statement and waits for its answer.
//
// Rows cross back as one JSON text of arrays, with the column names once per answer. SQLite
// writes each row's JSON itself (json_array over the statement as a subquery), so a value
// never becomes a JavaScript string on this side: a 31-day minimal list (6,546 rows of 7
// columns) cost this thread 10.5 ms read as arrays and JSON.stringify'd, 8.3 ms this way; the
// main thread JSON.parses it (cloning the arrays cost both threads 5.0 ms, JSON 2.8 ms).
// json_array would print a REAL with 15 digits and refuses BLOBs: those are written as
// {"r": JavaScript's own text of the number} and {"b": hex}, and the main thread turns them
// back into the number and the Buffer better-sqlite3 gives (driver.ts arraysOf).
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
 * The answer: rows as arrays under their column names (`json`, their JSON text, `marked` when
 * it holds a REAL or a BLOB written as an object; or `rows`, the arrays themselves, cloned), a
 * write's nothing, or the error's parts.
 */
export type Reply =
  | { id: number, ok: true, columns?: string[], json?: string, marked?: boolean, rows?: unknown[][], done?: boolean, blobs?: boolean }
  | { id: number, ok: false, error: { name: string, message: string, code?: string, stack?: string } }

export interface WorkerSettings { file: string, readonly: boolean }

/** Statements prepared on the open connection, by SQL text (a reopen starts afresh). */
const PREPARED_MAX = 1000

/** A read has `columns`, and `json`, the same read giving each row as JSON text, when it can be wrapped. */
interface Prepared { stmt: BetterSqlite3.Statement, columns?: string[], json?: BetterSqlite3.Statement }

let db: BetterSqlite3.Database | undefined
let prepared = new Map<string, Prepared>()
/** The one read being delivered in blocks (Database.stream), if any. */
let cursor: { it: IterableIterator<unknown>, block: number, json: boolean } | undefined

function open ({ file, readonly }: WorkerSettings): void {
  // busy_timeout 0: a lock is never waited for in SQLite; the driver retries on timers until
  // the request's deadline (while-locked.ts).
  const fresh = openConnection(file, { readonly, busyTimeoutMs: 0 })
  // Opened first, so a replacement that cannot be opened leaves the old connection as it was.
  closeCursor()
  db?.close()
  db = fresh
  // A REAL's exact text, as JavaScript prints it (json_array's has 15 digits): rows as JSON.
  db.function('ponte_real', { deterministic: true }, (x: unknown) => Object.is(x, -0) ? '-0' : String(x))
  prepared = new Map()
}

function prepare (sql: string): Prepared {
  if (!db) throw Object.assign(new Error('The database connection is closed.'), { code: 'SQLITE_MISUSE' })
  let p = prepared.get(sql)
  if (p) return p
  const stmt = db.prepare(sql)
  if (stmt.reader) {
    const columns = stmt.columns().map((c) => c.name)
    p = { stmt: stmt.raw(true), columns, json: asJson(db, sql, columns) }
  } else {
    p = { stmt }
  }
  if (prepared.size >= PREPARED_MAX) prepared.delete(prepared.keys().next().value as string)
  prepared.set(sql, p)
  return p
}

/**
 * `sql` giving each row as one JSON array text. Only a SELECT (a write's RETURNING cannot be a
 * subquery) whose columns have distinct names (the outer SELECT names them); the subquery's
 * ORDER BY is the rows' order: SQLite drops a FROM-clause subquery's ORDER BY only when the
 * outer query has an ORDER BY of its own or joins the subquery to something (select.c, the
 * SQLITE_OmitOrderBy conditions), and this wrapper does neither. undefined when it cannot be:
 * the read then goes as arrays.
 */
function asJson (conn: BetterSqlite3.Database, sql: string, columns: string[]): BetterSqlite3.Statement | undefined {
  if (!/^\s*(SELECT|WITH)\b/i.test(sql) || new Set(columns).size !== columns.length) return undefined
  const values = columns.map((c) => {
    const q = `"${c.replace(/"/g, '""')}"`
    return `CASE typeof(${q}) WHEN 'real' THEN json_object('r', ponte_real(${q})) WHEN 'blob' THEN json_object('b', hex(${q})) ELSE ${q} END`
  })
  try {
    // The newline ends a trailing comment of `sql`.
    return conn.prepare(`SELECT json_array(${values.join(', ')}) FROM (${sql}\n)`).pluck()
  } catch {
    return undefined
  }
}

/** Rows as json_array texts, as the reply carries them. */
function joined (texts: string[]): { json: string, marked: boolean } {
  let marked = false
  // `{"` is only ever a REAL's or a BLOB's object: inside a JSON string the quote is escaped.
  for (const t of texts) if (t.includes('{"')) { marked = true; break }
  return { json: `[${texts.join(',')}]`, marked }
}

function closeCursor (): void {
  if (cursor) {
    try { cursor.it.return?.() } catch { /* closing only */ }
    cursor = undefined
  }
}

function nextBlock (id: number): Reply & { ok: true } {
  const c = cursor as NonNullable<typeof cursor>
  const rows: unknown[] = []
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
  return { id, ok: true, ...(c.json ? joined(rows as string[]) : carried(rows as unknown[][])), done }
}

/**
 * Rows read as arrays (a read that cannot be wrapped: a PRAGMA, a RETURNING), as the reply
 * carries them: their JSON text when it gives back exactly these values (text, NULL, finite
 * numbers), else the arrays, cloned. A BLOB arrives on the other side as a
 * plain Uint8Array, and the main thread turns it back into the Buffer better-sqlite3 gives, only
 * when told to look (`blobs`).
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
      const { stmt, columns, json } = prepare(req.sql)
      if (!columns) {
        stmt.run(req.values)
        return { id: req.id, ok: true }
      }
      if (json) return { id: req.id, ok: true, columns, ...joined(json.all(req.values) as string[]) }
      return { id: req.id, ok: true, columns, ...carried(stmt.all(req.values) as unknown[][]) }
    }
    case 'stream': {
      closeCursor()
      const { stmt, columns, json } = prepare(req.sql)
      if (!columns) {
        stmt.run(req.values)
        return { id: req.id, ok: true, rows: [], done: true }
      }
      cursor = { it: (json ?? stmt).iterate(req.values) as IterableIterator<unknown>, block: Math.max(1, req.block), json: json !== undefined }
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

const port = parentPort
if (port) {
  port.on('message', (req: Request) => {
    let reply: Reply
    try {
      reply = handle(req)
    } catch (err) {
      if (req.op === 'more' || req.op === 'stream') closeCursor()
      const e = err as Error & { code?: unknown }
      reply = { id: req.id, ok: false, error: { name: e.name ?? 'Error', message: e.message ?? String(err), code: typeof e.code === 'string' ? e.code : undefined, stack: e.stack } }
    }
    port.postMessage(reply)
  })
}
