// MariaDB/MySQL through mysql2: a small pool of server-side prepared statements.
//  - every parameter binds with its column's declared type (values.ts);
//  - dates come back as text (dateStrings), the clinic's wall clock, never shifted;
//  - each session gets the statement timeout, REPEATABLE READ and strict mode (session.ts);
//  - a transaction's claims are named locks (GET_LOCK), taken before it begins and released
//    after it ends, on its own connection (dialect.ts claim);
//  - a server that is down or silent is a 503 within connectTimeoutMs, and requests arriving
//    meanwhile share one connection attempt; the next request after it returns succeeds.
import mysql, { type Pool, type PoolConnection } from 'mysql2/promise'
import type { Connection as CallbackConnection } from 'mysql2'
import { mysql as mysqlDialect } from './dialect.js'
import { parseMysqlUrl, type MysqlSettings } from './settings.js'
import { rowFixer, toMysqlValue, type ResultField } from './values.js'
import { connectionBroken, isDeadlock, serverError, translate } from './errors.js'
import { prepareSession } from './session.js'
import { inTextOrder } from './order.js'
import { mysqlCatalog, mysqlReferences } from './introspect.js'
import { allClaimsStatements, claimArgs, claimNames, type ClaimStatements } from '../claims.js'
import { bindValues, type Statement } from '../statement.js'
import { DatabaseTimeoutError, DatabaseUnavailableError } from '../../errors.js'
import type { Socket } from 'node:net'
import type { Readable } from 'node:stream'
import { inBlocks, STREAM_BLOCK_ROWS } from '../blocks.js'
import { servedFrom, type Database, type Querier, type Row } from '../../db/database.js'

/** Rows mysql2 buffers for a streamed read before it pauses the socket: one block. */
const STREAM_HIGH_WATER = STREAM_BLOCK_ROWS

/** The socket under a pooled connection (mysql2 keeps it as the callback connection's `stream`). */
const socketOf = (conn: PoolConnection): Socket | undefined => (conn.connection as unknown as { stream?: Socket }).stream

/** A transaction's claims, taken and given back in one statement each, by how many they are. */
const CLAIMS = new Map<number, Required<ClaimStatements>>()
function claimsOf (count: number): Required<ClaimStatements> {
  let statements = CLAIMS.get(count)
  if (statements === undefined) CLAIMS.set(count, statements = allClaimsStatements(mysqlDialect, count)!)
  return statements
}

/** A booking that lost a deadlock is run again this many times at most, then answered 503. */
const DEADLOCK_ATTEMPTS = 12

