import t from 'tap'
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import Database from 'better-sqlite3'
import { createSqliteFromFixture, loadIntoSqlite, readFixture } from '../../../../src/sql/sqlite/load.js'
import type { Fixture } from '../../../../src/fixtures/format.js'

const SORRISO = 'fixtures/clinica-sorriso/fixture.json'
const NORTHWIND = 'fixtures/northwind-health/fixture.json'

function open (fixture: Fixture): Database.Database {
  const db = new Database(':memory:')
  loadIntoSqlite(db, fixture)
  return db
}
const one = (db: Database.Database, sql: string, ...params: unknown[]): any => db.prepare(sql).pluck().get(...params)
const all = (db: Database.Database, sql: string): any[] => db.prepare(sql).pluck().all()

const tiny: Fixture = {
  name: 'tiny',
  tables: [
    {
      name: 'dbo.T',
      columns: [
        { name: 'ID', type: 'int', identity: true, nullable: false },
        { name: 'NAME', type: 'char', length: 5, nullable: false },
        { name: 'PRICE', type: 'decimal', precision: 10, scale: 2 },
        { name: 'FLAG', type: 'bit', nullable: false, default: 0 },
        { name: 'NOTE', type: 'text', default: "it's" }
      ],
      primaryKey: ['ID'],
      indexes: [['NAME']],
      rows: [[1, 'ab   ', 12.5, 1, null], [5, 'cd   ', 3, true, 'x']]
    },
    {
      name: 'LINK',
      columns: [{ name: 'A', type: 'int', nullable: false }, { name: 'B', type: 'text', nullable: false }],
      primaryKey: ['A', 'B'],
      rows: [[1, 'x']]
    }
  ]
}

t.test('loader: names, types, keys, defaults', async (t) => {
  const db = open(tiny)
  t.same(all(db, "select name from sqlite_master where type = 'table' order by name"), ['LINK', 'T'], 'schema part dropped')
  t.same(all(db, "select name from sqlite_master where type = 'index' and name not like 'sqlite_%'"), ['ix_T_NAME'])
  t.same(db.prepare('select NAME, PRICE, FLAG, typeof(PRICE) tp from T order by ID').all(),
    [{ NAME: 'ab   ', PRICE: 12.5, FLAG: 1, tp: 'real' }, { NAME: 'cd   ', PRICE: 3, FLAG: 1, tp: 'integer' }], 'booleans bind as 1/0')
  db.prepare("insert into T (NAME) values ('ef')").run()
  t.same(db.prepare('select ID, FLAG, NOTE from T where NAME = ?').get('ef'), { ID: 6, FLAG: 0, NOTE: "it's" }, 'identity + defaults')
  t.throws(() => db.prepare('insert into T (NAME) values (null)').run(), /NOT NULL/)
  t.throws(() => db.prepare("insert into LINK values (1, 'x')").run(), /UNIQUE/, 'composite primary key')
})

t.test('loader: rejects malformed rows', async (t) => {
  const bad = (rows: unknown[][]): Fixture => ({ name: 'bad', tables: [{ ...tiny.tables[1]!, rows }] })
  t.throws(() => open(bad([[1]])), /LINK row 0: expected 2 values/)
  t.throws(() => open(bad([[1, { x: 1 }]])), /JSON primitives/)
  t.throws(() => readFixture(join(t.testdir({ 'x.json': '{"tables": 1}' }), 'x.json')), /not a fixture/)
})

t.test('readFixture reads .json.gz; createSqliteFromFixture replaces the database file', async (t) => {
  const dir = t.testdir({ 'old.db': 'not a database' })
  writeFileSync(join(dir, 'tiny.json.gz'), gzipSync(JSON.stringify(tiny)))
  t.same(readFixture(join(dir, 'tiny.json.gz')), tiny)
  const file = join(dir, 'old.db')
  createSqliteFromFixture(join(dir, 'tiny.json.gz'), file)
  t.ok(existsSync(file))
  const db = new Database(file, { readonly: true })
  t.equal(one(db, 'select count(*) from T'), 2)
  db.close()
})

