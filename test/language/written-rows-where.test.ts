// A row written `after` the client (`write.after: - join: …`, `- phones: 0`) holds what its
// join's `where` asks of it (`eq` on a column nothing else writes), so the reads find it again:
// an e-mail kept as a contact row of kind 'MAIL' and active 1, a phone row of kind 'CEL'. On a
// schema generated here, on SQLite, MariaDB and PostgreSQL: POST and PATCH (inserting the
// missing row) store them with the where's values, read back from the tables; check passes.
// And the mapping guide's normalised example passes check and creates a client on an
// OpenMRS-like schema (its identifier row takes `identifier_type` from the join's where).
import t from 'tap'
import { readFileSync } from 'node:fs'
import { testDialects } from '../helpers/contract.js'
import type { TestDialect } from '../helpers/app.js'
import { scratchOn } from '../helpers/scratch-servers.js'
import { checkOf } from '../helpers/check-of.js'
import { normalisedSql, FIRST_DAY, ID_TYPE, PHONE_TYPE, USER_ID } from '../helpers/normalised-installation.js'

function schema (dialect: TestDialect): string {
  const serial = { sqlite: 'INTEGER PRIMARY KEY', mysql: 'INTEGER AUTO_INCREMENT PRIMARY KEY', postgres: 'SERIAL PRIMARY KEY' }[dialect]
  return `
CREATE TABLE member (mid ${serial}, nm VARCHAR(60) NOT NULL);
CREATE TABLE contact (cid ${serial}, mid INTEGER NOT NULL, kind VARCHAR(8) NOT NULL, active INTEGER NOT NULL, val VARCHAR(80) NOT NULL);
CREATE TABLE visit (vid ${serial}, mid INTEGER, vdate DATE, vhour VARCHAR(5));
INSERT INTO member (nm) VALUES ('Ana Lima');
INSERT INTO member (nm) VALUES ('Rui Dias');
INSERT INTO contact (mid, kind, active, val) VALUES (1, 'CEL', 1, '+447700900123');
INSERT INTO contact (mid, kind, active, val) VALUES (1, 'MAIL', 1, 'ana@example.com');
INSERT INTO contact (mid, kind, active, val) VALUES (2, 'MAIL', 0, 'old@example.com');
`
}

const MAPPING = `
version: 1
installation: written-rows-where
timezone: Europe/London
phone: { defaultCountry: GB }
search: [phone, email, name]
states: { values: [WAITING, CANCELED] }
resources:
  appointment:
    table: visit
    key: vid
    start: { date: { column: vdate, format: date }, hour: vhour }
    state: { value: WAITING }
    refs: { client: mid }
  client:
    table: member
    key: mid
    joins:
      mail:
        table: contact
        on: { mid: mid }
        where: [{ column: kind, eq: MAIL }, { column: active, eq: 1 }]
        first: { key: cid }
    fields: { name: nm, email: mail.val }
    phones:
      - collect: { table: contact, on: { mid: mid }, where: [{ column: kind, eq: CEL }, { column: active, eq: 1 }], column: val, by: [cid] }
    write:
      key: { generate: identity }
      phoneFormat: e164
      after:
        - { join: mail }
        - { phones: 0 }
`

