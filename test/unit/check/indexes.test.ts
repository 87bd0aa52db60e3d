// Columns the mapping filters or joins on without an index: `ponte check` warns (exit stays 0),
// naming the table, the column and the index to create; an index leading with the column
// silences it, one that only holds it further along does not. Also: where the index lists come
// from (SQLite's catalog, SQL Server's statement through the T-SQL grammar).
import t from 'tap'
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { openSqlite } from '../../../src/sql/sqlite/driver.js'
import { readCatalog } from '../../../src/db/columns.js'
import { mssqlCatalogFromRows, mssqlIndexStatement } from '../../../src/sql/mssql/introspect.js'
import { childEnv } from '../../helpers/child-env.js'
import { parseTsql } from '../../helpers/tsql-grammar.js'
import { CLINIC_MAPPING, CLINIC_SQL } from '../../helpers/scratch-clinic.js'

const ROOT = new URL('../../..', import.meta.url).pathname

function scratch (extraSql = ''): { dir: string, db: string, mapping: string } {
  const dir = mkdtempSync(join(tmpdir(), 'ponte-indexes-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const db = join(dir, 'legacy.db')
  const raw = new BetterSqlite3(db)
  raw.exec(CLINIC_SQL + extraSql)
  raw.close()
  writeFileSync(join(dir, 'mapping.yaml'), CLINIC_MAPPING)
  return { dir, db, mapping: join(dir, 'mapping.yaml') }
}

async function check (s: { db: string, mapping: string }): Promise<{ code: number | null, out: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'check', '--mapping', s.mapping, '--db', `sqlite:${s.db}`, '--today', '2026-11-22'], {
    cwd: ROOT, env: childEnv(), stdio: ['ignore', 'pipe', 'pipe']
  })
  let out = ''
  child.stdout.on('data', (d) => { out += String(d) })
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve))
  return { code, out }
}

const lineOf = (text: string): number => CLINIC_MAPPING.split('\n').findIndex((l) => l.includes(text)) + 1

t.test('unindexed date, professional and search columns: warnings, exit 0', async (t) => {
  const { code, out } = await check(scratch())
  t.equal(code, 0, 'warnings alone do not fail the check')
  t.match(out, /\ncheck passed\n$/)
  const warnings = out.split('\n').filter((l) => l.startsWith('! '))
  const date = warnings.filter((l) => /column `DATA` of table `TB_CONSULTA` has no index/.test(l))
  t.equal(date.length, 1, 'the date column, once')
  t.match(date[0], new RegExp(`^! \\S*mapping\\.yaml:${lineOf('date: { column: DATA')}:\\d+: appointment start\\.date: .*lists of appointments by date`))
  t.match(date[0], /; create one: CREATE INDEX "IX_TB_CONSULTA_DATA" ON "TB_CONSULTA" \("DATA"\)$/, "in SQLite's quoting, to run as printed")
  t.ok(warnings.some((l) => /appointment refs\.professional: column `MEDICO` of table `TB_CONSULTA` has no index/.test(l)), 'the professional column')
  t.ok(warnings.some((l) => /client fields\.email: column `EMAIL` of table `TB_CLIENTE` has no index/.test(l)), 'a client search column')
  t.ok(warnings.some((l) => /client fields\.email: .*create one: CREATE INDEX "IX_TB_CLIENTE_EMAIL_folded" ON "TB_CLIENTE" \(\(LOWER\(TRIM\("EMAIL"\)\)\)\)$/.test(l)), 'the e-mail search: on the expression it compares')
  // Relations between lookups are read whole into the catalogue: no index would be sought.
  t.notOk(warnings.some((l) => /TB_MEDICO_LOCAL/.test(l)), 'a relation read whole is not advised on')
  t.notOk(warnings.some((l) => /`COD`/.test(l)), 'INTEGER PRIMARY KEY keys are indexed (the rowid)')
})

t.test('an index leading with the column silences its warning; one holding it second does not', async (t) => {
  const second = await check(scratch('CREATE INDEX ix_sit_data ON TB_CONSULTA (SIT, DATA);'))
  t.match(second.out, /column `DATA` of table `TB_CONSULTA` has no index/, 'DATA second in an index: still a full scan by date')
  const leading = await check(scratch('CREATE INDEX ix_data ON TB_CONSULTA (DATA, HORA); CREATE INDEX ix_email ON TB_CLIENTE (EMAIL);'))
  t.equal(leading.code, 0)
  t.notMatch(leading.out, /`DATA` of table `TB_CONSULTA` has no index/)
  t.match(leading.out, /`EMAIL` of table `TB_CLIENTE` has no index the e-mail search can use/, 'a plain index does not serve the e-mail search')
  t.match(leading.out, /column `MEDICO` of table `TB_CONSULTA` has no index/, 'the others are still said')
})

t.test('SQLite catalog: each table\'s indexes in column order, the rowid key among them; views have none', async (t) => {
  const s = scratch('CREATE INDEX ix_two ON TB_CONSULTA (MEDICO, DATA); CREATE VIEW V_CONSULTA AS SELECT * FROM TB_CONSULTA;')
  const db = openSqlite(s.db)
  t.teardown(() => db.close())
  const catalog = await readCatalog(db)
  t.same(catalog.table('TB_CONSULTA')?.indexes, [['COD'], ['MEDICO', 'DATA']])
  t.same(catalog.table('TB_FONE')?.indexes, [], 'a table without any index')
  t.equal(catalog.table('V_CONSULTA')?.indexes, undefined, 'a view: unknown, never warned about')
})

t.test('SQL Server: the index statement parses as T-SQL; its rows become each table\'s indexes', async (t) => {
  t.same(parseTsql(mssqlIndexStatement().sql, { statements: 1 }), [], 'parses as one T-SQL statement')
  const column = { type: 'int', nullable: 'NO', dflt: 0, identity: 0, computed: 0, pk: 0, length: null, dfltSql: null }
  const catalog = mssqlCatalogFromRows([
    { schema: 'dbo', tbl: 'AGENDA', name: 'ID', ...column },
    { schema: 'dbo', tbl: 'AGENDA', name: 'DATA', ...column },
    { schema: 'dbo', tbl: 'FONE', name: 'NUMERO', ...column },
    { schema: 'dbo', tbl: 'V_AGENDA', name: 'ID', ...column }
  ], [
    { schema: 'dbo', tbl: 'AGENDA', idx: 'PK_AGENDA', pos: 1, col: 'ID' },
    { schema: 'dbo', tbl: 'AGENDA', idx: 'UQ_AGENDA_MEDICO_DATA', pos: 1, col: 'MEDICO' },
    { schema: 'dbo', tbl: 'AGENDA', idx: 'UQ_AGENDA_MEDICO_DATA', pos: 2, col: 'DATA' },
    { schema: 'dbo', tbl: 'FONE', idx: null, pos: null, col: null }
  ])
  t.same(catalog.table('AGENDA')?.indexes, [['ID'], ['MEDICO', 'DATA']])
  t.same([...catalog.table('AGENDA')?.namedIndexes ?? []], [['pk_agenda', ['ID']], ['uq_agenda_medico_data', ['MEDICO', 'DATA']]], 'by name too: what a duplicate key names')
  t.same(catalog.table('FONE')?.indexes, [])
  t.equal(catalog.table('V_AGENDA')?.indexes, undefined, 'not a base table: unknown')
})
