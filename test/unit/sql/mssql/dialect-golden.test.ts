// Golden T-SQL (design notes §4): SQL Server cannot run here, so the T-SQL of every
// statement shape of every sample mapping is pinned in a file a person can read,
// test/golden/<installation>.mssql.sql (SQL Server 2012+) and .mssql-2008.sql
// (2008 R2, ROW_NUMBER() paging), and every statement is parsed by a real T-SQL grammar.
//
// After an intended change to the generated SQL: UPDATE_GOLDEN=1 npx tap test/unit/sql/mssql/dialect-golden.test.ts
// then read the diff of test/golden/ before committing it.
import t from 'tap'
import { readdirSync } from 'node:fs'
import { loadMapping } from '../../../../src/installation.js'
import { compileMapping } from '../../../../src/mapping/compile/index.js'
import { mssqlDialect } from '../../../../src/sql/mssql/dialect.js'
import type { MappingModel } from '../../../../src/mapping/model.js'
import type { Dialect } from '../../../../src/sql/dialect.js'
import type { Statement } from '../../../../src/sql/statement.js'
import { parseTsql, tsqlVersionProblems } from '../../../helpers/tsql-grammar.js'
import { checkGolden, GOLDEN, renderGolden, ROOT } from '../../../helpers/golden.js'

const MAPPINGS = `${ROOT}mappings/`

interface Variant { suffix: string, label: string, target: 2008 | 2012, dialect: Dialect }
const VARIANTS: Variant[] = [
  { suffix: 'mssql', label: 'SQL Server 2012+, OFFSET … FETCH paging: mssqlDialect()', target: 2012, dialect: mssqlDialect() },
  { suffix: 'mssql-2008', label: 'SQL Server 2008 R2, ROW_NUMBER() paging: mssqlDialect({ legacyPaging: true })', target: 2008, dialect: mssqlDialect({ legacyPaging: true }) }
]

function statementProblems (statements: Statement[], target: 2008 | 2012): string[] {
  const problems: string[] = []
  const seen = new Set<string>()
  for (const s of statements) {
    if (seen.has(s.name)) problems.push(`${s.name}: two statements have this name`)
    seen.add(s.name)
    for (const e of parseTsql(s.sql, { separated: true })) problems.push(`${s.name}: T-SQL syntax: ${e}`)
    for (const e of tsqlVersionProblems(s.sql, target)) problems.push(`${s.name}: ${e}`)
    const used = new Set([...s.sql.matchAll(/@p(\d+)\b/g)].map((m) => Number(m[1])))
    for (const n of used) if (n < 1 || n > s.params.length) problems.push(`${s.name}: @p${n} is used but has no parameter`)
    s.params.forEach((_, i) => { if (!used.has(i + 1)) problems.push(`${s.name}: @p${i + 1} is bound but not used`) })
  }
  return problems
}

