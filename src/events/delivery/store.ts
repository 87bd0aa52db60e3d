// What each subscriber has been sent, in the events file beside the log: its cursor over the
// log and one row per event still owed (pending) or given up on (dead). A row is deleted when
// delivered, so a process killed at any moment re-sends exactly the rows still there.
import type BetterSqlite3 from 'better-sqlite3'
import { EventStoreUnavailableError } from '../../errors.js'
import { isBusy, whileLocked } from '../../sql/sqlite/while-locked.js'
import type { ChangeEvent, EventType } from '../event.js'

const SCHEMA = `
CREATE TABLE IF NOT EXISTS webhook_subscribers (
  name          TEXT    PRIMARY KEY,
  cursor        INTEGER NOT NULL,
  last_error    TEXT,
  last_error_at INTEGER
);
CREATE TABLE IF NOT EXISTS webhook_deliveries (
  subscriber       TEXT    NOT NULL,
  seq              INTEGER NOT NULL,
  appointment_id   TEXT    NOT NULL,
  state            TEXT    NOT NULL,
  attempts         INTEGER NOT NULL DEFAULT 0,
  next_at          INTEGER NOT NULL,
  first_attempt_at INTEGER,
  last_error       TEXT,
  dead_at          INTEGER,
  PRIMARY KEY (subscriber, seq)
);
CREATE INDEX IF NOT EXISTS webhook_deliveries_owed ON webhook_deliveries (subscriber, appointment_id, seq) WHERE state = 'pending';
CREATE TABLE IF NOT EXISTS webhook_lease (
  id         INTEGER PRIMARY KEY CHECK (id = 1),
  owner      TEXT    NOT NULL,
  expires_at INTEGER NOT NULL
);
`

// An appointment's earliest owed event is the only one of it that may be sent (order per appointment).
const FIRST_OF_ITS_APPOINTMENT = `d.state = 'pending' AND NOT EXISTS (
  SELECT 1 FROM webhook_deliveries o
  WHERE o.subscriber = d.subscriber AND o.appointment_id = d.appointment_id AND o.state = 'pending' AND o.seq < d.seq)`

/** An owed delivery with its event, as the sender needs it. */
export interface Owed { event: ChangeEvent, attempts: number, firstAttemptAt: number | null }

/**
 * An owed delivery whose event is no longer in the log (evicted or trimmed from Redis by
 * something other than Ponte's purge): it cannot be sent, so the store has dead-lettered it
 * (`event-missing`) and it no longer holds its appointment's later events back.
 */
export interface Lost { seq: number, appointmentId: string, eventId: string | null }

/** What is due now: the deliveries to send, and those found without their event. */
export interface Due { owed: Owed[], lost: Lost[] }

/** A dead-lettered delivery as operators see it: no payload (it names a patient). */
export interface DeadLetter {
  subscriber: string
  /** Null only for a delivery dead-lettered because its event was gone, recorded before its id was kept. */
  eventId: string | null
  seq: number
  type: EventType | null
  appointmentId: string
  attempts: number
  lastError: string | null
  deadAt: string
}

/** A subscriber forgotten at start, and how many deliveries (owed or dead-lettered) went with it. */
export interface Forgotten { name: string, owed: number }

export interface SubscriberCounts { pending: number, retrying: number, deadLettered: number, lastError: string | null }

interface OwedRow { seq: number, id: string, type: EventType, seen_at: string, appointment_id: string, data: string, attempts: number, first_attempt_at: number | null }

/** What delivery needs of a store: this one, or Redis's for replicas (events/replicas/redis-delivery-store.ts); forgetting removed subscribers is the file's alone. */
export type DeliveryState = Omit<Pick<DeliveryStore, keyof DeliveryStore>, 'forgetAllBut'>

export class DeliveryStore {
  private readonly statements: ReturnType<typeof prepare>
  private readonly enqueueTx: (subscriber: string, events: ChangeEvent[], cursor: number, now: number) => number
  private readonly forgetTx: (keep: string[]) => Forgotten[]

