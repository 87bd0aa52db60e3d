// The PostgreSQL driver against the real local server (127.0.0.1:5432): values in the shapes
// the readers expect, errors as our typed problems, the timeouts and the outage behaviour the
// SQL Server driver promises, and the booking lock under 50 concurrent transactions.
import t, { type Test } from 'tap'
import { createServer, type Socket } from 'node:net'
import pg from 'pg'
import { openPostgres } from '../../../../src/sql/postgres/driver.js'
import { textColumnsOf } from '../../../../src/db/columns.js'
import { createScratchDatabase } from '../../../helpers/scratch-db/postgres.js'
import { foldSql } from '../../../../src/sql/postgres/dialect.js'
import { foldName } from '../../../../src/normalise/text.js'
import { sampleFixture } from '../../../../src/installation.js'
import { readFixture } from '../../../../src/fixtures/read.js'
import { ConflictError, DuplicateKeyError, DatabaseTimeoutError, DatabaseUnavailableError, InvalidInputError, MissingValueError } from '../../../../src/errors.js'
import type { Statement } from '../../../../src/sql/statement.js'
import type { SqlTypeName } from '../../../../src/mapping/schema.js'
import { freePort } from '../../../helpers/server-process.js'

t.setTimeout(120_000)

const stmt = (sql: string, inputs: [string, SqlTypeName][] = []): Statement =>
  ({ name: 'test', sql, params: inputs.map(([input, type]) => ({ type, source: { input } })) })

const scratch = await createScratchDatabase(sampleFixture('mappings/clinica-sorriso.yaml'))
t.teardown(scratch.drop)
/** The promise fails with an instance of `type` (tap's rejects matches classes by name, which ours do not set). */
async function rejectsWith (t: Test, promise: Promise<unknown>, type: new (...args: never[]) => Error, message: string): Promise<void> {
  const outcome = await promise.then(() => 'resolved', (err: unknown) => err)
  t.ok(outcome instanceof type, message, { got: outcome instanceof Error ? `${outcome.constructor.name}: ${outcome.message}` : outcome })
}
const withOptions = (url: string, options: string): string => `${url}${url.includes('?') ? '&' : '?'}${options}`

t.test('values come back as the SQLite driver gives them', async (t) => {
  const db = await openPostgres(scratch.url)
  t.teardown(db.close)
  const [row] = await db.query(stmt('SELECT "t"."DATA" AS d, "t"."HORA" AS h, "t"."DT_CADASTRO" AS dt, "t"."DURACAO" AS n FROM "dbo"."AGENDA" "t" WHERE "t"."DT_CADASTRO" IS NOT NULL ORDER BY "t"."ID_AGENDA" LIMIT $1', [['n', 'int']]), { n: 1 })
  t.match(row.d, /^\d{4}-\d{2}-\d{2}$/, 'a DATE is YYYY-MM-DD text')
  t.match(row.h, /^\d{2}:\d{2}$/, 'a CHAR(5) hour comes back as stored')
  t.match(row.dt, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/, 'a DATETIME is YYYY-MM-DD HH:MM:SS text, never shifted through a time zone')
  t.type(row.n, 'number', 'a SMALLINT is a number')
  const [typed] = await db.query(stmt("SELECT CAST($1 AS TIME(0)) AS tm, CAST($2 AS DATE) AS old, CAST(12345678901 AS BIGINT) AS big, CAST(-23.5505 AS NUMERIC(9,4)) AS dec, CAST('ab' AS CHAR(4)) AS padded, CAST($3 AS TIMESTAMP) AS ts",
    [['tm', 'time'], ['old', 'date'], ['ts', 'datetime']]), { tm: '09:30:00', old: '0001-01-01', ts: '2026-03-15 09:30:00' })
  t.same(typed, { tm: '09:30:00', old: '0001-01-01', big: 12345678901, dec: -23.5505, padded: 'ab  ', ts: '2026-03-15 09:30:00' })
  t.equal(pg.types.getTypeParser(1082, 'text')('2026-03-15') instanceof Date, true, 'pg\'s global parsers are left as they were')
})