t.test('clinica-sorriso', async (t) => {
  const fixture = readFixture(SORRISO)
  const db = open(fixture)
  t.teardown(() => db.close())

  t.test('every table loads with all its rows', async (t) => {
    for (const table of fixture.tables) {
      t.match(table.name, /^dbo\./)
      t.equal(one(db, `select count(*) from "${table.name.slice(4)}"`), table.rows.length, table.name)
    }
  })

  t.test('sizes', async (t) => {
    const count = (tb: string): number => one(db, `select count(*) from ${tb}`)
    t.ok(count('PROFISSIONAL') >= 10 && count('PROFISSIONAL') <= 20)
    t.ok(count('PACIENTE') >= 2000 && count('PACIENTE') <= 4000)
    t.ok(count('AGENDA') >= 5000 && count('AGENDA') <= 9000)
    t.equal(count('UNIDADE'), 3)
    t.same(db.prepare('select min(DATA) lo, max(DATA) hi from AGENDA').get(), { lo: '2026-06-01', hi: '2027-03-31' })
    t.ok(one(db, "select count(*) from AGENDA where DATA > '2026-11-22'") > 1000, 'future appointments')
  })

  t.test('constraints', async (t) => {
    t.throws(() => db.prepare("insert into AGENDA (ID_AGENDA, DATA, HORA, ID_PROFISSIONAL, DT_CADASTRO, USUARIO) values (1, null, '08:00', 1, '2026-01-01 00:00:00', 'X')").run(), /NOT NULL/)
    t.throws(() => db.prepare("insert into PACIENTE (NOME, DT_CADASTRO, USUARIO_CAD) values ('A', '2026-01-01 00:00:00', 'X')").run(),
      /NOT NULL/, 'PACIENTE ids come from SEQUENCIAL, not an identity')
    const max: number = one(db, 'select max(ID_BLOQUEIO) from BLOQUEIO')
    const id = db.prepare("insert into BLOQUEIO (DT_INICIO, DT_FIM) values ('2027-01-01', '2027-01-01')").run().lastInsertRowid
    t.equal(Number(id), max + 1, 'identity column gets the next id')
    db.prepare("insert into PACIENTE (ID_PACIENTE, NOME, DT_CADASTRO, USUARIO_CAD) values (999999, 'A', '2026-01-01 00:00:00', 'X')").run()
    t.equal(one(db, 'select DT_NASC from PACIENTE where ID_PACIENTE = 999999'), '1900-01-01', 'column default')
    t.ok(one(db, "select ULTIMO from SEQUENCIAL where TABELA = 'AGENDA'") >= one(db, 'select max(ID_AGENDA) from AGENDA'))
  })

  t.test('char columns keep their padding', async (t) => {
    t.same(all(db, 'select distinct length(HORA) from AGENDA'), [5])
    t.ok(one(db, "select count(*) from AGENDA where HORA = '9:30 '") > 0, "'9:30 ' in HORA")
    t.same(all(db, 'select distinct length(NOME) from CONVENIO'), [30])
    t.ok(one(db, "select count(*) from PACIENTE where CPF = '              '") > 0, 'blank CPF is 14 spaces')
    t.ok(one(db, "select count(*) from PACIENTE where CPF glob '[0-9]*   '") > 0, 'bare-digit CPF, padded')
    t.ok(one(db, "select count(*) from HORARIO where HORA_INICIO like '% ' or HORA_FIM like '% '") > 0, "varchar '08:00 '")
  })

  t.test('quirks are present', async (t) => {
    const share: number = one(db, "select avg(FL_HIGIENE = 'S') from AGENDA")
    t.ok(share > 0.02 && share < 0.08, `hygiene visits: ${share}`)
    t.ok(one(db, "select count(*) from AGENDA where FL_HIGIENE = 'S' and (ID_HIGIENISTA is null or ID_HIGIENISTA = ID_PROFISSIONAL)") === 0)
    t.ok(one(db, "select count(*) from AGENDA where FL_HIGIENE = 'N' and ID_HIGIENISTA is not null") > 0, 'stale hygienist column')
    t.ok(one(db, "select count(*) from AGENDA where SITUACAO = 'A' and CONFIRMADO = 'S'") > 0, 'confirmed only by the flag')
    t.ok(one(db, "select count(*) from AGENDA where SITUACAO = 'R' and CONFIRMADO = 'S'") > 0, 'done beats confirmed')
    t.same(all(db, 'select distinct SITUACAO from AGENDA order by 1'), ['A', 'C', 'F', 'R', 'X'])
    t.ok(one(db, 'select count(*) from AGENDA where DURACAO = 0') > 0)
    t.ok(one(db, "select count(*) from AGENDA where EXCLUIDO = 'S'") > 0)
    t.ok(one(db, "select count(*) from PACIENTE where TIPO = 'F'") > 0)
    t.ok(one(db, "select count(*) from PACIENTE where DT_NASC = '1900-01-01'") > 0)
    t.ok(one(db, "select count(*) from PACIENTE where trim(NOME_SOCIAL) <> ''") > 0)
    t.ok(one(db, "select count(*) from PACIENTE where FONE_COM like '%ramal%'") > 0)
    t.ok(one(db, "select count(*) from PACIENTE where CELULAR = '(  )    -' or FONE_RES = '(  )    -'") > 0)
    t.ok(one(db, "select count(*) from PACIENTE where CELULAR like '+55%'") > 0)
    t.ok(one(db, "select count(*) from PACIENTE where CELULAR glob '[0-9][0-9][0-9][0-9][0-9]-[0-9][0-9][0-9][0-9]'") > 0, 'no area code')
    t.ok(one(db, 'select count(*) from PACIENTE where NOME = upper(NOME)') > 0, 'UPPER CASE names')
    t.ok(one(db, "select count(*) from PROFISSIONAL where INATIVO = 'S'") > 0)
    t.ok(one(db, 'select count(*) from BLOQUEIO where ID_PROFISSIONAL is null') > 0, 'clinic-wide holidays')
  })

  t.test('references resolve', async (t) => {
    const dangling = (sql: string): number => one(db, sql)
    t.equal(dangling('select count(*) from AGENDA a left join PACIENTE p using (ID_PACIENTE) where a.ID_PACIENTE is not null and p.ID_PACIENTE is null'), 0)
    t.equal(dangling('select count(*) from AGENDA a left join PROFISSIONAL p using (ID_PROFISSIONAL) where p.ID_PROFISSIONAL is null'), 0)
    t.equal(dangling('select count(*) from AGENDA a left join SALA s using (ID_SALA) where a.ID_SALA is not null and s.ID_SALA is null'), 0)
    t.equal(dangling('select count(*) from AGENDA a left join PLANO p on p.ID_PLANO = a.PLANO where a.PLANO is not null and (p.ID_CONVENIO is null or p.ID_CONVENIO <> a.ID_CONVENIO)'), 0)
    t.equal(dangling('select count(*) from AGENDA a left join PROCEDIMENTO p using (ID_PROCEDIMENTO) where a.ID_PROCEDIMENTO is not null and p.ID_PROCEDIMENTO is null'), 0)
  })
})

