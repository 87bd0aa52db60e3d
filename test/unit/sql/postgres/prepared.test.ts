// PostgreSQL's named prepared statements (src/sql/postgres/prepared.ts) against the local
// server: a column's type changed under a running pool, or the server forgetting the names
// (DEALLOCATE, as a pooler's DISCARD ALL does), costs no request — outside a transaction the
// statement runs again, inside one the transaction does — and leaves no connection out of the
// pool; names are bounded per connection, forgotten on a reload, and not used when turned off.
import t from 'tap'
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { openPostgres, parsePostgresUrl } from '../../../../src/sql/postgres/driver.js'
import { PreparedNames } from '../../../../src/sql/postgres/prepared.js'
import { adminUrl } from '../../../helpers/scratch-db/postgres.js'
import type { Statement } from '../../../../src/sql/statement.js'
import type { SqlTypeName } from '../../../../src/mapping/schema.js'

t.setTimeout(120_000)

const stmt = (sql: string, inputs: Array<[string, SqlTypeName]> = []): Statement =>
  ({ name: 'test', sql, params: inputs.map(([input, type]) => ({ type, source: { input } })) })

// A kennel's boarding book: nothing like the clinic samples.
const name = `ponte_prep_${randomBytes(5).toString('hex')}`
const admin = new pg.Client({ connectionString: adminUrl() })
await admin.connect()
await admin.query(`CREATE DATABASE ${name}`)
const url = (() => { const u = new URL(adminUrl()); u.pathname = `/${name}`; u.search = ''; return u.toString() })()
t.teardown(async () => {
  await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name])
  await admin.query(`DROP DATABASE IF EXISTS ${name}`)
  await admin.end()
})
const setup = new pg.Client({ connectionString: url })
await setup.connect()
await setup.query('CREATE TABLE "KENNEL" ("PEN" INTEGER PRIMARY KEY, "DOG" VARCHAR(20) NOT NULL, "NIGHTS" SMALLINT NOT NULL)')
await setup.query('CREATE TABLE "STAY" ("ID" SERIAL PRIMARY KEY, "PEN" INTEGER NOT NULL, "NIGHTS" SMALLINT NOT NULL)')
await setup.query('INSERT INTO "KENNEL" VALUES (1, \'Rex\', 3), (2, \'Bolt\', 5)')
await setup.end()

const penById = stmt('SELECT "PEN", "DOG", "NIGHTS" FROM "KENNEL" WHERE "PEN" = $1', [['pen', 'int']])
const book = stmt('INSERT INTO "STAY" ("PEN", "NIGHTS") VALUES ($1, $2) RETURNING "ID"', [['pen', 'int'], ['nights', 'int']])
const preparedHere = stmt('SELECT count(*) AS n FROM pg_prepared_statements')

/** Runs `sql` on the scratch database from a connection of its own (the schema changed "by someone else"). */
async function elsewhere (sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: url })
  await c.connect()
  try { await c.query(sql) } finally { await c.end() }
}

t.test('a column\'s type changed under the pool: the same read succeeds, alone and inside a booking', async (t) => {
  const db = await openPostgres(`${url}?poolMax=1`)
  t.teardown(db.close)
  t.same(await db.query(penById, { pen: 1 }), [{ PEN: 1, DOG: 'Rex', NIGHTS: 3 }])
  t.equal(Number((await db.query(preparedHere))[0].n) >= 1, true, 'the read was prepared by name on the connection')

  await elsewhere('ALTER TABLE "KENNEL" ALTER COLUMN "NIGHTS" TYPE INTEGER')
  const before = db.stats.statements
  t.same(await db.query(penById, { pen: 1 }), [{ PEN: 1, DOG: 'Rex', NIGHTS: 3 }], 'outside a transaction: prepared again and run')
  t.equal(db.stats.statements - before, 2, 'the stale plan failed once, the statement ran again')

  await elsewhere('ALTER TABLE "KENNEL" ALTER COLUMN "NIGHTS" TYPE BIGINT')
  let runs = 0
  const id = await db.transaction(async (tx) => {
    runs++
    const [pen] = await tx.query(penById, { pen: 2 })
    const [stay] = await tx.query(book, { pen: pen.PEN, nights: pen.NIGHTS })
    return stay.ID
  })
  t.equal(runs, 2, 'inside a transaction: rolled back and run once more')
  const c = new pg.Client({ connectionString: url })
  await c.connect()
  t.same((await c.query('SELECT "PEN", "NIGHTS" FROM "STAY" WHERE "ID" = $1', [id])).rows, [{ PEN: 2, NIGHTS: 5 }], 'the booking went in once')
  t.equal(Number((await c.query('SELECT count(*) AS n FROM "STAY"')).rows[0].n), 1, 'and only once')
  await c.end()
  t.same(db.pool?.(), { inUse: 0, waiting: 0 }, 'no connection left out of the pool')
})

