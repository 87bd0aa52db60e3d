// The local MariaDB and PostgreSQL servers as the fault and concurrency tests see them from
// the side: scratch databases (scratch-db/), and connections of
// our own that are not Ponte's: an administrator counting and killing Ponte's connections,
// the clinic's desktop system writing to the same tables, a colleague holding a lock.
// Only the scratch database of the test is ever looked at or touched: others are testing
// against the same servers right now.
import { connect as tcpConnect } from 'node:net'
import mysql from 'mysql2/promise'
import pg from 'pg'
import type { Dialect } from '../../src/sql/dialect.js'
import { mysql as mysqlDialect, quoteBacktick } from '../../src/sql/mysql/dialect.js'
import { postgres as postgresDialect } from '../../src/sql/postgres/dialect.js'
import { createScratchDatabase } from './scratch-db/index.js'

export type ServerName = 'mysql' | 'postgres'

/** A connection of the test's own (never one of Ponte's). */
export interface SideConnection {
  query: (sql: string, params?: unknown[]) => Promise<Array<Record<string, any>>>
  close: () => Promise<void>
}

export interface Scratch { url: string, database: string, drop: () => Promise<void> }

/** One of Ponte's connections to the scratch database, as the server lists it. */
export interface ServerConnection { id: number, busy: boolean, waitingForLock: boolean, detail: string }

export interface RealServer {
  name: ServerName
  label: string
  host: string
  port: number
  dialect: Dialect
  /** Throws a message saying which server is missing: these tests never skip. */
  reachable: () => Promise<void>
  scratch: (fixturePath: string) => Promise<Scratch>
  /** A connection of the test's own, in `database`'s context, never counted as Ponte's. */
  side: (database: string) => Promise<SideConnection>
  /** `dbo.AGENDA` as a side connection names it. */
  table: (database: string, name: string) => string
  /** Ponte's connections to the scratch database (side connections excluded). */
  connections: (admin: SideConnection, database: string) => Promise<ServerConnection[]>
  /** Kills Ponte's connections to the scratch database; returns how many. */
  kill: (admin: SideConnection, database: string) => Promise<number>
  /** Takes a lock on `table` that blocks every read of it, from a connection of its own, until released. */
  lockTable: (database: string, name: string) => Promise<{ release: () => Promise<void> }>
}

const SIDE_APP = 'ponte-test-side'

// ---------- MariaDB ----------

