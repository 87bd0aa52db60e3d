// MariaDB/MySQL failures → Ponte's typed errors. The server's messages quote values and
// name the schema: they go to the log as the cause, never to the caller.
import { DuplicateKeyError, DatabaseTimeoutError, DatabaseUnavailableError, InvalidInputError, MissingValueError } from '../../errors.js'

interface MysqlError { errno?: number, code?: string, fatal?: boolean, message?: string }

/**
 * Deadlock victim, rolled back and safe to run again: 1213 for row locks (and MariaDB's named
 * locks), 3058 for MySQL 5.7+'s named locks (GET_LOCK taken crosswise).
 */
const DEADLOCKS = new Set([1213, 3058])
export const isDeadlock = (errno: number | undefined): boolean => errno !== undefined && DEADLOCKS.has(errno)

/** Not reaching the server, or losing it: refused, reset, no answer in time, killed, shut down, full. */
const NETWORK = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE',
  'PROTOCOL_CONNECTION_LOST', 'PROTOCOL_ENQUEUE_AFTER_FATAL_ERROR', 'PROTOCOL_ENQUEUE_AFTER_QUIT', 'ER_CON_COUNT_ERROR'])
// 1040 too many connections, 1045 access denied, 1049 unknown database, 1053 shutting down,
// 1152/1184 aborted connection, 1203 user over max connections, 1317 query interrupted (KILL QUERY),
// 1836 read-only mode, 1927 connection killed, 2002/2003/2006/2013 client-side connection losses.
const UNAVAILABLE = new Set([1040, 1045, 1049, 1053, 1152, 1184, 1203, 1290, 1317, 1836, 1927, 2002, 2003, 2006, 2013])
// 1969 MariaDB max_statement_time, 3024 MySQL max_execution_time, 1205 lock wait timeout.
const TIMEOUT = new Set([1969, 3024, 1205])
// 1366 incorrect integer/decimal value, 1292 incorrect date value, 1264/1690 out of range,
// 1265 data truncated, 1367 illegal value, 1411 incorrect value for a function, 1366 wrong string value.
const CONVERSION = new Set([1366, 1292, 1264, 1690, 1265, 1367, 1411, 1918])

export function translate (err: unknown): unknown {
  if (err instanceof DatabaseUnavailableError || err instanceof DatabaseTimeoutError) return err
  const { errno, code } = (err ?? {}) as MysqlError
  if (errno === 1048 || errno === 1364) return new MissingValueError(/(?:Column|Field) '([^']+)'/.exec((err as Error).message)?.[1], err)
  // "Duplicate entry '…' for key 'name'" (MySQL 8: 'table.name'): the key's name ends the
  // message, after the value, which is never kept.
  if (errno === 1062 || errno === 1586) return new DuplicateKeyError({ name: /for key '([^']*)'$/.exec((err as Error).message ?? '')?.[1] })
  if (errno === 1452 || errno === 1451 || errno === 1216 || errno === 1217) return new InvalidInputError('A related record the clinic database requires does not exist.')
  if (errno === 1406) return new InvalidInputError('A value is longer than the clinic database column allows.')
  if (errno !== undefined && CONVERSION.has(errno)) return new InvalidInputError('A value does not fit the type of the clinic database column it is compared with or written to.')
  if (errno !== undefined && TIMEOUT.has(errno)) return new DatabaseTimeoutError(undefined, err)
  // mysql2's own inactivity timer: the server went silent in the middle of a statement.
  if (code === 'PROTOCOL_SEQUENCE_TIMEOUT') return new DatabaseTimeoutError(undefined, err)
  if (isDeadlock(errno)) return new DatabaseUnavailableError('The clinic database kept choosing this request as a deadlock victim.', err)
  if ((errno !== undefined && UNAVAILABLE.has(errno)) || (code !== undefined && NETWORK.has(code))) return new DatabaseUnavailableError(undefined, err)
  // Any other failure that ended the connection is the server's, not the request's.
  if ((err as MysqlError | undefined)?.fatal === true) return new DatabaseUnavailableError(undefined, err)
  return err
}

/** The server's own error behind one of ours (translate keeps it as the cause). */
export function serverError (err: unknown): MysqlError {
  const e = (err ?? {}) as MysqlError & { cause?: unknown }
  return e.errno === undefined && e.code === undefined && typeof e.cause === 'object' && e.cause !== null ? e.cause as MysqlError : e
}

/** The connection cannot be given back to the pool: its session is gone or out of step. */
export function connectionBroken (err: unknown): boolean {
  const { fatal, code, errno } = serverError(err)
  return fatal === true || code === 'PROTOCOL_SEQUENCE_TIMEOUT' || (code !== undefined && NETWORK.has(code)) || errno === 1927 || errno === 2013 || errno === 2006
}
