// Two `relations` of one pair of lookups are their union: a professional works at a site when
// a published shift or a schedule block places them there (an Open Dental-like practice keeps
// both). On SQLite, MariaDB and PostgreSQL the filters in both directions read both sources;
// a second source of a client's relation is refused at its line, saying why.
import t from 'tap'
import { testDialects } from '../helpers/contract.js'
import { scratchOn } from '../helpers/scratch-servers.js'
import { checkOf } from '../helpers/check-of.js'
import { parseMapping } from '../../src/mapping/load.js'
import { buildModel } from '../../src/mapping/model.js'
import { MappingError } from '../../src/mapping/errors.js'

const SCHEMA = `
CREATE TABLE provider (prov_num INTEGER PRIMARY KEY, abbr VARCHAR(20) NOT NULL);
CREATE TABLE clinic (clinic_num INTEGER PRIMARY KEY, descript VARCHAR(40) NOT NULL, address VARCHAR(60) NOT NULL);
CREATE TABLE shift (shift_num INTEGER PRIMARY KEY, prov_num INTEGER NOT NULL, clinic_num INTEGER NOT NULL, status VARCHAR(10) NOT NULL);
CREATE TABLE schedule_block (block_num INTEGER PRIMARY KEY, prov_num INTEGER NOT NULL, clinic_num INTEGER NOT NULL);
CREATE TABLE patient (pat_num INTEGER PRIMARY KEY, lname VARCHAR(40) NOT NULL, clinic_num INTEGER);
CREATE TABLE appointment (apt_num INTEGER PRIMARY KEY, pat_num INTEGER, prov_num INTEGER, clinic_num INTEGER, apt_date DATE, apt_hour VARCHAR(5));
INSERT INTO provider (prov_num, abbr) VALUES (1, 'DOC1'), (2, 'HYG1'), (3, 'DOC2');
INSERT INTO clinic (clinic_num, descript, address) VALUES (10, 'Main St', '1 Main St'), (20, 'Eastside', '9 East Ave'), (30, 'Mall', '5 Mall Rd');
INSERT INTO shift (shift_num, prov_num, clinic_num, status) VALUES (1, 1, 10, 'published'), (2, 2, 20, 'draft'), (3, 3, 30, 'published');
INSERT INTO schedule_block (block_num, prov_num, clinic_num) VALUES (1, 1, 20), (2, 2, 10), (3, 1, 10);
`

const LOOKUPS = `
version: 1
installation: relations-union
timezone: America/Los_Angeles
states: { values: [WAITING] }
resources:
  appointment:
    table: appointment
    key: apt_num
    start: { date: { column: apt_date, format: date }, hour: apt_hour }
    state: { value: WAITING }
    refs: { client: pat_num, professional: prov_num, location: clinic_num }
  client: { table: patient, key: pat_num, fields: { name: lname }, write: { key: { generate: max } } }
  professional: { table: provider, key: prov_num, fields: { name: abbr } }
  location: { table: clinic, key: clinic_num, fields: { name: descript, address: address } }
relations:
  - between: [professional, location]        # published shifts
    table: shift
    where: { column: status, eq: published }
    columns: { professional: prov_num, location: clinic_num }
  - between: [professional, location]        # and schedule blocks
    table: schedule_block
    columns: { professional: prov_num, location: clinic_num }
`

const ids = (body: Array<{ id: string }>): string[] => body.map((r) => r.id).sort()

for (const dialect of testDialects()) {
  t.test(dialect, async (t) => {
    const s = await scratchOn(t, dialect, SCHEMA, LOOKUPS)
    t.same(ids((await s.call('GET', '/locations?professional=1')).body), ['10', '20'], 'a shift at 10 and a block at 20 (and 10 again, once)')
    t.same(ids((await s.call('GET', '/locations?professional=2')).body), ['10'], 'a block only: the draft shift is not published')
    t.same(ids((await s.call('GET', '/locations?professional=3')).body), ['30'], 'a shift only')
    t.same(ids((await s.call('GET', '/professionals?location=10')).body), ['1', '2'], 'the other direction reads both sources')
    t.same(ids((await s.call('GET', '/professionals?location=20')).body), ['1'])
    const report = await checkOf(t, s.url, LOOKUPS)
    t.same(report.findings.filter((f) => f.severity === 'problem').map((f) => f.message), [], report.lines.join('\n'))
  })
}

t.test('a client\'s relation takes one source: a second is refused at its line', async (t) => {
  const yaml = `${LOOKUPS}  - { between: [client, location], table: patient, columns: { client: pat_num, location: clinic_num } }
  - { between: [location, client], via: appointment }
`
  const error = (() => { try { buildModel(parseMapping(yaml, 'two.yaml')) } catch (err) { return err } })()
  t.type(error, MappingError)
  const line = yaml.split('\n').findIndex((l) => l.includes('via: appointment')) + 1
  t.match(String((error as Error).message), new RegExp(`^two\\.yaml:${line}:\\d+: /relations/3: location and client are already related above: a relation of clients has one source`))
})