t.test('name search folds accents, case and spaces like SQLite\'s ponte_fold on the sample data', async (t) => {
  const db = await openPostgres(scratch.url)
  t.teardown(db.close)
  const names = new Set<string>(['JOSÉ  da Conceição ', 'Ângela Müller', 'ÑANDÚ', 'Łukasz Øster', 'e\u0301lise'])
  for (const f of ['clinica-sorriso', 'northwind-health']) {
    for (const table of readFixture(`fixtures/${f}/fixture.json`).tables) {
      table.columns.forEach((c, j) => {
        if (/nome|name/i.test(c.name)) for (const r of table.rows) if (typeof r[j] === 'string') names.add(r[j] as string)
      })
    }
  }
  const list = [...names]
  const rows = await db.query(stmt(`SELECT n, ${foldSql('n')} AS f FROM unnest(CAST($1 AS TEXT[])) AS n`, [['names', 'text']]), { names: list })
  const differ = rows.filter((r) => r.f !== foldName(String(r.n)))
  t.same(differ, [], `${list.length} names fold as foldName does`)
  const found = await db.query(stmt(`SELECT COUNT(*) AS n FROM unnest(CAST($1 AS TEXT[])) AS x WHERE ${foldSql('x')} LIKE $2 ESCAPE ''`, [['names', 'text'], ['p', 'text']]), { names: ['JOSÉ DA SILVA', 'Maria'], p: '%jose%' })
  t.equal(found[0].n, 1, "'jose' finds 'JOSÉ'")
})

t.test('database refusals become typed problems that never quote the value', async (t) => {
  const db = await openPostgres(scratch.url)
  t.teardown(db.close)
  const insert = stmt('INSERT INTO "dbo"."SEQUENCIAL" ("TABELA", "ULTIMO") VALUES ($1, $2)', [['name', 'text'], ['n', 'int']])
  await rejectsWith(t, db.query(insert, { name: 'PACIENTE', n: 1 }), ConflictError, 'duplicate key → 409')
  const dup = await db.query(insert, { name: 'PACIENTE', n: 1 }).catch((e: unknown) => e) as DuplicateKeyError
  t.match(dup.key, { table: 'SEQUENCIAL', name: /^SEQUENCIAL_pkey$/ }, 'naming its table and constraint, which the catalogue turns into columns')
  t.notMatch(JSON.stringify({ ...dup, message: dup.message }), /PACIENTE/, 'the value is not kept')
  await rejectsWith(t, db.query(insert, { name: 'X', n: null }), MissingValueError, 'NOT NULL → missing value')
  const missing = await db.query(insert, { name: 'Y', n: null }).catch((e: unknown) => e)
  t.equal((missing as MissingValueError).column, 'ULTIMO', 'the column is kept for the service')
  await rejectsWith(t, db.query(insert, { name: 'x'.repeat(31), n: 1 }), InvalidInputError, 'too long → 400')
  const conversion = await db.query(insert, { name: 'Z', n: 'secret-42' }).catch((e: unknown) => e)
  t.type(conversion, InvalidInputError, 'a value the type cannot hold → 400')
  t.notMatch((conversion as Error).message, /secret/, 'the message does not quote the value')
  await db.query(stmt('CREATE TABLE "dbo"."PONTE_CHILD" ("ID" INT PRIMARY KEY, "ID_PACIENTE" INT REFERENCES "dbo"."PACIENTE" ("ID_PACIENTE"))'))
  await rejectsWith(t, db.query(stmt('INSERT INTO "dbo"."PONTE_CHILD" VALUES ($1, $2)', [['a', 'int'], ['b', 'int']]), { a: 1, b: -5 }), InvalidInputError, 'foreign key → 400')
})

