// The ordered log of events, in a small SQLite file of Ponte's own (EVENTS_STORE), never the
// clinic's database: appended in one transaction per batch, read by cursor (`seq`) by the pull
// feed and by each webhook subscriber. A waiter learns of new events at once in this process
// and by polling the file when another process appends.
import { randomUUID } from 'node:crypto'
import BetterSqlite3 from 'better-sqlite3'
import { EventStoreUnavailableError } from '../errors.js'
import { openPrivateStore, unlockedOr } from '../sql/sqlite/private-store.js'
import type { ChangeEvent, EventType, NewEvent } from './event.js'
import { Appends, purgeEvery } from './appends.js'

export interface EventLog {
  /**
   * Appends in order, all or none; returns the events with their place and id. `alongside`
   * runs in the same transaction (the detector's fingerprints: an event and what it was
   * diffed against are kept together or not at all).
   */
  append: (events: NewEvent[], alongside?: () => void) => Promise<ChangeEvent[]>
  /** Up to `limit` events after `cursor`, oldest first. */
  after: (cursor: number, limit: number) => Promise<ChangeEvent[]>
  /** The last event's `seq`, 0 when the log is empty. */
  head: () => Promise<number>
  /** Resolves once an event after `cursor` exists, or after `ms`, or when `signal` aborts. */
  waitAfter: (cursor: number, ms: number, signal?: AbortSignal) => Promise<void>
  close: () => void
}

export interface EventLogOptions {
  /** How long a statement waits for another process's lock on the file before a 503 (ms). */
  busyTimeoutMs?: number
  /** How often a waiter looks at the file for events another process appended (ms). */
  pollMs?: number
  now?: () => number
}

interface Row { seq: number, id: string, type: EventType, seen_at: string, appointment_id: string, data: string }

const SCHEMA = `
CREATE TABLE IF NOT EXISTS events (
  seq            INTEGER PRIMARY KEY AUTOINCREMENT,
  id             TEXT    NOT NULL UNIQUE,
  type           TEXT    NOT NULL,
  seen_at        TEXT    NOT NULL,
  appointment_id TEXT    NOT NULL,
  data           TEXT    NOT NULL
);
-- The purge finds the newest event seen before its cutoff (WHERE seen_at < ?) without reading
-- the whole log; created on files made before it, too.
CREATE INDEX IF NOT EXISTS events_seen_at ON events (seen_at);
`

const toEvent = (r: Row): ChangeEvent => ({ seq: r.seq, id: r.id, type: r.type, seenAt: r.seen_at, appointmentId: r.appointment_id, data: JSON.parse(r.data) as Record<string, unknown> })

export class SqliteEventLog implements EventLog {
  private readonly appends: Appends
  private readonly busyTimeoutMs: number
  private readonly now: () => number
  private readonly insert: BetterSqlite3.Statement<[string, string, string, string, string]>
  private readonly select: BetterSqlite3.Statement<[number, number], Row>
  private readonly last: BetterSqlite3.Statement<[], { seq: number | null }>
  private readonly first: BetterSqlite3.Statement<[], { seq: number | null }>
  private readonly appendTx: (events: NewEvent[], alongside?: () => void) => ChangeEvent[]

  /** Opens (creating if need be) the log at `file`; ':memory:' for a private one. */
  static async open (file: string, options: EventLogOptions = {}): Promise<SqliteEventLog> {
    // Events carry appointments (a patient's name): only this user may read them.
    const db = await openPrivateStore(file, SCHEMA, options.busyTimeoutMs ?? 2000, unavailable)
    return new SqliteEventLog(file, db, options)
  }

  /** The file's connection, for the tables that live beside the log (cursors, fingerprints, deliveries). */
  readonly db: BetterSqlite3.Database

