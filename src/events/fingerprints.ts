// The detector's memory, in tables beside the event log (Ponte's own SQLite file): each
// watched appointment's fingerprint, whether the first poll has recorded the window yet, and
// the newest change marker seen.
// Written only inside the log's append transaction, so an event and the fingerprint it was
// diffed against are kept together or not at all.
import type BetterSqlite3 from 'better-sqlite3'
import type { Fingerprint } from './fingerprint.js'
import { isBusy, whileLocked } from '../sql/sqlite/while-locked.js'
import { EventStoreUnavailableError } from '../errors.js'

const SCHEMA = `
CREATE TABLE IF NOT EXISTS appointment_fingerprints (
  id          TEXT    PRIMARY KEY,
  date        TEXT    NOT NULL,
  hash        TEXT    NOT NULL,
  fingerprint TEXT    NOT NULL,
  gen         INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS appointment_fingerprints_date ON appointment_fingerprints (date);
CREATE TABLE IF NOT EXISTS detector_state (
  name  TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
`

export interface Remembered { fingerprint: Fingerprint, hash: string, gen: number }

/** The days a poll watched (clinic dates, inclusive). */
export interface Window { from: string, to: string }

/**
 * What the fingerprints were taken of: the installation, the database (no credentials) and
 * the fields an appointment answers. Another one's fingerprints are not this one's memory.
 */
export interface Identity { installation: string, database: string, fields: string }

export class FingerprintStore {
  /**
   * Raised by every write through Ponte: a poll that began reading before it leaves that
   * appointment alone (what it read is older than what the write recorded).
   */
  private generation: number
  private readonly get: BetterSqlite3.Statement<[string], { fingerprint: string, hash: string, gen: number }>
  private readonly put: BetterSqlite3.Statement<[string, string, string, string, number]>
  private readonly drop: BetterSqlite3.Statement<[string]>
  private readonly between: BetterSqlite3.Statement<[string, string], { id: string }>
  private readonly before: BetterSqlite3.Statement<[string]>
  private readonly flag: BetterSqlite3.Statement<[string], { value: string }>
  private readonly setFlag: BetterSqlite3.Statement<[string, string]>

  private readonly clear: BetterSqlite3.Statement<[]>
  private readonly dropFlag: BetterSqlite3.Statement<[string]>

  /** Creates the tables (waiting out another process's lock on the file, as the log does). */
  static async open (db: BetterSqlite3.Database, busyTimeoutMs = 2000): Promise<FingerprintStore> {
    try {
      await whileLocked(async () => { db.exec(SCHEMA) }, performance.now() + busyTimeoutMs)
    } catch (err) {
      throw isBusy(err) ? new EventStoreUnavailableError(err) : err
    }
    return new FingerprintStore(db)
  }

  private constructor (db: BetterSqlite3.Database) {
    this.get = db.prepare('SELECT fingerprint, hash, gen FROM appointment_fingerprints WHERE id = ?')
    this.put = db.prepare('INSERT INTO appointment_fingerprints (id, date, hash, fingerprint, gen) VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET date = excluded.date, hash = excluded.hash, fingerprint = excluded.fingerprint, gen = excluded.gen')
    this.drop = db.prepare('DELETE FROM appointment_fingerprints WHERE id = ?')
    this.between = db.prepare('SELECT id FROM appointment_fingerprints WHERE date >= ? AND date <= ?')
    this.before = db.prepare('DELETE FROM appointment_fingerprints WHERE date < ?')
    this.flag = db.prepare('SELECT value FROM detector_state WHERE name = ?')
    this.setFlag = db.prepare('INSERT INTO detector_state (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value')
    this.clear = db.prepare('DELETE FROM appointment_fingerprints')
    this.dropFlag = db.prepare('DELETE FROM detector_state WHERE name = ?')
    const top = db.prepare('SELECT MAX(gen) AS gen FROM appointment_fingerprints').get() as { gen: number | null }
    this.generation = top.gen ?? 0
  }

  /** The generation now: a poll notes it before reading the database. */
  get current (): number { return this.generation }

  recall (id: string): Remembered | undefined {
    const row = this.get.get(id)
    return row === undefined ? undefined : { fingerprint: JSON.parse(row.fingerprint) as Fingerprint, hash: row.hash, gen: row.gen }
  }

  /** A write through Ponte's generation: above every poll under way. */
  next (): number { return ++this.generation }

  /** `gen`: a write's `next()`; a poll keeps the row's (0 for one it records first). */
  remember (id: string, f: Fingerprint, hash: string, gen: number): void {
    this.put.run(id, f.date, hash, JSON.stringify(f), gen)
  }

  forget (id: string): void { this.drop.run(id) }

  /** Ids remembered on the days from `from` to `to` (clinic dates, inclusive). */
  idsBetween (from: string, to: string): string[] { return this.between.all(from, to).map((r) => r.id) }

  /** Forgets appointments of days before `date`: the window has passed them. */
  forgetBefore (date: string): void { this.before.run(date) }

  /** Whether a first poll has recorded the window (until then, nothing a poll sees is news). */
  get primed (): boolean { return this.flag.get('primed') !== undefined }

  markPrimed (): void { this.setFlag.run('primed', new Date().toISOString()) }

  /** The window the last poll watched (none before the first poll). */
  get window (): Window | undefined {
    const row = this.flag.get('window')
    return row === undefined ? undefined : JSON.parse(row.value) as Window
  }

  setWindow (w: Window): void { this.setFlag.run('window', JSON.stringify(w)) }

  /** What the fingerprints were taken of (none in a store from before it was recorded). */
  get identity (): Identity | undefined {
    const row = this.flag.get('identity')
    return row === undefined ? undefined : JSON.parse(row.value) as Identity
  }

  /** Forgets every fingerprint and the window, and records `identity`: the next poll primes. */
  reprime (identity: Identity): void {
    this.clear.run()
    this.dropFlag.run('primed')
    this.dropFlag.run('window')
    this.dropFlag.run('marker')
    this.setFlag.run('identity', JSON.stringify(identity))
  }

  /** The newest change marker a pass has seen (as text), where the mapping declares one. */
  get marker (): string | undefined { return this.flag.get('marker')?.value }

  setMarker (value: string): void { this.setFlag.run('marker', value) }
}
