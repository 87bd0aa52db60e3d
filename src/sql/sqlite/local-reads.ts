// Reads that find one row per table by key, run on the event loop (issue 13). Through the
// worker thread, such a read cost twice its own CPU: the message each way and waking two
// threads (by id: 62–122 µs of CPU per statement against 44 µs run here, on the bench's
// appointment). They end in microseconds whatever the tables' size (one-row-plan.ts), so
// /health cannot wait on them; everything else stays on the worker.
//
// A read-only connection of its own: it can never write, and sees only what was committed,
// as a read on the worker's connection between transactions does. It never waits for a lock
// inside SQLite (busy_timeout 0): the driver retries on timers, as for the worker.
import type BetterSqlite3 from 'better-sqlite3'
import { openConnection } from './connection.js'
import { findsOneRowPerTable } from './one-row-plan.js'
import { rowMaker } from './row-maker.js'

const READ = /^\s*(?:SELECT|WITH)\b/i
/** Statements judged, by SQL text (a mapping compiles a few hundred). */
const JUDGED_MAX = 1000

/** A statement judged; `make` builds its rows from the arrays it is asked for (row-maker.ts). */
interface Judged { stmt: BetterSqlite3.Statement, local: boolean, schema: number, make?: (values: unknown[]) => Record<string, unknown> }

export class LocalReads {
  private db: BetterSqlite3.Database | undefined
  private schemaVersion: BetterSqlite3.Statement | undefined
  private underOneLock: ((sql: string, values: Record<string, unknown>) => Record<string, unknown>[] | undefined) | undefined
  private judged = new Map<string, Judged>()
  private closed = false

  constructor (private readonly file: string) {}

  /**
   * The rows, if this read may run here; undefined if it belongs on the worker, or if anything
   * fails here: a lock, a hot journal this read-only connection cannot roll back, a file it
   * cannot open. The worker then runs the read and meets the same condition as before there
   * is a second connection (a lock retried, the journal rolled back on its first read).
   */
  read (sql: string, values: Record<string, unknown>): Record<string, unknown>[] | undefined {
    // Only a SELECT (or WITH) can be one; a WITH that writes is prepared, then judged no read.
    if (this.closed || !READ.test(sql)) return undefined
    try {
      const db = this.db ??= openConnection(this.file, { readonly: true, busyTimeoutMs: 0 })
      this.schemaVersion ??= db.prepare('PRAGMA schema_version').pluck()
      // The schema's version and the rows under one shared lock: one lock taken and released
      // (four fcntl calls, a pread and two stats) instead of two, ~4 µs of the read's ~50, and
      // the schema cannot change between the check and the read.
      this.underOneLock ??= db.transaction((sql: string, values: Record<string, unknown>) => this.readLocked(db, sql, values))
      return this.underOneLock(sql, values)
    } catch {
      // better-sqlite3 ends its transaction when the read throws; were one ever left open, its
      // shared lock would keep the clinic's writers out for good: the connection goes instead.
      if (this.db?.inTransaction === true) this.close()
      return undefined
    }
  }

  private readLocked (db: BetterSqlite3.Database, sql: string, values: Record<string, unknown>): Record<string, unknown>[] | undefined {
    // An index dropped or a table rebuilt by the clinic changes the plan: judged again then.
    const schema = (this.schemaVersion as BetterSqlite3.Statement).get() as number
    let j = this.judged.get(sql)
    if (j === undefined || j.schema !== schema) {
      const stmt = db.prepare(sql)
      const local = stmt.reader && stmt.readonly && findsOneRowPerTable(db, sql, values)
      if (this.judged.size >= JUDGED_MAX) this.judged.clear()
      j = local ? { stmt: stmt.raw(true), local, schema, make: rowMaker(stmt.columns().map((c) => c.name)) } : { stmt, local, schema }
      this.judged.set(sql, j)
    }
    if (!j.local || j.make === undefined) return undefined
    const arrays = j.stmt.all(values) as unknown[][]
    const rows = new Array<Record<string, unknown>>(arrays.length)
    for (let i = 0; i < arrays.length; i++) rows[i] = j.make(arrays[i])
    return rows
  }

  /** Closes the connection; the next read opens one on the file then at the path, unless `final`. */
  close (final = false): void {
    this.db?.close()
    this.db = undefined
    this.schemaVersion = undefined
    this.underOneLock = undefined
    this.judged = new Map()
    if (final) this.closed = true
  }
}
