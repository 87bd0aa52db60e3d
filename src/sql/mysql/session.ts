// What every Ponte session on a MariaDB/MySQL server is set to, whatever the server's own
// defaults (a clinic's server may run READ COMMITTED, or without strict mode).
import type { PoolConnection } from 'mysql2/promise'
import type { MysqlSettings } from './settings.js'

const UNKNOWN_VARIABLE = 1193

export async function prepareSession (conn: PoolConnection, settings: MysqlSettings): Promise<void> {
  const seconds = settings.statementTimeoutMs / 1000
  // Strict: a value too long or of the wrong type is an error (a 400), never silently cut.
  // No PIPES_AS_CONCAT or ANSI_QUOTES reliance: the dialect writes CONCAT() and backticks.
  await conn.query("SET SESSION sql_mode = 'STRICT_ALL_TABLES,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION'")
  // A max + 1 key read FOR UPDATE relies on REPEATABLE READ's next-key (gap) locks: READ
  // COMMITTED takes none, and two bookings would both take the same key.
  await conn.query('SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ')
  // textList's GROUP_CONCAT: MySQL's default cuts lists at 1024 bytes.
  await conn.query('SET SESSION group_concat_max_len = 1048576')
  // A lock wait ends with the statement's bound too (1205 → 504), not InnoDB's default 50 s.
  if (seconds > 0) await conn.query('SET SESSION innodb_lock_wait_timeout = ?', [Math.max(1, Math.ceil(seconds))])
  // MariaDB: max_statement_time (seconds) bounds every statement, error 1969. MySQL has no
  // such variable: max_execution_time (ms) bounds SELECTs only, error 3024; its writes are
  // bounded by the lock wait timeout above and by the driver's inactivity timer.
  try {
    await conn.query('SET SESSION max_statement_time = ?', [seconds])
  } catch (err) {
    if ((err as { errno?: number }).errno !== UNKNOWN_VARIABLE) throw err
    await conn.query('SET SESSION max_execution_time = ?', [settings.statementTimeoutMs])
  }
}