t.test('the grammar harness catches statements SQL Server would reject', async (t) => {
  // As many parameters as the highest placeholder, unless told.
  const stmt = (name: string, sql: string, params = Math.max(0, ...[...sql.matchAll(/@p(\d+)/g)].map((m) => Number(m[1])))): Statement =>
    ({ name, sql, params: Array.from({ length: params }, (_, i) => ({ type: 'int', source: { input: `x${i}` } })) })
  const good = [
    stmt('good.offset', 'SELECT [t].[A] AS [c0] FROM [dbo].[X] [t] WHERE [t].[B] = @p1 ORDER BY [t].[A] OFFSET @p2 ROWS FETCH NEXT @p3 ROWS ONLY'),
    stmt('good.rowNumber', 'SELECT [c0] FROM (SELECT [t].[A] AS [c0], ROW_NUMBER() OVER (ORDER BY [t].[A]) AS [__rn] FROM [dbo].[X] [t] WHERE [t].[B] = @p1) AS [__page] WHERE [__rn] > @p2 AND [__rn] <= @p2 + @p3 ORDER BY [__rn]'),
    stmt('good.lock', 'SELECT [t].[A] FROM [dbo].[X] [t] WITH (UPDLOCK, HOLDLOCK) WHERE [t].[A] = @p1')
  ]
  t.same(statementProblems(good.slice(0, 1), 2012), [], 'OFFSET … FETCH is valid for 2012')
  t.same(statementProblems(good.slice(1), 2008), [], 'ROW_NUMBER() paging and lock hints are valid for 2008 R2')
  t.same(statementProblems([stmt('good.outputInto', 'DECLARE @t TABLE ([id] NVARCHAR(450)); INSERT INTO [dbo].[X] ([A]) OUTPUT INSERTED.[A] INTO @t ([id]) VALUES (@p1); SELECT [id] FROM @t')], 2008), [], 'an OUTPUT … INTO @t batch, written with ;')
  t.same(statementProblems([stmt('good.update', 'UPDATE [t] SET [A] = @p1 FROM [dbo].[X] [t] WHERE [t].[B] = @p2')], 2008), [], 'UPDATE … FROM under an alias')

  const bad: [string, string, 2008 | 2012, RegExp, number?][] = [
    ['bad.limit', 'SELECT a FROM t LIMIT 5', 2012, /T-SQL syntax/],
    ['bad.backtick', 'SELECT `a` FROM t', 2012, /T-SQL syntax/],
    ['bad.pgCast', 'SELECT a::int FROM t', 2012, /T-SQL syntax/],
    ['bad.ilike', 'SELECT a FROM t WHERE a ILIKE @p1', 2012, /T-SQL syntax/],
    ['bad.returning', 'INSERT INTO t (a) VALUES (@p1) RETURNING a', 2012, /T-SQL syntax/],
    ['bad.offsetWithoutOrder', 'SELECT a FROM t OFFSET @p1 ROWS FETCH NEXT @p2 ROWS ONLY', 2012, /T-SQL syntax/],
    ['bad.backslashEscape', "SELECT a FROM t WHERE a = 'x\\'y'", 2012, /T-SQL syntax/],
    ['bad.trim', 'SELECT TRIM(a) FROM t', 2012, /TRIM\(\) needs SQL Server 2017/],
    ['bad.concatOn2008', 'SELECT CONCAT(a, b) FROM t', 2008, /CONCAT\(\) needs SQL Server 2012/],
    ['bad.offsetOn2008', 'SELECT a FROM t ORDER BY a OFFSET @p1 ROWS FETCH NEXT @p2 ROWS ONLY', 2008, /OFFSET … needs SQL Server 2012/],
    ['bad.pipes', "SELECT a || 'x' FROM t", 2012, /`\|\|`/],
    ['bad.twoStatementsWithoutSemicolon', 'SELECT a FROM t SELECT b FROM u', 2012, /reads as two/],
    ['bad.sequenceOn2008', 'SELECT NEXT VALUE FOR [dbo].[SEQ] AS [id]', 2008, /NEXT VALUE FOR/],
    ['bad.unboundPlaceholder', 'SELECT a FROM t WHERE a = @p2', 2012, /@p2 is used but has no parameter/, 1],
    ['bad.unusedParameter', 'SELECT a FROM t WHERE a = @p1', 2012, /@p2 is bound but not used/, 2]
  ]
  for (const [name, sql, target, expect, params] of bad) {
    const problems = statementProblems([stmt(name, sql, params)], target)
    t.ok(problems.some((p) => p.startsWith(`${name}: `) && expect.test(p)), `${name} is reported`, { problems })
  }
})

// Parsing every statement of every mapping twice with the full T-SQL grammar takes a while
// (the first parse builds the grammar's tables): more than tap's default 30 s on a busy machine.
t.setTimeout(180_000)

const files = readdirSync(MAPPINGS).filter((f) => /\.ya?ml$/.test(f)).sort()
t.ok(files.includes('clinica-sorriso.yaml'), 'the sample mappings are found')

for (const file of files) {
  t.test(file, async (t) => {
    let model: MappingModel
    try {
      model = loadMapping(`${MAPPINGS}${file}`)
    } catch (err) {
      t.fail(`${file} does not load: ${(err as Error).message}`)
      return
    }
    for (const v of VARIANTS) {
      t.test(v.suffix, async (t) => {
        const statements = compileMapping(model, v.dialect).statements()
        t.ok(statements.length > 0, 'the mapping compiles to statements')
        t.same(statementProblems(statements, v.target), [], 'every statement is one valid T-SQL statement for the target')

        const golden = `${GOLDEN}${model.installation}.${v.suffix}.sql`
        const actual = renderGolden([
          `${model.installation}: every statement shape, ${v.label}.`,
          'Generated by test/unit/sql/mssql/dialect-golden.test.ts; after an intended change: UPDATE_GOLDEN=1 npx tap test/unit/sql/mssql/dialect-golden.test.ts'
        ], statements)
        checkGolden(t, golden, actual, statements.length)
      })
    }
  })
}
