// Both samples load into the real local PostgreSQL with every row, and scratch copies after the
// first come from a template quickly (the contract suite opens many).
import t from 'tap'
import pg from 'pg'
import { loadFixture } from '../../../../src/sql/postgres/load.js'
import { createScratchDatabase } from '../../../helpers/scratch-db/postgres.js'
import { readFixture } from '../../../../src/fixtures/read.js'

t.setTimeout(120_000)

for (const sample of ['clinica-sorriso', 'northwind-health']) {
  t.test(sample, async (t) => {
    const path = `fixtures/${sample}/fixture.json`
    const fixture = readFixture(path)
    const first = await createScratchDatabase(path)
    t.teardown(first.drop)
    const started = performance.now()
    const second = await createScratchDatabase(path)
    t.teardown(second.drop)
    t.ok(performance.now() - started < 3000, `a second scratch database is quick (${Math.round(performance.now() - started)} ms)`)
    t.not(first.url, second.url, 'each call has its own database')

    const client = new pg.Client({ connectionString: second.url })
    await client.connect()
    t.teardown(async () => { await client.end() })
    for (const table of fixture.tables) {
      const name = table.name.split('.').map((p) => `"${p}"`).join('.')
      const { rows } = await client.query(`SELECT COUNT(*)::int AS n FROM ${name}`)
      t.equal(rows[0].n, table.rows.length, `${table.name}: every row`)
    }
    const identity = fixture.tables.find((tb) => tb.columns.some((c) => c.identity === true && c.nullable === false) && tb.rows.length > 0)
    if (identity) {
      const col = identity.columns.find((c) => c.identity === true) as { name: string }
      const name = identity.name.split('.').map((p) => `"${p}"`).join('.')
      const { rows } = await client.query(`SELECT pg_get_serial_sequence($1, $2) AS seq, (SELECT MAX("${col.name}") FROM ${name}) AS max`, [name, col.name])
      const next = await client.query('SELECT nextval($1)::int AS n', [rows[0].seq])
      t.ok(next.rows[0].n > rows[0].max, `${identity.name}: the identity continues past the loaded ids`)
    }
  })
}

t.test('loadFixture keeps CHAR padding, schema-qualified names and defaults', async (t) => {
  const scratch = await createScratchDatabase('fixtures/clinica-sorriso/fixture.json')
  t.teardown(scratch.drop)
  await loadFixture({ name: 'tiny', tables: [{ name: 'extra.T', columns: [{ name: 'C', type: 'char', length: 4 }, { name: 'D', type: 'text', length: 3, default: 'x' }, { name: 'B', type: 'bit' }], rows: [['ab  ', 'abc', true]] }] }, scratch.url)
  const client = new pg.Client({ connectionString: scratch.url })
  await client.connect()
  t.teardown(async () => { await client.end() })
  const { rows } = await client.query('SELECT "C" AS c, "D" AS d, "B" AS b FROM "extra"."T"')
  t.same(rows, [{ c: 'ab  ', d: 'abc', b: 1 }])
  await client.query('INSERT INTO "extra"."T" ("C") VALUES ($1)', ['z'])
  const { rows: [dflt] } = await client.query('SELECT "D" AS d FROM "extra"."T" WHERE "C" = $1', ['z'])
  t.equal(dflt.d, 'x', 'a default applies when an insert leaves the column out')
  await t.rejects(client.query('INSERT INTO "extra"."T" ("C", "D") VALUES ($1, $2)', ['q', 'abcd']), /too long/, 'a declared length holds')
})
