// `update` on a client's `before`/`after` row: a PATCH changing a field kept in a joined row
// stamps that row, in the same UPDATE. A GNU Health-like party (the birthday and name kept on
// `party_party`, stamped `write_date` in UTC and `write_uid`) and an OpenMRS-like person_name
// (`changed_by`, `date_changed` on the preferred, unvoided name only), on schemas generated
// here, on every test database: each row read back by SQL, the stamp on that row and no other.
import t, { type Test } from 'tap'
import { testDialects } from '../helpers/contract.js'
import { scratchOn, type ServerScratch } from '../helpers/scratch-servers.js'
import { DATETIME, IDENTITY } from '../helpers/openmrs-like.js'
import type { TestDialect } from '../helpers/app.js'
import { checkInstallation } from '../../src/check/index.js'
import { tableContents } from '../helpers/table-contents.js'
import { nowIn } from '../../src/normalise/datetime.js'
import { parseMapping } from '../../src/mapping/load.js'
import { buildModel } from '../../src/mapping/model.js'
import { compileMapping } from '../../src/mapping/compile/index.js'
import { sqlite } from '../../src/sql/sqlite/dialect.js'
import { MappingError } from '../../src/mapping/errors.js'

const USER = 6

const wall = (v: unknown): string => v instanceof Date ? v.toISOString().slice(0, 19).replace('T', ' ') : String(v).slice(0, 19).replace('T', ' ')

function isNow (t: Test, v: unknown, zone: string, what: string): void {
  const gap = Math.abs(Date.parse(`${wall(v).replace(' ', 'T')}Z`) - Date.parse(`${nowIn(zone).datetime.replace(' ', 'T')}Z`))
  t.ok(v !== null && gap < 60_000, `${what} is now in ${zone} (${wall(v)})`)
}

async function patched (t: Test, s: ServerScratch, id: string, body: object): Promise<void> {
  const res = await s.call('PATCH', `/clients/${id}`, body)
  t.equal(res.status, 200, `PATCH /clients/${id} ${JSON.stringify(body)}: ${JSON.stringify(res.body)}`)
}

async function checked (t: Test, s: ServerScratch, stamped: string): Promise<void> {
  const before = await tableContents(s.installation.db)
  const report = await checkInstallation(s.installation, { budgetMs: 2000 })
  t.notOk(report.findings.some((f) => f.severity === 'problem'), report.lines.filter((l) => l.startsWith('✗')).join('\n'))
  t.ok(report.findings.some((f) => f.severity === 'ok' && f.message.includes(`the ${stamped} row stamped`)), `check compares the ${stamped} row's stamps`)
  t.same(await tableContents(s.installation.db), before, 'rolled back')
}

const GNU_SCHEMA = (dialect: TestDialect): string => `
CREATE TABLE party_party (id INTEGER PRIMARY KEY, name VARCHAR(60) NOT NULL, lastname VARCHAR(60), dob DATE, is_patient INTEGER NOT NULL,
  create_date ${DATETIME[dialect]}, write_date ${DATETIME[dialect]}, write_uid INTEGER);
CREATE TABLE gnuhealth_patient (id INTEGER PRIMARY KEY, name INTEGER NOT NULL, mobile VARCHAR(20), write_date ${DATETIME[dialect]}, write_uid INTEGER);
CREATE TABLE gnuhealth_appointment (id INTEGER PRIMARY KEY, patient INTEGER NOT NULL, appointment_date ${DATETIME[dialect]} NOT NULL);
INSERT INTO party_party (id, name, lastname, dob, is_patient) VALUES (501, 'Ana Paula', 'Rocha', '1988-03-04', 1);
INSERT INTO party_party (id, name, lastname, dob, is_patient) VALUES (502, 'Joao', 'Lima', '1979-11-30', 1);
INSERT INTO gnuhealth_patient (id, name, mobile) VALUES (1, 501, '11912345678');
INSERT INTO gnuhealth_patient (id, name, mobile) VALUES (2, 502, '11912345679');
`

const GNU = `version: 1
installation: party-stamps
timezone: America/Sao_Paulo
storedIn: UTC
settings: { userId: ${USER} }
search: [name]
resources:
  appointment:
    table: gnuhealth_appointment
    key: id
    start: { datetime: { column: appointment_date, format: datetime } }
    state: { value: WAITING }
    refs: { client: patient }
  client:
    table: gnuhealth_patient
    key: id
    joins:
      person: { table: party_party, on: { name: id } }
    fields:
      name: { template: '{person.name} {person.lastname}', split: lastSpace }
      birthday: { column: person.dob, format: date }
    phones: [mobile]
    write:
      key: { generate: max }
      before:
        - join: person
          key: { generate: max }
          set: { is_patient: { value: 1 }, create_date: { now: datetime } }
          update: { write_date: { now: datetime }, write_uid: { setting: userId } }
`