export async function openMysql (url: string): Promise<Database> {
  const settings = parseMysqlUrl(url)
  const pool = mysql.createPool({
    ...settings.connection,
    connectionLimit: settings.poolMax,
    maxIdle: settings.poolMax,
    idleTimeout: 30_000,
    waitForConnections: true,
    queueLimit: 0,
    enableKeepAlive: true,
    // mysql2's long stack traces capture the caller's stack at every execute (Error.captureStackTrace):
    // a measurable share of a one-row read's CPU. Every driver error is translated to Ponte's own
    // (errors.ts), whose stack is ours, so the captured frames were never shown.
    trace: false
  })
  // An idle connection the server drops is removed by mysql2 and reported here: per request instead.
  pool.on('connection', (c) => { c.on('error', () => undefined) })
  const connections = new Connections(pool, settings)
  const stats = { statements: 0 }
  // Claims name the database: MySQL's named locks are the server's, shared by its databases.
  const scope = settings.connection.database ?? ''

  /**
   * Takes the named locks in one statement, listed in their order (MariaDB does not promise to
   * evaluate them in it: two bookings meeting crosswise get a deadlock, 1213 or MySQL's 3058, which is retried).
   * Each is in `held` before it is asked for: one statement taking several may fail after
   * taking some, and giving back a lock not held changes nothing.
   */
  const claim = async (conn: PoolConnection, names: string[], held: string[]): Promise<void> => {
    if (names.length === 0) return
    held.push(...names)
    const [row] = await run(conn, claimsOf(names.length).take, claimArgs(names))
    const answers = names.map((_, i) => Number(row?.[`claimed${i}`] ?? Number.NaN))
    if (answers.some((a) => a !== 0 && a !== 1)) throw new DatabaseUnavailableError('The clinic database refused a booking lock.')
    if (answers.includes(0)) throw new DatabaseTimeoutError()
  }
  /** Whether every lock in `held` was given back, in one statement (false: the connection must not be reused). */
  const release = async (conn: PoolConnection, held: string[]): Promise<boolean> => {
    if (held.length === 0) return true
    return await run(conn, claimsOf(held.length).release, claimArgs(held)).then(() => true, () => false)
  }

  const inTransaction = async <T>(conn: PoolConnection, fn: (tx: Querier) => Promise<T>): Promise<T> => {
    await conn.query('START TRANSACTION')
    try {
      const result = await fn({ query: async (statement, args = {}) => await run(conn, statement, args) })
      await conn.query('COMMIT')
      return result
    } catch (err) {
      if (!connectionBroken(err)) await conn.query('ROLLBACK').catch(() => undefined)
      throw err
    }
  }

  const run = async (conn: PoolConnection, statement: Statement, args: Record<string, unknown>): Promise<Row[]> => {
    const values = inTextOrder(statement, bindValues(statement, args).map((v, i) => toMysqlValue(v, statement.params[i].type)))
    stats.statements++
    // The server stops the statement at max_statement_time; this timer only catches a server
    // that stopped answering altogether (a second more, so the server's own 504 comes first).
    const timeout = settings.statementTimeoutMs > 0 ? settings.statementTimeoutMs + 1000 : undefined
    let result: unknown
    let fields: unknown
    try {
      [result, fields] = await conn.execute({ sql: statement.sql, timeout }, values as never[])
    } catch (err) {
      // At once, inside a transaction too: a service tells a missing value from a conflict.
      throw translate(err)
    }
    if (Array.isArray(result)) {
      rowFixer(fields as ResultField[] | undefined)?.(result as Row[])
      return result as Row[]
    }
    // An insert answers with its AUTO_INCREMENT key, as INSERT … RETURNING would (dialect.ts).
    const id = (result as { insertId?: number | string }).insertId
    return id !== undefined && id !== 0 && id !== '0' ? [{ id }] : []
  }

  /**
   * A long read as mysql2 receives it: rows flow from the socket in blocks, and the socket is
   * paused while a block waits to be sent, so the server holds the rest. The connection is the
   * read's until the last block is taken; a read left early (or failed) closes its connection,
   * since the server would otherwise go on sending rows nobody reads before it is usable again.
   */
  async function * streamRows (statement: Statement, args: Record<string, unknown>): AsyncGenerator<Row[]> {
    const values = inTextOrder(statement, bindValues(statement, args).map((v, i) => toMysqlValue(v, statement.params[i].type)))
    const lease = await connections.lease()
    // The promise wrapper has no streams: its callback connection underneath has.
    const core = lease.conn.connection as unknown as CallbackConnection
    const socket = socketOf(lease.conn)
    // mysql2 tells a command without a callback (a streamed read is one) nothing when its
    // connection is lost: only the connection emits 'error', and the row stream waited forever
    // (a connection killed or reset mid-read hung its request until the client gave up;
    // sidorares/node-mysql2#3082). So the read ends with its connection: the connection's error,
    // or its socket closing, fails it. Listening before execute() also catches a connection
    // already closed, which mysql2 reports on the connection at once.
    let rows: Readable | undefined
    let lost: Error | undefined
    const onError = (err: Error): void => { lost ??= err; rows?.destroy(lost) }
    // Its cause marks the connection lost, as mysql2's own error would (connectionBroken): the
    // next request checks the server first.
    const onClose = (): void => { onError(new DatabaseUnavailableError('The connection to the clinic database closed during a read.', Object.assign(new Error('socket closed'), { code: 'PROTOCOL_CONNECTION_LOST', fatal: true }))) }
    const onTimeout = (): void => { onError(new DatabaseTimeoutError()) }
    core.on('error', onError)
    socket?.once('close', onClose)
    if (socket === undefined || socket.destroyed) onClose()
    let ended = false
    let failure: unknown
    try {
      stats.statements++
      rows = core.execute(statement.sql, values as never[]).stream({ highWaterMark: STREAM_HIGH_WATER })
      // The columns arrive before the first row.
      let fix: ReturnType<typeof rowFixer>
      rows.once('fields', (fields: ResultField[]) => { fix = rowFixer(fields) })
      if (lost !== undefined) rows.destroy(lost)
      // The server bounds the statement (max_statement_time) and a paused socket
      // (net_write_timeout), but a server or network gone silent answers nothing at all: a socket
      // idle past the statement bound and a second while this read waits for rows fails it (a
      // 504), as run()'s timer does. Disarmed while a block is with the caller: mysql2 pauses the
      // socket then, and a slow client is not a silent server.
      const idleMs = settings.statementTimeoutMs > 0 ? settings.statementTimeoutMs + 1000 : 0
      socket?.on('timeout', onTimeout)
      socket?.setTimeout(idleMs)
      for await (const block of inBlocks(rows)) {
        socket?.setTimeout(0)
        fix?.(block)
        yield block
        socket?.setTimeout(idleMs)
      }
      ended = true
    } catch (err) {
      failure = translate(err)
      throw failure
    } finally {
      core.off('error', onError)
      socket?.off('close', onClose)
      // setTimeout(0) stops the timer but keeps a listener given to it: ours is taken off here.
      socket?.off('timeout', onTimeout)
      socket?.setTimeout(0)
      lease.done(!ended, failure)
    }
  }

  const database: Database = {
    dialect: mysqlDialect,
    stats,
    introspect: {
      catalog: async (at) => await mysqlCatalog(servedFrom(database, at)),
      references: async () => await mysqlReferences(database)
    },
    pool: () => connections.gauge(),
    async query (statement, args = {}) {
      try {
        return await connections.with(async (conn) => await run(conn, statement, args))
      } catch (err) {
        throw translate(err)
      }
    },
    async transaction (fn, _at, claims = []) {
      const names = claimNames(scope, claims)
      for (let attempt = 1; ; attempt++) {
        try {
          return await connections.with(async (conn, discard) => {
            // Claimed before the transaction begins, so its snapshot (taken at its first read)
            // holds what the claim's previous holder committed before releasing it.
            const held: string[] = []
            try {
              await claim(conn, names, held)
              return await inTransaction(conn, fn)
            } finally {
              // A connection still holding a claim would keep that day from everyone.
              if (!await release(conn, held)) discard()
            }
          })
        } catch (err) {
          // A deadlock victim (against the desktop system's locks, or another max + 1 key's
          // gap lock) was rolled back whole: run again.
          if (!isDeadlock(serverError(err).errno) || attempt >= DEADLOCK_ATTEMPTS) throw translate(err)
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt))
        }
      }
    },
    stream: (statement, args = {}) => streamRows(statement, args),
    async ping () {
      try {
        await connections.with(async (conn) => { await conn.query('SELECT 1') })
      } catch (err) {
        throw translate(err)
      }
    },
    async close () { await connections.close() }
  }
  return database
}

