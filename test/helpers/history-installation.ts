// An OpenMRS-like schedule for issue 27 item 13's last form: the appointment's status has no
// confirmed code (Scheduled, Cancelled, Completed, Missed), and every change adds a row to
// `appointment_status_history`, whose latest row (by date, then id) records a confirmation.
// Portable SQL for `scratchOn`; the mapping is also compiled for SQL Server by the golden test.
import type { TestDialect } from './app.js'
import { DATETIME, endOf, IDENTITY, openmrsMapping, openmrsSchema } from './openmrs-like.js'

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
  return openmrsSchema(dialect, {
    tables: [`CREATE TABLE appointment_status_history (id ${IDENTITY[dialect]}, appointment_id INTEGER NOT NULL, status VARCHAR(20) NOT NULL, changed_at ${DATETIME[dialect]} NOT NULL);`],
    weekdays: [1, 2, 3, 4, 5, 6, 7],
    appointments: ROWS.map(([id, hour, status]) =>
      `INSERT INTO appointment (appointment_id, patient_id, provider_id, start_date_time, end_date_time, status) VALUES (${id}, ${id % 2 + 1}, 7, '${day} ${hour}:00', '${day} ${endOf(hour)}:00', '${status}');`),
    rows: ROWS.flatMap(([id, , , rows]) => rows.map(([status, at]) =>
      `INSERT INTO appointment_status_history (appointment_id, status, changed_at) VALUES (${id}, '${status}', '${at}');`))
  })
}

/** The history's code per state: Confirmed lives only in the history. */
export const CODES = '{ WAITING: Scheduled, CONFIRMED: Confirmed, CANCELED: Cancelled, MISSED: Missed, DONE: Completed }'

/** `changes`: watch the window (the events test); its days count from today. */
export function historyMapping (changes = false): string {
  return openmrsMapping({
    installation: 'openmrs-like-history',
    joins: `    joins:
      latest:
        table: appointment_status_history
        on: { appointment_id: appointment_id }
        first: { key: id, by: [{ column: changed_at, desc: true }, { column: id, desc: true }] }
`,
    rules: ['        - { when: { all: [{ column: status, eq: Scheduled }, { column: latest.status, eq: Confirmed }] }, value: CONFIRMED }'],
    write: `      states:
        WAITING: { status: { value: Scheduled } }
        CONFIRMED: { status: { value: Scheduled } }
        CANCELED: { status: { value: Cancelled } }
        MISSED: { status: { value: Missed } }
        DONE: { status: { value: Completed } }
      history:
        table: appointment_status_history
        key: appointment_id
        open: { status: { state: ${CODES} }, changed_at: { now: datetime } }
`,
    changes: changes ? '    changes:\n      window: { daysBefore: 1, daysAfter: 30 }\n      pollSeconds: 0.2\n' : ''
  })
}
