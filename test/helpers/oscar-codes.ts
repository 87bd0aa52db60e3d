// An OSCAR-like schedule for issue 27 items 5 and 6: a two-character status where case tells
// codes apart (`b` Left Message, `B` Billed) and a modifier letter may follow (`BS`, `HV`),
// kept in a column comparing bytes and in one whose collation ignores case, and a mapping
// reading it with `codes: exact`, `match: prefix` and conditions that nest. Portable SQL for
// `scratchOn`; the mapping is also compiled for SQL Server by test/language/exact-codes-golden.
import type { TestDialect } from './app.js'

/** The status column's type: one comparing bytes, one ignoring case, on each database. */
export const STATUS: Record<TestDialect, { bytes: string, anyCase: string, before?: string }> = {
  sqlite: { bytes: 'CHAR(2)', anyCase: 'CHAR(2) COLLATE NOCASE' },
  mysql: { bytes: 'CHAR(2) BINARY', anyCase: 'CHAR(2) COLLATE utf8mb4_general_ci' },
  postgres: {
    bytes: 'CHAR(2)',
    anyCase: 'VARCHAR(2) COLLATE ponte_ci',
    before: "CREATE COLLATION ponte_ci (provider = icu, locale = 'und-u-ks-level2', deterministic = false);"
  }
}

export const DAY = '2031-03-03' // a Monday

// Provider 101's Monday: each code once, and what the mapping below reads it as.
export const CODES: [id: number, hour: string, code: string, state: string | undefined][] = [
  [1, '08:00', 't', 'WAITING'],
  [2, '08:30', 'b', 'WAITING'],
  [3, '09:00', 'B', 'DONE'],
  [4, '09:30', 'BS', 'DONE'],
  [5, '10:00', 'HV', 'CONFIRMED'],
  [6, '10:30', 'CS', 'CANCELED'],
  [7, '11:00', 'T', undefined] // upper-case T is not t: no state
]

export function codesSchema (dialect: TestDialect): string {
  const type = STATUS[dialect]
  const rows = CODES.map(([id, hour, code]) => {
    const end = `${hour.slice(0, 3)}${hour.endsWith('00') ? '29' : '59'}`
    return `INSERT INTO appointment (appointment_no, provider_no, appointment_date, start_time, end_time, demographic_no, template, status, status_ci) VALUES (${id}, '101', '${DAY}', '${hour}', '${end}', 1, '${id === 4 || id === 6 ? 'A' : 'B'}', '${code}', '${code}');`
  })
  // Provider 102's rows for the nested conditions: templates A and B, and one with none.
  const other = [[20, '08:00', 'A'], [21, '08:30', 'B'], [22, '09:00', null]].map(([id, hour, template]) =>
    `INSERT INTO appointment (appointment_no, provider_no, appointment_date, start_time, end_time, demographic_no, template, status, status_ci) VALUES (${id as number}, '102', '${DAY}', '${hour as string}', '${(hour as string).slice(0, 3)}29', 2, ${template === null ? 'NULL' : `'${template as string}'`}, 't', 't');`)
  const hours = ['101', '102'].flatMap((p) => [1, 2, 3, 4, 5].map((d) => `INSERT INTO schedule (provider_no, day_of_week, start_hour, end_hour) VALUES ('${p}', ${d}, '08:00', '12:00');`))
  return `${type.before ?? ''}
CREATE TABLE provider (provider_no VARCHAR(6) PRIMARY KEY, last_name VARCHAR(30) NOT NULL, first_name VARCHAR(30) NOT NULL);
CREATE TABLE schedule (provider_no VARCHAR(6) NOT NULL, day_of_week INTEGER NOT NULL, start_hour VARCHAR(5) NOT NULL, end_hour VARCHAR(5) NOT NULL);
CREATE TABLE demographic (demographic_no INTEGER PRIMARY KEY, last_name VARCHAR(30) NOT NULL, first_name VARCHAR(30) NOT NULL, phone VARCHAR(20));
CREATE TABLE appointment (appointment_no INTEGER PRIMARY KEY, provider_no VARCHAR(6) NOT NULL, appointment_date DATE NOT NULL, start_time VARCHAR(5) NOT NULL, end_time VARCHAR(5) NOT NULL, demographic_no INTEGER, template VARCHAR(4), status ${type.bytes}, status_ci ${type.anyCase});
INSERT INTO provider (provider_no, last_name, first_name) VALUES ('101', 'Chen', 'Amy');
INSERT INTO provider (provider_no, last_name, first_name) VALUES ('102', 'Okafor', 'Ben');
INSERT INTO demographic (demographic_no, last_name, first_name, phone) VALUES (1, 'Tremblay', 'Marie', '11987650001');
INSERT INTO demographic (demographic_no, last_name, first_name, phone) VALUES (2, 'Singh', 'Ravi', '11987650002');
${hours.join('\n')}
${rows.join('\n')}
${other.join('\n')}
`
}

export const STATE_LINE = '      map: { t: WAITING, b: WAITING, H: CONFIRMED, C: CANCELED, N: MISSED, B: DONE }'

export function codesMapping (column: string): string {
  return `version: 1
installation: oscar-like
timezone: America/Toronto
phone: { defaultCountry: BR }
search: [name]
resources:
  appointment:
    table: appointment
    key: appointment_no
    # (provider 101, any template) or (provider 102 and template A) or (102 and no template B, but one given)
    where:
      any:
        - { column: provider_no, eq: '101' }
        - all: [{ column: provider_no, eq: '102' }, { column: template, eq: A }]
        - all: [{ column: provider_no, eq: '102' }, { not: { any: [{ column: template, eq: B }, { column: template, isNull: true }] } }]
    start:
      date: { column: appointment_date, format: date }
      hour: { column: start_time, format: text }
    end: { hour: { column: end_time, format: text } }
    state:
      column: ${column}
      codes: exact
      match: prefix
${STATE_LINE}
    classification:
      rules:
        - when: { any: [{ all: [{ column: provider_no, eq: '101' }, { column: template, eq: A }] }, { all: [{ column: provider_no, eq: '102' }, { column: template, eq: B }] }] }
          value: Priority
        - when: { column: ${column}, in: [b], codes: exact }
          value: Call back
        - value: Routine
    refs:
      client: demographic_no
      professional: provider_no
    write:
      key: { generate: max }
      set:
        end_time: { slot: end, format: text }
  client:
    table: demographic
    key: demographic_no
    fields:
      name: { template: '{first_name} {last_name}' }
    phones: [phone]
  professional:
    table: provider
    key: { column: provider_no, type: text }
    fields: { name: { template: '{first_name} {last_name}' } }
availability:
  slotMinutes: 30
  weekly:
    table: schedule
    professional: provider_no
    weekday: day_of_week
    weekdayBase: iso
    start: { column: start_hour, format: text }
    end: { column: end_hour, format: text }
`
}
