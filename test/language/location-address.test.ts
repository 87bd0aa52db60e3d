// Issue 26: a clinic that keeps no address for its places (a `branch` table of names, a street
// column mostly NULL). The interface requires a non-empty address: a constant says one for all,
// a blank one is answered with the location's name (else its id), on GET /locations and nested
// in an appointment alike; a mapping that gives no address is refused at load, at its line,
// saying how to give one; `ponte check` counts the rows answered so. On every test database.
import t from 'tap'
import { parseMapping } from '../../src/mapping/load.js'
import { buildModel } from '../../src/mapping/model.js'
import { MappingError, type MappingIssue } from '../../src/mapping/errors.js'
import { testDialects } from '../helpers/contract.js'
import { scratchOn } from '../helpers/scratch-servers.js'
import type { TestDialect } from '../helpers/app.js'
import { checkInstallation } from '../../src/check/index.js'

const day = new Date(Date.now() + 3 * 86400000).toISOString().slice(0, 10)

/** A physiotherapy group: branches by title, a street kept for one of them, sessions booked at each. */
function schema (d: TestDialect): string {
  const stamp = d === 'mysql' ? 'DATETIME' : 'TIMESTAMP'
  return `
CREATE TABLE branch (branch_no INTEGER PRIMARY KEY, title VARCHAR(60), street VARCHAR(80));
CREATE TABLE therapist (therapist_no INTEGER PRIMARY KEY, full_name VARCHAR(60) NOT NULL);
CREATE TABLE member (member_no INTEGER PRIMARY KEY, full_name VARCHAR(60) NOT NULL);
CREATE TABLE session (session_no INTEGER PRIMARY KEY, member_no INTEGER, therapist_no INTEGER NOT NULL, branch_no INTEGER NOT NULL, begins ${stamp} NOT NULL, st CHAR(1) NOT NULL);
INSERT INTO branch (branch_no, title, street) VALUES (1, 'Lakeview (Belmont Ave)', '3100 N Lake Shore Dr');
INSERT INTO branch (branch_no, title, street) VALUES (2, 'Loop Office #2', NULL);
INSERT INTO branch (branch_no, title, street) VALUES (3, NULL, '   ');
INSERT INTO therapist (therapist_no, full_name) VALUES (1, 'Dana Whitfield');
INSERT INTO member (member_no, full_name) VALUES (1, 'Omar Haddad');
INSERT INTO session (session_no, member_no, therapist_no, branch_no, begins, st) VALUES (10, 1, 1, 1, '${day} 09:00:00', 'B');
INSERT INTO session (session_no, member_no, therapist_no, branch_no, begins, st) VALUES (11, 1, 1, 2, '${day} 10:00:00', 'B');
INSERT INTO session (session_no, member_no, therapist_no, branch_no, begins, st) VALUES (12, 1, 1, 3, '${day} 11:00:00', 'B');
`
}

function mapping (address: string): string {
  return `version: 1
installation: physio-group
timezone: America/Chicago
phone: { defaultCountry: US }
resources:
  appointment:
    table: session
    key: session_no
    start: { datetime: { column: begins, format: datetime } }
    state: { column: st, map: { B: WAITING, X: CANCELED } }
    refs: { client: member_no, professional: therapist_no, location: branch_no }
  client:
    table: member
    key: member_no
    fields: { name: full_name }
  professional:
    table: therapist
    key: therapist_no
    fields: { name: full_name }
  location:
    table: branch
    key: branch_no
    fields:
      name: title
${address}
`
}

function issues (text: string): MappingIssue[] {
  try {
    buildModel(parseMapping(text, 'm.yaml'))
  } catch (err) {
    if (err instanceof MappingError) return err.issues
    throw err
  }
  return []
}

t.test('a location mapping without an address is refused at its line, saying how to give one', async (t) => {
  const text = mapping('')
  const [issue] = issues(text)
  t.equal(issue?.path, '/resources/location/fields')
  const lines = text.split('\n')
  const at = lines.indexOf('  location:')
  // Located at the location's fields (their first line), where the address belongs.
  t.equal(issue?.line, at + lines.slice(at).indexOf('    fields:') + 2, 'at the location\'s fields')
  t.match(issue?.message, /a location needs `address`/)
  t.match(issue?.message, /address: \{ value: 'Rua das Flores, 100' \}/, 'the constant form')
  t.match(issue?.message, /address: NOME/, 'the name column')
  const [blank] = issues(mapping("      address: { value: '  ' }"))
  t.equal(blank?.path, '/resources/location/fields/address')
  t.match(blank?.message, /a blank constant is no address/)
  t.same(issues(mapping("      address: { value: 'One clinic, no address kept' }")), [], 'a constant loads')
})

for (const dialect of testDialects()) {
  t.test(`${dialect}: a constant address answers on every location, listed and nested`, async (t) => {
    const s = await scratchOn(t, dialect, schema(dialect), mapping("      address: { value: 'One clinic, no address kept' }"))
    const list = await s.call('GET', '/locations')
    t.equal(list.status, 200)
    t.same(list.body.map((l: { id: string, address: string }) => [l.id, l.address]),
      [['1', 'One clinic, no address kept'], ['2', 'One clinic, no address kept'], ['3', 'One clinic, no address kept']])
    const one = await s.call('GET', '/appointments/11')
    t.equal(one.status, 200)
    t.same(one.body.location, { id: '2', name: 'Loop Office #2', address: 'One clinic, no address kept' })
  })

  t.test(`${dialect}: an address read blank is answered with the name, else the id, never empty`, async (t) => {
    const s = await scratchOn(t, dialect, schema(dialect), mapping('      address: street'))
    const list = await s.call('GET', '/locations')
    t.equal(list.status, 200)
    t.same(list.body.map((l: { id: string, address: string }) => [l.id, l.address]),
      [['1', '3100 N Lake Shore Dr'], ['2', 'Loop Office #2'], ['3', '3']])
    const stored = await s.rows('SELECT branch_no, street FROM branch WHERE branch_no = 2')
    t.equal(stored[0].street, null, 'the database keeps none: nothing was written')
    for (const [id, address] of [['10', '3100 N Lake Shore Dr'], ['11', 'Loop Office #2'], ['12', '3']]) {
      const one = await s.call('GET', `/appointments/${id}`)
      t.equal(one.status, 200)
      t.equal(one.body.location.address, address, `appointment ${id}'s nested location`)
    }
    const one = await s.call('GET', '/locations/3')
    t.same(one.body, { id: '3', address: '3' })
    const report = await checkInstallation(s.installation, { budgetMs: 20_000 })
    t.ok(report.lines.some((l) => /location fields\.address: 2 of 3 rows read a blank address: answered with the location's name/.test(l)), report.lines.join('\n'))
  })
}