  /** Creates the tables beside the log in `db` (the log's own connection) when missing. */
  static async open (db: BetterSqlite3.Database, busyTimeoutMs = 2000): Promise<DeliveryStore> {
    await locked(() => db.exec(SCHEMA), busyTimeoutMs)
    return new DeliveryStore(db, busyTimeoutMs)
  }

  private constructor (db: BetterSqlite3.Database, private readonly busyTimeoutMs: number) {
    this.statements = prepare(db)
    const s = this.statements
    this.enqueueTx = db.transaction((subscriber: string, events: ChangeEvent[], cursor: number, now: number): number => {
      // The file's cursor, not the caller's: another process (an earlier lease holder) may have
      // copied and delivered these already, and a delivered row copied again would be sent twice.
      const stored = s.cursorOf.get(subscriber)?.cursor ?? 0
      for (const e of events) if (e.seq > stored) s.insert.run(subscriber, e.seq, e.appointmentId, now)
      const moved = Math.max(stored, cursor)
      s.moveCursor.run(moved, subscriber)
      return moved
    }).immediate
    this.forgetTx = db.transaction((keep: string[]): Forgotten[] => {
      const gone = s.known.all().map((r) => r.name).filter((name) => !keep.includes(name))
      return gone.map((name) => {
        s.forgetSubscriber.run(name)
        return { name, owed: s.forgetDeliveries.run(name).changes }
      })
    }).immediate
  }

  /**
   * Forgets every subscriber the file holds but `keep` does not name (removed from WEBHOOKS):
   * its cursor and its owed and dead-lettered deliveries, which would otherwise hold the
   * log's purge back for ever. Returns what was forgotten (names and counts only).
   */
  async forgetAllBut (keep: string[]): Promise<Forgotten[]> {
    return await this.locked(() => this.forgetTx(keep))
  }

  /** The subscriber's cursor; a subscriber seen for the first time starts at `head` (events from now on). */
  async cursor (subscriber: string, head: number): Promise<number> {
    return await this.locked(() => {
      this.statements.addSubscriber.run(subscriber, head)
      return this.statements.cursorOf.get(subscriber)?.cursor ?? head
    })
  }

  /**
   * Records `events` after the stored cursor as owed and moves the cursor to `cursor`, in one
   * transaction; returns the cursor now stored (never behind what another process stored).
   */
  async enqueue (subscriber: string, events: ChangeEvent[], cursor: number, now: number): Promise<number> {
    return await this.locked(() => this.enqueueTx(subscriber, events, cursor, now))
  }

  /**
   * Up to `limit` owed deliveries due by `now`, each the earliest owed of its appointment, oldest
   * first. None is ever lost here: the file's purge never removes an event still owed.
   */
  async due (subscriber: string, now: number, limit: number): Promise<Due> {
    return await this.locked(() => ({
      owed: this.statements.due.all(subscriber, now, limit).map((r) => ({
        event: { seq: r.seq, id: r.id, type: r.type, seenAt: r.seen_at, appointmentId: r.appointment_id, data: JSON.parse(r.data) as Record<string, unknown> },
        attempts: r.attempts,
        firstAttemptAt: r.first_attempt_at
      })),
      lost: []
    }))
  }

  /** When the next owed delivery falls due (ms), or undefined when nothing is owed. */
  async nextDue (subscriber: string): Promise<number | undefined> {
    return await this.locked(() => this.statements.nextDue.get(subscriber)?.at ?? undefined)
  }

  /**
   * Claims an attempt: only when the delivery is still owed, due by `now` and the first owed of
   * its appointment, it is counted and not due again before `retryAt` (a process killed during
   * it re-sends after that, the same webhook-id). One statement, so of two processes that both
   * saw it due exactly one gets true and sends.
   */
  async claim (subscriber: string, seq: number, now: number, retryAt: number): Promise<boolean> {
    return await this.locked(() => this.statements.claim.run(retryAt, now, subscriber, seq, now).changes === 1)
  }

