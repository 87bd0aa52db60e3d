// What a probe's write shows about a ref (a column whose default replaces the NULL a booking
// without a location leaves: OpenEMR's `pc_facility`) says nothing about reading the
// appointments: check still scans them and reports their unmapped state codes in the same run
// (stranger report: an init draft's "2 problems" hid eight more). On every test database.
import t from 'tap'
import { testDialects } from '../../helpers/contract.js'
import { scratchOn } from '../../helpers/scratch-servers.js'
import { checkOf } from '../../helpers/check-of.js'

const SCHEMA = `
CREATE TABLE facility (fac_id INTEGER PRIMARY KEY, fac_name VARCHAR(40) NOT NULL, street VARCHAR(60) NOT NULL);
CREATE TABLE doc (doc_id INTEGER PRIMARY KEY, doc_name VARCHAR(40) NOT NULL);
INSERT INTO doc (doc_id, doc_name) VALUES (5, 'Dr Ben Ortiz');
CREATE TABLE pat (pid INTEGER PRIMARY KEY, fname VARCHAR(40) NOT NULL, cell VARCHAR(20));
CREATE TABLE ev (eid INTEGER PRIMARY KEY, pid INTEGER NOT NULL, doc INTEGER, fac INTEGER NOT NULL DEFAULT 0, ev_date DATE NOT NULL, ev_time VARCHAR(5) NOT NULL, st VARCHAR(3) NOT NULL);
INSERT INTO facility (fac_id, fac_name, street) VALUES (3, 'Main St Clinic', '1 Main St');
INSERT INTO pat (pid, fname, cell) VALUES (1, 'Mary Ellis', '5035550142');
INSERT INTO ev (eid, pid, doc, fac, ev_date, ev_time, st) VALUES (1, 1, 5, 3, '2031-03-03', '09:00', '-'), (2, 1, 5, 3, '2031-03-04', '09:00', '@'), (3, 1, 5, 3, '2031-03-05', '09:00', 'x'), (4, 1, 5, 3, '2031-03-06', '09:00', 'x');
`

const MAPPING = `version: 1
installation: by-write
timezone: America/Los_Angeles
phone: { defaultCountry: US }
states: { values: [WAITING] }
resources:
  appointment:
    table: ev
    key: eid
    start:
      date: { column: ev_date, format: date }
      hour: { column: ev_time, format: text }
    state: { column: st, map: { '-': WAITING } }
    refs: { client: pid, professional: doc, location: fac }
    write: { key: { generate: max } }
  client:
    table: pat
    key: pid
    fields: { name: fname }
    phones: [cell]
    write: { key: { generate: max } }
  professional:
    table: doc
    key: doc_id
    fields: { name: doc_name }
  location:
    table: facility
    key: fac_id
    fields: { name: fac_name, address: street }
`

for (const dialect of testDialects()) {
  t.test(`${dialect}: a write probe's problem at a ref does not hide the appointments' scan`, async (t) => {
    const s = await scratchOn(t, dialect, SCHEMA, MAPPING)
    const report = await checkOf(t, s.url, MAPPING)
    const problems = report.lines.filter((l) => l.startsWith('✗'))
    t.ok(problems.some((l) => /appointment refs\.location: POST \/appointments: column `fac` should hold NULL/.test(l)), problems.join('\n'))
    t.ok(problems.some((l) => /appointment state\.map: stored st x is not mapped: 2 rows/.test(l)), `the unmapped codes are reported in the same run:\n${problems.join('\n')}`)
  })
}
