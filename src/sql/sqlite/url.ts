// DATABASE_URL → the SQLite file and its options.
import type { SqliteOptions } from './driver.js'

/** `sqlite:/data/clinic.db?busyTimeoutMs=2000` (also `sqlite:///data/clinic.db`). */
export function parseSqliteUrl (url: string): { file: string, options: SqliteOptions } {
  const rest = url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '')
  const at = rest.indexOf('?')
  const file = at < 0 ? rest : rest.slice(0, at)
  const options: SqliteOptions = {}
  for (const [name, value] of new URLSearchParams(at < 0 ? '' : rest.slice(at + 1))) {
    // A misspelt option silently ignored would leave the default in force unnoticed.
    if (name !== 'busyTimeoutMs') throw new Error(`DATABASE_URL: unknown SQLite option "${name}" (known: busyTimeoutMs)`)
    const n = Number(value)
    if (!/^\d+$/.test(value) || n > 600_000) throw new Error('DATABASE_URL: busyTimeoutMs must be a whole number of milliseconds up to 600000')
    options.busyTimeoutMs = n
  }
  return { file, options }
}
