// Issue 25: the e-mail search compares LOWER(TRIM(column)), which a plain index on the column
// cannot serve. On a schema generated here (the e-mail in `correio`, with a plain index on it),
// check advises an index on that expression on SQLite and PostgreSQL; run as printed, the
// compiled search seeks it where before it read every row (SQLite: LOWER(), overridden by a
// counting application function, is evaluated on every row before and on none after;
// PostgreSQL: an EXPLAIN (FORMAT JSON) node seeks the index by an Index Cond), and the
// warning is gone. On MariaDB, which indexes no expression, check says the search reads every row, and
// counts them. SQL Server's computed column and index are pinned by the T-SQL grammar.
import t from 'tap'
import BetterSqlite3 from 'better-sqlite3'
import pg from 'pg'
import type { Fixture, FixtureColumn } from '../../../src/fixtures/format.js'
import { Findings } from '../../../src/check/findings.js'
import { checkFoldedSearch } from '../../../src/check/folded-search.js'
import { bindValues, type Statement } from '../../../src/sql/statement.js'
import { mssqlDialect } from '../../../src/sql/mssql/dialect.js'
import { mssqlCatalogFromRows } from '../../../src/sql/mssql/introspect.js'
import { leadsAFoldedIndex } from '../../../src/db/columns.js'
import { compileMapping } from '../../../src/mapping/compile/index.js'
import { loadMapping } from '../../../src/installation.js'
import { fixtureInstallation, type FixtureApp } from '../../helpers/fixture-installation.js'
import { testDialects } from '../../helpers/contract.js'
import { parseTsql } from '../../helpers/tsql-grammar.js'

t.setTimeout(600_000)

const col = (name: string, type: FixtureColumn['type'], nullable = true, length?: number): FixtureColumn =>
  ({ name, type, nullable, ...length ? { length } : {} })

const CLIENTS = 240
const FIXTURE: Fixture = {
  name: 'correio-clinic',
  tables: [
    {
      name: 'cliente',
      columns: [col('id', 'int', false), col('nome', 'ntext', false, 80), col('correio', 'text', true, 120)],
      primaryKey: ['id'],
      indexes: [['correio']], // the plain index the search cannot use
      rows: Array.from({ length: CLIENTS }, (_, i) => [i + 1, `Cliente ${i + 1}`, i % 7 === 0 ? null : `  Pessoa${i + 1}@Correio.test `])
    },
    {
      name: 'agenda',
      columns: [col('id', 'int', false), col('cliente', 'int', false), col('medico', 'int', false), col('inicio', 'datetime', false)],
      primaryKey: ['id'],
      indexes: [['inicio'], ['medico'], ['cliente']],
      rows: [[1, 2, 1, '2031-03-10 09:00:00']]
    },
    { name: 'medico', columns: [col('id', 'int', false), col('nome', 'ntext', false, 80)], primaryKey: ['id'], rows: [[1, 'Dra. Iara Lopes']] }
  ]
}

const MAPPING = `
version: 1
installation: correio-clinic
timezone: America/Sao_Paulo
search: [email, name]
resources:
  appointment:
    table: agenda
    key: id
    start: { datetime: { column: inicio, format: datetime } }
    state: { value: WAITING }
    refs: { client: cliente, professional: medico }
  client:
    table: cliente
    key: id
    fields:
      name: nome
      email: correio
  professional:
    table: medico
    key: id
    fields: { name: nome }
`

const EMAIL_LINE = MAPPING.split('\n').findIndex((l) => l.includes('email: correio')) + 1

async function advice (app: FixtureApp): Promise<Findings> {
  const out = new Findings(app.inst.model)
  await checkFoldedSearch(app.inst.compiled, await app.inst.db.introspect.catalog(), app.inst.db, out)
  return out
}

/** The compiled e-mail search, bound for one term, as the server runs it. */
function search (app: FixtureApp, term: string): { statement: Statement, args: Record<string, unknown> } {
  return app.inst.compiled.clients.bindSearch([{ kind: 'email', value: term }], 0)
}

/**
 * How many times SQLite evaluates LOWER() running the statement: the built-in is replaced by a
 * deterministic application function that counts its calls (SQLite lets an application
 * function of the same name override a built-in, and uses a deterministic one in an index on
 * an expression). A scan evaluates it for every row; a seek of the index for none of them.
 */
function sqliteLowerCalls (file: string, statement: Statement, args: Record<string, unknown>): number {
  const raw = new BetterSqlite3(file, { readonly: true })
  let calls = 0
  try {
    raw.function('lower', { deterministic: true }, (x: unknown) => { calls++; return typeof x === 'string' ? x.toLowerCase() : x })
    const values = bindValues(statement, args)
    raw.prepare(statement.sql).all(Object.fromEntries(values.map((v, i) => [`p${i + 1}`, v])))
    return calls
  } finally {
    raw.close()
  }
}

