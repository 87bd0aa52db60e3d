// `ponte conformance --writes` registers its client with a mobile of the installation's own
// country, so the installation's `phoneFormat` is what it proves: on a Portuguese and a US
// installation generated in the test, on every test database, the new client's phone is
// stored in that format and reads back. (It used a Brazilian number, stored whole in E.164
// on both, so their own format was never written.)
import t from 'tap'
import { testDialects } from '../../helpers/contract.js'
import { scratchOn, type ServerScratch } from '../../helpers/scratch-servers.js'
import { strangerMapping, strangerSchema } from '../../helpers/stranger-clinic.js'
import { runConformance } from '../../../src/toolkit/conformance/run.js'
import type { Send } from '../../../src/toolkit/conformance/http.js'
import { ignoredFields } from '../../../src/toolkit/conformance/http.js'

const US_SCHEMA = `
CREATE TABLE patient (pid INTEGER PRIMARY KEY, full_name VARCHAR(80) NOT NULL, cell VARCHAR(20));
CREATE TABLE provider (prid INTEGER PRIMARY KEY, pname VARCHAR(40));
CREATE TABLE visit (vid INTEGER PRIMARY KEY, pid INTEGER NOT NULL, prid INTEGER, vdate DATE NOT NULL, vtime VARCHAR(5) NOT NULL, st INTEGER NOT NULL);
INSERT INTO patient (pid, full_name, cell) VALUES (1, 'Ann Lee', '(415) 555-0101');
INSERT INTO patient (pid, full_name, cell) VALUES (2, 'Ben Ito', '(415) 555-0102');
INSERT INTO provider (prid, pname) VALUES (10, 'Dr. Park');
`

const US_MAPPING = `version: 1
installation: us-clinic
timezone: America/New_York
phone: { defaultCountry: US }
search: [phone, name]
states:
  values: [WAITING, CONFIRMED, CANCELED]
resources:
  appointment:
    table: visit
    key: vid
    start:
      date: { column: vdate, format: date }
      hour: { column: vtime, format: text }
    state: { column: st, type: int, map: { '0': WAITING, '1': CONFIRMED, '2': CANCELED } }
    refs: { client: pid, professional: prid }
    write:
      key: { generate: max }
  client:
    table: patient
    key: pid
    fields: { name: full_name }
    phones: [cell]
    write:
      key: { generate: max }
      phoneFormat: masked
  professional:
    table: provider
    key: prid
    fields: { name: pname }
`

/** Conformance's requests through the scratch installation (its key on every request). */
const sender = (s: ServerScratch): Send => async (method, path, body) => {
  const r = await s.call(method, path, body as object | undefined)
  return { status: r.status, body: r.body, contentType: String(r.headers['content-type'] ?? ''), ignored: ignoredFields(r.headers['ponte-ignored-fields'] as string | undefined) }
}

const CLIENT_CHECK = 'writes: every field of a new client'

for (const dialect of testDialects()) {
  t.test(dialect, async (t) => {
    t.test('PT, phoneFormat masked: the mobile is stored as 912 345 678 and reads back', async (t) => {
      const s = await scratchOn(t, dialect, strangerSchema(dialect), strangerMapping({ phoneFormat: 'masked' }))
      const results = await runConformance({ send: sender(s), writes: true, today: '2026-11-22' })
      const check = results.checks.find((c) => c.name.startsWith(CLIENT_CHECK))
      t.equal(check?.outcome, 'passed', JSON.stringify(check))
      const stored = await s.rows("SELECT value FROM person_contact WHERE kind = 'MOBILE' AND person_id > 2")
      t.same(stored.map((r) => r.value), ['912 345 678'], 'libphonenumber\'s Portuguese example mobile, in the national format')
    })

    t.test('US, phoneFormat masked: the mobile is stored as (201) 555-0123 and reads back', async (t) => {
      const s = await scratchOn(t, dialect, US_SCHEMA, US_MAPPING)
      const results = await runConformance({ send: sender(s), writes: true, today: '2026-11-22' })
      const check = results.checks.find((c) => c.name.startsWith(CLIENT_CHECK))
      t.equal(check?.outcome, 'passed', JSON.stringify(check))
      t.same((await s.rows('SELECT cell FROM patient WHERE pid > 2')).map((r) => r.cell), ['(201) 555-0123'])
    })

    t.test('--country names the country when the stored phones cannot tell it', async (t) => {
      const s = await scratchOn(t, dialect, US_SCHEMA.replace(/'\(415\) 555-010\d'/g, 'NULL'), US_MAPPING)
      const results = await runConformance({ send: sender(s), writes: true, today: '2026-11-22', country: 'US' })
      t.equal(results.checks.find((c) => c.name.startsWith(CLIENT_CHECK))?.outcome, 'passed')
      t.same((await s.rows('SELECT cell FROM patient WHERE pid > 2')).map((r) => r.cell), ['(201) 555-0123'])
    })
  })
}
