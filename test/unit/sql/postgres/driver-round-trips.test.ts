// Issue 29: a streamed read on PostgreSQL in as few round trips as its memory bound allows.
// Before, every list was BEGIN READ ONLY, DECLARE, one FETCH per 1,000 rows and ROLLBACK (a
// 6,500-row month: 10 round trips, against one for a plain query). Now a protocol-level portal:
// one Execute of at most READ_ROWS rows per round trip, and a Sync ending it. Counted on the
// wire, by a TCP proxy in front of the local server, on a weather station's readings generated
// here (nothing like the clinic samples); the rows must be the plain query's, in blocks of at
// most STREAM_BLOCK_ROWS, from one snapshot, and a read left early must take no more rows.
import t, { type Test } from 'tap'
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { openPostgres, READ_ROWS } from '../../../../src/sql/postgres/driver.js'
import { STREAM_BLOCK_ROWS } from '../../../../src/sql/blocks.js'
import { adminUrl } from '../../../helpers/scratch-db/postgres.js'
import { tcpProxy } from '../../../helpers/tcp-proxy.js'
import { urlVia } from '../../../helpers/real-servers.js'
import type { Row } from '../../../../src/db/database.js'
import { DatabaseTimeoutError } from '../../../../src/errors.js'
import type { Statement } from '../../../../src/sql/statement.js'
import type { SqlTypeName } from '../../../../src/mapping/schema.js'

t.setTimeout(180_000)

const stmt = (sql: string, inputs: Array<[string, SqlTypeName]> = []): Statement =>
  ({ name: 'test', sql, params: inputs.map(([input, type]) => ({ type, source: { input } })) })

const name = `ponte_h4_rt_${randomBytes(4).toString('hex')}`
const admin = new pg.Client({ connectionString: adminUrl() })
await admin.connect()
await admin.query(`CREATE DATABASE ${name}`)
const url = (() => { const u = new URL(adminUrl()); u.pathname = `/${name}`; u.search = ''; return u.toString() })()
t.teardown(async () => {
  await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name])
  await admin.query(`DROP DATABASE IF EXISTS ${name}`)
  await admin.end()
})
// Hourly readings of a few stations: 24 a day from 2025-01-01.
const STATIONS = 3
const setup = new pg.Client({ connectionString: url })
await setup.connect()
await setup.query('CREATE TABLE "LEITURA" ("SEQ" SERIAL PRIMARY KEY, "ESTACAO" SMALLINT NOT NULL, "DIA" DATE NOT NULL, "HORA" CHAR(5) NOT NULL, "MM" NUMERIC(6,1))')
await setup.query(`INSERT INTO "LEITURA" ("ESTACAO", "DIA", "HORA", "MM")
  SELECT s, DATE '2025-01-01' + (h / 24), lpad((h % 24)::text, 2, '0') || ':00', CASE WHEN h % 7 = 0 THEN NULL ELSE (h % 97) / 10.0 END
  FROM generate_series(1, ${STATIONS}) s, generate_series(0, 24 * 400 - 1) h`)
await setup.end()

const readings = stmt('SELECT "SEQ", "ESTACAO", "DIA", "HORA", "MM" FROM "LEITURA" WHERE "DIA" BETWEEN $1 AND $2 AND "ESTACAO" <= $3 ORDER BY "DIA", "HORA", "ESTACAO"',
  [['from', 'date'], ['to', 'date'], ['stations', 'int']])
/** A range holding `days` × 24 × `stations` readings. */
const range = (days: number, stations = STATIONS): Record<string, unknown> => {
  const to = new Date(Date.UTC(2025, 0, 1 + days - 1)).toISOString().slice(0, 10)
  return { from: '2025-01-01', to, stations }
}

/** The driver behind a counting proxy, its one connection opened (the login's turns not counted). */
async function counted (t: Test): Promise<{ db: Awaited<ReturnType<typeof openPostgres>>, turns: () => number }> {
  const proxy = await tcpProxy({ host: '127.0.0.1', port: Number(new URL(url).port || 5432) })
  t.teardown(proxy.close)
  const db = await openPostgres(urlVia(url, proxy.port, { poolMax: 1 }))
  t.teardown(db.close)
  await db.query(stmt('SELECT 1 AS ok'))
  return { db, turns: proxy.turns }
}

async function readAll (blocks: AsyncIterable<Row[]>): Promise<{ rows: Row[], sizes: number[] }> {
  const rows: Row[] = []
  const sizes: number[] = []
  for await (const block of blocks) { rows.push(...block); sizes.push(block.length) }
  return { rows, sizes }
}

