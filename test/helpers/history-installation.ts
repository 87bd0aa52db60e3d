// An OpenMRS-like schedule for issue 27 item 13's last form: the appointment's status has no
// confirmed code (Scheduled, Cancelled, Completed, Missed), and every change adds a row to
// `appointment_status_history`, whose latest row (by date, then id) records a confirmation.
// Portable SQL for `scratchOn`; the mapping is also compiled for SQL Server by the golden test.
import type { TestDialect } from './app.js'

const DATETIME: Record<TestDialect, string> = { sqlite: 'DATETIME', mysql: 'DATETIME', postgres: 'TIMESTAMP' }
const IDENTITY: Record<TestDialect, string> = { sqlite: 'INTEGER PRIMARY KEY', mysql: 'INTEGER AUTO_INCREMENT PRIMARY KEY', postgres: 'SERIAL PRIMARY KEY' }

/**
 * Provider 7's day: id, hour, status, the history rows in insertion order (code and when),
 * and the state the mapping reads. 3's later row has the lower id: the date decides, not the
 * id; 4 was confirmed and then cancelled; 5 has no history yet.
 */
export const ROWS: [id: number, hour: string, status: string, history: [string, string][], state: string][] = [
  [1, '08:00', 'Scheduled', [['Scheduled', '2020-01-01 08:00:00']], 'WAITING'],
  [2, '08:30', 'Scheduled', [['Scheduled', '2020-01-01 08:00:00'], ['Confirmed', '2020-01-02 09:00:00']], 'CONFIRMED'],
  [3, '09:00', 'Scheduled', [['Scheduled', '2020-01-03 11:00:00'], ['Confirmed', '2020-01-02 10:00:00']], 'WAITING'],
  [4, '09:30', 'Cancelled', [['Confirmed', '2020-01-02 10:00:00'], ['Cancelled', '2020-01-03 10:00:00']], 'CANCELED'],
  [5, '10:00', 'Scheduled', [], 'WAITING']
]

export function historySchema (dialect: TestDialect, day: string): string {
  const dt = DATETIME[dialect]
  const end = (hour: string): string => `${hour.slice(0, 3)}${hour.endsWith('00') ? '30' : '59'}`
  const appointments = ROWS.map(([id, hour, status]) =>
    `INSERT INTO appointment (appointment_id, patient_id, provider_id, start_date_time, end_date_time, status) VALUES (${id}, ${id % 2 + 1}, 7, '${day} ${hour}:00', '${day} ${end(hour)}:00', '${status}');`)
  const history = ROWS.flatMap(([id, , , rows]) => rows.map(([status, at]) =>
    `INSERT INTO appointment_status_history (appointment_id, status, changed_at) VALUES (${id}, '${status}', '${at}');`))
  const hours = [1, 2, 3, 4, 5, 6, 7].map((d) => `INSERT INTO provider_hours (provider_id, weekday, start_hour, end_hour) VALUES (7, ${d}, '08:00', '12:00');`)
  return `
CREATE TABLE patient (patient_id INTEGER PRIMARY KEY, given_name VARCHAR(50) NOT NULL, family_name VARCHAR(50) NOT NULL);
CREATE TABLE provider (provider_id INTEGER PRIMARY KEY, name VARCHAR(60) NOT NULL);
CREATE TABLE provider_hours (provider_id INTEGER NOT NULL, weekday INTEGER NOT NULL, start_hour VARCHAR(5) NOT NULL, end_hour VARCHAR(5) NOT NULL);
CREATE TABLE appointment (appointment_id INTEGER PRIMARY KEY, patient_id INTEGER, provider_id INTEGER NOT NULL, start_date_time ${dt} NOT NULL, end_date_time ${dt}, status VARCHAR(20) NOT NULL);
CREATE TABLE appointment_status_history (id ${IDENTITY[dialect]}, appointment_id INTEGER NOT NULL, status VARCHAR(20) NOT NULL, changed_at ${dt} NOT NULL);
INSERT INTO patient (patient_id, given_name, family_name) VALUES (1, 'Amara', 'Okafor');
INSERT INTO patient (patient_id, given_name, family_name) VALUES (2, 'Lucas', 'Pereira');
INSERT INTO provider (provider_id, name) VALUES (7, 'Dr. Silva');
${hours.join('\n')}
${appointments.join('\n')}
${history.join('\n')}
`
}

/** The history's code per state: Confirmed lives only in the history. */
export const CODES = '{ WAITING: Scheduled, CONFIRMED: Confirmed, CANCELED: Cancelled, MISSED: Missed, DONE: Completed }'

/** `changes`: watch the window (the events test); its days count from today. */
export function historyMapping (changes = false): string {
  return `version: 1
installation: openmrs-like-history
timezone: America/Sao_Paulo
phone: { defaultCountry: BR }
search: [name]
resources:
  appointment:
    table: appointment
    key: appointment_id
    joins:
      latest:
        table: appointment_status_history
        on: { appointment_id: appointment_id }
        first: { key: id, by: [{ column: changed_at, desc: true }, { column: id, desc: true }] }
    start: { datetime: { column: start_date_time, format: datetime } }
    end: { datetime: { column: end_date_time, format: datetime } }
    state:
      rules:
        - { when: { column: status, eq: Cancelled }, value: CANCELED }
        - { when: { column: status, eq: Missed }, value: MISSED }
        - { when: { column: status, eq: Completed }, value: DONE }
        - { when: { all: [{ column: status, eq: Scheduled }, { column: latest.status, eq: Confirmed }] }, value: CONFIRMED }
        - { when: { column: status, eq: Scheduled }, value: WAITING }
    refs:
      client: patient_id
      professional: provider_id
    write:
      key: { generate: max }
      states:
        WAITING: { status: { value: Scheduled } }
        CONFIRMED: { status: { value: Scheduled } }
        CANCELED: { status: { value: Cancelled } }
        MISSED: { status: { value: Missed } }
        DONE: { status: { value: Completed } }
      history:
        table: appointment_status_history
        key: appointment_id
        open: { status: { state: ${CODES} }, changed_at: { now: datetime } }
${changes ? '    changes:\n      window: { daysBefore: 1, daysAfter: 30 }\n      pollSeconds: 0.2\n' : ''}  client:
    table: patient
    key: patient_id
    fields:
      name: { template: '{given_name} {family_name}' }
    write:
      key: { generate: max }
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
}
