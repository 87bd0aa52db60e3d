// A SQLite file of Ponte's own that holds patient data (the event log, the Idempotency-Key
// store): readable by this user only, in WAL mode, its schema made on open, and every
// statement waiting out another process's lock on timers (while-locked.ts), never in SQLite.
import { chmodSync, existsSync, mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { isBusy, whileLocked } from './while-locked.js'

/** Runs `statement` once no other process holds its lock, for up to `waitMs`; a lock held longer is `unavailable`'s error. */
export async function unlockedOr<T> (statement: () => T, waitMs: number, unavailable: (err: unknown) => Error): Promise<T> {
  try {
    return await whileLocked(async () => statement(), performance.now() + waitMs)
  } catch (err) {
    throw isBusy(err) ? unavailable(err) : err
  }
}

/** Opens (creating if need be) the store at `file` (':memory:' for a private one) with `schema` made. */
export async function openPrivateStore (file: string, schema: string, waitMs: number, unavailable: (err: unknown) => Error): Promise<BetterSqlite3.Database> {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true, mode: 0o700 })
  const db = new BetterSqlite3(file, { timeout: 0 })
  if (file !== ':memory:') for (const f of [file, `${file}-wal`, `${file}-shm`]) if (existsSync(f)) chmodSync(f, 0o600)
  try {
    await unlockedOr(() => {
      db.pragma('journal_mode = WAL')
      db.pragma('synchronous = NORMAL')
      db.exec(schema)
    }, waitMs, unavailable)
  } catch (err) {
    db.close()
    throw err
  }
  return db
}
