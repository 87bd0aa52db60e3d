// DATABASE_URL → a driver. A new server is a folder sql/<dialect>/ and one line here.
// The network drivers are imported only when DATABASE_URL names them: each weighs 15-35 MB
// of resident memory once loaded, which a SQLite installation would carry for nothing.
import type { Database } from './database.js'
import { openSqlite, type SqliteOptions } from '../sql/sqlite/driver.js'

export async function connect (url: string): Promise<Database> {
  if (url.startsWith('sqlite:')) {
    const { file, options } = parseSqliteUrl(url)
    return openSqlite(file, options)
  }
  if (url.startsWith('mssql:') || url.startsWith('sqlserver:')) {
    const { openMssql } = await import('../sql/mssql/driver.js')
    return await openMssql(url.replace(/^sqlserver:/, 'mssql:'))
  }
  if (/^(mysql|mariadb):/.test(url)) {
    const { openMysql } = await import('../sql/mysql/driver.js')
    return await openMysql(url)
  }
  if (/^postgres(ql)?:/.test(url)) {
    const { openPostgres } = await import('../sql/postgres/driver.js')
    return await openPostgres(url)
  }
  throw new Error(`DATABASE_URL: unsupported scheme in "${url.split(':')[0]}:…" (use sqlite:, mssql:, mysql:, mariadb: or postgres:)`)
}

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
