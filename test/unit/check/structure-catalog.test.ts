// The live catalog `ponte check` and the server's start compare a mapping with: every table
// and column of a SQLite copy as declared, and SQL Server's statement through the T-SQL
// grammar with its rows read as a server returns them.
import t from 'tap'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createSqliteFromFixture } from '../../../src/sql/sqlite/load.js'
import { openSqlite } from '../../../src/sql/sqlite/driver.js'
import { readCatalog, columnKind, referencesFromRows } from '../../../src/db/columns.js'
import { mssqlCatalogFromRows, mssqlCatalogStatement, mssqlReferencesStatement } from '../../../src/sql/mssql/introspect.js'
import { parseTsql } from '../../helpers/tsql-grammar.js'

t.test('a SQLite copy of Sorriso: tables found with or without dbo., types, keys, NOT NULL, defaults', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ponte-catalog-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  createSqliteFromFixture('fixtures/clinica-sorriso/fixture.json', join(dir, 'x.db'))
  const db = openSqlite(join(dir, 'x.db'))
  t.teardown(() => db.close())
  const catalog = await readCatalog(db)
  const paciente = catalog.table('dbo.PACIENTE')
  t.ok(paciente, 'dbo.PACIENTE is PACIENTE in SQLite')
  t.equal(catalog.table('paciente'), paciente, 'names ignore case')
  t.equal(catalog.table('dbo.PACIENTES'), undefined)
  const col = (n: string) => paciente?.columns.get(n.toLowerCase())
  t.match(col('NOME'), { name: 'NOME', kind: 'text', notNull: true, length: 100, key: false })
  t.match(col('ID_PACIENTE'), { kind: 'number', key: true })
  t.match(col('TIPO'), { notNull: true, hasDefault: true, defaultSql: "'P'" })
  t.match(col('ID_CONVENIO'), { kind: 'number', notNull: false })
})

t.test('SQL Server: the catalog statement parses as T-SQL; its rows become tables by schema', async (t) => {
  t.same(parseTsql(mssqlCatalogStatement().sql, { statements: 1 }), [], 'parses as one T-SQL statement')
  const catalog = mssqlCatalogFromRows([
    { schema: 'dbo', tbl: 'AGENDA', name: 'ID', type: 'int', nullable: 'NO', dflt: 0, identity: 1, computed: 0, pk: 1, length: null, dfltSql: null },
    { schema: 'dbo', tbl: 'AGENDA', name: 'HORA', type: 'varchar', nullable: 'YES', dflt: 0, identity: 0, computed: 0, pk: 0, length: 5, dfltSql: null },
    { schema: 'dbo', tbl: 'AGENDA', name: 'ORIGEM', type: 'char', nullable: 'NO', dflt: 1, identity: 0, computed: 0, pk: 0, length: 1, dfltSql: "('W')" },
    { schema: 'hist', tbl: 'AGENDA', name: 'ID', type: 'int', nullable: 'NO', dflt: 0, identity: 0, computed: 0, pk: 0, length: null, dfltSql: null }
  ])
  t.equal(catalog.tables.length, 2)
  t.equal(catalog.table('AGENDA')?.schema, 'dbo', 'unqualified: the default schema')
  t.equal(catalog.table('hist.AGENDA')?.schema, 'hist')
  t.match(catalog.table('dbo.AGENDA')?.columns.get('id'), { generated: true, key: true, notNull: true })
  t.match(catalog.table('dbo.AGENDA')?.columns.get('hora'), { kind: 'text', length: 5, notNull: false })
  t.match(catalog.table('dbo.AGENDA')?.columns.get('origem'), { hasDefault: true, defaultSql: "('W')" })
})

t.test('declared types as converters see them', async (t) => {
  for (const [declared, kind] of [['VARCHAR(5)', 'text'], ['nchar', 'text'], ['INTEGER', 'number'], ['smallint', 'number'], ['bit', 'number'],
    ['DECIMAL(10,2)', 'number'], ['DATETIME', 'date'], ['date', 'date'], ['time', 'date'], ['', 'unknown'], ['BLOB', 'other']] as const) {
    t.equal(columnKind(declared), kind, declared || '(none)')
  }
})

t.test('declared foreign keys: SQL Server\'s statement parses; rows group by key, columns in order', async (t) => {
  t.same(parseTsql(mssqlReferencesStatement().sql, { statements: 1 }), [], 'parses as one T-SQL statement')
  const refs = referencesFromRows([
    { schema: 'dbo', tbl: 'AGENDA', fk: 7, col: 'ID_PACIENTE', ref_schema: 'dbo', ref_tbl: 'PACIENTE', ref_col: 'ID' },
    { schema: 'dbo', tbl: 'ITEM', fk: 9, col: 'ORDER_NO', ref_schema: 'dbo', ref_tbl: 'ORDERS', ref_col: 'NO' },
    { schema: 'dbo', tbl: 'ITEM', fk: 9, col: 'LINE', ref_schema: 'dbo', ref_tbl: 'ORDERS', ref_col: 'LINE' },
    { schema: 'hist', tbl: 'AGENDA', fk: 7, col: 'PAC', ref_schema: 'dbo', ref_tbl: 'PACIENTE', ref_col: null }
  ])
  t.same(refs, [
    { table: 'AGENDA', schema: 'dbo', columns: ['ID_PACIENTE'], toTable: 'PACIENTE', toSchema: 'dbo', toColumns: ['ID'] },
    { table: 'ITEM', schema: 'dbo', columns: ['ORDER_NO', 'LINE'], toTable: 'ORDERS', toSchema: 'dbo', toColumns: ['NO', 'LINE'] },
    { table: 'AGENDA', schema: 'hist', columns: ['PAC'], toTable: 'PACIENTE', toSchema: 'dbo', toColumns: [] }
  ], 'one reference per key, a key of another schema apart, SQLite\'s NULL target column: the primary key')
})