t.test('northwind-health', async (t) => {
  const fixture = readFixture(NORTHWIND)
  const db = open(fixture)
  t.teardown(() => db.close())

  t.test('every table loads with all its rows', async (t) => {
    for (const table of fixture.tables) t.equal(one(db, `select count(*) from "${table.name}"`), table.rows.length, table.name)
  })

  t.test('sizes', async (t) => {
    const count = (tb: string): number => one(db, `select count(*) from ${tb}`)
    t.ok(count('doctors') >= 10 && count('doctors') <= 20)
    t.ok(count('patients') >= 2000 && count('patients') <= 4000)
    t.ok(count('appointments') >= 5000 && count('appointments') <= 9000)
    t.same(db.prepare('select substr(min(starts_at), 1, 10) lo, substr(max(starts_at), 1, 10) hi from appointments').get(), { lo: '2026-06-01', hi: '2027-03-31' })
  })

  t.test('identity and constraints', async (t) => {
    const max: number = one(db, 'select max(id) from appointments')
    const id = db.prepare("insert into appointments (patient_id, clinic_id, starts_at, created_at, created_by) values (1, 'CLN-01', '2027-01-04 08:00:00', '2026-11-22 10:00:00', 'test')").run().lastInsertRowid
    t.equal(Number(id), max + 1)
    t.equal(one(db, 'select status from appointments where id = ?', id), 0, 'default status')
    t.throws(() => db.prepare("insert into appointments (patient_id, clinic_id, starts_at, created_at, created_by) values (1, null, '2027-01-04 08:00:00', '2026-11-22 10:00:00', 'test')").run(), /NOT NULL/)
    const pid = db.prepare("insert into patients (first_name, created_at) values ('Ana', '2026-11-22 10:00:00')").run().lastInsertRowid
    t.same(db.prepare('select last_name, birth_date from patients where id = ?').get(pid), { last_name: '', birth_date: '0001-01-01' })
  })

  t.test('quirks are present', async (t) => {
    t.same(all(db, 'select distinct status from appointments order by 1'), [0, 1, 2, 3, 4, 5])
    t.same(all(db, 'select distinct typeof(doctor_ref) from appointments where doctor_ref is not null'), ['text'], 'doctor ids held as text')
    t.equal(one(db, 'select count(*) from appointments a left join doctors d on d.id = cast(a.doctor_ref as integer) where a.doctor_ref is not null and d.id is null'), 0)
    t.ok(one(db, 'select count(*) from appointments where ends_at is null') > 0)
    t.ok(one(db, 'select count(*) from appointments where deleted_at is not null') > 0)
    t.ok(one(db, "select count(*) from patients where birth_date = '0001-01-01'") > 0)
    t.ok(one(db, "select count(*) from patients where last_name = ''") > 0)
    t.ok(one(db, "select count(*) from patients where mobile like '+1%'") > 0, 'US numbers')
    t.ok(one(db, 'select count(*) from patients where email <> lower(email)') > 0, 'mixed-case e-mails')
    t.same(all(db, 'select distinct typeof(is_hidden) from doctors'), ['integer'])
    t.ok(one(db, 'select count(*) from doctors where is_hidden = 1') > 0)
    t.same(all(db, 'select id from clinics where closed_on is not null'), ['CLN-04'])
    t.same(all(db, 'select distinct status from doctor_shifts order by 1'), ['cancelled', 'draft', 'published'])
    t.match(one(db, 'select start_time from doctor_shifts limit 1'), /^\d\d:\d\d:\d\d$/)
    t.equal(one(db, "select count(*) from appointments a join doctor_shifts s on s.doctor_id = cast(a.doctor_ref as integer) and s.shift_date = substr(a.starts_at, 1, 10) and substr(a.starts_at, 12) >= s.start_time and substr(a.starts_at, 12) < s.end_time where s.status <> 'published'"), 0,
      'no appointments in draft or cancelled shifts')
  })
})
