// PostgreSQL through `pg`. Values come back in the shapes the SQLite driver gives (dates and
// times as the wall clock's text, numbers as numbers), parsed per pool so no other pg user
// in the process is affected.
//
// Booking's lock: every transaction runs SERIALIZABLE and a serialization failure (40001) or
// deadlock (40P01) is retried. PostgreSQL has no gap locks: SELECT … FOR UPDATE locks the
// rows a booking reads, not the empty slot it is about to fill, so two bookings of one free
// slot would both see it free. Serializable snapshot isolation sees exactly that pattern
// (both read the day, both insert into it) and fails all but one at insert or commit; the
// retry then reads the winner's row and answers 409. It needs no knowledge of which table
// holds the slot, and works across Ponte replicas. A booking's claims (Database.transaction)
// are also taken, as session advisory locks before BEGIN and given back after the commit: two
// bookings of one day then run one after the other, the second's snapshot holding the first's
// row, instead of both running and one failing (and its retry, and past the retries a 503).
// It serialises against Ponte's own writes only, as the other servers' claims do: a desktop
// system writing at READ COMMITTED is not checked, and a row it holds locked does not hold up
// a booking.
import { createHash } from 'node:crypto'
import pg from 'pg'
import { postgres } from './dialect.js'
import { bindValues, type Statement } from '../statement.js'
import type { SqlTypeName } from '../../mapping/schema.js'
import { PonteError, DuplicateKeyError, DatabaseTimeoutError, DatabaseUnavailableError, InvalidInputError, MissingValueError } from '../../errors.js'
import { servedFrom, type Arrival, type Database, type Row } from '../../db/database.js'
import { postgresCatalog, postgresReferences } from './introspect.js'
import { STREAM_BLOCK_ROWS } from '../blocks.js'
import { isStalePlan, PreparedNames } from './prepared.js'
import { PortalRead } from './portal.js'

export interface PostgresSettings {
  config: pg.PoolConfig
  statementTimeoutMs: number
  connectTimeoutMs: number
  /** Whether statements are prepared by name on each connection (prepared.ts); off behind a pooler that cannot keep them (PgBouncer before 1.21 in transaction mode). */
  preparedStatements: boolean
}

const OPTIONS = ['poolMax', 'connectTimeoutMs', 'statementTimeoutMs', 'requestTimeoutMs', 'sslmode', 'preparedStatements'] as const

/** Prepared statements kept per connection at most: more than a mapping's statements, so a busy server's are all kept. */
const PREPARED_PER_CONNECTION = 256