t.test('a month of readings (within one read) in one round trip and its Sync, the plain query\'s rows', async (t) => {
  const { db, turns } = await counted(t)
  const args = range(90) // 90 × 24 × 3 = 6,480 rows, a W2-sized list
  const plain = await db.query(readings, args)
  t.equal(plain.length, 6480)
  t.ok(plain.length <= READ_ROWS, 'the list fits one read')
  const before = { turns: turns(), statements: db.stats.statements }
  const { rows, sizes } = await readAll(db.stream!(readings, args))
  t.same(rows, plain, 'the same rows, values and order as the plain query')
  t.ok(sizes.every((n) => n <= STREAM_BLOCK_ROWS), `handed on in blocks of at most ${STREAM_BLOCK_ROWS} (${sizes.join(', ')})`)
  t.equal(turns() - before.turns, 2, 'two round trips: the rows, and the Sync that ends the read (the cursor took BEGIN, DECLARE, 7 FETCH and ROLLBACK: 10)')
  t.equal(db.stats.statements - before.statements, 1, 'one statement')
  t.equal(db.pool!().inUse, 0, 'the connection went back')
})

t.test('a long read asks for READ_ROWS rows a round trip, no more', async (t) => {
  const { db, turns } = await counted(t)
  const args = range(400) // 28,800 rows
  const plain = await db.query(readings, args)
  const before = turns()
  const { rows, sizes } = await readAll(db.stream!(readings, args))
  t.same(rows, plain, `the same ${plain.length} rows as the plain query`)
  t.ok(sizes.every((n) => n <= STREAM_BLOCK_ROWS), 'in blocks of at most STREAM_BLOCK_ROWS')
  const executes = Math.ceil(plain.length / READ_ROWS)
  t.equal(turns() - before, executes + 1, `${executes} reads of at most ${READ_ROWS} rows, and the Sync`)
})

t.test('a read left early asks for nothing more, ends its portal and gives the connection back', async (t) => {
  const { db, turns } = await counted(t)
  const before = turns()
  let taken = 0
  for await (const block of db.stream!(readings, range(400))) {
    taken += block.length
    if (taken >= 2 * STREAM_BLOCK_ROWS) break
  }
  t.equal(turns() - before, 2, 'one read and the Sync: the rest stayed on the server')
  t.equal(db.pool!().inUse, 0, 'the connection went back')
  const { rows: backends } = await admin.query('SELECT state, backend_xmin IS NULL AS no_snapshot FROM pg_stat_activity WHERE datname = $1 AND application_name = $2', [name, 'ponte'])
  t.same(backends, [{ state: 'idle', no_snapshot: true }], 'its server process is idle, out of any transaction, holding no snapshot')
  t.same(await db.query(stmt('SELECT 2 AS ok')), [{ ok: 2 }], 'and answers the next statement')
})

t.test('every row of a long read comes from the snapshot of its first', async (t) => {
  const { db } = await counted(t)
  const args = range(400, 1)
  const plain = await db.query(readings, args)
  const other = new pg.Client({ connectionString: url })
  await other.connect()
  t.teardown(async () => { await other.end() })
  let rows = 0
  let first = true
  for await (const block of db.stream!(readings, args)) {
    rows += block.length
    if (first) {
      first = false
      await other.query('INSERT INTO "LEITURA" ("ESTACAO", "DIA", "HORA", "MM") SELECT 1, DATE \'2026-01-01\', \'23:59\', g FROM generate_series(1, 10) g')
    }
  }
  t.equal(rows, plain.length, 'the rows written during the read are not in it')
  await other.query('DELETE FROM "LEITURA" WHERE "HORA" = \'23:59\'')
})

t.test('the statement bound covers the whole read, the caller\'s pauses included, as on MariaDB', async (t) => {
  // PostgreSQL runs statement_timeout from a portal's first message to its end: a suspended
  // Execute does not restart it. The cursor's FETCHes were bounded one by one.
  const proxy = await tcpProxy({ host: '127.0.0.1', port: Number(new URL(url).port || 5432) })
  t.teardown(proxy.close)
  const db = await openPostgres(urlVia(url, proxy.port, { poolMax: 1, statementTimeoutMs: 1000 }))
  t.teardown(db.close)
  let rows = 0
  const outcome = await (async () => {
    for await (const block of db.stream!(readings, range(400))) {
      rows += block.length
      // The first read's rows taken, the portal waits on the server, suspended.
      if (rows === READ_ROWS) await new Promise((resolve) => setTimeout(resolve, 1500))
    }
    return 'read whole'
  })().catch((err: unknown) => err)
  t.type(outcome, DatabaseTimeoutError, 'a 504 once the read outlasted the bound')
  t.equal(rows, READ_ROWS, 'after the rows it had')
  t.equal(db.pool!().inUse, 0, 'the connection went back')
  t.same(await db.query(stmt('SELECT 3 AS ok')), [{ ok: 3 }], 'and serves the next statement')
})
