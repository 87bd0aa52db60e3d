// One SQLite connection as Ponte uses it, opened the same way in the worker thread that runs the
// statements (worker.ts) and for the handle tests and tools read beside it (driver.ts `raw`).
import BetterSqlite3 from 'better-sqlite3'
import { foldName } from '../../normalise/text.js'

export function openConnection (file: string, { readonly, busyTimeoutMs }: { readonly: boolean, busyTimeoutMs: number }): BetterSqlite3.Database {
  const db = new BetterSqlite3(file, { fileMustExist: true, readonly })
  db.pragma(`busy_timeout = ${Math.max(0, Math.trunc(busyTimeoutMs))}`)
  // Name search folds case and accents on both sides (see sqlite/dialect.ts foldedLike).
  db.function('ponte_fold', { deterministic: true }, (x: unknown) => x === null || x === undefined ? null : foldName(String(x)))
  return db
}