/** `postgres://user:password@host:5432/database?poolMax=5&connectTimeoutMs=5000&statementTimeoutMs=15000&sslmode=require` */
export function parsePostgresUrl (url: string): PostgresSettings {
  const u = new URL(url)
  const q = u.searchParams
  for (const name of q.keys()) {
    // A misspelt option silently ignored would leave the default in force unnoticed.
    if (!(OPTIONS as readonly string[]).includes(name)) throw new Error(`DATABASE_URL: unknown PostgreSQL option "${name}" (known: ${OPTIONS.join(', ')})`)
  }
  const int = (name: string, fallback: number, min = 0): number => {
    const v = q.get(name)
    const n = v === null ? fallback : Number(v)
    if (!Number.isInteger(n) || n < min || n > 600_000) throw new Error(`DATABASE_URL: ${name} must be a whole number from ${min} to 600000`)
    return n
  }
  const connectTimeoutMs = int('connectTimeoutMs', 5000, 1)
  // requestTimeoutMs is the SQL Server URL's name for the same bound.
  const statementTimeoutMs = q.has('statementTimeoutMs') ? int('statementTimeoutMs', 15000, 1) : int('requestTimeoutMs', 15000, 1)
  const sslmode = q.get('sslmode') ?? 'disable'
  if (!['disable', 'require', 'verify-full'].includes(sslmode)) throw new Error('DATABASE_URL: sslmode must be disable, require or verify-full')
  const prepared = q.get('preparedStatements') ?? 'true'
  if (!['true', 'false'].includes(prepared)) throw new Error('DATABASE_URL: preparedStatements must be true or false')
  return {
    statementTimeoutMs,
    connectTimeoutMs,
    preparedStatements: prepared === 'true',
    config: {
      host: u.hostname.replace(/^\[|\]$/g, '') || '127.0.0.1',
      port: u.port ? Number(u.port) : 5432,
      user: decodeURIComponent(u.username) || 'postgres',
      password: decodeURIComponent(u.password) || undefined,
      database: decodeURIComponent(u.pathname.replace(/^\//, '')) || undefined,
      max: int('poolMax', 5, 1),
      // Also the bound on waiting for a free connection of the pool (pg-pool): a request
      // waits for one no longer than it would wait for a new one.
      connectionTimeoutMillis: connectTimeoutMs,
      idleTimeoutMillis: 30000,
      // Server side: the statement is cancelled (57014, a 504) and the connection stays usable.
      statement_timeout: statementTimeoutMs,
      // Client side, for a server that stopped answering altogether (no cancel can arrive).
      query_timeout: statementTimeoutMs + connectTimeoutMs,
      // A transaction abandoned mid-way must not hold its locks against the desktop system.
      idle_in_transaction_session_timeout: Math.max(statementTimeoutMs * 2, 60000),
      application_name: 'ponte',
      // ISO dates whatever the server's default; no time zone applies to the wall-clock types used.
      options: '-c DateStyle=ISO,YMD -c IntervalStyle=postgres',
      ssl: sslmode === 'disable' ? false : { rejectUnauthorized: sslmode === 'verify-full' },
      types: { getTypeParser: typeParser as never }
    }
  }
}

const OID = { int8: 20, numeric: 1700, date: 1082, time: 1083, timestamp: 1114, timestamptz: 1184, timetz: 1266 }

/** The shapes the readers expect (compile/decode.ts), the same as SQLite's text and numbers. */
function typeParser (oid: number, format?: 'text' | 'binary'): (value: string) => unknown {
  if (format === 'binary') return pg.types.getTypeParser(oid, format)
  switch (oid) {
    case OID.date: case OID.time: case OID.timestamp: case OID.timestamptz: case OID.timetz:
      return (v) => v
    case OID.int8: return (v) => {
      const n = Number(v)
      return Number.isSafeInteger(n) ? n : v
    }
    case OID.numeric: return (v) => {
      // Exact when the digits fit a double (15 significant); more stays text rather than rounding.
      const n = Number(v)
      return Number.isFinite(n) && v.replace(/^[-+]?0*|\.|-/g, '').replace(/0+$/, '').length <= 15 ? n : v
    }
    default: return pg.types.getTypeParser(oid, 'text')
  }
}

/** Values as the interface gives them ('2026-03-15', '09:30:00', numbers, text): PostgreSQL reads the text itself. */
function toPostgres (value: unknown, type: SqlTypeName): unknown {
  if (value === undefined || value === null) return null
  if (typeof value === 'boolean') return value ? 1 : 0
  if (value instanceof Date) return wallClock(value)
  if (type === 'bit' && typeof value === 'string') return value
  return value
}

const pad = (n: number): string => String(n).padStart(2, '0')
function wallClock (d: Date): string {
  return `${String(d.getFullYear()).padStart(4, '0')}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`
}

const RETRYABLE = new Set(['40001', '40P01'])

// A booking's claims as session advisory locks: taken in one statement, listed in the keys'
// order; PostgreSQL does not promise to evaluate a select list in order, and does not need to:
// two bookings that meet crosswise get a deadlock (40P01), which is retried. Given back at once.
const claimTake = (count: number): string => `SELECT ${Array.from({ length: count }, (_, i) => `pg_advisory_lock($${i + 1}::bigint)`).join(', ')}`
const CLAIM_GIVE_BACK = 'SELECT pg_advisory_unlock_all()'

/** Each claim once, as a signed 64-bit advisory lock key (text for pg), in ascending order. */
function claimKeys (claims: readonly string[]): string[] {
  const keys = [...new Set(claims)].map((c) => createHash('sha256').update(c).digest().readBigInt64BE(0))
  return [...new Set(keys)].sort((a, b) => a < b ? -1 : a > b ? 1 : 0).map(String)
}

/** Whether the claims a connection took (if any) were given back; false: it must be closed, not reused. */
async function giveBack (client: pg.PoolClient, held: boolean): Promise<boolean> {
  if (!held) return true
  return await client.query(CLAIM_GIVE_BACK).then(() => true, () => false)
}
const MAX_ATTEMPTS = 10

/**
 * Rows a streamed read asks the server for at a time: eight blocks, so a month of one clinic's
 * appointments (the bench's W2, 6,546 rows) comes in one round trip, and what a read holds
 * before its rows are handed on stays bounded (issue 29).
 */
export const READ_ROWS = 8 * STREAM_BLOCK_ROWS

export async function openPostgres (url: string): Promise<Database> {
  const settings = parsePostgresUrl(url)
  const pool = new pg.Pool(settings.config)
  // An idle connection the server closed: pg-pool drops it; the next request opens another.
  pool.on('error', () => { /* surfaced per request as 503 */ })
  const stats = { statements: 0 }

  // While no connection is open (start, or after the server went away), requests share one
  // attempt: one socket against a silent server, not one per request. A failed attempt is
  // forgotten, so the next request tries again and Ponte recovers without a restart.
  let opening: Promise<void> | undefined
  let reachable = false
  // A connection lent to a request that dies under it (server stopped, pg_terminate_backend)
  // emits 'error' on the client, not the pool: unheard, Node would end the process. The query
  // running on it fails on its own and becomes a 503; here we only note the server is in doubt.
  pool.on('connect', (client) => { client.on('error', () => { reachable = false }) })
  const acquire = async (): Promise<pg.PoolClient> => {
    if (!reachable) {
      opening ??= pool.connect().then((c) => { c.release(); reachable = true }).finally(() => { opening = undefined })
      try { await opening } catch (err) { throw unavailable(err) }
    }
    try {
      return await pool.connect()
    } catch (err) {
      if (isConnectionLevel(err) && !isPoolWait(err)) reachable = false
      throw unavailable(err)
    }
  }
  // A connection that failed below SQL (reset, terminated, timed out) is closed, not reused,
  // and the next request checks the server is back before more connections are opened.
  const prepared = settings.preparedStatements ? new PreparedNames(PREPARED_PER_CONNECTION) : undefined
  // A connection holding a statement the server can no longer run, or names from before a
  // reload, is closed too (release(true)): what pg remembers of it goes with it.
  const release = (client: pg.PoolClient, err?: unknown): void => {
    const broken = err !== undefined && isConnectionLevel(err)
    if (broken) reachable = false
    const spent = isStalePlan(err) || prepared?.retired(client) === true
    client.release(broken ? err as Error : spent ? true : undefined)
  }
  const run = async (client: pg.PoolClient, statement: Statement, args: Record<string, unknown>): Promise<Row[]> => {
    const values = bindValues(statement, args).map((v, i) => toPostgres(v, statement.params[i].type))
    stats.statements++
    // A statement whose plan depends on its values runs unnamed: PostgreSQL plans an unnamed
    // statement with the values bound, and a named one, after five runs, maybe once for all.
    const name = statement.planEachRun === true ? undefined : prepared?.nameFor(client, statement.sql)
    const result = await client.query({ name, text: statement.sql, values })
    return result.rows as Row[]
  }
  /** A statement outside a transaction on a connection of its own; a stale prepared statement closes it and the statement runs once more on another. */
  const runAlone = async (statement: Statement, args: Record<string, unknown>, again = true): Promise<Row[]> => {
    const client = await acquire()
    try {
      const rows = await run(client, statement, args)
      release(client)
      return rows
    } catch (err) {
      release(client, err)
      // Every pooled connection prepared the same names: retire them all, or the retry would
      // meet the next stale one. The retry runs unnamed; new connections prepare afresh.
      if (isStalePlan(err)) prepared?.forgetAll()
      if (again && isStalePlan(err)) return await runAlone(statement, args, false)
      throw translate(err)
    }
  }

  /**
   * A long read through a protocol-level portal (portal.ts): up to READ_ROWS rows a round trip,
   * handed on in blocks of STREAM_BLOCK_ROWS. The connection is the read's until the last rows
   * are taken or the caller leaves; then Sync ends the portal's transaction.
   */
  async function * portalRows (statement: Statement, args: Record<string, unknown>): AsyncGenerator<Row[]> {
    const values = bindValues(statement, args).map((v, i) => toPostgres(v, statement.params[i].type))
    const client = await acquire()
    stats.statements++
    const read = new PortalRead(statement.sql, values, new pg.Result('object', settings.config.types as never) as never, READ_ROWS, settings.statementTimeoutMs + settings.connectTimeoutMs)
    let failure: unknown
    try {
      client.query(read)
      for (let first = true, more = true; more; first = false) {
        const batch = await read.next(first)
        more = batch.more
        const { rows } = batch
        if (rows.length <= STREAM_BLOCK_ROWS) {
          if (rows.length > 0) yield rows
        } else {
          for (let i = 0; i < rows.length; i += STREAM_BLOCK_ROWS) yield rows.slice(i, i + STREAM_BLOCK_ROWS)
        }
      }
    } catch (err) {
      failure = err
      throw translate(err)
    } finally {
      // Read to its end, left early or failed in SQL: Sync ends the portal and the connection
      // goes back. A connection that failed below SQL is closed.
      failure ??= await read.end()
      const clean = failure === undefined || !isConnectionLevel(failure)
      if (!clean) reachable = false
      client.release(clean ? undefined : new Error('the streamed read\'s connection failed'))
    }
  }

  const database: Database = {
    dialect: postgres,
    stats,
    introspect: {
      catalog: async (at) => await postgresCatalog(servedFrom(database, at)),
      references: async () => await postgresReferences(database)
    },
    pool: () => ({ inUse: pool.totalCount - pool.idleCount, waiting: pool.waitingCount }),
    async query (statement, args = {}) {
      return await runAlone(statement, args)
    },
    async transaction (fn, at: Arrival, claims = []) {
      const keys = claimKeys(claims)
      // Retries stop at the statement bound counted from the request's arrival, so a request
      // that keeps losing races answers 503 in bounded time.
      const deadline = (at ?? performance.now()) + settings.statementTimeoutMs
      let staleRetried = false
      for (let attempt = 1; ; attempt++) {
        const client = await acquire()
        const fail = (err: unknown): never => { throw translate(err) }
        let result: Awaited<ReturnType<typeof fn>>
        // Claimed before the snapshot is taken (at BEGIN's first statement), in one order for all.
        let held = false
        try {
          if (keys.length > 0) {
            held = true
            await client.query(claimTake(keys.length), keys).catch(fail)
          }
          await client.query('BEGIN ISOLATION LEVEL SERIALIZABLE').catch(fail)
          result = await fn({ query: async (statement, args = {}) => await run(client, statement, args).catch(fail) })
          await client.query('COMMIT').catch(fail)
        } catch (err) {
          // A connection that cannot even roll back is closed rather than handed to the next
          // request; nor one holding a prepared statement the server can no longer use.
          const clean = await client.query('ROLLBACK').then(() => true, () => false) && await giveBack(client, held)
          if (err instanceof StalePlanError) prepared?.forgetAll()
          const spent = err instanceof StalePlanError || prepared?.retired(client) === true
          client.release(clean ? spent : new Error('rollback failed'))
          // Rolled back whole, the transaction runs once more on a new connection.
          if (err instanceof StalePlanError && !staleRetried && performance.now() < deadline) {
            staleRetried = true
            continue
          }
          if (err instanceof ConcurrentChangeError && attempt < MAX_ATTEMPTS && performance.now() < deadline) {
            // Jitter: the losers of one race should not meet again at the same instant.
            await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt))
            continue
          }
          throw err
        }
        // A connection still holding a claim would keep that day from every other booking.
        if (!await giveBack(client, held)) client.release(new Error('claims not given back'))
        else release(client)
        return result
      }
    },
    stream: (statement, args = {}) => portalRows(statement, args),
    async ping () {
      const client = await acquire()
      try {
        await client.query('SELECT 1 AS ok')
        release(client)
      } catch (err) {
        release(client, err)
        throw translate(err)
      }
    },
    forgetPrepared: () => { prepared?.forgetAll() },
    async close () {
      await opening?.catch(() => undefined)
      await pool.end()
    }
  }
  return database
}