const PERSON_SCHEMA = (dialect: TestDialect): string => `
CREATE TABLE person (person_id INTEGER PRIMARY KEY, birthdate DATE, creator INTEGER NOT NULL, changed_by INTEGER, date_changed ${DATETIME[dialect]});
CREATE TABLE patient (patient_id INTEGER PRIMARY KEY, creator INTEGER NOT NULL, changed_by INTEGER, date_changed ${DATETIME[dialect]});
CREATE TABLE person_name (person_name_id ${IDENTITY[dialect]}, person_id INTEGER NOT NULL, preferred INTEGER NOT NULL,
  given_name VARCHAR(50), middle_name VARCHAR(50), family_name VARCHAR(50), voided INTEGER NOT NULL,
  creator INTEGER NOT NULL, changed_by INTEGER, date_changed ${DATETIME[dialect]});
CREATE TABLE appointment (appointment_id INTEGER PRIMARY KEY, patient_id INTEGER NOT NULL, starts_at ${DATETIME[dialect]} NOT NULL);
INSERT INTO person (person_id, birthdate, creator) VALUES (300, '1990-05-17', 1);
INSERT INTO person (person_id, birthdate, creator) VALUES (301, '2015-01-09', 1);
INSERT INTO patient (patient_id, creator) VALUES (300, 1);
INSERT INTO patient (patient_id, creator) VALUES (301, 1);
INSERT INTO person_name (person_name_id, person_id, preferred, given_name, middle_name, family_name, voided, creator) VALUES (101, 300, 1, 'Wanjiku', NULL, 'Kamau', 1, 1);
INSERT INTO person_name (person_name_id, person_id, preferred, given_name, middle_name, family_name, voided, creator) VALUES (102, 300, 1, 'Wanjiku', NULL, 'Mwangi', 0, 1);
INSERT INTO person_name (person_name_id, person_id, preferred, given_name, middle_name, family_name, voided, creator) VALUES (103, 300, 0, 'Shiru', NULL, 'Mwangi', 0, 1);
INSERT INTO person_name (person_name_id, person_id, preferred, given_name, middle_name, family_name, voided, creator) VALUES (104, 301, 1, 'Baraka', NULL, 'Mwangi', 0, 1);
`

const PERSON = `version: 1
installation: person-name-stamps
timezone: Africa/Nairobi
settings: { userId: ${USER} }
search: [name]
resources:
  appointment:
    table: appointment
    key: appointment_id
    start: { datetime: { column: starts_at, format: datetime } }
    state: { value: WAITING }
    refs: { client: patient_id }
  client:
    table: patient
    key: patient_id
    joins:
      person: { table: person, on: { patient_id: person_id } }
      name:
        table: person_name
        on: { patient_id: person_id }
        where: { column: voided, eq: 0 }
        first: { key: person_name_id, by: [{ column: preferred, desc: true }] }
    fields:
      name:
        template: '{name.given_name} {name.middle_name} {name.family_name}'
        split: { rule: lastSpace, family: name.family_name }
      birthday: { column: person.birthdate, format: date }
    write:
      before:
        - join: person
          key: { generate: max }
          set: { creator: { setting: userId } }
          update: { changed_by: { setting: userId }, date_changed: { now: datetime } }
      set: { creator: { setting: userId } }
      update: { changed_by: { setting: userId }, date_changed: { now: datetime } }
      after:
        - join: name
          set: { preferred: { value: 1 }, creator: { setting: userId } }
          update: { changed_by: { setting: userId }, date_changed: { now: datetime } }
`

