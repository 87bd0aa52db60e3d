// An OpenMRS-like schedule for issue 27 item 13, where the status column has no confirmed
// code (Scheduled, CheckedIn, Completed, Cancelled, Missed): the confirmation is recorded in a
// `confirmed_at` flag column, or in a `confirmed` row of a key/value attribute table. Portable
// SQL for `scratchOn`; the mappings are also compiled for SQL Server by the golden test.
import type { TestDialect } from './app.js'
import { DATETIME, endOf, IDENTITY, openmrsMapping, openmrsSchema } from './openmrs-like.js'

export const DAY = '2031-03-03' // a Monday

/**
 * Provider 7's Monday: id, hour, status, whether a confirmation is recorded, and the state
 * each mapping reads. 4 is a cancelled appointment whose confirmation was left behind.
 */
export const ROWS: [id: number, hour: string, status: string, confirmed: boolean, state: string][] = [
  [1, '08:00', 'Scheduled', false, 'WAITING'],
  [2, '08:30', 'Scheduled', true, 'CONFIRMED'],
  [3, '09:00', 'CheckedIn', false, 'CONFIRMED'],
  [4, '09:30', 'Cancelled', true, 'CANCELED'],
  [5, '10:00', 'Completed', false, 'DONE'],
  [6, '10:30', 'Missed', false, 'MISSED'],
  [7, '11:00', 'Scheduled', false, 'WAITING']
]

export function confirmSchema (dialect: TestDialect): string {
  const dt = DATETIME[dialect]
  return openmrsSchema(dialect, {
    appointmentColumns: `, confirmed_at ${dt}`,
    tables: [
      `CREATE TABLE appointment_attribute (appointment_attribute_id ${IDENTITY[dialect]}, appointment_id INTEGER NOT NULL, attribute_type VARCHAR(20) NOT NULL, value VARCHAR(20) NOT NULL, voided INTEGER NOT NULL, date_created ${dt});`,
      'CREATE TABLE appointment_note (appointment_id INTEGER NOT NULL, attribute_type VARCHAR(20) NOT NULL);'
    ],
    weekdays: [1, 2, 3, 4, 5],
    appointments: ROWS.map(([id, hour, status, confirmed]) =>
      `INSERT INTO appointment (appointment_id, patient_id, provider_id, start_date_time, end_date_time, status, confirmed_at) VALUES (${id}, ${id % 2 + 1}, 7, '${DAY} ${hour}:00', '${DAY} ${endOf(hour)}:00', '${status}', ${confirmed ? '\'2031-03-01 10:00:00\'' : 'NULL'});`),
    rows: ROWS.filter((r) => r[3]).map(([id]) =>
      `INSERT INTO appointment_attribute (appointment_id, attribute_type, value, voided) VALUES (${id}, 'confirmed', 'true', 0);`)
  })
}

/** How the confirmation is kept: the state rules' confirmed line and what `write` adds. */
const FORMS = {
  flag: {
    joins: '',
    confirmed: '        - { when: { all: [{ column: status, eq: Scheduled }, { column: confirmed_at, isNull: false }] }, value: CONFIRMED }',
    states: `      states:
        WAITING: { status: { value: Scheduled }, confirmed_at: { value: null } }
        CONFIRMED: { status: { value: Scheduled }, confirmed_at: { now: datetime } }
        CANCELED: { status: { value: Cancelled } }
        MISSED: { status: { value: Missed } }
        DONE: { status: { value: Completed } }
`
  },
  attribute: {
    joins: `    joins:
      confirmation:
        table: appointment_attribute
        on: { appointment_id: appointment_id }
        where: [{ column: attribute_type, eq: confirmed }, { column: voided, eq: 0 }]
        first: { key: appointment_attribute_id }
`,
    confirmed: '        - { when: { all: [{ column: status, eq: Scheduled }, { column: confirmation.value, eq: \'true\' }] }, value: CONFIRMED }',
    states: `      states:
        WAITING: { status: { value: Scheduled } }
        CONFIRMED: { status: { value: Scheduled } }
        CANCELED: { status: { value: Cancelled } }
        MISSED: { status: { value: Missed } }
        DONE: { status: { value: Completed } }
      stateRows:
        - join: confirmation
          states: [CONFIRMED]
          set: { value: { value: 'true' }, date_created: { now: datetime } }
`
  }
} as const

/** The attribute form, where a confirmation withdrawn is voided as OpenMRS voids, not deleted. */
const VOIDED = {
  ...FORMS.attribute,
  states: `${FORMS.attribute.states}          clear: { voided: { value: 1 } }
`
}

export type ConfirmForm = keyof typeof FORMS | 'voided'

export function confirmMapping (form: ConfirmForm): string {
  const f = form === 'voided' ? VOIDED : FORMS[form]
  return openmrsMapping({
    installation: `openmrs-like-${form}`,
    joins: f.joins,
    rules: ['        - { when: { column: status, eq: CheckedIn }, value: CONFIRMED }', f.confirmed],
    write: f.states
  })
}
