// Schedules whose changes leave rows behind (`write.history.left`), for the language test
// (test/language/history-left.test.ts) and its SQL Server golden: an OpenMRS-like status
// history (appointmentscheduling's enum status, `end_date` NOT NULL) under a state `map` or
// state `rules` with codes, and an OSCAR-like archive of the whole row. Portable SQL for `scratchOn`.
import type { TestDialect } from './app.js'
import { DATETIME, IDENTITY } from './openmrs-like.js'
import { addDays, todayIn } from '../../src/normalise/datetime.js'

export const ZONE = 'Africa/Nairobi'
export const DAY = addDays(todayIn(ZONE), 3)
export const USER = 4

const STATUSES = ['SCHEDULED', 'RESCHEDULED', 'WALKIN', 'WAITING', 'INCONSULTATION', 'CANCELLED', 'CANCELLED_AND_NEEDS_RESCHEDULE', 'MISSED', 'COMPLETED']

/** appointmentscheduling's status: an enum on MariaDB, a checked text elsewhere. */
const statusType = (dialect: TestDialect): string => dialect === 'mysql'
  ? `ENUM(${STATUSES.map((s) => `'${s}'`).join(', ')})`
  : `VARCHAR(40) CHECK (status IN (${STATUSES.map((s) => `'${s}'`).join(', ')}))`

const HOURS = [1, 2, 3, 4, 5, 6, 7].map((d) => `INSERT INTO provider_hours (provider_id, weekday, start_hour, end_hour) VALUES (7, ${d}, '08:00', '12:00');`).join('\n')

export function openmrsSchema (dialect: TestDialect): string {
  return `
CREATE TABLE patient (patient_id INTEGER PRIMARY KEY, given_name VARCHAR(50) NOT NULL, family_name VARCHAR(50) NOT NULL);
CREATE TABLE provider (provider_id INTEGER PRIMARY KEY, name VARCHAR(60) NOT NULL);
CREATE TABLE provider_hours (provider_id INTEGER NOT NULL, weekday INTEGER NOT NULL, start_hour VARCHAR(5) NOT NULL, end_hour VARCHAR(5) NOT NULL);
CREATE TABLE appt (appointment_id INTEGER PRIMARY KEY, patient_id INTEGER NOT NULL, provider_id INTEGER NOT NULL,
  starts_at ${DATETIME[dialect]} NOT NULL, ends_at ${DATETIME[dialect]} NOT NULL, status ${statusType(dialect)} NOT NULL,
  creator INTEGER NOT NULL, date_created ${DATETIME[dialect]} NOT NULL, changed_by INTEGER, date_changed ${DATETIME[dialect]});
CREATE TABLE appt_status_history (appointment_status_history_id ${IDENTITY[dialect]}, appointment_id INTEGER NOT NULL,
  status ${statusType(dialect)} NOT NULL, start_date ${DATETIME[dialect]} NOT NULL, end_date ${DATETIME[dialect]} NOT NULL);
INSERT INTO patient (patient_id, given_name, family_name) VALUES (1, 'Wanjiku', 'Mwangi');
INSERT INTO patient (patient_id, given_name, family_name) VALUES (2, 'Baraka', 'Otieno');
INSERT INTO provider (provider_id, name) VALUES (7, 'Dr. Mwikali');
${HOURS}
INSERT INTO appt VALUES (1, 1, 7, '${DAY} 08:00:00', '${DAY} 08:30:00', 'SCHEDULED', 2, '2020-01-01 08:00:00', NULL, NULL);
INSERT INTO appt VALUES (2, 2, 7, '${DAY} 08:30:00', '${DAY} 09:00:00', 'WAITING', 2, '2020-01-01 08:00:00', 2, '2020-02-02 09:30:00');
INSERT INTO appt VALUES (3, 1, 7, '${DAY} 09:00:00', '${DAY} 09:30:00', 'SCHEDULED', 2, '2020-01-03 10:00:00', NULL, NULL);
`
}

const openmrsMapping = (status: string, state: string, states = ''): string => `version: 1
installation: openmrs-left
timezone: ${ZONE}
phone: { defaultCountry: KE }
search: [name]
settings: { userId: ${USER} }
states: { values: [WAITING, CHECKED_IN, CANCELED, DONE] }
resources:
  appointment:
    table: appt
    key: appointment_id
    start: { datetime: { column: starts_at, format: datetime } }
    end: { datetime: { column: ends_at, format: datetime } }
${state}
    refs: { client: patient_id, professional: provider_id }
    write:
      key: { generate: max }
      set: { creator: { setting: userId }, date_created: { now: datetime } }
      update: { changed_by: { setting: userId }, date_changed: { now: datetime } }
${states}      history:
        table: appt_status_history
        key: appointment_id
        left:
          status: ${status}
          start_date: { before: date_changed, otherwise: date_created }
          end_date: { now: datetime }
  client:
    table: patient
    key: patient_id
    fields: { name: { template: '{given_name} {family_name}' } }
    write: { key: { generate: max } }
  professional:
    table: provider
    key: provider_id
    fields: { name: name }
availability:
  slotMinutes: 30
  weekly:
    table: provider_hours
    professional: provider_id
    weekday: weekday
    weekdayBase: iso
    start: { column: start_hour, format: text }
    end: { column: end_hour, format: text }
`

