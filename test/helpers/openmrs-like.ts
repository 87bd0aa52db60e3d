// The OpenMRS-like schedule the confirmation tests share (issue 27 item 13): patients, one
// provider (7) with weekly hours, and appointments whose status has no confirmed code. Each
// form (a flag column, an attribute row, a status history: confirm-installation.ts and
// history-installation.ts) adds its own columns, tables, rows, state rule and writes.
// Portable SQL for `scratchOn`; the mappings are also compiled for SQL Server by the goldens.
import type { TestDialect } from './app.js'

export const DATETIME: Record<TestDialect, string> = { sqlite: 'DATETIME', mysql: 'DATETIME', postgres: 'TIMESTAMP' }
export const IDENTITY: Record<TestDialect, string> = { sqlite: 'INTEGER PRIMARY KEY', mysql: 'INTEGER AUTO_INCREMENT PRIMARY KEY', postgres: 'SERIAL PRIMARY KEY' }

/** An appointment's end: half an hour after a whole hour, else the hour's last minute. */
export const endOf = (hour: string): string => `${hour.slice(0, 3)}${hour.endsWith('00') ? '30' : '59'}`

export interface ScheduleParts {
  /** Extra columns of `appointment` (with their leading comma's text, e.g. `, confirmed_at DATETIME`). */
  appointmentColumns?: string
  /** Extra CREATE TABLE statements. */
  tables?: string[]
  /** ISO weekdays provider 7 works, 08:00-12:00. */
  weekdays: number[]
  /** The appointment INSERTs, then the form's own rows. */
  appointments: string[]
  rows: string[]
}

export function openmrsSchema (dialect: TestDialect, parts: ScheduleParts): string {
  const hours = parts.weekdays.map((d) => `INSERT INTO provider_hours (provider_id, weekday, start_hour, end_hour) VALUES (7, ${d}, '08:00', '12:00');`)
  return `
CREATE TABLE patient (patient_id INTEGER PRIMARY KEY, given_name VARCHAR(50) NOT NULL, family_name VARCHAR(50) NOT NULL);
CREATE TABLE provider (provider_id INTEGER PRIMARY KEY, name VARCHAR(60) NOT NULL);
CREATE TABLE provider_hours (provider_id INTEGER NOT NULL, weekday INTEGER NOT NULL, start_hour VARCHAR(5) NOT NULL, end_hour VARCHAR(5) NOT NULL);
CREATE TABLE appointment (appointment_id INTEGER PRIMARY KEY, patient_id INTEGER, provider_id INTEGER NOT NULL, start_date_time ${DATETIME[dialect]} NOT NULL, end_date_time ${DATETIME[dialect]}, status VARCHAR(20) NOT NULL${parts.appointmentColumns ?? ''});
${(parts.tables ?? []).join('\n')}
INSERT INTO patient (patient_id, given_name, family_name) VALUES (1, 'Amara', 'Okafor');
INSERT INTO patient (patient_id, given_name, family_name) VALUES (2, 'Lucas', 'Pereira');
INSERT INTO provider (provider_id, name) VALUES (7, 'Dr. Silva');
${hours.join('\n')}
${parts.appointments.join('\n')}
${parts.rows.join('\n')}
`
}

export interface MappingParts {
  installation: string
  /** The appointment's `joins:` block, indented, or ''. */
  joins: string
  /** State rules between Completed's and Scheduled's, indented list items. */
  rules: string[]
  /** What follows `write.key`, indented (`states`, `stateRows`, `history`). */
  write: string
  /** The appointment's `changes:` block, indented, or ''. */
  changes?: string
}

export function openmrsMapping (m: MappingParts): string {
  return `version: 1
installation: ${m.installation}
timezone: America/Sao_Paulo
phone: { defaultCountry: BR }
search: [name]
resources:
  appointment:
    table: appointment
    key: appointment_id
${m.joins}    start: { datetime: { column: start_date_time, format: datetime } }
    end: { datetime: { column: end_date_time, format: datetime } }
    state:
      rules:
        - { when: { column: status, eq: Cancelled }, value: CANCELED }
        - { when: { column: status, eq: Missed }, value: MISSED }
        - { when: { column: status, eq: Completed }, value: DONE }
${m.rules.join('\n')}
        - { when: { column: status, eq: Scheduled }, value: WAITING }
    refs:
      client: patient_id
      professional: provider_id
    write:
      key: { generate: max }
${m.write}${m.changes ?? ''}  client:
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
