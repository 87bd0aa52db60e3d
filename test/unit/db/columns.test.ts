// Reading declared text columns from the live database's catalogue: SQLite from a real file
// loaded from a sample fixture; SQL Server's rows as INFORMATION_SCHEMA.COLUMNS returns them
// (its catalogue statement is pinned through the T-SQL grammar in test/unit/check/structure-catalog).
import t from 'tap'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createSqliteFromFixture } from '../../../src/sql/sqlite/load.js'
import { openSqlite } from '../../../src/sql/sqlite/driver.js'
import { textColumnsOf } from '../../../src/db/columns.js'
import { sqliteTextColumn } from '../../../src/sql/sqlite/introspect.js'
import { mssqlCatalogFromRows, mssqlTextColumn } from '../../../src/sql/mssql/introspect.js'

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

t.test('a SQLite copy of each sample fixture carries its declared lengths and Unicode-ness in its catalogue', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ponte-introspect-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const open = async (name: string, table: string) => {
    const file = join(dir, `${name}.db`)
    createSqliteFromFixture(`fixtures/${name}/fixture.json`, file)
    const db = openSqlite(file)
    t.teardown(async () => { await db.close() })
    return textColumnsOf((await db.introspect.catalog()).table(table))
  }
  const sorriso = await open('clinica-sorriso', 'dbo.PACIENTE')
  t.same(sorriso.get('nome'), { unicode: false, length: 100 }, 'PACIENTE.NOME varchar(100)')
  t.same(sorriso.get('cpf'), { unicode: false, length: 14 }, 'PACIENTE.CPF char(14)')
  t.notOk(sorriso.has('id_paciente'), 'an int column is not a text column')
  const northwind = await open('northwind-health', 'patients')
  t.same(northwind.get('first_name'), { unicode: true, length: 60 }, 'patients.first_name nvarchar(60)')
  t.same(northwind.get('email'), { unicode: false, length: 160 })
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
  // The same rows as the catalogue statement returns them: its text columns are these.
  const catalog = mssqlCatalogFromRows(cases.map(([row]) => ({ ...row, schema: 'dbo', tbl: 'PACIENTE', nullable: 'YES', dflt: 0, identity: 0, computed: 0, pk: 0 })))
  t.same(Object.fromEntries(textColumnsOf(catalog.table('PACIENTE'))),
    Object.fromEntries(cases.flatMap(([row, expected]) => expected === undefined ? [] : [[String(row.name).toLowerCase(), expected]])),
    'the catalogue carries each text column\'s Unicode-ness and length, and no other column')
})
