// "Clínica Illimani": a fourth legacy schema, generated here (deterministic), normalised the
// way open-source medical record systems are: a person with several names (history,
// aliases, voided ones), phones as rows of an attribute table, patients sharing the person's
// key, providers that are persons, locations hanging from parent locations, appointment
// blocks cut into time slots, appointments pointing at a slot, and a status history.
// Mapped with the language alone: no `sql:` anywhere (test/language/normalised-*.test.ts check that).
import type { Test } from 'tap'
import { randomness, addDays, hhmm, toDate } from '../../fixtures/generator-kit.js'
import { scratchInstallation, type Scratch } from './scratch.js'

export const FIRST_DAY = '2027-01-04'
export const LAST_DAY = '2027-03-31'
export const SLOT_MINUTES = 20
export const PHONE_TYPE = 8
export const USER_ID = 4
export const ID_TYPE = 3

const q = (x: unknown): string => x === null ? 'NULL' : typeof x === 'number' ? String(x) : `'${String(x).replace(/'/g, "''")}'`
const insert = (table: string, rows: unknown[][]): string => rows.length === 0 ? '' : `INSERT INTO ${table} VALUES\n${rows.map((r) => `  (${r.map(q).join(', ')})`).join(',\n')};\n`

/** Who works where: [provider, location, weekdays (0 = Sunday), from, to in minutes, appointment types the block accepts]. */
export const BLOCKS: [number, number, number[], number, number, number[]][] = [
  [1, 3, [1, 3, 5], 8 * 60, 12 * 60, [1, 2]],
  [2, 3, [2, 4], 9 * 60, 12 * 60, [1]],
  [2, 4, [1, 3], 14 * 60, 17 * 60, [2]]
]

/** Names per person: [given, family, preferred, voided]; the one shown is the preferred, not voided one. */
const NAMES: [string, string, number, number][][] = [
  [['Wara', 'Mamani', 1, 0]],
  [['Juan', 'Perez', 0, 0], ['Juan Carlos', 'Perez Choque', 1, 0]],
  [['Ana', 'Vargas', 1, 1], ['Ana María', 'Vargas', 0, 0]], // preferred one voided: the first not voided
  [['Luis', 'Quispe', 0, 0], ['Lucho', 'Quispe', 0, 0]], // none preferred: the first
  [['Rosa', 'Condori', 1, 0]],
  [['Pedro', 'Flores', 1, 0], ['Pedro', 'Flores', 0, 1]],
  // 110 patients with one name each, so lists have pages to turn.
  ...['Elena', 'Marco', 'Sonia', 'Raúl', 'Lidia', 'Hugo', 'Marta', 'Iván', 'Julia', 'Óscar', 'Nilda']
    .flatMap((given) => ['Choque', 'Ticona', 'Apaza', 'Gutiérrez', 'Huanca', 'Cruz', 'Layme', 'Poma', 'Yujra', 'Colque']
      .map((family): [string, string, number, number][] => [[given, family, 1, 0]]))
]

