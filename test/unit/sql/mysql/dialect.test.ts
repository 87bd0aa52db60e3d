// The MariaDB/MySQL dialect's pieces, run on the local server where what matters is what the
// server makes of them: NULL parts of a concatenation, list order, minutes, parameters bound
// in the order the text uses them, and name search agreeing with SQLite's ponte_fold.
import t, { type Test } from 'tap'
import { mysql } from '../../../../src/sql/mysql/dialect.js'
import { openMysql } from '../../../../src/sql/mysql/driver.js'
import { createScratchDatabase } from '../../../helpers/scratch-db/mysql.js'
import { readFixture } from '../../../../src/fixtures/read.js'
import { foldName } from '../../../../src/normalise/text.js'
import { ParamList, type Statement } from '../../../../src/sql/statement.js'
import type { Database } from '../../../../src/db/database.js'

t.setTimeout(180_000)

t.test('names, paging and locking as MariaDB and MySQL read them', async (t) => {
  t.equal(mysql.table('dbo.AGENDA'), '`AGENDA`', 'the schema qualifier is dropped: the database is the namespace')
  t.equal(mysql.ident('a`b'), '`a``b`', 'a backtick in a name is doubled')
  const params = new ParamList(mysql)
  const sql = mysql.select({
    columns: [{ expr: mysql.column('t', 'ID'), alias: 'id' }],
    from: { table: mysql.table('dbo.X'), alias: 't' },
    joins: [],
    where: [],
    orderBy: [mysql.column('t', 'ID')],
    page: { limit: params.input('limit', 'int'), offset: params.input('offset', 'int') },
    lock: true
  })
  t.match(sql, /ORDER BY `t`\.`ID` LIMIT \?\/\*p1\*\/ OFFSET \?\/\*p2\*\/ FOR UPDATE$/, 'LIMIT … OFFSET, then FOR UPDATE')
  t.notMatch(mysql.insert('dbo.X', ['A'], ['?/*p1*/'], 'ID'), /RETURNING/, 'no RETURNING: MySQL has none, the driver answers with the insert id')
})

t.test('on the server', async (t) => {
  const scratch = await createScratchDatabase('fixtures/clinica-sorriso/fixture.json')
  t.teardown(scratch.drop)
  const db = await openMysql(scratch.url)
  t.teardown(() => db.close())
  const one = async (build: (p: ParamList) => string, args: Record<string, unknown> = {}): Promise<unknown> => {
    const params = new ParamList(mysql)
    const sql = `SELECT ${build(params)} AS ${mysql.ident('v')}`
    const rows = await db.query({ name: 'piece', sql, params: params.params }, args)
    return rows[0].v
  }

  t.equal(await one((p) => mysql.concat(['NULL', p.constant('a', 'text'), p.input('b', 'text')]), { b: null }), 'a', 'NULL parts concatenate as empty text (CONCAT would give NULL)')
  t.equal(await one(() => mysql.minutesBetween("'2026-03-15 09:30:00'", "'2026-03-15 11:15:00'")), 105, 'whole minutes between two datetimes')
  t.equal(await one(() => mysql.dmyAsIso("'05/03/2026'")), '2026-03-05', 'DD/MM/YYYY as an ISO date')
  t.equal(await one(() => mysql.asText('42')), '42')
  const list = await one(() => mysql.textList(mysql.column('s', 'ID_SALA'), { table: mysql.table('dbo.SALA'), alias: 's' }, [], [`${mysql.column('s', 'ID_SALA')} DESC`]))
  const ids = String(list).split('|').map(Number)
  t.same(ids, [...ids].sort((a, b) => b - a), 'a text list follows its ORDER BY, joined by |')
  t.ok(ids.length > 1)

  // Parameters numbered in one order, written in another (a CASE writes WHEN before THEN).
  const params = new ParamList(mysql)
  const then = params.input('then', 'text')
  const when = params.input('when', 'text')
  const statement: Statement = { name: 'case', sql: `SELECT CASE WHEN ${when} = 'x' THEN ${then} ELSE 'no' END AS ${mysql.ident('v')}`, params: params.params }
  t.same(await db.query(statement, { then: 'yes', when: 'x' }), [{ v: 'yes' }], 'each ? takes the parameter its number names')

  await t.test('name search finds at least what SQLite\'s ponte_fold finds, for every sample client', async (t) => {
    await agreesWithFold(t, db, 'fixtures/clinica-sorriso/fixture.json')
  })
})

/** The service's pattern for a name (services/clients.ts): folded, spaces as %. */
const patternOf = (name: string): string => foldName(name).replace(/[%_[\]]/g, '').split(' ').join('%')

async function agreesWithFold (t: Test, db: Database, path: string): Promise<void> {
  const table = readFixture(path).tables.find((x) => x.name === 'dbo.PACIENTE')!
  const [idAt, nameAt] = ['ID_PACIENTE', 'NOME'].map((c) => table.columns.findIndex((x) => x.name === c))
  const rows = table.rows.filter((r) => typeof r[nameAt] === 'string') as unknown[][]
  const params = new ParamList(mysql)
  const where = mysql.foldedLike(mysql.column('c', 'NOME'), params.input('namePattern', 'ntext'))
  const search: Statement = { name: 'search', sql: `SELECT ${mysql.column('c', 'ID_PACIENTE')} AS ${mysql.ident('id')} FROM ${mysql.table('dbo.PACIENTE')} ${mysql.ident('c')} WHERE ${where}`, params: params.params }
  // Accented names (where collations and folding could part) and a spread of the others.
  const accented = rows.filter((r) => /[^\x20-\x7e]/.test(String(r[nameAt])))
  const chosen = [...accented.filter((_, i) => i % 3 === 0), ...rows.filter((_, i) => i % 50 === 0)]
  t.ok(accented.length > 20, `the sample has accented names (${accented.length})`)
  const missed: string[] = []
  for (const r of chosen) {
    const folded = foldName(String(r[nameAt]))
    const wanted = rows.filter((x) => foldName(String(x[nameAt])) === folded).map((x) => String(x[idAt]))
    const found = new Set((await db.query(search, { namePattern: patternOf(String(r[nameAt])) })).map((x) => String(x.id)))
    if (!wanted.every((id) => found.has(id))) missed.push(String(r[nameAt]))
  }
  t.same(missed, [], `every one of ${chosen.length} names finds its clients`)
  const jose = rows.find((r) => /JOSÉ/.test(String(r[nameAt])))
  if (jose) {
    const unaccented = String(jose[nameAt]).replace('JOSÉ', 'jose')
    const found = (await db.query(search, { namePattern: patternOf(unaccented) })).map((x) => String(x.id))
    t.ok(found.includes(String(jose[idAt])), `'${unaccented}' finds '${String(jose[nameAt])}'`)
  }
}