/** A serialization failure or deadlock: the transaction lost a race that a retry usually wins. */
class ConcurrentChangeError extends DatabaseUnavailableError {}

/** A prepared statement the server no longer has or can use (prepared.ts): its connection is closed, and the work is run again once on another. */
class StalePlanError extends DatabaseUnavailableError {}

/** The SQLSTATE of an error the server sent; undefined for failures below SQL. */
const sqlState = (err: unknown): string | undefined => err instanceof pg.DatabaseError ? err.code : undefined

/** pg-pool's own timeout for a free connection: the server is fine, the pool is full. */
const isPoolWait = (err: unknown): boolean => err instanceof Error && /timeout exceeded when trying to connect/i.test(err.message)

/** Not an answer of SQL: the connection or the server is gone, or never answered. */
function isConnectionLevel (err: unknown): boolean {
  const code = sqlState(err)
  if (code === undefined) return true
  return code.startsWith('08') || code.startsWith('57P') || code.startsWith('53')
}

function unavailable (err: unknown): DatabaseUnavailableError {
  return err instanceof DatabaseUnavailableError ? err : new DatabaseUnavailableError(undefined, err)
}

// Class 22 codes for a value the column's type cannot hold; pg's message quotes the value,
// so it is never passed on.
const CONVERSION = new Set(['22P02', '22003', '22007', '22008', '22009', '22018', '22021', '22023', '22025', '2201B'])

