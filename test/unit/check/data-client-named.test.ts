// A lookup named through a client's own row (stranger report, GNU Health: an init draft named
// each insurance through `gnuhealth_insurance.name`, the member's party, and check said ✓): the
// lookup's names were the patients'. Check now reports a problem at the lookup's `name` when
// most of its rows reach, through the join, a row of the table the client's name is read from
// by a value some client holds; named through the insurer's own column, nothing. A small
// Tryton-like clinic generated in the test, on every test database.
import t from 'tap'
import { testDialects } from '../../helpers/contract.js'
import { scratchOn } from '../../helpers/scratch-servers.js'
import { checkOf } from '../../helpers/check-of.js'

const rowsOf = (n: number, make: (i: number) => string): string => Array.from({ length: n }, (_, i) => make(i + 1)).join('\n')

// Parties 1–6 are patients, 7 a doctor, 8 and 9 insurers; each patient's insurance row names
// the patient (`name`) and the insurer (`company`).
const SCHEMA = `
CREATE TABLE party (id INTEGER PRIMARY KEY, name VARCHAR(60) NOT NULL, lastname VARCHAR(60));
CREATE TABLE patient (id INTEGER PRIMARY KEY, name INTEGER NOT NULL);
CREATE TABLE doctor (id INTEGER PRIMARY KEY, name INTEGER NOT NULL);
CREATE TABLE insurance (id INTEGER PRIMARY KEY, name INTEGER NOT NULL, company INTEGER NOT NULL, number VARCHAR(20));
CREATE TABLE visit (id INTEGER PRIMARY KEY, patient INTEGER, doctor INTEGER, starts DATE NOT NULL, hour VARCHAR(5) NOT NULL, state VARCHAR(10) NOT NULL);
${rowsOf(6, (i) => `INSERT INTO party (id, name, lastname) VALUES (${i}, '${['Ana', 'Rui', 'Eva', 'Ivo', 'Lia', 'Teo'][i - 1]}', 'Souza');`)}
INSERT INTO party (id, name, lastname) VALUES (7, 'Marta', 'Lima');
INSERT INTO party (id, name, lastname) VALUES (8, 'Unimed', NULL);
INSERT INTO party (id, name, lastname) VALUES (9, 'Amil', NULL);
${rowsOf(6, (i) => `INSERT INTO patient (id, name) VALUES (${i}, ${i});`)}
INSERT INTO doctor (id, name) VALUES (1, 7);
${rowsOf(6, (i) => `INSERT INTO insurance (id, name, company, number) VALUES (${i}, ${i}, ${8 + (i % 2)}, '00${i}');`)}
${rowsOf(6, (i) => `INSERT INTO visit (id, patient, doctor, starts, hour, state) VALUES (${i}, ${i}, 1, '2031-03-0${i}', '09:00', 'confirmed');`)}
`

const mapping = (insuranceOn: string): string => `version: 1
installation: clinica-client-named
timezone: America/Sao_Paulo
states: { values: [CONFIRMED], initial: CONFIRMED }
resources:
  appointment:
    table: visit
    key: id
    start:
      date: { column: starts, format: date }
      hour: { column: hour, format: text }
    state: { column: state, map: { confirmed: CONFIRMED } }
    refs: { client: patient, professional: doctor }
    write: { key: { generate: max } }
  client:
    table: patient
    key: id
    joins:
      person: { table: party, on: { name: id } }
    fields: { name: { template: '{person.name} {person.lastname}' } }
    write: { key: { generate: max }, before: [{ join: person, key: { generate: max } }] }
  professional:
    table: doctor
    key: id
    joins:
      person: { table: party, on: { name: id } }
    fields: { name: { template: '{person.name} {person.lastname}' } }
  healthInsurance:
    table: insurance
    key: id
    joins:
      person: { table: party, on: { ${insuranceOn}: id } }
    fields: { name: person.name }
`

for (const dialect of testDialects()) {
  t.test(`${dialect}: an insurance named through its member's party is a problem at its name`, async (t) => {
    const s = await scratchOn(t, dialect, SCHEMA, mapping('name'))
    const report = await checkOf(t, s.url, mapping('name'))
    t.notOk(report.ok, 'check fails')
    t.ok(report.lines.some((l) => /^✗ .*:\d+:\d+: healthInsurance fields\.name: 6 of 6 healthInsurance rows are named through `person` by a row of `party` that a client's name is read from too: these are clients' names, not the healthInsurance's/.test(l)), report.lines.join('\n'))
    t.notOk(report.lines.some((l) => /professional fields\.name/.test(l)), 'the doctor\'s own party row is no client\'s')
  })

  t.test(`${dialect}: named through the insurer's own party, nothing is said`, async (t) => {
    const s = await scratchOn(t, dialect, SCHEMA, mapping('company'))
    const report = await checkOf(t, s.url, mapping('company'))
    t.notOk(report.lines.some((l) => /healthInsurance fields\.name/.test(l)), report.lines.join('\n'))
    t.ok(report.ok, report.lines.filter((l) => l.startsWith('✗')).join('\n'))
  })
}
