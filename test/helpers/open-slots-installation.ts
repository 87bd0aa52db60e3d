// A GNU-Health-like installation generated for the tests of open slots (issue 27 item 2):
// appointments pre-created as `free` rows with no patient, booked by claiming them. Shared by
// the contract test and the golden T-SQL of its statements.
import type { TestDialect } from './app.js'

const STAMP: Record<TestDialect, string> = { sqlite: 'DATETIME', mysql: 'DATETIME', postgres: 'TIMESTAMP' }
export const DAY = '2031-03-04'
export const NEXT = '2031-03-05'

// Free rows: professional 1 at 09:00, 09:30, 10:00 and (next day) 09:00; professional 2 at
// 09:00. Row 6 is an appointment, row 7 a cancelled one that is not free.
export function schema (dialect: TestDialect): string {
  const at = (d: string, h: string): string => `'${d} ${h}:00'`
  const row = (id: number, patient: string, prof: number, d: string, h: string, end: string, state: string): string =>
    `INSERT INTO gh_appointment (id, patient, healthprof, institution, appointment_date, appointment_date_end, state) VALUES (${id}, ${patient}, ${prof}, 1, ${at(d, h)}, ${at(d, end)}, '${state}');`
  return `
CREATE TABLE party (id INTEGER PRIMARY KEY, name VARCHAR(60) NOT NULL, phone VARCHAR(20));
CREATE TABLE healthprof (id INTEGER PRIMARY KEY, name VARCHAR(60) NOT NULL);
CREATE TABLE institution (id INTEGER PRIMARY KEY, name VARCHAR(60) NOT NULL);
CREATE TABLE gh_appointment (id INTEGER PRIMARY KEY, patient INTEGER, healthprof INTEGER NOT NULL, institution INTEGER, appointment_date ${STAMP[dialect]} NOT NULL, appointment_date_end ${STAMP[dialect]}, state VARCHAR(20) NOT NULL, appointment_type VARCHAR(20), write_date ${STAMP[dialect]});
INSERT INTO party (id, name, phone) VALUES (1, 'Ana Lima', '11987650001');
INSERT INTO party (id, name, phone) VALUES (2, 'Bruno Reis', '11987650002');
INSERT INTO party (id, name, phone) VALUES (3, 'Carla Dias', '11987650003');
INSERT INTO party (id, name, phone) VALUES (4, 'Davi Melo', '11987650004');
INSERT INTO party (id, name, phone) VALUES (5, 'Elisa Prado', '11987650005');
INSERT INTO healthprof (id, name) VALUES (1, 'Dr. One');
INSERT INTO healthprof (id, name) VALUES (2, 'Dr. Two');
INSERT INTO institution (id, name) VALUES (1, 'Central');
${row(1, 'NULL', 1, DAY, '09:00', '09:30', 'free')}
${row(2, 'NULL', 1, DAY, '09:30', '10:00', 'free')}
${row(3, 'NULL', 1, DAY, '10:00', '10:20', 'free')}
${row(4, 'NULL', 1, NEXT, '09:00', '09:30', 'free')}
${row(5, 'NULL', 2, DAY, '09:00', '09:30', 'free')}
${row(6, '1', 1, DAY, '08:30', '09:00', 'confirmed')}
${row(7, '2', 1, DAY, '11:00', '11:30', 'user_cancelled')}
`
}

export const mapping = (onCancel: string): string => `version: 1
installation: gnu-health-like
timezone: America/Sao_Paulo
phone: { defaultCountry: BR }
search: [phone, name]
states:
  values: [WAITING, CONFIRMED, CANCELED, DONE]
  free: [CANCELED]
resources:
  appointment:
    table: gh_appointment
    key: id
    start: { datetime: { column: appointment_date, format: datetime } }
    end: { datetime: { column: appointment_date_end, format: datetime } }
    state:
      column: state
      map: { confirmed: WAITING, checked_in: CONFIRMED, user_cancelled: CANCELED, done: DONE }
    refs: { client: patient, professional: healthprof, location: institution }
    openSlots:
      free: [{ column: patient, isNull: true }, { column: state, eq: free }]
      onCancel: ${onCancel}
      claim: { write_date: { now: datetime } }
    write:
      key: { generate: max }
  client:
    table: party
    key: id
    fields: { name: name }
    phones: [phone]
    write: { key: { generate: max }, phoneFormat: digits }
  professional:
    table: healthprof
    key: id
    fields: { name: name }
  location:
    table: institution
    key: id
    fields: { name: name, address: name }
`