const MYSQL_ADMIN = new URL(process.env.PONTE_TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/')

async function mysqlSide (): Promise<SideConnection> {
  // No default database: PROCESSLIST lists the connection with DB = NULL, so it never counts
  // as one of Ponte's; statements name the scratch database in full instead.
  const c = await mysql.createConnection({
    host: MYSQL_ADMIN.hostname,
    port: Number(MYSQL_ADMIN.port || 3306),
    user: decodeURIComponent(MYSQL_ADMIN.username || 'root'),
    password: decodeURIComponent(MYSQL_ADMIN.password),
    connectTimeout: 3000,
    dateStrings: true
  })
  c.on('error', () => undefined)
  return {
    query: async (sql, params = []) => (await c.query(sql, params))[0] as Array<Record<string, any>>,
    close: async () => { await c.end().catch(() => c.destroy()) }
  }
}

const mariadb: RealServer = {
  name: 'mysql',
  label: 'MariaDB',
  host: MYSQL_ADMIN.hostname,
  port: Number(MYSQL_ADMIN.port || 3306),
  dialect: mysqlDialect,
  reachable: async () => { await reachable(mariadb, mysqlSide) },
  scratch: async (fixture) => await scratchOf('mysql', fixture),
  side: async () => await mysqlSide(),
  table: (database, name) => `${quoteBacktick(database)}.${mysqlDialect.table(name)}`,
  async connections (admin, database) {
    const rows = await admin.query(
      'SELECT ID AS id, COMMAND AS command, STATE AS state, TIME AS time FROM information_schema.PROCESSLIST WHERE DB = ? AND ID <> CONNECTION_ID()',
      [database])
    return rows.map((r) => ({
      id: Number(r.id),
      busy: r.command !== 'Sleep',
      waitingForLock: /lock/i.test(String(r.state ?? '')),
      detail: `${String(r.command)}${r.state ? ` (${String(r.state)})` : ''} ${String(r.time)} s`
    }))
  },
  async kill (admin, database) {
    const ids = (await this.connections(admin, database)).map((c) => c.id)
    for (const id of ids) await admin.query('KILL CONNECTION ?', [id]).catch(() => undefined)
    return ids.length
  },
  async lockTable (database, name) {
    const side = await mysqlSide()
    // LOCK TABLES … WRITE: every other session's read of the table waits for it.
    await side.query(`LOCK TABLES ${this.table(database, name)} WRITE`)
    return { release: async () => { await side.query('UNLOCK TABLES').catch(() => undefined); await side.close() } }
  }
}

// ---------- PostgreSQL ----------

const PG_ADMIN = new URL(process.env.PONTE_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres')

// Dates and times as the server's text (as mysql2's dateStrings): a row read and written back
// by the "desktop system" must not pass through a JS Date and a time zone.
const WALL_CLOCK = new Set([1082, 1083, 1114, 1184, 1266])
const asText = (oid: number, format?: 'text' | 'binary'): ((v: string) => unknown) =>
  WALL_CLOCK.has(oid) ? (v: string) => v : pg.types.getTypeParser(oid, format ?? 'text') as (v: string) => unknown

async function pgSide (database?: string): Promise<SideConnection> {
  const url = new URL(PG_ADMIN)
  if (database) url.pathname = `/${database}`
  // application_name marks the connection as the test's: it is left out of every count and kill.
  const c = new pg.Client({ connectionString: url.toString(), application_name: SIDE_APP, connectionTimeoutMillis: 3000, types: { getTypeParser: asText as never } })
  c.on('error', () => undefined)
  await c.connect()
  return {
    query: async (sql, params = []) => (await c.query(sql, params)).rows,
    close: async () => { await c.end().catch(() => undefined) }
  }
}

const postgresql: RealServer = {
  name: 'postgres',
  label: 'PostgreSQL',
  host: PG_ADMIN.hostname,
  port: Number(PG_ADMIN.port || 5432),
  dialect: postgresDialect,
  reachable: async () => { await reachable(postgresql, pgSide) },
  scratch: async (fixture) => await scratchOf('postgres', fixture),
  side: async (database) => await pgSide(database),
  table: (_database, name) => postgresDialect.table(name),
  async connections (admin, database) {
    const rows = await admin.query(
      `SELECT pid AS id, state, wait_event_type AS wait FROM pg_stat_activity
        WHERE datname = $1 AND pid <> pg_backend_pid() AND application_name IS DISTINCT FROM $2`,
      [database, SIDE_APP])
    return rows.map((r) => ({
      id: Number(r.id),
      busy: r.state !== 'idle',
      waitingForLock: r.wait === 'Lock',
      detail: `${String(r.state)}${r.wait ? ` (waiting: ${String(r.wait)})` : ''}`
    }))
  },
  async kill (admin, database) {
    const rows = await admin.query(
      `SELECT pg_terminate_backend(pid) AS killed FROM pg_stat_activity
        WHERE datname = $1 AND pid <> pg_backend_pid() AND application_name IS DISTINCT FROM $2`,
      [database, SIDE_APP])
    return rows.filter((r) => r.killed === true).length
  },
  async lockTable (database, name) {
    const side = await pgSide(database)
    // ACCESS EXCLUSIVE, held by an open transaction: every other session's read of the table waits.
    await side.query('BEGIN')
    await side.query(`LOCK TABLE ${this.table(database, name)} IN ACCESS EXCLUSIVE MODE`)
    return { release: async () => { await side.query('ROLLBACK').catch(() => undefined); await side.close() } }
  }
}

export const REAL_SERVERS: Record<ServerName, RealServer> = { mysql: mariadb, postgres: postgresql }

async function reachable (server: RealServer, open: () => Promise<SideConnection>): Promise<void> {
  const where = `${server.label} at ${server.host}:${server.port}`
  const port = await new Promise<string | undefined>((resolve) => {
    const s = tcpConnect(server.port, server.host)
    s.setTimeout(3000, () => { s.destroy(); resolve('no answer in 3 s') })
    s.once('connect', () => { s.destroy(); resolve(undefined) })
    s.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message))
  })
  if (port) throw new Error(`${where} cannot be reached (${port}). These tests run against the real server and never skip: start it (.ci/run does) and run them again.`)
  try {
    const c = await open()
    await c.query('SELECT 1')
    await c.close()
  } catch (err) {
    throw new Error(`${where} accepts connections but refuses the test's login (${(err as Error).message}). These tests never skip.`)
  }
}

/** A scratch database (scratch-db/), loaded once per fixture and copied. */
async function scratchOf (name: ServerName, fixture: string): Promise<Scratch> {
  const { url, drop } = await createScratchDatabase(name, fixture)
  return { url, database: decodeURIComponent(new URL(url).pathname.replace(/^\//, '')), drop }
}

/** The scratch database's URL with another host:port (the proxy's) and driver settings. */
export function urlVia (url: string, port: number | undefined, settings: Record<string, string | number>): string {
  const u = new URL(url)
  if (port !== undefined) { u.hostname = '127.0.0.1'; u.port = String(port) }
  for (const [k, v] of Object.entries(settings)) u.searchParams.set(k, String(v))
  return u.toString()
}
