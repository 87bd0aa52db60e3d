// SQL Server through `mssql` (tedious). It cannot run on our machines, so this file is kept
// small and explicit; the SQL it sends is pinned by the golden tests.
//  - useUTC: false: legacy datetimes are the clinic's wall clock, never shifted.
//  - parameters bind with the column's declared type: a JS string sent as NVARCHAR against
//    an indexed VARCHAR column forces a conversion and a scan.
//  - a small pool and a request timeout: the clinic's desktop system shares this server.
//  - a transaction's claims are application locks (sp_getapplock) it owns, taken first.
import sql from 'mssql'
import { mssqlDialect } from './dialect.js'
import { bindValues, type Statement } from '../statement.js'
import type { SqlTypeName } from '../../mapping/schema.js'
import { DuplicateKeyError, DatabaseTimeoutError, DatabaseUnavailableError, InvalidInputError, MissingValueError } from '../../errors.js'
import { servedFrom, type Database, type Querier, type Row } from '../../db/database.js'
import { claimNames, claimStatements, type ClaimStatements } from '../claims.js'
import { mssqlCatalog, mssqlReferences } from './introspect.js'
import { inBlocks, STREAM_BLOCK_ROWS } from '../blocks.js'

export interface MssqlSettings {
  config: sql.config
  legacyPaging: boolean
}

