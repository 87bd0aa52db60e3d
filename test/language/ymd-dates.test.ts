// `format: ymd`: a date kept as 'YYYYMMDD' text (a CHAR(8) birth date, a Cobol-era agenda's
// date), which `format: int` cannot say on a text column (stranger report, SAY 1). Read,
// written back in the same spelling, filtered as text (so a range keeps the column's index),
// check quiet about it and `ponte init` drafting it for such a column. On an optician's schema
// on every test database.
import t from 'tap'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { testDialects } from '../helpers/contract.js'
import { scratchOn } from '../helpers/scratch-servers.js'
import { checkOf } from '../helpers/check-of.js'
import { main } from '../../src/cli.js'
import { dateSpelling } from '../../src/toolkit/init/values.js'
import type { TestDialect } from '../helpers/app.js'

const schema = `
CREATE TABLE cust (cust_id INTEGER PRIMARY KEY, cust_nm VARCHAR(50) NOT NULL, cust_tel VARCHAR(20), dob CHAR(8));
CREATE TABLE exam (exam_id INTEGER PRIMARY KEY, cust_id INTEGER NOT NULL, exam_dt CHAR(8) NOT NULL, exam_hr VARCHAR(5) NOT NULL, exam_st INTEGER NOT NULL, made_on CHAR(8));
INSERT INTO cust (cust_id, cust_nm, cust_tel, dob) VALUES (1, 'Aurelio Mendes', '11987650001', '19840709'), (2, 'Berta Lins', '11987650002', '19911231'), (3, 'Caio Prado', '11987650003', '20020229');
INSERT INTO exam (exam_id, cust_id, exam_dt, exam_hr, exam_st, made_on) VALUES (1, 1, '20310310', '09:00', 0, '20310101'), (2, 2, '20310311', '10:00', 0, '20310101'), (3, 3, '20310401', '11:00', 0, '20310101');
`

const mapping = `version: 1
installation: optician-ymd
timezone: America/Sao_Paulo
phone: { defaultCountry: BR }
states:
  values: [WAITING, CONFIRMED]
resources:
  appointment:
    table: exam
    key: exam_id
    start:
      date: { column: exam_dt, format: ymd }
      hour: { column: exam_hr, format: text }
    state: { column: exam_st, type: int, map: { '0': WAITING, '1': CONFIRMED } }
    refs: { client: cust_id }
    write:
      key: { generate: max }
      states: { WAITING: { exam_st: { value: 0 } } }
      set:
        made_on: { now: date, format: ymd }
  client:
    table: cust
    key: cust_id
    write:
      key: { generate: max }
    fields:
      name: cust_nm
      birthday: { column: dob, format: ymd }
    phones: [cust_tel]
`

t.test('ponte init calls YYYYMMDD text ymd, and a number column int', async (t) => {
  t.equal(dateSpelling(['19840709', '19911231'], 'text')?.format, 'ymd')
  t.equal(dateSpelling([19840709, 19911231], 'number')?.format, 'int')
})

for (const dialect of testDialects() as TestDialect[]) {
  t.test(dialect, async (t) => {
    const s = await scratchOn(t, dialect, schema, mapping)
    t.notOk('birthday' in (await s.call('GET', '/clients/3')).body, 'an impossible stored date (20020229) is none')
    t.equal((await s.call('GET', '/clients/1')).body.birthday, '1984-07-09', 'read')

    const made = await s.call('POST', '/clients', { name: 'Dora Vaz', phone: '+5511987650004', birthday: '1977-03-05' })
    t.equal(made.status, 200)
    t.equal(made.body.birthday, '1977-03-05')
    const dob = async (id: string): Promise<string> => String((await s.rows(`SELECT dob FROM cust WHERE cust_id = ${Number(id)}`))[0]?.dob).trim()
    t.equal(await dob(made.body.id), '19770305', 'written in the column\'s spelling')
    t.equal((await s.call('PATCH', '/clients/2', { birthday: '1990-10-01' })).status, 200)
    t.equal(await dob('2'), '19901001')

    const march = await s.call('GET', '/appointments?start=2031-03-10&end=2031-03-31')
    t.same(march.body.map((a: { id: string, date: string }) => [a.id, a.date]), [['1', '2031-03-10'], ['2', '2031-03-11']], 'a range compares the text as dates')
    const booked = await s.call('POST', '/appointments', { date: '2031-04-02', hour: '08:30', client: '1' })
    t.equal(booked.status, 200)
    const row = (await s.rows(`SELECT exam_dt, made_on FROM exam WHERE exam_id = ${Number(booked.body.id)}`))[0]
    t.equal(String(row?.exam_dt), '20310402', 'a booking writes the date as stored')
    t.match(String(row?.made_on), /^\d{8}$/, 'and the `now: date` stamp too')

    const report = await checkOf(t, s.url, mapping, '2031-03-01')
    const problems = report.findings.filter((f) => f.severity === 'problem').map((f) => `${f.path}: ${f.message}`)
    t.same(problems, [], 'check finds no problem, the write probe included')
    t.notOk(report.findings.some((f) => /birthday/.test(f.path) && /spelt/.test(f.message)), 'nor a spelling unlike the stored rows')

    if (dialect === 'sqlite') {
      // `ponte init` drafts the birth date as ymd, a format check takes.
      const dir = mkdtempSync(join(tmpdir(), 'ponte-ymd-'))
      t.teardown(() => rmSync(dir, { recursive: true, force: true }))
      const out = join(dir, 'draft.yaml')
      const keep = process.stdout.write
      const keepErr = process.stderr.write
      process.stdout.write = (() => true) as typeof process.stdout.write
      process.stderr.write = (() => true) as typeof process.stderr.write
      let code: number
      try { code = await main(['init', '--db', s.url, '--out', out]) } finally { process.stdout.write = keep; process.stderr.write = keepErr }
      t.equal(code, 0, 'init exits 0')
      const draft = readFileSync(out, 'utf8')
      t.match(draft, /birthday: \{ column: dob, format: ymd \}/, 'init drafts ymd for the CHAR(8) birth date')
    }
  })
}