/** A `map`: `{ state: left }` writes the first code of the state left. */
export const MAPPED = openmrsMapping('{ state: left }', '    state: { column: status, map: { SCHEDULED: WAITING, WAITING: CHECKED_IN, CANCELLED: CANCELED, COMPLETED: DONE } }')

/** `rules`, which have no codes: each state writes its own, and the history names one per state left. */
export const RULED = openmrsMapping('{ state: left, codes: { WAITING: SCHEDULED, CHECKED_IN: WAITING, CANCELED: CANCELLED, DONE: COMPLETED } }', `    state:
      rules:
        - { when: { column: status, in: [CANCELLED, CANCELLED_AND_NEEDS_RESCHEDULE] }, value: CANCELED }
        - { when: { column: status, eq: COMPLETED }, value: DONE }
        - { when: { column: status, eq: WAITING }, value: CHECKED_IN }
        - { value: WAITING }`, `      states:
        WAITING: { status: { value: SCHEDULED } }
        CHECKED_IN: { status: { value: WAITING } }
        CANCELED: { status: { value: CANCELLED } }
        DONE: { status: { value: COMPLETED } }
`)

export const COPIED = ['provider_no', 'appointment_date', 'start_time', 'end_time', 'demographic_no', 'name', 'notes', 'status', 'updatedatetime', 'lastupdateuser']

const TIME: Record<TestDialect, string> = { sqlite: 'VARCHAR(8)', mysql: 'TIME', postgres: 'TIME' }

export function oscarSchema (dialect: TestDialect): string {
  const row = (cols: string) => `provider_no VARCHAR(6), appointment_date DATE, start_time ${TIME[dialect]}, end_time ${TIME[dialect]}, demographic_no INTEGER,
  name VARCHAR(50), notes VARCHAR(255), status CHAR(2), updatedatetime ${DATETIME[dialect]}, lastupdateuser VARCHAR(6)${cols}`
  return `
CREATE TABLE demographic (demographic_no INTEGER PRIMARY KEY, first_name VARCHAR(30) NOT NULL, last_name VARCHAR(30) NOT NULL);
CREATE TABLE provider (provider_no VARCHAR(6) PRIMARY KEY, last_name VARCHAR(30) NOT NULL);
CREATE TABLE provider_hours (provider_no VARCHAR(6) NOT NULL, weekday INTEGER NOT NULL, start_hour VARCHAR(5) NOT NULL, end_hour VARCHAR(5) NOT NULL);
CREATE TABLE appointment (appointment_no INTEGER PRIMARY KEY, ${row('')});
CREATE TABLE appointment_archive (id ${IDENTITY[dialect]}, appointment_no INTEGER, ${row('')});
INSERT INTO demographic VALUES (1, 'MARY', 'SMITH');
INSERT INTO demographic VALUES (2, 'JEAN', 'DUPUIS');
INSERT INTO provider VALUES ('101', 'Chen');
${[1, 2, 3, 4, 5, 6, 7].map((d) => `INSERT INTO provider_hours VALUES ('101', ${d}, '08:00', '12:00');`).join('\n')}
INSERT INTO appointment VALUES (10, '101', '${DAY}', '09:00:00', '09:14:00', 1, 'SMITH,MARY', 'bring the x-rays', 'b', '2021-05-05 10:00:00', '100');
INSERT INTO appointment VALUES (11, '101', '${DAY}', '09:30:00', '09:44:00', 2, 'DUPUIS,JEAN', '', 't', '2021-05-06 11:00:00', '100');
`
}

export const OSCAR = `version: 1
installation: oscar-archive
timezone: America/Toronto
phone: { defaultCountry: CA }
search: [name]
states: { values: [WAITING, CONFIRMED, CANCELED, DONE] }
resources:
  appointment:
    table: appointment
    key: appointment_no
    start:
      date: { column: appointment_date, format: date }
      hour: { column: start_time, format: time }
    end: { hour: { column: end_time, format: time, inclusive: true } }
    state: { column: status, codes: exact, map: { t: WAITING, b: WAITING, a: CONFIRMED, C: CANCELED, B: DONE } }
    refs: { client: demographic_no, professional: { column: provider_no, type: text } }
    write:
      key: { generate: max }
      set: { name: { client: familyFirst, separator: ',', case: upper }, notes: { value: '' }, updatedatetime: { now: datetime }, lastupdateuser: { value: '999998' } }
      update: { updatedatetime: { now: datetime }, lastupdateuser: { value: '999998' } }
      history:                      # the desk copies the row as it was before each change
        table: appointment_archive
        key: appointment_no
        on: [state, reschedule]
        left:
${COPIED.map((c) => `          ${c}: { before: ${c} }`).join('\n')}
  client:
    table: demographic
    key: demographic_no
    fields: { name: { template: '{first_name} {last_name}', case: upper } }
    write: { key: { generate: max } }
  professional:
    table: provider
    key: { column: provider_no, type: text }
    fields: { name: last_name }
availability:
  slotMinutes: 15
  weekly:
    table: provider_hours
    professional: { column: provider_no, type: text }
    weekday: weekday
    weekdayBase: iso
    start: { column: start_hour, format: text }
    end: { column: end_hour, format: text }
`