  private constructor (readonly file: string, db: BetterSqlite3.Database, options: EventLogOptions) {
    this.db = db
    this.busyTimeoutMs = options.busyTimeoutMs ?? 2000
    this.now = options.now ?? Date.now
    this.appends = new Appends(async () => await this.head(), options.pollMs ?? 250)
    this.insert = db.prepare('INSERT INTO events (id, type, seen_at, appointment_id, data) VALUES (?, ?, ?, ?, ?) RETURNING seq')
    this.select = db.prepare('SELECT seq, id, type, seen_at, appointment_id, data FROM events WHERE seq > ? ORDER BY seq LIMIT ?')
    this.last = db.prepare('SELECT MAX(seq) AS seq FROM events')
    this.first = db.prepare('SELECT MIN(seq) AS seq FROM events')
    this.appendTx = db.transaction((events: NewEvent[], alongside?: () => void): ChangeEvent[] => {
      const done = events.map((e) => {
        const id = `evt_${randomUUID()}`
        const seenAt = e.seenAt ?? new Date(this.now()).toISOString()
        const { seq } = this.insert.get(id, e.type, seenAt, e.appointmentId, JSON.stringify(e.data)) as unknown as { seq: number }
        return { seq, id, type: e.type, seenAt, appointmentId: e.appointmentId, data: e.data }
      })
      alongside?.()
      return done
    }).immediate
  }

  async append (events: NewEvent[], alongside?: () => void): Promise<ChangeEvent[]> {
    if (events.length === 0 && alongside === undefined) return []
    const done = await unlocked(() => this.appendTx(events, alongside), this.busyTimeoutMs)
    if (done.length > 0) this.appends.emit(done[done.length - 1].seq)
    return done
  }

  async after (cursor: number, limit: number): Promise<ChangeEvent[]> {
    return await unlocked(() => this.select.all(cursor, limit).map(toEvent), this.busyTimeoutMs)
  }

  async head (): Promise<number> {
    return await unlocked(() => this.last.get()?.seq ?? 0, this.busyTimeoutMs)
  }

  /** The oldest cursor that loses nothing: the seq before the oldest kept event (0 before any purge). */
  async oldestCursor (): Promise<number> {
    return await unlocked(() => Math.max(0, (this.first.get()?.seq ?? 1) - 1), this.busyTimeoutMs)
  }

  /**
   * Deletes events seen before `before` (ms) as one prefix of the log, so a reader never skips a
   * hole: it stops before the first event still owed to a webhook subscriber (copied or not yet)
   * and always keeps the newest (the head). Returns how many.
   */
  async purge (before: number): Promise<number> {
    return await unlocked(() => this.db.transaction(() => {
      // By the index on seen_at: left to itself, SQLite walks the log back from its newest event
      // to the cutoff (a whole retention's events, under the write lock) to find MAX(seq).
      const old = this.db.prepare<[string], { seq: number | null }>('SELECT MAX(seq) AS seq FROM events INDEXED BY events_seen_at WHERE seen_at < ?').get(new Date(before).toISOString())?.seq ?? 0
      let bound = Math.min(old, (this.last.get()?.seq ?? 0) - 1)
      const tables = new Set(this.db.prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'").all().map((r) => r.name))
      if (tables.has('webhook_deliveries')) {
        const owed = this.db.prepare<[], { seq: number | null }>('SELECT MIN(seq) AS seq FROM webhook_deliveries').get()?.seq
        if (owed != null) bound = Math.min(bound, owed - 1)
      }
      if (tables.has('webhook_subscribers')) {
        const cursor = this.db.prepare<[], { seq: number | null }>('SELECT MIN(cursor) AS seq FROM webhook_subscribers').get()?.seq
        if (cursor != null) bound = Math.min(bound, cursor)
      }
      return bound > 0 ? this.db.prepare<[number]>('DELETE FROM events WHERE seq <= ?').run(bound).changes : 0
    }).immediate(), this.busyTimeoutMs)
  }

  /** Purges events older than `retentionMs` now and every `everyMs`; returns the stop. */
  purgeEvery (retentionMs: number, everyMs: number): () => void {
    return purgeEvery(async (cutoff) => await this.purge(cutoff), () => this.now(), retentionMs, everyMs)
  }

  async waitAfter (cursor: number, ms: number, signal?: AbortSignal): Promise<void> {
    await this.appends.waitAfter(cursor, ms, signal)
  }

  close (): void {
    if (this.db.open) this.db.close()
  }
}

const unavailable = (err: unknown): Error => new EventStoreUnavailableError(err)
const unlocked = async <T>(statement: () => T, waitMs: number): Promise<T> => await unlockedOr(statement, waitMs, unavailable)