export function translate (err: unknown): unknown {
  if (err instanceof PonteError) return err
  const code = sqlState(err)
  if (code === '23502') return new MissingValueError((err as { column?: string }).column, err)
  // pg's DatabaseError names the constraint (a unique index's own name) and its table; its detail quotes the value.
  if (code === '23505') return new DuplicateKeyError({ table: (err as pg.DatabaseError).table, name: (err as pg.DatabaseError).constraint })
  if (code === '23503') return new InvalidInputError('A related record the clinic database requires does not exist.')
  if (code === '22001') return new InvalidInputError('A value is longer than the clinic database column allows.')
  if (code !== undefined && CONVERSION.has(code)) return new InvalidInputError('A value does not fit the type of the clinic database column it is compared with or written to.')
  // 57014: statement_timeout cancelled it (a 504); the server shutting down or killing the
  // connection (57P01–57P03), a lost connection (08), no room for one (53): a 503.
  if (code === '57014') return new DatabaseTimeoutError(undefined, err)
  if (isStalePlan(err)) return new StalePlanError('A statement prepared before a change to the clinic database\'s schema could not run; retry.', err)
  if (code !== undefined && RETRYABLE.has(code)) return new ConcurrentChangeError('The clinic database kept refusing this change because of concurrent changes; retry.', err)
  if (code !== undefined && (code.startsWith('08') || code.startsWith('57P') || code.startsWith('53') || code.startsWith('28') || code === '3D000')) return new DatabaseUnavailableError(undefined, err)
  if (code === undefined && err instanceof Error) {
    // pg's own query_timeout: the server did not answer at all within the bound.
    if (/query read timeout/i.test(err.message)) return new DatabaseTimeoutError(undefined, err)
    return new DatabaseUnavailableError(undefined, err)
  }
  return err
}