/**
 * The pool as requests see it: a wait for a free connection bounded by connectTimeoutMs, one
 * shared connection attempt while the server is not known to be up, and broken connections
 * destroyed rather than given back.
 */
class Connections {
  private up = false
  private probing: Promise<void> | undefined
  private inUse = 0
  private waiting = 0
  private readonly prepared = new WeakSet<object>()

  constructor (private readonly pool: Pool, private readonly settings: MysqlSettings) {}

  gauge (): { inUse: number, waiting: number } { return { inUse: this.inUse, waiting: this.waiting } }

  /** `fn` on a pooled connection; `discard()` closes it afterwards instead of giving it back (its session state is unknown). */
  async with<T> (fn: (conn: PoolConnection, discard: () => void) => Promise<T>): Promise<T> {
    const conn = await this.acquire()
    this.inUse++
    let broken = false
    let discarded = false
    try {
      return await fn(conn, () => { discarded = true })
    } catch (err) {
      broken = connectionBroken(err)
      if (broken) this.up = false
      throw err
    } finally {
      this.inUse--
      if (broken || discarded) conn.destroy(); else conn.release()
    }
  }

  /**
   * A connection held across awaits the caller controls (a streamed read): `done(discard)`
   * gives it back, or closes it when its state is unknown; a failure that broke the connection
   * makes the next request check the server first, as with() does.
   */
  async lease (): Promise<{ conn: PoolConnection, done: (discard: boolean, failure?: unknown) => void }> {
    const conn = await this.acquire()
    this.inUse++
    let given = false
    return {
      conn,
      done: (discard, failure) => {
        if (given) return
        given = true
        this.inUse--
        if (failure !== undefined && connectionBroken(failure)) this.up = false
        // mysql2's destroy() only half-closes its socket, and the server would go on sending
        // the rest of a result nobody reads (a stream left early): the socket is closed too.
        if (discard) { conn.destroy(); socketOf(conn)?.destroy() } else conn.release()
      }
    }
  }

  async close (): Promise<void> {
    await this.probing?.catch(() => undefined)
    await this.pool.end()
  }

  private async acquire (): Promise<PoolConnection> {
    if (!this.up) {
      // Against a down or silent server, one attempt at a time, shared by everyone waiting.
      this.probing ??= this.take().then((c) => { c.release() }).finally(() => { this.probing = undefined })
      await this.probing
    }
    return await this.take()
  }

  /** A pooled connection with its session prepared, within connectTimeoutMs, or a 503. */
  private async take (): Promise<PoolConnection> {
    // With a connection free or yet to be opened (mysql2 bounds the opening by connectTimeout),
    // nothing can keep the request waiting: no timer and race, which every read paid.
    const free = this.inUse + this.waiting < this.settings.poolMax
    this.waiting++
    let timer: NodeJS.Timeout | undefined
    let gaveUp = false
    const got = this.pool.getConnection()
    // A connection that arrives after the caller gave up goes straight back.
    if (!free) got.then((c) => { if (gaveUp) c.release() }, () => undefined)
    try {
      const deadline = (): Promise<never> => new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => {
          gaveUp = true
          reject(new DatabaseUnavailableError('No connection to the clinic database became free in time.'))
        }, this.settings.connectTimeoutMs)
      })
      const conn = free ? await got : await Promise.race([got, deadline()])
      if (!this.prepared.has(conn.connection)) {
        try {
          await prepareSession(conn, this.settings)
        } catch (err) {
          conn.destroy()
          throw err
        }
        this.prepared.add(conn.connection)
      }
      this.up = true
      return conn
    } catch (err) {
      // Every connection busy is not the server being down; anything else is.
      const busy = gaveUp && this.up
      if (!busy) this.up = false
      throw err instanceof DatabaseUnavailableError ? err : new DatabaseUnavailableError(undefined, err)
    } finally {
      clearTimeout(timer)
      this.waiting--
    }
  }
}