export function normalisedSql (): string {
  const { int, chance, pick } = randomness(0x111A)
  const uuid = (kind: number, n: number): string => `${String(kind).padStart(8, '0')}-0000-4000-8000-${String(n).padStart(12, '0')}`
  const created = '2028-01-10 09:00:00'

  const persons: unknown[][] = []
  const names: unknown[][] = []
  const attributes: unknown[][] = []
  const patients: unknown[][] = []
  const identifiers: unknown[][] = []
  let nameId = 1
  let attrId = 1
  // Persons 1–2 are providers; 3–8 are patients.
  const people = [['Dra. Teresa', 'Aliaga'], ['Dr. Marco', 'Limachi'], ...NAMES.map(() => null)]
  people.forEach((provider, i) => {
    const id = i + 1
    persons.push([id, i % 2 === 0 ? 'F' : 'M', `19${60 + id}-0${1 + (id % 9)}-1${id % 10}`, uuid(1, id), 0, 1, created])
    const list: [string, string, number, number][] = provider ? [[provider[0], provider[1], 1, 0]] : NAMES[i - 2]
    for (const [given, family, preferred, voided] of list) names.push([nameId, id, preferred, given, family, voided, uuid(2, nameId++), 1, created])
    if (provider) return
    patients.push([id, 1, created, 0])
    identifiers.push([id, id, `10000${id}`, ID_TYPE, 1, 3, 0, uuid(5, id), 1, created])
  })
  // Phones as attribute rows: two for patient 3 (one written twice), one voided, one of another type.
  attributes.push([attrId, 3, '00591 74114552', PHONE_TYPE, 0, uuid(3, attrId++), 1, created])
  attributes.push([attrId, 3, '+591 7411-4552', PHONE_TYPE, 0, uuid(3, attrId++), 1, created])
  attributes.push([attrId, 3, '2 2441122', PHONE_TYPE, 0, uuid(3, attrId++), 1, created])
  attributes.push([attrId, 4, '71234567', PHONE_TYPE, 1, uuid(3, attrId++), 1, created])
  attributes.push([attrId, 4, '72345678', PHONE_TYPE, 0, uuid(3, attrId++), 1, created])
  attributes.push([attrId, 5, 'Sucre', 5, 0, uuid(3, attrId++), 1, created])
  for (let p = 6; p <= 2 + NAMES.length; p++) attributes.push([attrId, p, `7${String(1000000 + p * 7919).slice(-7)}`, PHONE_TYPE, 0, uuid(3, attrId++), 1, created])

  const blocks: unknown[][] = []
  const blockTypes: unknown[][] = []
  const slots: unknown[][] = []
  const appointments: unknown[][] = []
  const history: unknown[][] = []
  let blockId = 1
  let slotId = 1
  let apptId = 1
  for (let day = FIRST_DAY; day <= LAST_DAY; day = addDays(day, 1)) {
    const dow = toDate(day).getUTCDay()
    for (const [provider, location, weekdays, from, to, types] of BLOCKS) {
      if (!weekdays.includes(dow)) continue
      blocks.push([blockId, `${day} ${hhmm(from)}:00`, `${day} ${hhmm(to)}:00`, provider, location, 0, uuid(6, blockId)])
      for (const type of types) blockTypes.push([type, blockId])
      for (let m = from; m + SLOT_MINUTES <= to; m += SLOT_MINUTES) {
        slots.push([slotId, blockId, `${day} ${hhmm(m)}:00`, `${day} ${hhmm(m + SLOT_MINUTES)}:00`, 0, uuid(7, slotId)])
        if (chance(0.3)) {
          const status = pick(['SCHEDULED', 'SCHEDULED', 'COMPLETED', 'CANCELLED', 'MISSED'])
          appointments.push([apptId, slotId, int(3, 2 + NAMES.length), pick([1, 2]), status, 0, uuid(8, apptId), 1, created])
          history.push([apptId, apptId, status, created, null])
          apptId++
        }
        slotId++
      }
      blockId++
    }
  }

  return `
CREATE TABLE person (person_id INTEGER PRIMARY KEY AUTOINCREMENT, gender VARCHAR(50) NOT NULL DEFAULT '', birthdate DATE,
  uuid CHAR(38) NOT NULL UNIQUE, voided TINYINT NOT NULL DEFAULT 0, creator INT NOT NULL, date_created DATETIME NOT NULL);
CREATE TABLE person_name (person_name_id INTEGER PRIMARY KEY AUTOINCREMENT, person_id INT NOT NULL, preferred TINYINT NOT NULL DEFAULT 0,
  given_name VARCHAR(50), family_name VARCHAR(50), voided TINYINT NOT NULL DEFAULT 0, uuid CHAR(38) NOT NULL UNIQUE,
  creator INT NOT NULL, date_created DATETIME NOT NULL);
CREATE TABLE person_attribute (person_attribute_id INTEGER PRIMARY KEY AUTOINCREMENT, person_id INT NOT NULL, value VARCHAR(50) NOT NULL,
  person_attribute_type_id INT NOT NULL, voided TINYINT NOT NULL DEFAULT 0, uuid CHAR(38) NOT NULL UNIQUE, creator INT NOT NULL, date_created DATETIME NOT NULL);
CREATE TABLE patient (patient_id INT PRIMARY KEY, creator INT NOT NULL, date_created DATETIME NOT NULL, voided TINYINT NOT NULL DEFAULT 0);
CREATE TABLE patient_identifier (patient_identifier_id INTEGER PRIMARY KEY AUTOINCREMENT, patient_id INT NOT NULL, identifier VARCHAR(50) NOT NULL,
  identifier_type INT NOT NULL, preferred TINYINT NOT NULL DEFAULT 0, location_id INT, voided TINYINT NOT NULL DEFAULT 0,
  uuid CHAR(38) NOT NULL UNIQUE, creator INT NOT NULL, date_created DATETIME NOT NULL);
CREATE TABLE provider (provider_id INTEGER PRIMARY KEY, person_id INT, name VARCHAR(255), retired TINYINT NOT NULL DEFAULT 0, uuid CHAR(38) NOT NULL UNIQUE);
CREATE TABLE location (location_id INTEGER PRIMARY KEY, name VARCHAR(255) NOT NULL, address1 VARCHAR(255), city_village VARCHAR(255),
  state_province VARCHAR(255), parent_location INT, retired TINYINT NOT NULL DEFAULT 0, uuid CHAR(38) NOT NULL UNIQUE);
CREATE TABLE appointmentscheduling_appointment_type (appointment_type_id INTEGER PRIMARY KEY, name VARCHAR(255) NOT NULL,
  duration INT NOT NULL, retired TINYINT NOT NULL DEFAULT 0, uuid CHAR(38) NOT NULL UNIQUE);
CREATE TABLE appointmentscheduling_appointment_block (appointment_block_id INTEGER PRIMARY KEY, start_date DATETIME NOT NULL,
  end_date DATETIME NOT NULL, provider_id INT, location_id INT NOT NULL, voided TINYINT NOT NULL DEFAULT 0, uuid CHAR(38) NOT NULL UNIQUE);
CREATE TABLE appointmentscheduling_block_type_map (appointment_type_id INT NOT NULL, appointment_block_id INT NOT NULL,
  PRIMARY KEY (appointment_type_id, appointment_block_id));
CREATE TABLE appointmentscheduling_time_slot (time_slot_id INTEGER PRIMARY KEY, appointment_block_id INT NOT NULL,
  start_date DATETIME NOT NULL, end_date DATETIME NOT NULL, voided TINYINT NOT NULL DEFAULT 0, uuid CHAR(38) NOT NULL UNIQUE);
CREATE INDEX time_slot_start ON appointmentscheduling_time_slot (start_date);
CREATE TABLE appointmentscheduling_appointment (appointment_id INTEGER PRIMARY KEY AUTOINCREMENT, time_slot_id INT NOT NULL,
  patient_id INT NOT NULL, appointment_type_id INT NOT NULL, status VARCHAR(255) NOT NULL, voided TINYINT NOT NULL DEFAULT 0,
  uuid CHAR(38) NOT NULL UNIQUE, creator INT NOT NULL, date_created DATETIME NOT NULL);
CREATE TABLE appointmentscheduling_appointment_status_history (appointment_status_history_id INTEGER PRIMARY KEY AUTOINCREMENT,
  appointment_id INT NOT NULL, status VARCHAR(255) NOT NULL, start_date DATETIME NOT NULL, end_date DATETIME);
${insert('person', persons)}
${insert('person_name', names)}
${insert('person_attribute', attributes)}
${insert('patient', patients)}
${insert('patient_identifier', identifiers)}
${insert('provider', [[1, 1, null, 0, uuid(9, 1)], [2, 2, 'Dr. M. Limachi (legacy)', 0, uuid(9, 2)], [3, null, 'Lic. Retirada', 1, uuid(9, 3)]])}
${insert('location', [
    [1, 'Red Illimani', 'Av. 6 de Agosto 2170', 'La Paz', 'La Paz', null, 0, uuid(10, 1)],
    [2, 'Sopocachi', 'Calle Rosendo Gutiérrez 500', 'La Paz', 'La Paz', 1, 0, uuid(10, 2)],
    [3, 'Consultorio 1', null, null, null, 2, 0, uuid(10, 3)],
    [4, 'Consultorio 2', null, null, null, 2, 0, uuid(10, 4)],
    [5, 'Consultorio antiguo', 'Calle Sagárnaga 10', 'La Paz', 'La Paz', null, 1, uuid(10, 5)]
  ])}
${insert('appointmentscheduling_appointment_type', [[1, 'Consulta general', 20, 0, uuid(11, 1)], [2, 'Control prenatal', 20, 0, uuid(11, 2)], [3, 'Ecografía (ya no)', 40, 1, uuid(11, 3)]])}
${insert('appointmentscheduling_appointment_block', blocks)}
${insert('appointmentscheduling_block_type_map', blockTypes)}
${insert('appointmentscheduling_time_slot', slots)}
${insert('appointmentscheduling_appointment', appointments)}
${insert('appointmentscheduling_appointment_status_history', history)}
`
}

