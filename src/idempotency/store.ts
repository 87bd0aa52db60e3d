// Remembered responses for the Idempotency-Key header (draft-ietf-httpapi-idempotency-key-header):
// a small SQLite file of its own, never the clinic's database. One row per (scope, key): while
// the first request runs it is 'in-flight'; once answered it is 'done' with the response to
// replay. Rows live until expires_at (at least 24 h) and are then purged.
//
// better-sqlite3 runs on the event loop, and needs no worker thread here: every statement
// touches one row by key (the purge, an hour's expired rows), and a lock held by another
// process is never waited for inside SQLite (busy_timeout 0) but on timers (while-locked.ts),
// up to busyTimeoutMs, then KeyStoreUnavailableError (503). Within one process each statement
// is serial; begin() runs in a BEGIN IMMEDIATE transaction so that two processes sharing the
// file cannot both claim the same key.
import { randomUUID } from 'node:crypto'
import BetterSqlite3 from 'better-sqlite3'
import { KeyStoreUnavailableError } from '../errors.js'
import { openPrivateStore, unlockedOr } from '../sql/sqlite/private-store.js'

export interface StoredResponse {
  status: number
  /** Selected response headers, lower-case names. */
  headers: Record<string, string | string[]>
  /** The serialized payload exactly as it was sent. */
  body: string | Buffer
}

export type BeginResult =
  /** The key is now claimed by the caller; finish with complete() or release(), passing `lease`. */
  | { kind: 'new', lease: string }
  | { kind: 'replay', response: StoredResponse }
  | { kind: 'mismatch' }
  | { kind: 'in-flight' }

/**
 * What the Idempotency-Key plugin needs of a store: this file's SQLite store for one process,
 * redis-store.ts for several replicas. Either may answer synchronously or with a promise.
 */
export interface KeyStore {
  begin: (scope: string, key: string, fingerprint: string) => BeginResult | Promise<BeginResult>
  complete: (scope: string, key: string, response: StoredResponse, lease?: string) => boolean | Promise<boolean>
  release: (scope: string, key: string, lease?: string) => boolean | Promise<boolean>
  close: () => void
}

export interface IdempotencyStoreOptions {
  /** How long an answered key is remembered (ms). Default 24 h. */
  ttlMs?: number
  /** An in-flight claim older than this is taken to be abandoned (crashed process) (ms). Default 5 min. */
  abandonAfterMs?: number
  /** How often expired rows are purged in the background (ms); 0 disables the timer. Default 1 h. */
  purgeEveryMs?: number
  /** The clock (ms since the epoch); tests inject their own. */
  now?: () => number
  /** SQLite store: how long an operation waits for another process's lock on the file before a 503 (ms). Default 2 s. */
  busyTimeoutMs?: number
}

interface Row {
  fingerprint: string
  state: 'in-flight' | 'done'
  lease: string | null
  status: number | null
  headers: string | null
  body: string | Buffer | null
  created_at: number
  expires_at: number
}

export const HOUR_MS = 60 * 60 * 1000
const DEFAULT_ABANDON_AFTER_MS = 5 * 60 * 1000
const DEFAULT_BUSY_TIMEOUT_MS = 2000
const LOCKED = 'the key store is locked by another process'

const SCHEMA = `
CREATE TABLE IF NOT EXISTS idempotency_keys (
  scope       TEXT    NOT NULL,
  key         TEXT    NOT NULL,
  fingerprint TEXT    NOT NULL,
  state       TEXT    NOT NULL CHECK (state IN ('in-flight', 'done')),
  lease       TEXT,
  status      INTEGER,
  headers     TEXT,
  body        BLOB,
  created_at  INTEGER NOT NULL,
  expires_at  INTEGER NOT NULL,
  PRIMARY KEY (scope, key)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS idempotency_keys_expires_at ON idempotency_keys (expires_at);
`

export class IdempotencyStore implements KeyStore {
  readonly ttlMs: number
  readonly abandonAfterMs: number
  readonly busyTimeoutMs: number
  private readonly now: () => number
  private readonly timer: NodeJS.Timeout | undefined
  private readonly stmts: {
    select: BetterSqlite3.Statement<[string, string], Row>
    insert: BetterSqlite3.Statement<[string, string, string, string, number, number]>
    remove: BetterSqlite3.Statement<[string, string]>
    complete: BetterSqlite3.Statement<[number, string, string | Buffer, number, string, string, string | null]>
    release: BetterSqlite3.Statement<[string, string, string | null]>
    purge: BetterSqlite3.Statement<[number, number]>
  }

  private readonly beginTx: (scope: string, key: string, fingerprint: string) => BeginResult

  /** Opens (creating if need be) the store at `file`; ':memory:' for a private in-memory one. */
  static async open (file: string, options: IdempotencyStoreOptions = {}): Promise<IdempotencyStore> {
    // Replayed responses hold patient data (a created client): only this user may read them.
    const db = await openPrivateStore(file, SCHEMA, busyTimeout(options), unavailable)
    return new IdempotencyStore(file, db, options)
  }