for (const dialect of testDialects()) {
  t.test(dialect, async (t) => {
    const s = await scratchOn(t, dialect, schema(dialect), MAPPING)
    const created = await s.call('POST', '/clients', { name: 'Eve Stone', phone: '+447700900456', email: 'eve@example.com' })
    t.equal(created.status, 200, JSON.stringify(created.body))
    t.same([created.body.email, created.body.phone], ['eve@example.com', '+447700900456'], 'answered as sent')
    const id = String(created.body.id)
    t.same((await s.rows(`SELECT kind, active, val FROM contact WHERE mid = ${id} ORDER BY kind`)).map((r) => [r.kind, Number(r.active), r.val]),
      [['CEL', 1, '+447700900456'], ['MAIL', 1, 'eve@example.com']], 'each row holds what its where asks: kind, and active where asked')
    const read = await s.call('GET', `/clients/${id}`)
    t.same([read.body.email, read.body.phone], ['eve@example.com', '+447700900456'], 'a later GET finds both rows')
    // Rui's only e-mail row is inactive: PATCH inserts one the reads find.
    const patched = await s.call('PATCH', '/clients/2', { email: 'rui@example.com' })
    t.equal(patched.status, 200, JSON.stringify(patched.body))
    t.same((await s.rows("SELECT kind, active, val FROM contact WHERE mid = 2 AND val = 'rui@example.com'")).map((r) => [r.kind, Number(r.active)]), [['MAIL', 1]])
    t.equal((await s.call('GET', '/clients/2')).body.email, 'rui@example.com')
    const report = await checkOf(t, s.url, MAPPING)
    t.same(report.findings.filter((f) => f.severity === 'problem').map((f) => f.message), [], report.lines.join('\n'))
  })
}

t.test('the mapping guide\'s normalised example passes check and creates a client', async (t) => {
  const guide = readFileSync('docs/mapping.md', 'utf8')
  const section = guide.slice(guide.indexOf('## Normalised schemas'))
  const yaml = /```yaml\n([\s\S]*?)```/.exec(section)?.[1]
  if (yaml === undefined) throw new Error('no YAML block under "Normalised schemas"')
  t.match(yaml, /identifier_type, eq: 3/, 'the example keeps the identifier type in its join\'s where')
  t.notMatch(yaml, /identifier_type: \{ value/, 'and does not repeat it under set')
  // The example's OpenMRS table names are the helper schema's without the module prefix; its
  // stamp columns are OpenMRS's, and `appointment_confirmed` the clinic's own table.
  const sql = `${normalisedSql().replaceAll('appointmentscheduling_', '')}
${['appointment', 'patient', 'person_name'].flatMap((table) => [`ALTER TABLE ${table} ADD COLUMN changed_by INT;`, `ALTER TABLE ${table} ADD COLUMN date_changed DATETIME;`]).join('\n')}
CREATE TABLE appointment_confirmed (appointment_id INT PRIMARY KEY, date_created DATETIME NOT NULL);
`
  const mapping = yaml.replace('$' + '{USER_ID}', String(USER_ID))
  t.equal([ID_TYPE, PHONE_TYPE].join(), '3,8', 'the helper schema uses the ids the example names')
  const s = await scratchOn(t, 'sqlite', sql, mapping)
  const created = await s.call('POST', '/clients', { name: 'Celia Mamani', phone: '+59171234599', birthday: '1990-04-02' })
  t.equal(created.status, 200, JSON.stringify(created.body))
  // The example answers clients by their person's uuid.
  t.match(created.body.id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/, 'the new client is answered by its uuid')
  const ids = await s.rows(`SELECT i.identifier_type, i.voided FROM patient_identifier i JOIN person p ON p.person_id = i.patient_id WHERE p.uuid = '${String(created.body.id)}'`)
  t.same(ids, [{ identifier_type: 3, voided: 0 }], 'the identifier row holds its type')
  // On the fixture's first day, so the probe books and moves appointments in its slots.
  const report = await checkOf(t, s.url, mapping, FIRST_DAY)
  t.same(report.findings.filter((f) => f.severity === 'problem').map((f) => f.message), [], report.lines.join('\n'))
  t.ok(report.findings.some((f) => f.severity === 'ok' && /^PATCH …\/state CANCELED: .*the row it leaves \(WAITING\) added to the history as mapped/.test(f.message)), 'check compares the status history row a cancellation adds')
  t.ok(report.findings.some((f) => f.severity === 'ok' && /^PATCH \/clients name: .*the name row stamped/.test(f.message)), 'and the name row\'s stamps')
})
