// Reading declared text columns from the live database: SQLite from a real file loaded from
// a sample fixture; SQL Server's statement through the T-SQL grammar, and its rows as
// INFORMATION_SCHEMA.COLUMNS returns them.
import t from 'tap'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createSqliteFromFixture } from '../../src/sql/sqlite/load.js'
import { openSqlite } from '../../src/sql/sqlite/driver.js'
import { LiveSchema } from '../../src/db/columns.js'
import { sqliteTextColumn } from '../../src/sql/sqlite/introspect.js'
import { mssqlColumnsStatement, mssqlTextColumn } from '../../src/sql/mssql/introspect.js'
import { parseTsql } from '../helpers/tsql-grammar.js'

t.test('SQLite declared types, read as SQL Server would', async (t) => {
  const cases: [string, ReturnType<typeof sqliteTextColumn>][] = [
    ['VARCHAR(100)', { unicode: false, length: 100 }],
    ['varchar (14)', { unicode: false, length: 14 }],
    ['NVARCHAR(60)', { unicode: true, length: 60 }],
    ['CHAR(2)', { unicode: false, length: 2 }],
    ['NCHAR(1)', { unicode: true, length: 1 }],
    ['CHARACTER VARYING(5)', { unicode: false, length: 5 }],
    ['NATIONAL CHARACTER(3)', { unicode: true, length: 3 }],
    ['VARCHAR(MAX)', { unicode: false, length: undefined }],
    ['TEXT', { unicode: true, length: undefined }],
    ['INTEGER', undefined],
    ['INT', undefined],
    ['NUMERIC', undefined],
    ['', undefined]
  ]
  for (const [declared, expected] of cases) t.same(sqliteTextColumn(declared), expected, JSON.stringify(declared))
})

t.test('a SQLite copy of each sample fixture carries its declared lengths and Unicode-ness', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ponte-introspect-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const open = (name: string) => {
    const file = join(dir, `${name}.db`)
    createSqliteFromFixture(`fixtures/${name}/fixture.json`, file)
    const db = openSqlite(file)
    t.teardown(async () => { await db.close() })
    return new LiveSchema(db)
  }
  const sorriso = await open('clinica-sorriso').textColumns('dbo.PACIENTE')
  t.same(sorriso.get('nome'), { unicode: false, length: 100 }, 'PACIENTE.NOME varchar(100)')
  t.same(sorriso.get('cpf'), { unicode: false, length: 14 }, 'PACIENTE.CPF char(14)')
  t.notOk(sorriso.has('id_paciente'), 'an int column is not a text column')
  const northwind = await open('northwind-health').textColumns('patients')
  t.same(northwind.get('first_name'), { unicode: true, length: 60 }, 'patients.first_name nvarchar(60)')
  t.same(northwind.get('email'), { unicode: false, length: 160 })
})

t.test('SQL Server: one parameterised statement per table, valid T-SQL', async (t) => {
  for (const [table, args] of [
    ['PACIENTE', { table: 'PACIENTE', schema: undefined }],
    ['dbo.PACIENTE', { table: 'PACIENTE', schema: 'dbo' }],
    ['Clinica.dbo.PACIENTE', { table: 'PACIENTE', schema: 'dbo' }]
  ] as const) {
    const { statement, args: bound } = mssqlColumnsStatement(table)
    t.same(parseTsql(statement.sql, { statements: 1 }), [], `${table}: ${statement.sql}`)
    t.same(bound, args, `${table}: names bound, not written into the text`)
    t.notMatch(statement.sql, /PACIENTE|'dbo'/, `${table}: no name in the SQL text`)
    t.ok(statement.params.every((p) => p.type === 'ntext'), `${table}: bound as NVARCHAR, the type of INFORMATION_SCHEMA names`)
  }
  t.match(mssqlColumnsStatement('Clinica.dbo.PACIENTE').statement.sql, /FROM \[Clinica\]\.INFORMATION_SCHEMA\.COLUMNS/, 'another database: its own INFORMATION_SCHEMA')
  t.match(mssqlColumnsStatement('PACIENTE').statement.sql, /TABLE_SCHEMA = SCHEMA_NAME\(\)/, 'unqualified: the default schema')
})

t.test('SQL Server: INFORMATION_SCHEMA.COLUMNS rows read as text columns', async (t) => {
  const cases: [Record<string, unknown>, ReturnType<typeof mssqlTextColumn>][] = [
    [{ name: 'NOME', type: 'varchar', length: 100 }, { unicode: false, length: 100 }],
    [{ name: 'CPF', type: 'char', length: 14 }, { unicode: false, length: 14 }],
    [{ name: 'first_name', type: 'nvarchar', length: 60 }, { unicode: true, length: 60 }],
    [{ name: 'UF', type: 'NCHAR', length: 2 }, { unicode: true, length: 2 }],
    [{ name: 'OBS', type: 'nvarchar', length: -1 }, { unicode: true, length: undefined }],
    [{ name: 'MEMO', type: 'text', length: 2147483647 }, { unicode: false, length: 2147483647 }],
    [{ name: 'NOTES', type: 'ntext', length: 1073741823 }, { unicode: true, length: 1073741823 }],
    [{ name: 'ID', type: 'int', length: null }, undefined],
    [{ name: 'DT', type: 'datetime', length: null }, undefined],
    [{ name: 'PHOTO', type: 'varbinary', length: -1 }, undefined]
  ]
  for (const [row, expected] of cases) t.same(mssqlTextColumn(row), expected, `${String(row.type)}(${String(row.length)})`)
})
