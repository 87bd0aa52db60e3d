// The shape a colleague new to Ponte mapped from the docs alone (a Portuguese clinic on
// PostgreSQL): a `person` with its contacts in child rows, providers with ISO-numbered
// weekly hours, text appointment keys, status codes in a table. Portable SQL for
// `scratchOn` (appointment keys as digits in a text column, which `max` can count on), and
// the mapping they wrote, with the variants they tried.
import type { TestDialect } from './app.js'

export function strangerSchema (dialect: TestDialect): string {
  const timestamp = dialect === 'mysql' ? 'DATETIME' : 'TIMESTAMP'
  // Keys the database makes (the stranger's `serial`), so rows are inserted without them.
  const serial = { sqlite: 'INTEGER PRIMARY KEY', mysql: 'INTEGER AUTO_INCREMENT PRIMARY KEY', postgres: 'SERIAL PRIMARY KEY' }[dialect]
  const hours: string[] = []
  // Monday 1 … Friday 5 for providers 1 and 2, two spans a day; provider 2 also on Saturday 6.
  for (const p of [1, 2]) for (let d = 1; d <= 5; d++) hours.push(`(${p}, ${d}, '09:00', '13:00')`, `(${p}, ${d}, '14:00', '18:00')`)
  hours.push("(2, 6, '09:00', '13:00')")
  return `
CREATE TABLE person (person_id ${serial}, given_name VARCHAR(60) NOT NULL, family_name VARCHAR(80) NOT NULL, birth_date DATE, nif CHAR(9), created_at ${timestamp} NOT NULL, deleted CHAR(1) NOT NULL DEFAULT 'N');
CREATE TABLE person_contact (contact_id ${serial}, person_id INTEGER NOT NULL, kind VARCHAR(10) NOT NULL, value VARCHAR(120) NOT NULL);
CREATE TABLE appointment_status (code VARCHAR(12) PRIMARY KEY, label VARCHAR(40) NOT NULL);
CREATE TABLE provider (provider_id INTEGER PRIMARY KEY, full_name VARCHAR(100) NOT NULL, ordem_medicos VARCHAR(20), active CHAR(1) NOT NULL);
CREATE TABLE provider_hours (provider_id INTEGER NOT NULL, weekday INTEGER NOT NULL, start_time VARCHAR(5) NOT NULL, end_time VARCHAR(5) NOT NULL, PRIMARY KEY (provider_id, weekday, start_time));
CREATE TABLE appointment (appt_id VARCHAR(10) PRIMARY KEY, person_id INTEGER, provider_id INTEGER NOT NULL, starts_at ${timestamp} NOT NULL, length_min INTEGER NOT NULL, status_code VARCHAR(12) NOT NULL, notes VARCHAR(200), created_at ${timestamp} NOT NULL, created_by VARCHAR(20) NOT NULL);
INSERT INTO appointment_status (code, label) VALUES ('booked', 'Marcada'), ('confirmed', 'Confirmada'), ('cancelled', 'Cancelada'), ('resched', 'Remarcada');
INSERT INTO person (given_name, family_name, birth_date, nif, created_at) VALUES ('João', 'Silva', '2004-09-26', '254531488', '2020-01-01 10:00:00');
INSERT INTO person (given_name, family_name, birth_date, nif, created_at) VALUES ('Maria', 'Martins', '2015-03-03', '179365764', '2020-01-01 10:00:00');
INSERT INTO person_contact (person_id, kind, value) VALUES (1, 'MOBILE', '935 403 953');
INSERT INTO person_contact (person_id, kind, value) VALUES (1, 'EMAIL', 'joao.silva@exemplo.pt');
INSERT INTO person_contact (person_id, kind, value) VALUES (2, 'MOBILE', '966523128');
INSERT INTO provider (provider_id, full_name, ordem_medicos, active) VALUES (1, 'Dra. Ana Lopes', 'OM 41234', 'Y');
INSERT INTO provider (provider_id, full_name, ordem_medicos, active) VALUES (2, 'Dr. Carlos Mendes', 'OM 38211', 'Y');
INSERT INTO provider_hours (provider_id, weekday, start_time, end_time) VALUES ${hours.join(', ')};
INSERT INTO appointment (appt_id, person_id, provider_id, starts_at, length_min, status_code, created_at, created_by) VALUES ('100123', 2, 1, '2026-11-23 16:00:00', 30, 'confirmed', '2026-11-01 09:00:00', 'recepcao');
INSERT INTO appointment (appt_id, person_id, provider_id, starts_at, length_min, status_code, created_at, created_by) VALUES ('100124', 1, 2, '2026-11-24 10:00:00', 30, 'resched', '2026-11-01 09:00:00', 'recepcao');
`
}

export interface StrangerVariant {
  /** The weekly `weekday` value and base, as written in the mapping. */
  weekday?: string
  /** `write.states` of the appointment, as YAML lines (none: the map decides). */
  states?: string
  /** `write.phoneFormat` of the client. */
  phoneFormat?: string
}

export function strangerMapping (v: StrangerVariant = {}): string {
  return `version: 1
installation: stranger-clinic
timezone: Europe/Lisbon
phone: { defaultCountry: PT }
search: [phone, email, name]
settings: { userId: ponte }
states:
  values: [WAITING, CONFIRMED, CANCELED]
  initial: WAITING
  moves: { WAITING: [CONFIRMED, CANCELED], CONFIRMED: [WAITING, CANCELED], CANCELED: [] }
  onReschedule: WAITING
resources:
  appointment:
    table: appointment
    key: { column: appt_id, type: text }
    start: { datetime: { column: starts_at, format: datetime } }
    end: { duration: { column: length_min, unit: minutes } }
    state: { column: status_code, map: { booked: WAITING, resched: WAITING, confirmed: CONFIRMED, cancelled: CANCELED } }
    refs: { client: person_id, professional: provider_id }
    write:
      key: { generate: max }
      set: { created_at: { now: datetime }, created_by: { setting: userId } }
${v.states ?? ''}
  client:
    table: person
    key: person_id
    where: { column: deleted, ne: 'Y' }
    joins:
      mail: { table: person_contact, on: { person_id: person_id }, where: { column: kind, eq: EMAIL }, first: { key: contact_id, by: [contact_id] } }
    fields:
      name: { template: '{given_name} {family_name}' }
      birthday: { column: birth_date, format: date }
      externalId: nif
      email: mail.value
    phones:
      - collect: { table: person_contact, on: { person_id: person_id }, where: { column: kind, eq: MOBILE }, column: value, by: [contact_id] }
    write:
      key: { generate: identity }
      set: { created_at: { now: datetime } }
      phoneFormat: ${v.phoneFormat ?? 'national'}
      after: [{ phones: 0, set: { kind: { value: MOBILE } } }, { join: mail, set: { kind: { value: EMAIL } } }]
  professional:
    table: provider
    key: provider_id
    fields: { name: full_name, register: ordem_medicos }
    enabled: { column: active, true: ['Y'] }
availability:
  slotMinutes: 30
  weekly:
    table: provider_hours
    professional: provider_id
${v.weekday ?? '    weekday: weekday\n    weekdayBase: iso'}
    start: { column: start_time, format: text }
    end: { column: end_time, format: text }
`
}
