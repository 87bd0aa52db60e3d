// DATABASE_URL for MariaDB/MySQL → connection settings. The option names follow the mssql
// driver's, so clinic IT tunes every server alike.
import type { PoolOptions } from 'mysql2/promise'

export interface MysqlSettings {
  connection: PoolOptions
  /** Connections at most (the clinic's desktop system shares the server: keep it small). */
  poolMax: number
  /** How long a connection attempt, or a wait for a free pooled connection, may take (ms). */
  connectTimeoutMs: number
  /** How long one statement may run (ms; 0: no limit): past it the server stops it and Ponte answers 504. */
  statementTimeoutMs: number
}

const OPTIONS = ['poolMax', 'connectTimeoutMs', 'statementTimeoutMs', 'requestTimeoutMs', 'ssl', 'trustServerCertificate'] as const

/** `mysql://user:password@host:3306/database?poolMax=5&connectTimeoutMs=5000&statementTimeoutMs=15000` (also `mariadb://`). */
export function parseMysqlUrl (url: string): MysqlSettings {
  const u = new URL(url)
  const q = u.searchParams
  for (const name of q.keys()) {
    // A misspelt option silently ignored would leave the default in force unnoticed.
    if (!(OPTIONS as readonly string[]).includes(name)) throw new Error(`DATABASE_URL: unknown MariaDB/MySQL option "${name}" (known: ${OPTIONS.join(', ')})`)
  }
  const int = (name: string, fallback: number, max: number): number => {
    const v = q.get(name)
    if (v === null) return fallback
    const n = Number(v)
    if (!/^\d+$/.test(v) || n > max) throw new Error(`DATABASE_URL: ${name} must be a whole number up to ${max}`)
    return n
  }
  const flag = (name: string): boolean => ['1', 'true', 'yes'].includes(String(q.get(name)).toLowerCase())
  const database = decodeURIComponent(u.pathname.replace(/^\//, ''))
  const connectTimeoutMs = int('connectTimeoutMs', 5000, 600_000)
  // requestTimeoutMs is the mssql name for the same bound.
  const statementTimeoutMs = int('statementTimeoutMs', int('requestTimeoutMs', 15000, 3_600_000), 3_600_000)
  return {
    poolMax: Math.max(1, int('poolMax', 5, 1000)),
    connectTimeoutMs,
    statementTimeoutMs,
    connection: {
      host: u.hostname.replace(/^\[|\]$/g, '') || '127.0.0.1',
      port: u.port ? Number(u.port) : 3306,
      user: decodeURIComponent(u.username) || 'root',
      password: decodeURIComponent(u.password),
      database: database || undefined,
      connectTimeout: connectTimeoutMs,
      charset: 'utf8mb4_unicode_ci',
      // Legacy datetimes are the clinic's wall clock: as text, never through a JS Date and UTC.
      dateStrings: true,
      supportBigNumbers: true,
      bigNumberStrings: false,
      ssl: flag('ssl') ? { rejectUnauthorized: !flag('trustServerCertificate') } : undefined
    }
  }
}