export const NORMALISED_MAPPING = `
version: 1
installation: clinica-illimani
timezone: America/La_Paz
phone: { defaultCountry: BO }
settings: { userId: ${USER_ID} }
states:
  values: [WAITING, CONFIRMED, CANCELED, MISSED, DONE]
resources:
  appointment:
    table: appointmentscheduling_appointment
    key: appointment_id
    where: { column: voided, eq: 0 }
    joins:
      # A voided slot is gone (availability skips it too): booking never finds it.
      slot: { table: appointmentscheduling_time_slot, on: { time_slot_id: time_slot_id }, where: { column: voided, eq: 0 } }
      block: { table: appointmentscheduling_appointment_block, from: slot, on: { appointment_block_id: appointment_block_id } }
    start: { datetime: { column: slot.start_date, format: datetime } }
    end: { datetime: { column: slot.end_date, format: datetime } }
    state:
      column: status
      map: { SCHEDULED: WAITING, WAITING: CONFIRMED, CANCELLED: CANCELED, MISSED: MISSED, COMPLETED: DONE }
    refs:
      client: patient_id
      professional: block.provider_id
      location: block.location_id
      service: appointment_type_id
    write:
      slot:                                  # booking finds the slot; the row only points at it
        join: slot
        services:                            # the appointment types each block accepts
          table: appointmentscheduling_block_type_map
          on: { block.appointment_block_id: appointment_block_id }
          column: appointment_type_id
      set:
        appointment_type_id: { value: 1 }    # the type when the request names no service
        uuid: { uuid: true }
        creator: { setting: userId }
        date_created: { now: datetime }
        voided: { value: 0 }
      history:                               # each state change closes the current row, opens one
        table: appointmentscheduling_appointment_status_history
        key: appointment_id
        current: { column: end_date, isNull: true }
        open: { status: { state: true }, start_date: { now: datetime }, end_date: { value: null } }
        close: { end_date: { now: datetime } }
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
      identifier:
        table: patient_identifier
        on: { patient_id: patient_id }
        where: [{ column: voided, eq: 0 }, { column: identifier_type, eq: ${ID_TYPE} }]
        first: { key: patient_identifier_id, by: [{ column: preferred, desc: true }] }
    where: [{ column: voided, eq: 0 }, { column: person.voided, eq: 0 }]
    fields:
      name: { template: '{name.given_name} {name.family_name}' }
      birthday: { column: person.birthdate, format: date }
      externalId: identifier.identifier
    phones:
      - collect:
          table: person_attribute
          on: { patient_id: person_id }
          where: [{ column: person_attribute_type_id, eq: ${PHONE_TYPE} }, { column: voided, eq: 0 }]
          column: value
          by: [person_attribute_id]
    write:
      # A patient is a person: the person row first (its id is the patient's), then the
      # patient, then its name, identifier and phone rows, in one transaction.
      before:
        - join: person
          key: { generate: identity }
          set: { gender: { value: U }, voided: { value: 0 }, uuid: { uuid: true }, creator: { setting: userId }, date_created: { now: datetime } }
      set: { voided: { value: 0 }, creator: { setting: userId }, date_created: { now: datetime } }
      after:
        - join: name
          set: { preferred: { value: 1 }, voided: { value: 0 }, uuid: { uuid: true }, creator: { setting: userId }, date_created: { now: datetime } }
        - join: identifier
          set:
            identifier: { identifier: { check: luhn, characters: '0123456789ACDEFGHJKLMNPRTUVWXY', digits: 6 } }
            identifier_type: { value: ${ID_TYPE} }
            preferred: { value: 1 }
            location_id: { value: 1 }
            voided: { value: 0 }
            uuid: { uuid: true }
            creator: { setting: userId }
            date_created: { now: datetime }
        - phones: 0
          set: { person_attribute_type_id: { value: ${PHONE_TYPE} }, voided: { value: 0 }, uuid: { uuid: true }, creator: { setting: userId }, date_created: { now: datetime } }
      phoneFormat: e164
  professional:
    table: provider
    key: provider_id
    joins:
      pname:
        table: person_name
        on: { person_id: person_id }
        where: { column: voided, eq: 0 }
        first: { key: person_name_id, by: [{ column: preferred, desc: true }] }
    fields:
      name:                                  # the person's name, else the legacy name column
        coalesce:
          - { template: '{pname.given_name} {pname.family_name}' }
          - name
    enabled: { column: retired, invert: true }
  location:
    table: location
    key: location_id
    joins:
      parent: { table: location, on: { parent_location: location_id } }
      grand: { table: location, from: parent, on: { parent_location: location_id } }
    fields:
      name: name
      # The whole address of the nearest location that has one: own, parent's, grandparent's.
      address:
        rules:
          - { when: { column: address1, blank: false }, column: address1 }
          - { when: { column: parent.address1, blank: false }, column: parent.address1 }
          - { column: grand.address1 }
      city:
        rules:
          - { when: { column: address1, blank: false }, column: city_village }
          - { when: { column: parent.address1, blank: false }, column: parent.city_village }
          - { column: grand.city_village }
      state:
        rules:
          - { when: { column: address1, blank: false }, column: state_province }
          - { when: { column: parent.address1, blank: false }, column: parent.state_province }
          - { column: grand.state_province }
    enabled: { column: retired, invert: true }
  service:
    table: appointmentscheduling_appointment_type
    key: appointment_type_id
    fields: { name: name, duration: duration }
    enabled: { column: retired, invert: true }
relations:
  - between: [professional, location]
    table: appointmentscheduling_appointment_block
    where: { column: voided, eq: 0 }
    columns: { professional: provider_id, location: location_id }
availability:
  # Every time slot is a window one slot long: /availability offers exactly the slot starts.
  dated:
    table: appointmentscheduling_time_slot
    where: { column: voided, eq: 0 }
    joins:
      block: { table: appointmentscheduling_appointment_block, on: { appointment_block_id: appointment_block_id } }
    professional: block.provider_id
    location: block.location_id
    start: { column: start_date, format: datetime }
    end: { column: end_date, format: datetime }
    interval: { minutes: { from: start_date, to: end_date } }
`

/** The installation, fresh for one test. */
export async function normalisedInstallation (t: Test, mapping = NORMALISED_MAPPING): Promise<Scratch> {
  return await scratchInstallation(t, normalisedSql(), mapping)
}