/** The nodes of PostgreSQL's plan for the statement that seek an index (an `Index Cond`), by index name; seq scans disabled, so any index that can serve is taken. */
async function postgresSeeks (url: string, statement: Statement, args: Record<string, unknown>): Promise<string[]> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query('SET enable_seqscan = off')
    const res = await client.query(`EXPLAIN (FORMAT JSON) ${statement.sql}`, bindValues(statement, args))
    const names: string[] = []
    const walk = (node: { 'Index Name'?: string, 'Index Cond'?: string, Plans?: unknown[] }): void => {
      if (node['Index Name'] !== undefined && node['Index Cond'] !== undefined) names.push(node['Index Name'])
      for (const child of node.Plans ?? []) walk(child as typeof node)
    }
    walk((res.rows[0]['QUERY PLAN'] as { Plan: { Plans?: unknown[] } }[])[0].Plan)
    return names
  } finally {
    await client.end()
  }
}

for (const dialect of testDialects()) {
  t.test(`${dialect}: the e-mail search's index`, async (t) => {
    const app = await fixtureInstallation(t, dialect, FIXTURE, MAPPING)
    const warnings = (await advice(app)).list.filter((f) => f.severity === 'warning')
    t.equal(warnings.length, 1, 'one warning')
    t.equal(warnings[0]?.line, EMAIL_LINE, 'at the e-mail field\'s line')
    const found = await app.get(`/clients/search?term=${encodeURIComponent('pessoa9@correio.TEST')}`)
    t.same(found.body.map((c: { id: string }) => c.id), ['9'], 'the search finds the client, spaces and case aside')

    if (dialect === 'mysql') {
      t.match(warnings[0].message, new RegExp(`reads the whole table \`cliente\` \\(${CLIENTS} client rows\\)`), 'MariaDB: the search scans, and how many rows')
      t.notMatch(warnings[0].message, /CREATE INDEX/, 'no index it cannot have')
      return
    }
    const create = /create one: (CREATE INDEX "(\w+)" .*)$/.exec(warnings[0].message)
    t.ok(create, `an index to create: ${create?.[1]}`)
    if (!create) return
    t.match(create[1], /\(\(LOWER\(TRIM\("correio"\)\)\)\)$/, 'on the expression the search compares')
    const { statement, args } = search(app, 'pessoa9@correio.test')
    t.match(statement.sql, /LOWER\(TRIM\("t"\."correio"\)\) = /, 'the compiled search compares that expression')
    const file = app.url.replace(/^sqlite:/, '')
    if (dialect === 'sqlite') t.ok(sqliteLowerCalls(file, statement, args) >= CLIENTS * 6 / 7, 'SQLite evaluates LOWER() on every stored e-mail: the plain index is no use to it')
    else t.same(await postgresSeeks(app.url, statement, args), [], 'PostgreSQL seeks no index for it, even with seq scans disabled')

    await app.inst.db.query({ name: 'test.index', sql: create[1], params: [] })
    if (dialect === 'sqlite') t.equal(sqliteLowerCalls(file, statement, args), 0, 'after the advised index, SQLite seeks it: LOWER() is never evaluated on a row')
    else t.same(await postgresSeeks(app.url, statement, args), [create[2]], 'after the advised index, PostgreSQL\'s plan seeks it (an Index Cond on it)')
    t.same((await advice(app)).list, [], 'the warning is answered')
    const again = await app.get(`/clients/search?term=${encodeURIComponent(' PESSOA9@correio.test')}`)
    t.same(again.body.map((c: { id: string }) => c.id), ['9'], 'the search still finds the client')
  })
}

t.test('SQL Server: a computed column on the search\'s expression, and its index, as T-SQL', async (t) => {
  const d = mssqlDialect()
  const printed = d.foldedIndex?.('IX_PACIENTE_EMAIL_folded', 'dbo.PACIENTE', 'EMAIL') ?? ''
  t.equal(printed, 'ALTER TABLE [dbo].[PACIENTE] ADD [EMAIL_folded] AS LOWER(LTRIM(RTRIM([EMAIL]))); CREATE INDEX [IX_PACIENTE_EMAIL_folded] ON [dbo].[PACIENTE] ([EMAIL_folded])')
  t.same(parseTsql(printed, { statements: 2 }), [], 'parses as two T-SQL statements')
  const model = loadMapping('mappings/clinica-sorriso.yaml')
  const sql = compileMapping(model, d).clients.search(['email']).sql
  t.match(sql, /LOWER\(LTRIM\(RTRIM\(\[t\]\.\[EMAIL\]\)\)\) = @p\d+/, 'the compiled search compares the expression the column holds')
  const column = { type: 'nvarchar', nullable: 'YES', dflt: 0, identity: 0, computed: 0, pk: 0, length: 100, dfltSql: null }
  const catalog = mssqlCatalogFromRows([
    { schema: 'dbo', tbl: 'PACIENTE', name: 'EMAIL', ...column },
    { schema: 'dbo', tbl: 'PACIENTE', name: 'EMAIL_folded', ...column, computed: 1 }
  ], [{ schema: 'dbo', tbl: 'PACIENTE', idx: 2, pos: 1, col: 'EMAIL_folded', expr: '(lower(ltrim(rtrim([EMAIL]))))' }])
  const table = catalog.table('dbo.PACIENTE')
  t.ok(table && leadsAFoldedIndex(table, 'EMAIL'), 'the index on the computed column is read as the e-mail search\'s')
  t.notOk(table && leadsAFoldedIndex(table, 'NOME'), 'and not as another column\'s')
})
