// The two dialects' building blocks: identifier quoting, paging, expression helpers.
// T-SQL output is checked by the real grammar (tsql-grammar.ts); SQLite output is run.
import t, { type Test } from 'tap'
import BetterSqlite3 from 'better-sqlite3'
import { digitsOnly, type Dialect, type SelectSpec } from '../../../src/sql/dialect.js'
import { mssql, mssqlDialect } from '../../../src/sql/mssql/dialect.js'
import { sqlite } from '../../../src/sql/sqlite/dialect.js'
import { parseTsql, parseTsqlScript, tsqlVersionProblems } from '../../helpers/tsql-grammar.js'

const legacy = mssqlDialect({ legacyPaging: true })

/** `SELECT t.A AS c0, t.B AS c1 FROM dbo.X t WHERE t.B = @p1 [ORDER BY t.A]`, paged by @p2/@p3 unless told. */
function spec (d: Dialect, over: Partial<SelectSpec> = {}): SelectSpec {
  return {
    columns: [{ expr: d.column('t', 'A'), alias: 'c0' }, { expr: d.column('t', 'B'), alias: 'c1' }],
    from: { table: d.table('dbo.X'), alias: 't' },
    joins: [],
    where: [`${d.column('t', 'B')} = ${d.placeholder(1)}`],
    orderBy: [d.column('t', 'A')],
    page: { limit: d.placeholder(2), offset: d.placeholder(3) },
    ...over
  }
}

/** Valid T-SQL, one statement, nothing newer than `target`. */
function validTsql (t: Test, sql: string, target: 2008 | 2012, what: string): void {
  t.same([...parseTsql(sql, { statements: 1 }), ...tsqlVersionProblems(sql, target)], [], `${what} is valid T-SQL for SQL Server ${target}`, { sql })
}

t.test('mssql identifiers', async (t) => {
  t.equal(mssql.ident('AGENDA'), '[AGENDA]')
  t.equal(mssql.ident('we]ird'), '[we]]ird]', '] is doubled')
  t.equal(mssql.ident('a]]b'), '[a]]]]b]')
  t.equal(mssql.ident('a[b "c"'), '[a[b "c"]', '[ and " need no escaping inside brackets')
  t.equal(mssql.table('dbo.AGENDA'), '[dbo].[AGENDA]', 'schema-qualified')
  t.equal(mssql.table('AGENDA'), '[AGENDA]')
  t.equal(mssql.table('clinic.dbo.AGENDA'), '[clinic].[dbo].[AGENDA]', 'database-qualified')
  t.equal(mssql.column('t_sala', 'ID_UNIDADE'), '[t_sala].[ID_UNIDADE]')
  t.equal(mssql.column('t', 'x]y'), '[t].[x]]y]')
  t.equal(mssql.placeholder(12), '@p12')
  t.equal(legacy.table('dbo.AGENDA'), '[dbo].[AGENDA]', 'paging does not change quoting')

  const sql = `SELECT ${mssql.column('t', 'we]ird')} AS ${mssql.ident('c"0')} FROM ${mssql.table('dbo.we]ird table')} ${mssql.ident('t')} WHERE ${mssql.column('t', 'a[b')} = ${mssql.placeholder(1)}`
  validTsql(t, sql, 2008, 'escaped identifiers')
  t.ok(parseTsqlScript(sql).tokens.some((tk) => tk.text === '[we]]ird]'), 'an escaped ] stays inside one identifier token')
  t.not(parseTsql('SELECT [t].[we]ird] FROM [X] [t]'), [], 'an unescaped ] breaks the statement (the harness sees it)')
})

t.test('sqlite identifiers', async (t) => {
  t.equal(sqlite.ident('AGENDA'), '"AGENDA"')
  t.equal(sqlite.ident('we"ird'), '"we""ird"', '" is doubled')
  t.equal(sqlite.ident('a]b'), '"a]b"')
  t.equal(sqlite.table('dbo.AGENDA'), '"AGENDA"', 'the schema is dropped: one namespace per SQLite file')
  t.equal(sqlite.table('AGENDA'), '"AGENDA"')
  t.equal(sqlite.column('t', 'x"y'), '"t"."x""y"')
  t.equal(sqlite.placeholder(3), '+@p3', 'a no-op + keeps SQLite from planning again for each value (test/unit/sql/sqlite/dialect-planned-once.test.ts)')

  const db = new BetterSqlite3(':memory:')
  t.teardown(() => db.close())
  db.exec('CREATE TABLE "we""ird" ("a""b" INTEGER, "c]d" TEXT); INSERT INTO "we""ird" VALUES (1, \'x\')')
  const row = db.prepare(`SELECT ${sqlite.column('t', 'a"b')} AS ${sqlite.ident('c0')}, ${sqlite.column('t', 'c]d')} AS ${sqlite.ident('c1')} FROM ${sqlite.table('dbo.we"ird')} ${sqlite.ident('t')}`).get()
  t.same(row, { c0: 1, c1: 'x' }, 'escaped names resolve in SQLite')
})