  private constructor (readonly file: string, private readonly db: BetterSqlite3.Database, options: IdempotencyStoreOptions) {
    this.ttlMs = options.ttlMs ?? 24 * HOUR_MS
    this.abandonAfterMs = options.abandonAfterMs ?? DEFAULT_ABANDON_AFTER_MS
    this.busyTimeoutMs = busyTimeout(options)
    this.now = options.now ?? Date.now
    this.stmts = {
      select: db.prepare('SELECT fingerprint, state, lease, status, headers, body, created_at, expires_at FROM idempotency_keys WHERE scope = ? AND key = ?'),
      insert: db.prepare("INSERT INTO idempotency_keys (scope, key, fingerprint, state, lease, created_at, expires_at) VALUES (?, ?, ?, 'in-flight', ?, ?, ?)"),
      remove: db.prepare('DELETE FROM idempotency_keys WHERE scope = ? AND key = ?'),
      complete: db.prepare("UPDATE idempotency_keys SET state = 'done', lease = NULL, status = ?, headers = ?, body = ?, expires_at = ? WHERE scope = ? AND key = ? AND state = 'in-flight' AND lease = COALESCE(?, lease)"),
      release: db.prepare("DELETE FROM idempotency_keys WHERE scope = ? AND key = ? AND state = 'in-flight' AND lease = COALESCE(?, lease)"),
      purge: db.prepare("DELETE FROM idempotency_keys WHERE expires_at <= ? OR (state = 'in-flight' AND created_at <= ?)")
    }
    this.beginTx = db.transaction((scope: string, key: string, fingerprint: string): BeginResult => {
      const now = this.now()
      let row = this.stmts.select.get(scope, key)
      if (row !== undefined && this.isStale(row, now)) {
        this.stmts.remove.run(scope, key)
        row = undefined
      }
      if (row === undefined) {
        const lease = randomUUID()
        this.stmts.insert.run(scope, key, fingerprint, lease, now, now + this.ttlMs)
        return { kind: 'new', lease }
      }
      if (row.fingerprint !== fingerprint) return { kind: 'mismatch' }
      if (row.state === 'in-flight') return { kind: 'in-flight' }
      return {
        kind: 'replay',
        response: { status: row.status ?? 200, headers: JSON.parse(row.headers ?? '{}') as StoredResponse['headers'], body: row.body ?? '' }
      }
    }).immediate

    // Failures are left to the next round: a lock, or a store closed meanwhile.
    this.purgeExpired().catch(() => {})
    const every = options.purgeEveryMs ?? HOUR_MS
    if (every > 0) {
      this.timer = setInterval(() => { this.purgeExpired().catch(() => {}) }, every)
      this.timer.unref()
    }
  }

  /**
   * Claims `key` in `scope` for a request whose fingerprint is `fingerprint`, or tells why not:
   * an answered identical request (replay), a different request under the same key (mismatch),
   * or the first request still being processed (in-flight).
   */
  async begin (scope: string, key: string, fingerprint: string): Promise<BeginResult> {
    return await unlocked(() => this.beginTx(scope, key, fingerprint), this.busyTimeoutMs)
  }

  /**
   * Records the response of a claimed key; it is replayed to identical requests until expiry.
   * With `lease` (from begin), only that claim is completed: a request that outlived
   * abandonAfterMs and lost its claim to a retry cannot overwrite the retry's row.
   */
  async complete (scope: string, key: string, response: StoredResponse, lease?: string): Promise<boolean> {
    const body = typeof response.body === 'string' ? response.body : Buffer.from(response.body)
    const headers = JSON.stringify(response.headers)
    return await unlocked(() => this.stmts.complete.run(response.status, headers, body, this.now() + this.ttlMs, scope, key, lease ?? null).changes > 0, this.busyTimeoutMs)
  }

  /** Forgets a claimed key without a response (the request failed), so a retry runs again. */
  async release (scope: string, key: string, lease?: string): Promise<boolean> {
    return await unlocked(() => this.stmts.release.run(scope, key, lease ?? null).changes > 0, this.busyTimeoutMs)
  }

  /** Deletes expired keys and abandoned in-flight claims; returns how many. */
  async purgeExpired (): Promise<number> {
    return await unlocked(() => {
      const now = this.now()
      return this.stmts.purge.run(now, now - this.abandonAfterMs).changes
    }, this.busyTimeoutMs)
  }

  /** Never waits for a lock: SQLite checkpoints on close only as the file's last connection, and does not wait to learn it. */
  close (): void {
    if (this.timer !== undefined) clearInterval(this.timer)
    if (this.db.open) this.db.close()
  }

  private isStale (row: Row, now: number): boolean {
    return row.expires_at <= now || (row.state === 'in-flight' && row.created_at <= now - this.abandonAfterMs)
  }
}

const busyTimeout = (options: IdempotencyStoreOptions): number => Math.max(0, Math.trunc(options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS))

/** `statement` run now, or again on timers while another process holds the file locked, for up to `waitMs`. */
const unavailable = (err: unknown): Error => new KeyStoreUnavailableError(err, LOCKED)
const unlocked = async <T>(statement: () => T, waitMs: number): Promise<T> => await unlockedOr(statement, waitMs, unavailable)
