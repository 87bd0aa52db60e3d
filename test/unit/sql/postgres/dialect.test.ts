// The PostgreSQL dialect's SQL text: what differs from the other dialects, pinned piece by
// piece (the whole statements are pinned by test/golden/*.postgres.sql and PREPAREd there).
import t from 'tap'
import { postgres, foldSql } from '../../../../src/sql/postgres/dialect.js'
import type { SelectSpec } from '../../../../src/sql/dialect.js'

const spec = (extra: Partial<SelectSpec> = {}): SelectSpec => ({
  columns: [{ expr: postgres.column('t', 'ID'), alias: 'c0' }],
  from: { table: postgres.table('dbo.AGENDA'), alias: 't' },
  joins: [],
  where: [`${postgres.column('t', 'DATA')} = ${postgres.placeholder(1)}`],
  orderBy: [postgres.column('t', 'ID')],
  ...extra
})

t.test('names keep their schema and their case, quoted', async (t) => {
  t.equal(postgres.table('dbo.AGENDA'), '"dbo"."AGENDA"')
  t.equal(postgres.table('appointments'), '"appointments"')
  t.equal(postgres.ident('we"ird'), '"we""ird"', 'a quote inside a name is doubled')
})

t.test('placeholders are positional $n', async (t) => {
  t.equal(postgres.placeholder(1), '$1')
  t.equal(postgres.placeholder(12), '$12')
})

t.test('paging is LIMIT … OFFSET; the first row is LIMIT 1', async (t) => {
  t.equal(postgres.select(spec({ page: { limit: '$2', offset: '$3' } })),
    'SELECT "t"."ID" AS "c0" FROM "dbo"."AGENDA" "t" WHERE "t"."DATA" = $1 ORDER BY "t"."ID" LIMIT $2 OFFSET $3')
  t.match(postgres.select(spec({ first: true })), / ORDER BY "t"\."ID" LIMIT 1$/)
})

t.test('a locked read adds no FOR UPDATE: the transaction is SERIALIZABLE', async (t) => {
  const locked = postgres.select(spec({ lock: true, columns: [{ expr: 'MAX("t"."ID")', alias: 'id' }], orderBy: [] }))
  t.notMatch(locked, /FOR UPDATE|WITH \(/, 'an aggregate under lock stays valid PostgreSQL')
})

t.test('text pieces', async (t) => {
  t.equal(postgres.concat(['"t"."A"', '$1']), 'COALESCE(CAST("t"."A" AS TEXT), \'\') || COALESCE(CAST($1 AS TEXT), \'\')', 'NULL parts as empty text, numbers cast first')
  t.equal(postgres.asText('"t"."ID"'), 'CAST("t"."ID" AS TEXT)')
  t.match(postgres.textList('"k"."V"', { table: '"dbo"."K"', alias: 'k' }, ['"k"."P" = "t"."ID"'], ['"k"."N"']),
    /^\(SELECT STRING_AGG\(CAST\("k"\."V" AS TEXT\), '\|' ORDER BY "k"\."N"\) FROM "dbo"\."K" "k" WHERE "k"\."P" = "t"\."ID"\)$/)
  t.match(postgres.foldedLike('"t"."NOME"', '$1'), / LIKE TRANSLATE\(\$1, 'ς', 'σ'\) ESCAPE ''$/, 'the caller\'s pattern has no escape character, and a final sigma matches σ')
  t.match(foldSql('"t"."NOME"'), /^LOWER\(TRIM\(REGEXP_REPLACE\(REGEXP_REPLACE\(NORMALIZE\(CAST\("t"\."NOME" AS TEXT\), NFD\), '\[\\u0300-\\u036f[^']*\]', '', 'g'\), '\\s\+', ' ', 'g'\)\)\)$/, 'NFD and marks removed in core SQL, no extension')
  t.equal(postgres.minutesBetween('"t"."A"', '"t"."B"'), 'CAST(ROUND(EXTRACT(EPOCH FROM ("t"."B" - "t"."A")) / 60) AS INTEGER)')
})

t.test('writes', async (t) => {
  t.equal(postgres.insert('dbo.PACIENTE', ['ID', 'NOME'], ['$1', '$2'], 'ID'), 'INSERT INTO "dbo"."PACIENTE" ("ID", "NOME") VALUES ($1, $2) RETURNING "ID" AS "id"')
  t.equal(postgres.update('dbo.PACIENTE', 'c', [{ column: 'NOME', value: '$1' }], ['"c"."ID" = $2']), 'UPDATE "dbo"."PACIENTE" AS "c" SET "NOME" = $1 WHERE "c"."ID" = $2')
  t.equal(postgres.nextSequenceValue('dbo.SEQ_PACIENTE'), 'SELECT nextval(\'"dbo"."SEQ_PACIENTE"\') AS "id"')
  t.equal(postgres.nextSequenceValue("dbo.it's"), 'SELECT nextval(\'"dbo"."it\'\'s"\') AS "id"', 'a quote in the name cannot end the literal')
})