t.test('mssql modern paging: OFFSET … FETCH after the ORDER BY', async (t) => {
  const sql = mssql.select(spec(mssql))
  t.equal(sql, 'SELECT [t].[A] AS [c0], [t].[B] AS [c1] FROM [dbo].[X] [t] WHERE [t].[B] = @p1 ORDER BY [t].[A] OFFSET @p3 ROWS FETCH NEXT @p2 ROWS ONLY')
  validTsql(t, sql, 2012, 'a paged select')
  t.not(tsqlVersionProblems(sql, 2008), [], 'and is not for 2008 R2')
})

t.test('mssql legacy paging (2008 R2): ROW_NUMBER() in a derived table', async (t) => {
  const sql = legacy.select(spec(legacy))
  t.equal(sql, 'SELECT [c0], [c1] FROM (SELECT [t].[A] AS [c0], [t].[B] AS [c1], ROW_NUMBER() OVER (ORDER BY [t].[A]) AS [__rn] FROM [dbo].[X] [t] WHERE [t].[B] = @p1) AS [__page] WHERE [__rn] > @p3 AND [__rn] <= @p3 + @p2 ORDER BY [__rn]')
  validTsql(t, sql, 2008, 'a legacy paged select')
  t.notMatch(sql, /OFFSET|FETCH/)
})

t.test('a paged select without ORDER BY is still valid T-SQL', async (t) => {
  const modern = mssql.select(spec(mssql, { orderBy: [] }))
  t.match(modern, / ORDER BY \(SELECT NULL\) OFFSET @p3 ROWS FETCH NEXT @p2 ROWS ONLY$/)
  validTsql(t, modern, 2012, 'modern, no ORDER BY')
  const old = legacy.select(spec(legacy, { orderBy: [] }))
  t.match(old, /ROW_NUMBER\(\) OVER \(ORDER BY \(SELECT NULL\)\) AS \[__rn\]/)
  validTsql(t, old, 2008, 'legacy, no ORDER BY')
  // What the guard prevents: OFFSET without ORDER BY is a syntax error.
  t.not(parseTsql(modern.replace(' ORDER BY (SELECT NULL)', ''), { statements: 1 }), [], 'without the guard the grammar rejects it')
})

t.test('unpaged selects are the same in both T-SQL variants', async (t) => {
  for (const over of [{ page: undefined }, { page: undefined, orderBy: [] }]) {
    const a = mssql.select(spec(mssql, over))
    t.equal(legacy.select(spec(legacy, over)), a)
    t.notMatch(a, /OFFSET|ROW_NUMBER/)
    validTsql(t, a, 2008, 'an unpaged select')
  }
  t.notMatch(mssql.select(spec(mssql, { page: undefined, orderBy: [] })), /ORDER BY/, 'no ORDER BY unless asked')
})

t.test('DISTINCT and LEFT JOINs render as valid T-SQL', async (t) => {
  const d = mssql
  const sql = d.select(spec(d, {
    distinct: true,
    page: undefined,
    orderBy: [],
    joins: [{ table: d.table('dbo.SALA'), alias: 't_sala', on: `${d.column('t', 'ID_SALA')} = ${d.column('t_sala', 'ID_SALA')} AND ${d.column('t_sala', 'ATIVO')} = ${d.placeholder(2)}` }]
  }))
  t.equal(sql, 'SELECT DISTINCT [t].[A] AS [c0], [t].[B] AS [c1] FROM [dbo].[X] [t] LEFT JOIN [dbo].[SALA] [t_sala] ON [t].[ID_SALA] = [t_sala].[ID_SALA] AND [t_sala].[ATIVO] = @p2 WHERE [t].[B] = @p1')
  validTsql(t, sql, 2008, 'DISTINCT with a LEFT JOIN')
})