t.test('every pooled connection held the stale plan: one failure retires them all, no request fails', async (t) => {
  const db = await openPostgres(`${url}?poolMax=3`)
  t.teardown(db.close)
  // Three connections at once, each preparing the read by name.
  await Promise.all([1, 2, 3].map(async () => await db.transaction(async (tx) => { await tx.query(penById, { pen: 1 }); await tx.query(stmt('SELECT pg_sleep(0.05)')) })))
  await elsewhere('ALTER TABLE "KENNEL" ALTER COLUMN "NIGHTS" TYPE NUMERIC(6)')
  for (let i = 0; i < 6; i++) t.same(await db.query(penById, { pen: 2 }), [{ PEN: 2, DOG: 'Bolt', NIGHTS: '5' }], `read ${i + 1} after the change`)
  for (let i = 0; i < 3; i++) await db.transaction(async (tx) => { await tx.query(penById, { pen: 1 }) })
  t.same(db.pool?.(), { inUse: 0, waiting: 0 }, 'no connection left out of the pool')
})

t.test('names the server forgot (DEALLOCATE ALL, as a pooler does) are prepared again', async (t) => {
  const db = await openPostgres(`${url}?poolMax=1`)
  t.teardown(db.close)
  await db.query(penById, { pen: 1 })
  await db.query(stmt('DEALLOCATE ALL'))
  t.same(await db.query(penById, { pen: 1 }), [{ PEN: 1, DOG: 'Rex', NIGHTS: 3 }], 'outside a transaction')
  await db.query(stmt('DEALLOCATE ALL'))
  let runs = 0
  await db.transaction(async (tx) => { runs++; await tx.query(penById, { pen: 1 }) })
  t.equal(runs, 2, 'inside a transaction: run once more')
  t.same(db.pool?.(), { inUse: 0, waiting: 0 }, 'no connection left out of the pool')
})

t.test('a reload retires every connection: its names go with it', async (t) => {
  const db = await openPostgres(`${url}?poolMax=1`)
  t.teardown(db.close)
  const backend = stmt('SELECT pg_backend_pid() AS pid')
  await db.query(penById, { pen: 1 })
  await db.query(stmt('SELECT "DOG" FROM "KENNEL" ORDER BY "PEN"'))
  const [before] = await db.query(backend)
  t.equal(Number((await db.query(preparedHere))[0].n), 4, 'four statements prepared')
  db.forgetPrepared?.()
  const [last] = await db.query(backend)
  t.equal(last.pid, before.pid, 'the connection in hand finishes its statement, unnamed')
  const [after] = await db.query(backend)
  t.not(after.pid, before.pid, 'then it is closed, and the next statement runs on a new one')
  t.equal(Number((await db.query(preparedHere))[0].n), 2, 'holding only the names prepared since')
})

t.test('preparedStatements=false (PgBouncer in transaction mode) prepares nothing by name', async (t) => {
  t.equal(parsePostgresUrl(`${url}?preparedStatements=false`).preparedStatements, false)
  t.equal(parsePostgresUrl(url).preparedStatements, true, 'on by default')
  t.throws(() => parsePostgresUrl(`${url}?preparedStatements=no`), /preparedStatements must be true or false/)
  const db = await openPostgres(`${url}?poolMax=1&preparedStatements=false`)
  t.teardown(db.close)
  await db.query(penById, { pen: 1 })
  t.equal(Number((await db.query(preparedHere))[0].n), 0, 'no statement prepared on the connection')
})

t.test('a connection keeps at most its limit of names; texts past it run unnamed', async (t) => {
  const pool = new pg.Pool({ connectionString: url, max: 1 })
  t.teardown(async () => { await pool.end() })
  const client = await pool.connect()
  t.teardown(() => { client.release() })
  const names = new PreparedNames(2)
  const run = async (sql: string): Promise<void> => { await client.query({ name: names.nameFor(client, sql), text: sql }) }
  const texts = ['SELECT 1 AS a', 'SELECT 2 AS b', 'SELECT 3 AS c']
  for (const text of [...texts, ...texts]) await run(text)
  const { rows } = await client.query('SELECT statement FROM pg_prepared_statements ORDER BY statement')
  t.same(rows.map((r) => r.statement), [texts[0], texts[1]], 'the first two texts prepared, the third run unnamed each time')
  t.equal(names.retired(client), false, 'the connection stays in use')
  names.forgetAll()
  t.equal(names.retired(client), true, 'until a reload retires it')
  t.equal(names.nameFor(client, texts[0]), undefined, 'and it runs every text unnamed meanwhile')
})