/** `mssql://user:password@host:1433/database?encrypt=true&trustServerCertificate=true&legacyPaging=true&poolMax=5&requestTimeoutMs=15000` */
export function parseMssqlUrl (url: string): MssqlSettings {
  const u = new URL(url)
  const q = u.searchParams
  const flag = (name: string, fallback: boolean) => q.has(name) ? ['1', 'true', 'yes'].includes(String(q.get(name)).toLowerCase()) : fallback
  const int = (name: string, fallback: number) => {
    const v = q.get(name)
    const n = v === null ? fallback : Number(v)
    if (!Number.isInteger(n) || n < 0) throw new Error(`DATABASE_URL: ${name} must be a whole number`)
    return n
  }
  const [database, instance] = [decodeURIComponent(u.pathname.replace(/^\//, '')), q.get('instance') ?? undefined]
  return {
    legacyPaging: flag('legacyPaging', false),
    config: {
      server: u.hostname,
      port: u.port ? Number(u.port) : undefined,
      user: decodeURIComponent(u.username),
      password: decodeURIComponent(u.password),
      database: database || undefined,
      connectionTimeout: int('connectTimeoutMs', 5000),
      requestTimeout: int('requestTimeoutMs', 15000),
      // A request waits for a connection no longer than it would wait for a new one: against
      // a server that stopped answering, queued requests fail within connectTimeoutMs each,
      // not one after another.
      pool: { min: 0, max: int('poolMax', 5), idleTimeoutMillis: 30000, acquireTimeoutMillis: int('connectTimeoutMs', 5000) },
      options: {
        useUTC: false,
        encrypt: flag('encrypt', true),
        trustServerCertificate: flag('trustServerCertificate', false),
        instanceName: instance,
        appName: 'ponte'
      }
    }
  }
}

const NUMERIC = new Set<SqlTypeName>(['int', 'bigint', 'smallint', 'decimal', 'bit'])

const TYPES: Record<SqlTypeName, () => sql.ISqlType> = {
  int: () => sql.Int(),
  bigint: () => sql.BigInt(),
  smallint: () => sql.SmallInt(),
  text: () => sql.VarChar(8000),
  char: () => sql.VarChar(8000),
  ntext: () => sql.NVarChar(4000),
  nchar: () => sql.NVarChar(4000),
  decimal: () => sql.Decimal(19, 4),
  date: () => sql.Date(),
  datetime: () => sql.DateTime(),
  time: () => sql.Time(0),
  bit: () => sql.Bit()
}

/**
 * Values arrive as the interface's text ('2026-03-15', '2026-03-15 09:30:00', '09:30:00'); dates
 * and times bind as Date objects, which tedious (useUTC: false) sends by their local fields.
 */
export function toMssqlValue (value: unknown, type: SqlTypeName): unknown {
  if (value === undefined || value === null) return null
  if ((type === 'date' || type === 'datetime') && typeof value === 'string') {
    const m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?$/.exec(value)
    if (m) {
      const [year, month, day, hour, minute, second] = m.slice(1, 7).map((p) => Number(p ?? 0))
      // A date column keeps only the day: noon keeps clear of a DST gap at midnight.
      return wallClockDate(value, type === 'date' ? [year, month, day, 12, 0, 0] : [year, month, day, hour, minute, second])
    }
  }
  if (type === 'time' && typeof value === 'string') {
    const m = /^(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value)
    if (m) return wallClockDate(value, [1970, 1, 1, Number(m[1]), Number(m[2]), Number(m[3] ?? 0)])
  }
  return value
}

/**
 * A Date whose local getters give back exactly these parts. new Date(y, …) reads years 0–99
 * as 1900–1999 (the "no birthday" 0001-01-01 would be written as 1901-01-01); setFullYear
 * does not. A wall-clock time the process's zone skips (a DST gap) has no such Date: that is
 * refused rather than written an hour off (server.ts runs with TZ=UTC, which skips none).
 */
function wallClockDate (text: string, [year, month, day, hour, minute, second]: number[]): Date {
  const d = new Date(2000, 0, 1, 12)
  d.setFullYear(year, month - 1, day)
  d.setHours(hour, minute, second, 0)
  if (d.getFullYear() !== year || d.getMonth() !== month - 1 || d.getDate() !== day ||
    d.getHours() !== hour || d.getMinutes() !== minute || d.getSeconds() !== second) {
    throw new RangeError(`${text} is not a time on this process's clock (TZ=${process.env.TZ ?? 'unset'})`)
  }
  return d
}

export async function openMssql (url: string): Promise<Database> {
  const settings = parseMssqlUrl(url)
  const pool = new sql.ConnectionPool(settings.config)
  // Connect lazily per request too: a clinic server that is down at start-up must not keep Ponte down.
  pool.on('error', () => { /* surfaced per request as 503 */ })
  const stats = { statements: 0 }
  // One connection attempt at a time, shared by every request that arrives during it (one
  // socket against a silent server, not one per request). A failed attempt leaves the pool
  // unconnected and forgotten here, so the next request tries again: Ponte recovers when the
  // server comes back, without a restart (mssql resets a pool whose connect failed).
  let connecting: Promise<sql.ConnectionPool> | undefined
  const ready = async (): Promise<sql.ConnectionPool> => {
    if (pool.connected) return pool
    connecting ??= pool.connect().finally(() => { connecting = undefined })
    try {
      return await connecting
    } catch (err) {
      throw new DatabaseUnavailableError(undefined, err)
    }
  }
  const bind = (request: sql.Request, statement: Statement, args: Record<string, unknown>): void => {
    bindValues(statement, args).forEach((v, i) => {
      const type = statement.params[i].type
      // An id that cannot be a number (a text key behind a column declared int) binds as text
      // rather than failing validation; SQL Server converts or refuses it like any literal.
      const asText = NUMERIC.has(type) && typeof v === 'string' && !/^-?\d+$/.test(v)
      // Bytes for a binary column (a UUID fitted to BINARY(16): db/column-values.ts), whatever the mapping's type.
      if (Buffer.isBuffer(v)) request.input(`p${i + 1}`, sql.VarBinary(8000), v)
      else request.input(`p${i + 1}`, asText ? sql.NVarChar(4000) : TYPES[type](), asText ? v : toMssqlValue(v, type))
    })
  }
  const run = async (request: sql.Request, statement: Statement, args: Record<string, unknown>): Promise<Row[]> => {
    bind(request, statement, args)
    stats.statements++
    try {
      const result = await request.query(statement.sql)
      // The statement's own rows are the last result set: a legacy trigger may SELECT before them.
      const sets = result.recordsets as Row[][] | undefined
      return sets && sets.length > 0 ? sets[sets.length - 1] : (result.recordset as Row[] ?? [])
    } catch (err) {
      throw translate(err)
    }
  }
  /**
   * A long read as tedious receives it: the request is paused while a block waits to be sent
   * (mssql's readable stream), so the server holds the rest. Left early, the request is
   * cancelled (an attention to the server) rather than read to its end. requestTimeoutMs
   * bounds the whole read, pauses included.
   */
  async function * streamRows (statement: Statement, args: Record<string, unknown>): AsyncGenerator<Row[]> {
    const request = (await ready()).request()
    bind(request, statement, args)
    let ended = false
    try {
      const rows = request.toReadableStream({ highWaterMark: STREAM_BLOCK_ROWS })
      stats.statements++
      void request.query(statement.sql).catch(() => undefined) // its error reaches the stream too
      yield * inBlocks(rows)
      ended = true
    } catch (err) {
      throw translate(err)
    } finally {
      if (!ended) request.cancel()
    }
  }

  const database: Database = {
    stream: (statement, args = {}) => streamRows(statement, args),
    introspect: {
      catalog: async (at) => await mssqlCatalog(servedFrom(database, at)),
      references: async () => await mssqlReferences(database)
    },
    pool: () => ({ inUse: pool.borrowed, waiting: pool.pending }),
    dialect: mssqlDialect({ legacyPaging: settings.legacyPaging }),
    stats,
    async query (statement: Statement, args = {}) {
      return await run((await ready()).request(), statement, args)
    },
    async transaction (fn, _at, claims = []) {
      const names = claimNames(settings.config.database ?? '', claims)
      // A deadlock victim (1205) lost a race that a retry usually wins.
      for (let attempt = 1; attempt <= 3; attempt++) {
        const tx = new sql.Transaction(await ready())
        try {
          await tx.begin(sql.ISOLATION_LEVEL.READ_COMMITTED)
        } catch (err) {
          throw translate(err)
        }
        try {
          const q = { query: async (statement: Statement, args: Record<string, unknown> = {}) => await run(new sql.Request(tx), statement, args) }
          for (const name of names) await claim(q, name)
          const result = await fn(q)
          await tx.commit()
          return result
        } catch (err) {
          await tx.rollback().catch(() => undefined)
          const number = (err as { number?: number, originalError?: { info?: { number?: number } } }).number ??
            (err as { originalError?: { info?: { number?: number } } }).originalError?.info?.number
          // The last attempt's too: the loop then ends in the 503 below.
          if (number === 1205) continue
          throw translate(err)
        }
      }
      throw new DatabaseUnavailableError('The clinic database kept choosing this request as a deadlock victim.')
    },
    async ping () {
      const request = (await ready()).request()
      try { await request.query('SELECT 1 AS ok') } catch (err) { throw translate(err) }
    },
    async close () {
      // mssql refuses to close a pool while it connects; the attempt ends within connectTimeoutMs.
      await connecting?.catch(() => undefined)
      await pool.close()
    }
  }
  return database
}

const CLAIM = (claimStatements(mssqlDialect()) as ClaimStatements).take

/** Holds the claim `name` until the transaction ends: timed out or cancelled is a 504, a deadlock victim is retried (1205). */
async function claim (tx: Querier, name: string): Promise<void> {
  const [row] = await tx.query(CLAIM, { name })
  const answer = Number(row?.claimed ?? Number.NaN)
  if (answer >= 0) return
  if (answer === -1 || answer === -2) throw new DatabaseTimeoutError()
  if (answer === -3) throw Object.assign(new Error('chosen as a deadlock victim while claiming'), { number: 1205 })
  throw new DatabaseUnavailableError('The clinic database refused a booking lock.')
}

/**
 * 2627 "Violation of UNIQUE KEY constraint 'UQ_x'. Cannot insert duplicate key in object
 * 'dbo.T'. The duplicate key value is (…)." and 2601 "Cannot insert duplicate key row in object
 * 'dbo.T' with unique index 'IX_x'. …": the key's name (a constraint's index has its name) and
 * table, both before the value, which is never kept.
 */
export function duplicateKey (number: 2627 | 2601, message: string): DuplicateKeyError {
  const head = message.split('The duplicate key value is')[0]
  const name = (number === 2627 ? /constraint '([^']+)'/ : /unique index '([^']+)'/).exec(head)?.[1]
  return new DuplicateKeyError({ table: /object '([^']+)'/.exec(head)?.[1], name })
}

function translate (err: unknown): unknown {
  const number = (err as { number?: number }).number
  if (number === 515) return new MissingValueError(/column '([^']+)'/.exec((err as Error).message)?.[1], err)
  if (number === 2627 || number === 2601) return duplicateKey(number, (err as Error).message)
  if (number === 547) return new InvalidInputError('A related record the clinic database requires does not exist.')
  if (number === 8152 || number === 2628) return new InvalidInputError('A value is longer than the clinic database column allows.')
  // A value the column's type cannot hold (Ponte checks ids and dates first; this is the last
  // line): conversion failed (245, 8114), arithmetic overflow (8115, 220), a date or time out
  // of its type's range (241, 242, 517). The server's message quotes the value: never passed on.
  if (number !== undefined && [245, 8114, 8115, 220, 241, 242, 517].includes(number)) return new InvalidInputError('A value does not fit the type of the clinic database column it is compared with or written to.')
  // Not reaching the server (refused, reset, no answer to the login within connectTimeoutMs,
  // no free connection within that time) is a 503; a statement the server took too long to
  // answer (requestTimeoutMs) is a 504.
  if (err instanceof sql.ConnectionError) return new DatabaseUnavailableError(undefined, err)
  // tarn's TimeoutError (not a dependency of ours, so known by name): waiting for a connection.
  if ((err as Error | undefined)?.constructor?.name === 'TimeoutError') return new DatabaseUnavailableError(undefined, err)
  const code = (err as { code?: string }).code
  if (code === 'ETIMEOUT') return new DatabaseTimeoutError(undefined, err)
  if (code === 'ESOCKET' || code === 'ECONNCLOSED' || code === 'ENOTOPEN' || code === 'ELOGIN' || code === 'ECONNRESET' || code === 'ECLOSE' || code === 'ENOCONN') {
    return new DatabaseUnavailableError(undefined, err)
  }
  return err
}