for (const dialect of testDialects()) {
  t.test(`a GNU Health-like party stamped when the birthday or name kept on it changes [${dialect}]`, async (t) => {
    const s = await scratchOn(t, dialect, GNU_SCHEMA(dialect), GNU)
    const parties = async (): Promise<Record<string, any>> => Object.fromEntries((await s.rows('SELECT id, dob, name, lastname, write_date, write_uid FROM party_party ORDER BY id')).map((r) => [Number(r.id), r]))
    const patients = async (): Promise<unknown[]> => (await s.rows('SELECT write_date, write_uid FROM gnuhealth_patient ORDER BY id')).map((r) => [r.write_date, r.write_uid])

    await patched(t, s, '1', { birthday: '1988-03-05' })
    let party = await parties()
    t.equal(wall(party[501].dob).slice(0, 10), '1988-03-05', 'the party holds the birthday')
    isNow(t, party[501].write_date, 'UTC', 'party_party.write_date of the party changed')
    t.equal(Number(party[501].write_uid), USER, 'and its write_uid')
    t.same([party[502].write_date, party[502].write_uid], [null, null], 'another party is not stamped')
    t.same(await patients(), [[null, null], [null, null]], 'nor the patient rows: the mapping stamps only the row changed')

    await s.rows('UPDATE party_party SET write_date = NULL, write_uid = NULL')
    await patched(t, s, '2', { name: 'Joao Pedro Lima' })
    party = await parties()
    t.same([party[502].name, party[502].lastname], ['Joao Pedro', 'Lima'], 'the name on the party')
    isNow(t, party[502].write_date, 'UTC', 'the renamed party\'s write_date')
    t.same([party[501].write_date, party[501].write_uid], [null, null], 'the other party untouched')

    await checked(t, s, 'person')
  })

  t.test(`an OpenMRS-like person_name stamped, not its voided or other names [${dialect}]`, async (t) => {
    const s = await scratchOn(t, dialect, PERSON_SCHEMA(dialect), PERSON)
    const names = async (): Promise<Record<number, any>> => Object.fromEntries((await s.rows('SELECT person_name_id, given_name, middle_name, family_name, changed_by, date_changed FROM person_name ORDER BY person_name_id')).map((r) => [Number(r.person_name_id), r]))
    const person = async (id: number): Promise<Record<string, any>> => (await s.rows(`SELECT changed_by, date_changed FROM person WHERE person_id = ${id}`))[0]

    await patched(t, s, '300', { name: 'Wanjiku Atieno Mwangi' })
    const after = await names()
    t.same([after[102].given_name, after[102].middle_name, after[102].family_name], ['Wanjiku', 'Atieno', 'Mwangi'], 'the preferred unvoided name holds the new name')
    t.equal(Number(after[102].changed_by), USER, 'person_name.changed_by of that name')
    isNow(t, after[102].date_changed, 'Africa/Nairobi', 'its date_changed')
    for (const id of [101, 103, 104]) t.same([after[id].changed_by, after[id].date_changed], [null, null], `name ${id} is not stamped`)
    t.same(await person(300), { changed_by: null, date_changed: null }, 'the person row is not: its birthdate did not change')
    const [patient] = await s.rows('SELECT changed_by FROM patient WHERE patient_id = 300')
    t.equal(Number(patient.changed_by), USER, 'the patient row takes write.update, as before')

    await patched(t, s, '301', { birthday: '2015-01-10' })
    const born = await person(301)
    t.equal(Number(born.changed_by), USER, 'a birthday stamps the person row')
    isNow(t, born.date_changed, 'Africa/Nairobi', 'person.date_changed')
    t.same([(await names())[104].changed_by], [null], 'and not the name')

    await checked(t, s, 'name')
  })
}

t.test('a row no correction changes takes no stamps: refused at its line', async (t) => {
  const refused = (yaml: string): { line?: number, said: string } => {
    try {
      compileMapping(buildModel(parseMapping(yaml, 'm.yaml')), sqlite)
    } catch (err) {
      if (err instanceof MappingError) return { line: err.issues[0].line, said: err.issues.map((i) => `${i.path}: ${i.message}`).join('\n') }
      throw err
    }
    return { said: 'accepted' }
  }
  const phoneRow = `${PERSON.replace('    write:\n      before:', `    phones:
      - collect: { table: person_attribute, on: { patient_id: person_id }, column: value, by: [person_attribute_id] }
    write:
      before:`)}        - phones: 0
          update: { date_changed: { now: datetime } }
`
  const phone = refused(phoneRow)
  t.match(phone.said, /client\/write\/after\/1\/update: a PATCH \/clients never changes a phone row/)
  t.equal(phone.line, phoneRow.split('\n').findIndex((l) => l.includes('update: { date_changed')) + 1, 'at its line')
  t.match(refused(PERSON.replace(/update: \{ changed_by: \{ setting: userId \}, date_changed: \{ now: datetime \} \}\n$/, 'update: { changed_by: { service: name } }\n')).said,
    /after\/0\/update\/changed_by\/service: a copy of the booked service is written when an appointment is booked/, 'no copies of what a booking names')
})
