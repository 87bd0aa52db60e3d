// `newKey: true` beside a key the database makes (identity): an OpenEMR-like chart whose
// patient row repeats its own id in a NOT NULL `pid` (and a guarantor column that may be NULL).
// The id exists only after the INSERT, so the columns hold a stand-in until the UPDATE in the
// same transaction. On SQLite, MariaDB and PostgreSQL: each new client's row holds its own id
// in both, read back from the table; `check` proves the write; and a NOT NULL column that no
// field writes and the mapping does not set is a 501 naming that column, nothing written.
import t from 'tap'
import { testDialects } from '../helpers/contract.js'
import type { TestDialect } from '../helpers/app.js'
import { scratchOn } from '../helpers/scratch-servers.js'
import { checkOf } from '../helpers/check-of.js'

function schema (dialect: TestDialect, chart = false): string {
  const serial = { sqlite: 'INTEGER PRIMARY KEY', mysql: 'INTEGER AUTO_INCREMENT PRIMARY KEY', postgres: 'SERIAL PRIMARY KEY' }[dialect]
  return `
CREATE TABLE patient_data (id ${serial}, pid INTEGER NOT NULL, guarantor_id INTEGER, fname VARCHAR(60) NOT NULL, phone_cell VARCHAR(20)${chart ? ', chart_no VARCHAR(10) NOT NULL' : ''});
CREATE TABLE users (id INTEGER PRIMARY KEY, lname VARCHAR(60) NOT NULL);
CREATE TABLE patient_email (pid INTEGER NOT NULL, addr VARCHAR(80) NOT NULL);
CREATE TABLE events (eid ${serial}, pc_pid INTEGER, pc_aid INTEGER, pc_date DATE, pc_time VARCHAR(8));
INSERT INTO patient_data (pid, guarantor_id, fname, phone_cell${chart ? ', chart_no' : ''}) VALUES (1, 1, 'Ruth', '5035550142'${chart ? ", 'C-1'" : ''});
INSERT INTO users (id, lname) VALUES (7, 'Okafor');
`
}

const MAPPING = `
version: 1
installation: new-key
timezone: America/Los_Angeles
phone: { defaultCountry: US }
search: [phone, name]
states: { values: [WAITING, CANCELED] }
resources:
  appointment:
    table: events
    key: eid
    start: { date: { column: pc_date, format: date }, hour: pc_time }
    state: { value: WAITING }
    refs: { client: pc_pid, professional: pc_aid }
  client:
    table: patient_data
    key: id
    joins:
      mail: { table: patient_email, on: { pid: pid } }
    fields: { name: fname, email: mail.addr }
    phones: [phone_cell]
    write:
      after: [{ join: mail }]
      key: { generate: identity }
      phoneFormat: digits
      set:
        pid: { newKey: true }
        guarantor_id: { newKey: true }
  professional: { table: users, key: id, fields: { name: lname } }
`

for (const dialect of testDialects()) {
  t.test(dialect, async (t) => {
    t.test('each new client holds its own identity key in its NOT NULL and nullable columns', async (t) => {
      const s = await scratchOn(t, dialect, schema(dialect), MAPPING)
      const made: string[] = []
      for (const [name, phone] of [['Samuel Ito', '+15035550143'], ['Wen Li', '+15035550144']]) {
        const answer = await s.call('POST', '/clients', { name, phone, ...(name === 'Wen Li' ? { email: 'wen@example.com' } : {}) })
        t.equal(answer.status, 200, JSON.stringify(answer.body))
        t.same({ name: answer.body.name, phone: answer.body.phone }, { name, phone }, 'answered as sent')
        made.push(String(answer.body.id))
      }
      t.not(made[0], made[1], 'two keys')
      const stored = await s.rows(`SELECT id, pid, guarantor_id, fname, phone_cell FROM patient_data WHERE id IN (${made.join(', ')}) ORDER BY id`)
      t.same(stored.map((r) => [String(r.id), String(r.pid), String(r.guarantor_id), r.fname, r.phone_cell]),
        [[made[0], made[0], made[0], 'Samuel Ito', '5035550143'], [made[1], made[1], made[1], 'Wen Li', '5035550144']], 'pid and guarantor_id are the row\'s own id')
      t.same(await s.rows('SELECT COUNT(*) AS n FROM patient_data WHERE pid = 0 OR guarantor_id IS NULL'), [{ n: 0 }], 'no stand-in left behind')
      t.same((await s.rows('SELECT pid, addr FROM patient_email')).map((r) => [String(r.pid), r.addr]), [[made[1], 'wen@example.com']], 'a row joined on the own-key column takes the id, not its stand-in')
      const read = await s.call('GET', `/clients/${made[1]}`)
      t.same({ id: read.body.id, name: read.body.name, phone: read.body.phone, email: read.body.email }, { id: made[1], name: 'Wen Li', phone: '+15035550144', email: 'wen@example.com' })
      const report = await checkOf(t, s.url, MAPPING)
      t.same(report.findings.filter((f) => f.severity === 'problem').map((f) => f.message), [], 'check: no problem')
      t.ok(report.lines.some((l) => /^✓ .*POST \/clients/.test(l)), `check proved POST /clients:\n${report.lines.join('\n')}`)
    })

    t.test('a NOT NULL column nothing writes: 501 naming it, nothing written', async (t) => {
      const s = await scratchOn(t, dialect, schema(dialect, true), MAPPING)
      const before = await s.rows('SELECT COUNT(*) AS n FROM patient_data')
      const answer = await s.call('POST', '/clients', { name: 'Samuel Ito', phone: '+15035550143' })
      t.equal(answer.status, 501)
      t.match(answer.body.errors, [{ path: '/body', message: /column `chart_no` requires a value/ }])
      t.match(answer.body.detail, /chart_no/)
      t.same(await s.rows('SELECT COUNT(*) AS n FROM patient_data'), before, 'nothing written')
      const report = await checkOf(t, s.url, MAPPING)
      t.ok(report.findings.some((f) => f.severity === 'problem' && /chart_no/.test(f.message)), `check names chart_no:\n${report.lines.join('\n')}`)
    })
  })
}