t.test('a statement past statementTimeoutMs is a 504; the connection stays usable', async (t) => {
  const db = await openPostgres(withOptions(scratch.url, 'statementTimeoutMs=300&poolMax=1'))
  t.teardown(db.close)
  const started = performance.now()
  await rejectsWith(t, db.query(stmt('SELECT pg_sleep(3)')), DatabaseTimeoutError, 'cancelled by the server: 504')
  t.ok(performance.now() - started < 2000, 'answered near the bound')
  t.same(await db.query(stmt('SELECT 1 AS ok')), [{ ok: 1 }], 'the next statement runs')
})

t.test('waiting for a connection of a full pool is bounded by connectTimeoutMs (503)', async (t) => {
  const db = await openPostgres(withOptions(scratch.url, 'poolMax=1&connectTimeoutMs=300&statementTimeoutMs=5000'))
  t.teardown(db.close)
  const slow = db.query(stmt('SELECT pg_sleep(1.5)'))
  await new Promise((resolve) => setTimeout(resolve, 100))
  t.same(db.pool?.(), { inUse: 1, waiting: 0 }, 'the gauge shows the busy connection')
  const started = performance.now()
  await rejectsWith(t, db.query(stmt('SELECT 1 AS ok')), DatabaseUnavailableError, 'no free connection: 503')
  t.ok(performance.now() - started < 1000, 'refused within the bound, not after the slow statement')
  await slow
})

t.test('a closed port is a 503 at once', async (t) => {
  const port = await freePort()
  const db = await openPostgres(`postgres://postgres@127.0.0.1:${port}/x?connectTimeoutMs=3000`)
  t.teardown(db.close)
  const started = performance.now()
  const err = await db.query(stmt('SELECT 1')).catch((e: unknown) => e)
  t.type(err, DatabaseUnavailableError)
  t.equal((err as DatabaseUnavailableError).headers['retry-after'], '5')
  t.ok(performance.now() - started < 1000, 'no wait for the connect timeout')
})

t.test('a silent server: one connection attempt shared by concurrent requests, 503 within connectTimeoutMs', async (t) => {
  const sockets: Socket[] = []
  const silent = createServer((s) => { sockets.push(s) })
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
  t.teardown(() => { for (const s of sockets) s.destroy(); silent.close() })
  const port = (silent.address() as { port: number }).port
  const db = await openPostgres(`postgres://postgres@127.0.0.1:${port}/x?connectTimeoutMs=400`)
  t.teardown(db.close)
  const started = performance.now()
  const results = await Promise.allSettled(Array.from({ length: 8 }, async () => await db.query(stmt('SELECT 1'))))
  t.ok(results.every((r) => r.status === 'rejected' && r.reason instanceof DatabaseUnavailableError), 'every request is a 503')
  t.ok(performance.now() - started < 1500, 'within the connect bound')
  t.equal(sockets.length, 1, 'one socket, not one per request')
})

t.test('recovers without a restart when the server comes back, and after its connections are killed', async (t) => {
  // A relay on a free port stands for the server: closed, then forwarding to the real one.
  const port = await freePort()
  const db = await openPostgres(scratch.url.replace(':5432/', `:${port}/`) + '?connectTimeoutMs=500')
  t.teardown(db.close)
  await rejectsWith(t, db.query(stmt('SELECT 1 AS ok')), DatabaseUnavailableError, 'down: 503')
  const { connect } = await import('node:net')
  const links: Socket[] = []
  const relay = createServer((client) => {
    const server = connect(5432, '127.0.0.1')
    links.push(client, server)
    client.pipe(server).pipe(client)
    client.on('error', () => server.destroy())
    server.on('error', () => client.destroy())
  })
  await new Promise<void>((resolve) => relay.listen(port, '127.0.0.1', resolve))
  t.teardown(() => { for (const s of links) s.destroy(); relay.close() })
  t.same(await db.query(stmt('SELECT 1 AS ok')), [{ ok: 1 }], 'back: served')
  const admin = new pg.Client({ connectionString: scratch.url })
  await admin.connect()
  await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'ponte' AND datname = current_database()")
  await admin.end()
  await new Promise((resolve) => setTimeout(resolve, 100))
  const after = await db.query(stmt('SELECT 1 AS ok')).catch((e: unknown) => e)
  t.ok(Array.isArray(after) || after instanceof DatabaseUnavailableError, 'a killed connection is at worst one 503')
  t.same(await db.query(stmt('SELECT 1 AS ok')), [{ ok: 1 }], 'then served again')
})

