// MariaDB/MySQL through mysql2: a small pool of server-side prepared statements.
//  - every parameter binds with its column's declared type (values.ts);
//  - dates come back as text (dateStrings), the clinic's wall clock, never shifted;
//  - each session gets the statement timeout, REPEATABLE READ and strict mode (session.ts);
//  - a server that is down or silent is a 503 within connectTimeoutMs, and requests arriving
//    meanwhile share one connection attempt; the next request after it returns succeeds.
import mysql, { type Pool, type PoolConnection } from 'mysql2/promise'
import { mysql as mysqlDialect } from './dialect.js'
import { parseMysqlUrl, type MysqlSettings } from './settings.js'
import { toMysqlValue, typeCast } from './values.js'
import { connectionBroken, DEADLOCK, serverError, translate } from './errors.js'
import { prepareSession } from './session.js'
import { inTextOrder } from './order.js'
import { mysqlCatalog, mysqlTextColumns } from './introspect.js'
import { bindValues, type Statement } from '../statement.js'
import { DatabaseUnavailableError } from '../../errors.js'
import type { Database, Querier, Row } from '../../db/database.js'

/** A booking that lost a deadlock is run again this many times at most, then answered 503. */
const DEADLOCK_ATTEMPTS = 12

export async function openMysql (url: string): Promise<Database> {
  const settings = parseMysqlUrl(url)
  const pool = mysql.createPool({
    ...settings.connection,
    typeCast,
    connectionLimit: settings.poolMax,
    maxIdle: settings.poolMax,
    idleTimeout: 30_000,
    waitForConnections: true,
    queueLimit: 0,
    enableKeepAlive: true
  })
  // An idle connection the server drops is removed by mysql2 and reported here: per request instead.
  pool.on('connection', (c) => { c.on('error', () => undefined) })
  const connections = new Connections(pool, settings)
  const stats = { statements: 0 }

  const run = async (conn: PoolConnection, statement: Statement, args: Record<string, unknown>): Promise<Row[]> => {
    const values = inTextOrder(statement, bindValues(statement, args).map((v, i) => toMysqlValue(v, statement.params[i].type)))
    stats.statements++
    // The server stops the statement at max_statement_time; this timer only catches a server
    // that stopped answering altogether (a second more, so the server's own 504 comes first).
    const timeout = settings.statementTimeoutMs > 0 ? settings.statementTimeoutMs + 1000 : undefined
    let result: unknown
    try {
      [result] = await conn.execute({ sql: statement.sql, timeout }, values as never[])
    } catch (err) {
      // At once, inside a transaction too: a service tells a missing value from a conflict.
      throw translate(err)
    }
    if (Array.isArray(result)) return result as Row[]
    // An insert answers with its AUTO_INCREMENT key, as INSERT … RETURNING would (dialect.ts).
    const id = (result as { insertId?: number | string }).insertId
    return id !== undefined && id !== 0 && id !== '0' ? [{ id }] : []
  }

  const database: Database = {
    dialect: mysqlDialect,
    stats,
    introspect: {
      catalog: async () => await mysqlCatalog(database),
      textColumns: async (table) => await mysqlTextColumns(database, table)
    },
    pool: () => connections.gauge(),
    async query (statement, args = {}) {
      try {
        return await connections.with(async (conn) => await run(conn, statement, args))
      } catch (err) {
        throw translate(err)
      }
    },
    async transaction (fn) {
      for (let attempt = 1; ; attempt++) {
        try {
          return await connections.with(async (conn) => {
            await conn.query('START TRANSACTION')
            try {
              const tx: Querier = { query: async (statement, args = {}) => await run(conn, statement, args) }
              const result = await fn(tx)
              await conn.query('COMMIT')
              return result
            } catch (err) {
              if (!connectionBroken(err)) await conn.query('ROLLBACK').catch(() => undefined)
              throw err
            }
          })
        } catch (err) {
          // A deadlock victim lost a race (two bookings of one slot both read it free under
          // gap locks): run again, it then reads the winner's row and answers 409.
          if (serverError(err).errno !== DEADLOCK || attempt >= DEADLOCK_ATTEMPTS) throw translate(err)
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt))
        }
      }
    },
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

  async with<T> (fn: (conn: PoolConnection) => Promise<T>): Promise<T> {
    const conn = await this.acquire()
    this.inUse++
    let broken = false
    try {
      return await fn(conn)
    } catch (err) {
      broken = connectionBroken(err)
      if (broken) this.up = false
      throw err
    } finally {
      this.inUse--
      if (broken) conn.destroy(); else conn.release()
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
    this.waiting++
    let timer: NodeJS.Timeout | undefined
    let gaveUp = false
    const got = this.pool.getConnection()
    // A connection that arrives after the caller gave up goes straight back.
    got.then((c) => { if (gaveUp) c.release() }, () => undefined)
    try {
      const conn = await Promise.race([got, new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => {
          gaveUp = true
          reject(new DatabaseUnavailableError('No connection to the clinic database became free in time.'))
        }, this.settings.connectTimeoutMs)
      })])
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