  /**
   * Takes or renews the delivery lease for `owner` until `expiresAt`: true when `owner` holds
   * it now (it was free, expired at `now`, or already its own). One statement, so atomic.
   */
  async lease (owner: string, now: number, expiresAt: number): Promise<boolean> {
    return await this.locked(() => this.statements.lease.run(owner, expiresAt, now).changes === 1)
  }

  /** Gives the lease up (at stop) so another process takes over at once rather than at expiry. */
  async releaseLease (owner: string): Promise<void> {
    await this.locked(() => { this.statements.releaseLease.run(owner) })
  }

  async delivered (subscriber: string, seq: number): Promise<void> {
    await this.locked(() => { this.statements.remove.run(subscriber, seq) })
  }

  /** A failed attempt: tried again at `retryAt`, or dead-lettered when `retryAt` is undefined. */
  async failed (subscriber: string, seq: number, kind: string, now: number, retryAt: number | undefined): Promise<void> {
    await this.locked(() => {
      if (retryAt === undefined) this.statements.bury.run(kind, now, subscriber, seq)
      else this.statements.retry.run(kind, retryAt, subscriber, seq)
      this.statements.lastError.run(kind, now, subscriber)
    })
  }

  /** An attempt stopped by shutdown: not a failure; due again at once on the next start. */
  async interrupted (subscriber: string, seq: number, now: number): Promise<void> {
    await this.locked(() => { this.statements.release.run(now, subscriber, seq) })
  }

  async counts (subscriber: string): Promise<SubscriberCounts> {
    return await this.locked(() => {
      const c = this.statements.counts.get(subscriber)
      return { pending: c?.pending ?? 0, retrying: c?.retrying ?? 0, deadLettered: c?.dead ?? 0, lastError: this.statements.cursorOf.get(subscriber)?.last_error ?? null }
    })
  }

  async deadLetters (subscriber?: string): Promise<DeadLetter[]> {
    return await this.locked(() => this.statements.dead.all(subscriber ?? null, subscriber ?? null).map((r) => ({
      subscriber: r.subscriber,
      eventId: r.id,
      seq: r.seq,
      type: r.type,
      appointmentId: r.appointment_id,
      attempts: r.attempts,
      lastError: r.last_error,
      deadAt: new Date(r.dead_at).toISOString()
    })))
  }

  /**
   * Dead-lettered deliveries owed again from `now`, with a fresh retry horizon: one event
   * (`eventId`) or all, for one subscriber or every one. Returns how many.
   */
  async replay (now: number, which: { eventId?: string, subscriber?: string }): Promise<number> {
    return await this.locked(() => this.statements.replay.run(now, which.subscriber ?? null, which.subscriber ?? null, which.eventId ?? null, which.eventId ?? null).changes)
  }

  private async locked<T> (statement: () => T): Promise<T> {
    return await locked(statement, this.busyTimeoutMs)
  }
}

/** Another process (the CLI, a second server) may hold the file's lock: waited for on timers, then a 503-kind error. */
async function locked<T> (statement: () => T, waitMs: number): Promise<T> {
  try {
    return await whileLocked(async () => statement(), performance.now() + waitMs)
  } catch (err) {
    throw isBusy(err) ? new EventStoreUnavailableError(err) : err
  }
}