t.test('50 concurrent bookings of one slot: exactly one succeeds (SERIALIZABLE with retries)', async (t) => {
  const db = await openPostgres(withOptions(scratch.url, 'poolMax=10'))
  t.teardown(db.close)
  const holds = stmt('SELECT COUNT(*) AS n FROM "dbo"."AGENDA" "t" WHERE "t"."ID_PROFISSIONAL" = $1 AND "t"."DATA" = $2 AND "t"."HORA" = $3', [['p', 'int'], ['d', 'date'], ['h', 'char']])
  const nextId = stmt('SELECT MAX("t"."ID_AGENDA") AS id FROM "dbo"."AGENDA" "t"')
  const book = stmt('INSERT INTO "dbo"."AGENDA" ("ID_AGENDA", "DATA", "HORA", "ID_PROFISSIONAL", "DT_CADASTRO", "USUARIO") VALUES ($1, $2, $3, $4, $5, $6)',
    [['id', 'int'], ['d', 'date'], ['h', 'char'], ['p', 'int'], ['now', 'datetime'], ['u', 'text']])
  const slot = { p: 1, d: '2031-05-05', h: '10:00' }
  const results = await Promise.allSettled(Array.from({ length: 50 }, async () => await db.transaction(async (tx) => {
    const [{ n }] = await tx.query(holds, slot)
    if (Number(n) > 0) throw new ConflictError('taken')
    const [{ id }] = await tx.query(nextId)
    await tx.query(book, { ...slot, id: Number(id) + 1, now: '2031-05-01 08:00:00', u: 'ponte' })
    return id
  })))
  const ok = results.filter((r) => r.status === 'fulfilled').length
  const conflicts = results.filter((r) => r.status === 'rejected' && r.reason instanceof ConflictError && r.reason.message === 'taken').length
  t.equal(ok, 1, 'one booking')
  t.equal(conflicts, 49, 'every other request sees the slot taken (409), none gives up')
  const [{ n }] = await db.query(holds, slot)
  t.equal(Number(n), 1, 'one row holds the slot')
})

t.test('introspection: lengths, identity, keys', async (t) => {
  const db = await openPostgres(scratch.url)
  t.teardown(db.close)
  const catalog = await db.introspect.catalog()
  const text = textColumnsOf(catalog.table('dbo.PACIENTE'))
  // The fixture's SQL Server VARCHAR/CHAR columns carry the loader's code-page comment.
  t.same(text.get('nome'), { unicode: false, length: 100 }, 'VARCHAR(100) marked as a code page')
  t.same(text.get('cpf'), { unicode: false, length: 14 }, 'CHAR(14) marked as a code page')
  t.notOk(text.has('id_paciente'), 'numbers are not text')
  t.equal(textColumnsOf(catalog.table('dbo.NO_SUCH')).size, 0, 'an unknown table has none')
  const unidade = catalog.table('dbo.UNIDADE')
  t.match(unidade?.columns.get('id_unidade'), { kind: 'number', key: true, generated: true, notNull: true })
  t.match(catalog.table('AGENDA')?.columns.get('situacao'), { kind: 'text', length: 1, hasDefault: true, generated: false })
  t.match(catalog.table('AGENDA')?.columns.get('dt_cadastro'), { kind: 'date', notNull: true })
})