t.test('mssql expression helpers are valid on SQL Server 2008 R2', async (t) => {
  for (const d of [mssql, legacy]) {
    const col = d.column('t', 'NOME')
    const exprs = [d.trim(col), d.rtrim(col), d.lower(col), d.asText(col), d.concat([col, d.placeholder(1), d.column('t', 'SOBRENOME')]), digitsOnly(d, d.column('t', 'FONE'))]
    t.equal(d.trim(col), 'LTRIM(RTRIM([t].[NOME]))', 'no TRIM() (2017)')
    t.notMatch(d.concat([col, col]), /CONCAT\(/, 'no CONCAT() (2012)')
    const sql = `SELECT ${exprs.map((e, i) => `${e} AS [c${i}]`).join(', ')} FROM [dbo].[PACIENTE] [t] WHERE ${d.foldedLike(col, d.placeholder(2))}`
    validTsql(t, sql, 2008, 'every helper in one statement')
  }
  t.equal(mssql.foldedLike('[t].[N]', '@p1'), 'LTRIM(RTRIM(CAST([t].[N] AS NVARCHAR(4000)))) COLLATE Latin1_General_CI_AI LIKE @p1')
  t.equal(mssqlDialect({ searchCollation: 'Latin1_General_100_CI_AI' }).foldedLike('[t].[N]', '@p1'), 'LTRIM(RTRIM(CAST([t].[N] AS NVARCHAR(4000)))) COLLATE Latin1_General_100_CI_AI LIKE @p1')
})

t.test('sqlite select and helpers run', async (t) => {
  const db = new BetterSqlite3(':memory:')
  t.teardown(() => db.close())
  db.exec('CREATE TABLE "X" ("A" INTEGER, "B" TEXT, "C" TEXT); INSERT INTO "X" VALUES (3, \'k\', NULL), (1, \'k\', \' a-b \'), (2, \'k\', \'(11) 9.8/7+\'), (4, \'z\', NULL)')
  const sql = sqlite.select(spec(sqlite))
  t.equal(sql, 'SELECT "t"."A" AS "c0", "t"."B" AS "c1" FROM "X" "t" WHERE "t"."B" = +@p1 ORDER BY "t"."A" LIMIT +@p2 OFFSET +@p3')
  t.same(db.prepare(sql).all({ p1: 'k', p2: 2, p3: 1 }), [{ c0: 2, c1: 'k' }, { c0: 3, c1: 'k' }], 'LIMIT then OFFSET')
  t.equal(sqlite.select(spec(sqlite, { page: undefined, orderBy: [] })), 'SELECT "t"."A" AS "c0", "t"."B" AS "c1" FROM "X" "t" WHERE "t"."B" = +@p1')

  const c = sqlite.column('t', 'C')
  const rows = db.prepare(`SELECT ${sqlite.trim(c)} AS "trim", ${sqlite.concat([sqlite.column('t', 'B'), c, "'!'"])} AS "concat", ${digitsOnly(sqlite, c)} AS "digits", ${sqlite.asText(sqlite.column('t', 'A'))} AS "id" FROM "X" "t" WHERE "t"."B" = 'k' ORDER BY "t"."A"`).all()
  t.same(rows, [
    { trim: 'a-b', concat: 'k a-b !', digits: 'ab', id: '1' },
    { trim: '(11) 9.8/7+', concat: 'k(11) 9.8/7+!', digits: '11987', id: '2' },
    { trim: null, concat: 'k!', digits: null, id: '3' }
  ], 'NULL parts concatenate as empty text')
})

t.test('mssql writes: INSERT, OUTPUT … INTO, UPDATE, lock hints', async (t) => {
  for (const [d, target] of [[mssql, 2012], [legacy, 2008]] as const) {
    const plain = d.insert('dbo.AGENDA', ['ID_AGENDA', 'we]ird'], [d.placeholder(1), d.placeholder(2)])
    t.equal(plain, 'INSERT INTO [dbo].[AGENDA] ([ID_AGENDA], [we]]ird]) VALUES (@p1, @p2)')
    validTsql(t, plain, target, 'INSERT')
    const returning = d.insert('dbo.AGENDA', ['DATA'], [d.placeholder(1)], 'ID_AGENDA')
    t.match(returning, /OUTPUT INSERTED\.\[ID_AGENDA\] INTO @\w+/, 'OUTPUT … INTO a table variable, never a bare OUTPUT (triggers)')
    t.same([...parseTsql(returning, { separated: true }), ...tsqlVersionProblems(returning, target)], [], `INSERT with a returned id is a valid batch for ${target}`, { sql: returning })
    const update = d.update('dbo.AGENDA', 't', [{ column: 'SITUACAO', value: d.placeholder(1) }], [`${d.column('t', 'ID_AGENDA')} = ${d.placeholder(2)}`])
    validTsql(t, update, target, 'UPDATE under an alias')
    const locked = d.select(spec(d, { lock: true, page: undefined, joins: [{ table: d.table('dbo.SALA'), alias: 't_sala', on: '[t].[ID_SALA] = [t_sala].[ID_SALA]' }] }))
    t.match(locked, /FROM \[dbo\]\.\[X\] \[t\] WITH \(UPDLOCK, HOLDLOCK\) LEFT JOIN/)
    validTsql(t, locked, target, 'a locked select')
  }
  const seq = mssql.nextSequenceValue('dbo.SEQ_AGENDA')
  t.equal(seq, 'SELECT NEXT VALUE FOR [dbo].[SEQ_AGENDA] AS [id]')
  t.not(parseTsqlScript(seq).errors, [], 'the grammar itself lacks NEXT VALUE FOR (a documented gap, see GRAMMAR_GAPS)')
  validTsql(t, seq, 2012, 'NEXT VALUE FOR')
  t.not(tsqlVersionProblems(seq, 2008), [], 'sequences do not exist on 2008 R2')
})

t.test('sqlite writes run', async (t) => {
  const db = new BetterSqlite3(':memory:')
  t.teardown(() => db.close())
  db.exec('CREATE TABLE "AGENDA" ("ID_AGENDA" INTEGER PRIMARY KEY, "SITUACAO" TEXT)')
  t.equal(sqlite.lockHint, '')
  const ins = sqlite.insert('dbo.AGENDA', ['SITUACAO'], [sqlite.placeholder(1)], 'ID_AGENDA')
  t.same(db.prepare(ins).all({ p1: 'A' }), [{ id: 1 }], 'RETURNING yields the new id as `id`')
  db.prepare(sqlite.insert('dbo.AGENDA', ['ID_AGENDA', 'SITUACAO'], [sqlite.placeholder(1), sqlite.placeholder(2)])).run({ p1: 7, p2: 'A' })
  const upd = sqlite.update('dbo.AGENDA', 't', [{ column: 'SITUACAO', value: sqlite.placeholder(1) }], [`${sqlite.column('t', 'ID_AGENDA')} = ${sqlite.placeholder(2)}`])
  t.equal(db.prepare(upd).run({ p1: 'X', p2: 7 }).changes, 1)
  t.same(db.prepare('SELECT "ID_AGENDA", "SITUACAO" FROM "AGENDA" ORDER BY 1').all(), [{ ID_AGENDA: 1, SITUACAO: 'A' }, { ID_AGENDA: 7, SITUACAO: 'X' }])
  t.throws(() => sqlite.nextSequenceValue('dbo.SEQ'), /no sequences/)
})

t.test('sqlite: a +@pN parameter finds the rows a bare one finds, on every column affinity and operator', async (t) => {
  const db = new BetterSqlite3(':memory:')
  t.teardown(() => db.close())
  // One column of each affinity SQLite gives a legacy type, and one declared without a type;
  // each indexed and analysed, so comparisons run as index seeks too.
  db.exec(`CREATE TABLE "V" ("I" INTEGER, "X" VARCHAR(10), "C" CHAR(4), "N" NUMERIC, "R" REAL, "B" BLOB, "D");
    INSERT INTO "V" VALUES (1, '1', '1   ', 1, 1.0, '1', '1'), (2, '02', 'ab  ', 2, 2.5, x'01', 2), (NULL, NULL, NULL, NULL, NULL, NULL, NULL), (-3, '-3', '-3', '1e2', 100, 'abc', 2.5);
    CREATE INDEX "V_I" ON "V" ("I"); CREATE INDEX "V_X" ON "V" ("X"); CREATE INDEX "V_C" ON "V" ("C"); CREATE INDEX "V_N" ON "V" ("N");
    CREATE INDEX "V_R" ON "V" ("R"); CREATE INDEX "V_B" ON "V" ("B"); CREATE INDEX "V_D" ON "V" ("D"); ANALYZE`)
  const values = [1, '1', 2, '2', '02', 2.5, '2.5', -3, '-3', '1e2', 100, 'ab  ', 'abc', Buffer.from([1]), null, 2n ** 40n]
  const conditions = ['{c} = $', '{c} <> $', '{c} < $', '{c} > $', '{c} <= $', '{c} >= $', '$ = {c}', '$ < {c}', '{c} BETWEEN $ AND 2', '{c} IS $', '{c} IS NOT $',
    '{c} IN ($, 0)', '{c} LIKE $', '{c} GLOB $', "{c} || '!' = $ || '!'", 'CASE {c} WHEN $ THEN 1 END = 1', 'COALESCE({c}, $) = 1']
  const p = sqlite.placeholder(1)
  let compared = 0
  for (const column of ['I', 'X', 'C', 'N', 'R', 'B', 'D']) {
    for (const condition of conditions) {
      for (const value of values) {
        const rows = (param: string): unknown[] => db.prepare(`SELECT rowid FROM "V" WHERE ${condition.replace('{c}', `"${column}"`).replaceAll('$', param)} ORDER BY rowid`).all({ p1: value })
        const bare = rows('@p1')
        const plus = rows(p)
        if (JSON.stringify(bare) !== JSON.stringify(plus)) t.fail(`"${column}" ${condition} with ${String(value)}`, { bare, plus })
        compared++
      }
    }
  }
  t.equal(compared, 7 * conditions.length * values.length, `${compared} comparisons, each the same rows both ways`)
})