function prepare (db: BetterSqlite3.Database) {
  return {
    addSubscriber: db.prepare<[string, number]>('INSERT OR IGNORE INTO webhook_subscribers (name, cursor) VALUES (?, ?)'),
    cursorOf: db.prepare<[string], { cursor: number, last_error: string | null }>('SELECT cursor, last_error FROM webhook_subscribers WHERE name = ?'),
    known: db.prepare<[], { name: string }>('SELECT name FROM webhook_subscribers UNION SELECT DISTINCT subscriber FROM webhook_deliveries'),
    forgetDeliveries: db.prepare<[string]>('DELETE FROM webhook_deliveries WHERE subscriber = ?'),
    forgetSubscriber: db.prepare<[string]>('DELETE FROM webhook_subscribers WHERE name = ?'),
    moveCursor: db.prepare<[number, string]>('UPDATE webhook_subscribers SET cursor = ? WHERE name = ?'),
    insert: db.prepare<[string, number, string, number]>("INSERT OR IGNORE INTO webhook_deliveries (subscriber, seq, appointment_id, state, next_at) VALUES (?, ?, ?, 'pending', ?)"),
    due: db.prepare<[string, number, number], OwedRow>(`SELECT d.seq, e.id, e.type, e.seen_at, e.appointment_id, e.data, d.attempts, d.first_attempt_at
      FROM webhook_deliveries d JOIN events e ON e.seq = d.seq
      WHERE d.subscriber = ? AND d.next_at <= ? AND ${FIRST_OF_ITS_APPOINTMENT} ORDER BY d.seq LIMIT ?`),
    nextDue: db.prepare<[string], { at: number | null }>(`SELECT MIN(d.next_at) AS at FROM webhook_deliveries d WHERE d.subscriber = ? AND ${FIRST_OF_ITS_APPOINTMENT}`),
    claim: db.prepare<[number, number, string, number, number]>(`UPDATE webhook_deliveries AS d SET attempts = attempts + 1, next_at = ?, first_attempt_at = COALESCE(first_attempt_at, ?)
      WHERE d.subscriber = ? AND d.seq = ? AND d.next_at <= ? AND ${FIRST_OF_ITS_APPOINTMENT}`),
    lease: db.prepare<[string, number, number]>(`INSERT INTO webhook_lease (id, owner, expires_at) VALUES (1, ?, ?)
      ON CONFLICT (id) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
      WHERE webhook_lease.owner = excluded.owner OR webhook_lease.expires_at <= ?`),
    releaseLease: db.prepare<[string]>('DELETE FROM webhook_lease WHERE owner = ?'),
    remove: db.prepare<[string, number]>('DELETE FROM webhook_deliveries WHERE subscriber = ? AND seq = ?'),
    retry: db.prepare<[string, number, string, number]>('UPDATE webhook_deliveries SET last_error = ?, next_at = ? WHERE subscriber = ? AND seq = ?'),
    bury: db.prepare<[string, number, string, number]>("UPDATE webhook_deliveries SET state = 'dead', last_error = ?, dead_at = ? WHERE subscriber = ? AND seq = ?"),
    release: db.prepare<[number, string, number]>('UPDATE webhook_deliveries SET next_at = ? WHERE subscriber = ? AND seq = ?'),
    lastError: db.prepare<[string, number, string]>('UPDATE webhook_subscribers SET last_error = ?, last_error_at = ? WHERE name = ?'),
    counts: db.prepare<[string], { pending: number | null, retrying: number | null, dead: number | null }>(`SELECT
      SUM(state = 'pending') AS pending, SUM(state = 'pending' AND last_error IS NOT NULL) AS retrying, SUM(state = 'dead') AS dead
      FROM webhook_deliveries WHERE subscriber = ?`),
    dead: db.prepare<[string | null, string | null], { subscriber: string, seq: number, id: string, type: EventType, appointment_id: string, attempts: number, last_error: string | null, dead_at: number }>(`SELECT d.subscriber, d.seq, e.id, e.type, d.appointment_id, d.attempts, d.last_error, d.dead_at
      FROM webhook_deliveries d JOIN events e ON e.seq = d.seq
      WHERE d.state = 'dead' AND (? IS NULL OR d.subscriber = ?) ORDER BY d.subscriber, d.seq`),
    replay: db.prepare<[number, string | null, string | null, string | null, string | null]>(`UPDATE webhook_deliveries
      SET state = 'pending', attempts = 0, first_attempt_at = NULL, dead_at = NULL, last_error = NULL, next_at = ?
      WHERE state = 'dead' AND (? IS NULL OR subscriber = ?) AND (? IS NULL OR seq = (SELECT seq FROM events WHERE id = ?))`)
  }
}
