// A throw-away installation on any test dialect: a schema written in the test (portable SQL:
// INTEGER, VARCHAR(n), CHAR(n), DATE; keys given or made by `max`), a mapping written inline,
// and a real Ponte over both. For the traits the samples do not have, proven on every database.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import type { Test } from 'tap'
import mysql from 'mysql2/promise'
import pg from 'pg'
import { parseMapping } from '../../src/mapping/load.js'
import { buildModel } from '../../src/mapping/model.js'
import { compileMapping } from '../../src/mapping/compile/index.js'
import { connect } from '../../src/db/connect.js'
import { loadConfig } from '../../src/config.js'
import { createPonte } from '../../src/ponte.js'
import { buildApp, type AppOptions } from '../../src/app.js'
import { adminUrl as mysqlAdmin } from './scratch-db/mysql.js'
import { adminUrl as postgresAdmin } from './scratch-db/postgres.js'
import type { TestDialect } from './app.js'
import type { Installation } from '../../src/installation.js'

const KEY = 'scratch-key-0123456789abcdef'

export interface ServerScratch {
  dialect: TestDialect
  /** Its DATABASE_URL, for what runs beside the server (`ponte check`, `ponte init`). */
  url: string
  /** A request with the API key: status, headers and the body (JSON parsed). */
  call: (method: string, url: string, payload?: object) => Promise<{ status: number, body: any, headers: Record<string, unknown> }>
  /** The legacy database read directly (not through Ponte): rows of a plain SELECT. */
  rows: (sql: string) => Promise<Array<Record<string, any>>>
  /** The installation the server runs (for `checkInstallation`), and its count of statements run. */
  installation: Installation
}

/** Portable statements split on `;` at line ends (no `;` inside the test's values). */
function statements (sql: string): string[] {
  return sql.split(/;\s*(?:\n|$)/).map((s) => s.trim()).filter((s) => s !== '')
}

/** `options`: the app's (change detection polling, an event log of the test's own). */
export async function scratchOn (t: Test, dialect: TestDialect, schemaSql: string, mappingYaml: string, options: AppOptions = {}): Promise<ServerScratch> {
  const name = `ponte_${randomBytes(6).toString('hex')}`
  // One teardown running the cleanups last-made-first: Ponte closes before its database goes.
  const cleanups: Array<() => unknown> = []
  t.teardown(async () => { for (const c of cleanups.reverse()) await c() })
  let url: string
  let rows: ServerScratch['rows']
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'ponte-scratch-'))
    cleanups.push(() => { rmSync(dir, { recursive: true, force: true }) })
    url = `sqlite:${join(dir, 'legacy.db')}`
    const { default: BetterSqlite3 } = await import('better-sqlite3')
    const raw = new BetterSqlite3(join(dir, 'legacy.db'))
    raw.exec(schemaSql)
    cleanups.push(() => { raw.close() })
    // A statement that returns nothing (a desk program's UPDATE) runs and reads as no rows.
    rows = async (sql) => {
      const statement = raw.prepare(sql)
      if (statement.reader) return statement.all() as Array<Record<string, any>>
      statement.run()
      return []
    }
  } else if (dialect === 'mysql') {
    const admin = await mysql.createConnection({ uri: mysqlAdmin(), dateStrings: true })
    await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4`)
    const u = new URL(mysqlAdmin())
    u.pathname = `/${name}`
    url = u.toString()
    const side = await mysql.createConnection({ uri: url, dateStrings: true })
    for (const s of statements(schemaSql)) await side.query(s)
    rows = async (sql) => (await side.query(sql))[0] as Array<Record<string, any>>
    cleanups.push(async () => { await side.end(); await admin.query(`DROP DATABASE IF EXISTS \`${name}\``); await admin.end() })
  } else {
    const admin = new pg.Client({ connectionString: postgresAdmin() })
    await admin.connect()
    await admin.query(`CREATE DATABASE "${name}"`)
    const u = new URL(postgresAdmin())
    u.pathname = `/${name}`
    url = u.toString()
    const side = new pg.Client({ connectionString: url })
    await side.connect()
    // Dates as the text they hold, as the other dialects' side connections read them.
    side.setTypeParser(1082, (v: string) => v)
    for (const s of statements(schemaSql)) await side.query(s)
    rows = async (sql) => (await side.query(sql)).rows
    cleanups.push(async () => { await side.end(); await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`); await admin.end() })
  }
  const db = await connect(url)
  const model = buildModel(parseMapping(mappingYaml, 'scratch.yaml'))
  const compiled = compileMapping(model, db.dialect)
  const config = loadConfig({ API_KEYS: KEY, IDEMPOTENCY_STORE: ':memory:', EVENTS_STORE: ':memory:', RATE_LIMIT_PER_MINUTE: '0' })
  const app = await buildApp(createPonte(config, db, compiled), { logLevel: false, ...options })
  cleanups.push(async () => { await app.close(); await db.close() })
  const call: ServerScratch['call'] = async (method, path, payload) => {
    const res = await app.inject({ method: method as 'GET', url: path, payload, headers: { 'x-api-key': KEY } })
    return { status: res.statusCode, headers: res.headers, body: res.headers['content-type']?.toString().includes('json') ? JSON.parse(res.body) : res.body }
  }
  return { dialect, url, call, rows, installation: { model, db, compiled, close: async () => {} } }
}
