// A Tryton-like patient (GNU Health) whose name lives on its party row, the patient's own
// `name` column being the party's numeric id: POST and PATCH write the name to the party, and
// the patient's stamp (`write.update`) goes to the patient; the party's text never meets the
// patient's numeric `name`. Generated in the test, on every test database, read back by SQL.
import t from 'tap'
import { testDialects } from '../helpers/contract.js'
import { scratchOn } from '../helpers/scratch-servers.js'
import { parseMapping } from '../../src/mapping/load.js'
import { buildModel } from '../../src/mapping/model.js'
import { compileMapping, isUnsupported } from '../../src/mapping/compile/index.js'
import { sqlite } from '../../src/sql/sqlite/dialect.js'

const SCHEMA = `
CREATE TABLE party (id INTEGER PRIMARY KEY, name VARCHAR(60) NOT NULL, lastname VARCHAR(60), is_patient BOOLEAN NOT NULL);
CREATE TABLE patient (id INTEGER PRIMARY KEY, name INTEGER NOT NULL, mobile VARCHAR(20), write_date VARCHAR(19));
CREATE TABLE visit (id INTEGER PRIMARY KEY, patient INTEGER NOT NULL, starts VARCHAR(16) NOT NULL, state VARCHAR(10) NOT NULL);
INSERT INTO party (id, name, lastname, is_patient) VALUES (501, 'Lucia', 'Ferraz', TRUE);
INSERT INTO patient (id, name, mobile, write_date) VALUES (1, 501, '11987650001', NULL);
`

const MAPPING = `version: 1
installation: tryton-like
timezone: America/Sao_Paulo
states: { values: [WAITING, CANCELED] }
resources:
  appointment:
    table: visit
    key: id
    start: { datetime: { column: starts, format: text } }
    state: { column: state, map: { booked: WAITING, cancelled: CANCELED } }
    refs: { client: patient }
  client:
    table: patient
    key: id
    joins:
      person: { table: party, on: { name: id } }
    fields:
      name: { template: '{person.name} {person.lastname}' }
    phones: [mobile]
    write:
      key: { generate: max }
      before:
        - join: person
          key: { generate: max }
          set: { is_patient: { value: true } }
      update: { write_date: { now: datetime } }
`

for (const dialect of testDialects()) {
  t.test(`${dialect}: a name kept on the party row is written there, beside a numeric 'name' column`, async (t) => {
    const s = await scratchOn(t, dialect, SCHEMA, MAPPING)
    const patched = await s.call('PATCH', '/clients/1', { name: 'Lucia Ferraz Prado' })
    t.equal(patched.status, 200, JSON.stringify(patched.body))
    t.equal(patched.body.name, 'Lucia Ferraz Prado', 'answered as stored')
    const [party] = await s.rows('SELECT name, lastname FROM party WHERE id = 501')
    t.same([party.name, party.lastname], ['Lucia', 'Ferraz Prado'], 'the party row holds the new name')
    const [patient] = await s.rows('SELECT name, write_date FROM patient WHERE id = 1')
    t.equal(Number(patient.name), 501, 'the patient still points at its party')
    t.ok(patient.write_date, 'the patient row is stamped')

    const created = await s.call('POST', '/clients', { name: 'Otavio Reis', phone: '+5511987650002' })
    t.equal(created.status, 200, JSON.stringify(created.body))
    const [made] = await s.rows(`SELECT p.name AS party, y.name AS given, y.lastname AS family FROM patient p JOIN party y ON y.id = p.name WHERE p.id = ${Number(created.body.id)}`)
    t.same([made.given, made.family], ['Otavio', 'Reis'], 'a new client\'s name on its own new party')
    t.not(Number(made.party), 501)
    t.equal((await s.call('GET', `/clients/${String(created.body.id)}`)).body.name, 'Otavio Reis')
  })
}

// Tryton's party code made by `identifier` in the party row written before the patient was
// written NULL (the server named the column; check blamed /body): refused at its line now.
t.test('a key-made value in a row written before the client is refused at its line', async (t) => {
  // Client writes that cannot be compiled answer 501 with the reason, and check reports it as a problem at its path.
  const refused = (value: string): string => {
    const writes = compileMapping(buildModel(parseMapping(MAPPING.replace('set: { is_patient: { value: true } }', `set: { is_patient: { value: true }, code: ${value} }`), 'm.yaml')), sqlite).writes.client
    return isUnsupported(writes) ? `${writes.unsupported.path}: ${writes.unsupported.reason}` : 'accepted'
  }
  t.match(refused('{ identifier: { check: luhn, prefix: PAR, digits: 5 } }'), /before\/0\/set\/code.*`identifier` is made from the new record's key, which a row written before the record does not have yet/)
  t.match(refused('{ newKey: true }'), /before\/0\/set\/code.*`newKey`/)
  t.equal(refused('{ uuid: true }'), 'accepted')
})
