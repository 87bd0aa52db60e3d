// `ponte fixtures load DIR --db URL` into an empty MariaDB and PostgreSQL database, as clinic
// IT would: every table and row of the fixture arrives, the installation opens on it (its
// structural check passes) and serves the same appointment list as its SQLite copy.
import t from 'tap'
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import mysql from 'mysql2/promise'
import { main } from '../../../src/cli.js'
import { openInstallation, openSample, sampleFixture } from '../../../src/installation.js'
import { readFixture } from '../../../src/fixtures/read.js'
import { adminUrl as postgresAdmin } from '../../helpers/scratch-db/postgres.js'
import { adminUrl as mysqlAdmin } from '../../helpers/scratch-db/mysql.js'
import type { Installation } from '../../../src/installation.js'

const MAPPING = 'mappings/clinica-sorriso.yaml'
const fixture = readFixture(sampleFixture(MAPPING))

interface Server { name: string, create: () => Promise<{ url: string, drop: () => Promise<void> }> }

const servers: Server[] = [
  {
    name: 'postgres',
    async create () {
      const name = `ponte_${randomBytes(6).toString('hex')}`
      const admin = new pg.Client({ connectionString: postgresAdmin() })
      await admin.connect()
      await admin.query(`CREATE DATABASE "${name}"`).finally(() => admin.end())
      const url = new URL(postgresAdmin())
      url.pathname = `/${name}`
      return {
        url: url.toString(),
        drop: async () => {
          const c = new pg.Client({ connectionString: postgresAdmin() })
          await c.connect()
          await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).finally(() => c.end())
        }
      }
    }
  },
  {
    name: 'mysql',
    async create () {
      const name = `ponte_${randomBytes(6).toString('hex')}`
      const admin = await mysql.createConnection(mysqlAdmin())
      await admin.query(`CREATE DATABASE \`${name}\``).finally(() => admin.end())
      const url = new URL(mysqlAdmin())
      url.pathname = `/${name}`
      return {
        url: url.toString(),
        drop: async () => {
          const c = await mysql.createConnection(mysqlAdmin())
          await c.query(`DROP DATABASE IF EXISTS \`${name}\``).finally(() => c.end())
        }
      }
    }
  }
]

async function appointmentIds (inst: Installation): Promise<string[]> {
  const { loadConfig } = await import('../../../src/config.js')
  const { createPonte } = await import('../../../src/ponte.js')
  const { buildApp } = await import('../../../src/app.js')
  const app = await buildApp(createPonte(loadConfig({ API_KEYS: 'k-0123456789abcdef', MAPPING, IDEMPOTENCY_STORE: ':memory:', RATE_LIMIT_PER_MINUTE: '0' }), inst.db, inst.compiled), { logLevel: false })
  try {
    const res = await app.inject({ url: '/appointments?start=2026-11-01&end=2026-11-30', headers: { authorization: 'Bearer k-0123456789abcdef' } })
    if (res.statusCode !== 200) throw new Error(`GET /appointments → ${res.statusCode} ${res.body}`)
    return (JSON.parse(res.body) as { id: string }[]).map((a) => a.id).sort()
  } finally {
    await app.close()
  }
}

const sqlite = await openSample(MAPPING)
const expected = await appointmentIds(sqlite)
await sqlite.close()

for (const server of servers) {
  t.test(`fixtures load into ${server.name}`, async (t) => {
    const db = await server.create()
    t.teardown(db.drop)
    const out = process.stdout.write
    let printed = ''
    process.stdout.write = ((chunk: string) => { printed += chunk; return true }) as typeof process.stdout.write
    const code = await main(['fixtures', 'load', 'fixtures/clinica-sorriso', '--db', db.url]).finally(() => { process.stdout.write = out })
    t.equal(code, 0, 'the command succeeds')
    t.match(printed, /^wrote (mysql|postgres):\/\//, 'and says where it wrote')

    const inst = await openInstallation(MAPPING, db.url)
    t.teardown(inst.close)
    const catalog = await inst.db.introspect.catalog()
    for (const table of fixture.tables) {
      t.ok(catalog.table(table.name), `${table.name} exists`)
    }
    t.ok(expected.length > 20, `${expected.length} appointments in November on SQLite`)
    t.same(await appointmentIds(inst), expected, 'the same appointments as the SQLite copy')

    // A second load into the same database refuses rather than doubling rows.
    process.stdout.write = (() => true) as typeof process.stdout.write
    const err = process.stderr.write
    process.stderr.write = (() => true) as typeof process.stderr.write
    const again = await main(['fixtures', 'load', 'fixtures/clinica-sorriso', '--db', db.url]).finally(() => { process.stdout.write = out; process.stderr.write = err })
    t.not(again, 0, 'loading twice fails')
    t.same(await appointmentIds(inst), expected, 'and leaves the rows as they were')
  })
}
