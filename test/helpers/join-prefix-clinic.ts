// An OSCAR-like clinic, generated here, whose rows name other rows with a fixed text around
// the value (a join's `prefix`/`suffix`):
// - a working day (`scheduledate.hour`) names the provider's own template by its name, and a
//   shared one (`provider_no = 'Public'`) as `P:<name>`; a shared template may carry the name
//   of an own one, and one is even called `P:AMonly`, so only the stripped prefix finds the right row;
// - a patient's `chart_no` `CH-7001-A` names the chart rows of `7001` (a `first` join with a
//   prefix and a suffix), and their `hin` `ON:1234` the cell phones kept under `1234` (a `collect`).
// Portable SQL for scratchOn; templates are built from hour ranges, so tests derive the slots
// they expect from the same ranges.

/** [from, to, code]: the characters of a template between two hours. */
export type Run = [string, string, string]
export interface Template { provider: string, name: string, per: number, runs: Run[] }

const minutes = (h: string): number => Number(h.slice(0, 2)) * 60 + Number(h.slice(3, 5))

/** A whole-day timecode: one character per `per` minutes, `_` outside the runs. */
export function timecode (t: Template): string {
  const codes = Array.from({ length: 1440 / t.per }, () => '_')
  for (const [from, to, code] of t.runs) for (let m = minutes(from); m < minutes(to); m += t.per) codes[m / t.per] = code
  return codes.join('')
}

/** Never offered: `_` (no hours) and `L` (lunch). */
export const CLOSED = '_L'
export const PREFIX = 'P:'

export const TEMPLATES: Template[] = [
  { provider: '201', name: 'Clinic', per: 15, runs: [['09:00', '12:00', '1']] },
  // Shared, with the name of 201's own: a day naming `Clinic` is 201's own, never this one.
  { provider: 'Public', name: 'Clinic', per: 15, runs: [['14:00', '17:00', '1']] },
  { provider: 'Public', name: 'FullDay', per: 15, runs: [['08:00', '12:00', '1'], ['12:00', '13:00', 'L'], ['13:00', '16:00', '1']] },
  { provider: 'Public', name: 'AMonly', per: 30, runs: [['09:00', '12:00', '1']] },
  // The whole text a day holds, as a name: found only by comparing the unstripped column.
  { provider: 'Public', name: 'P:AMonly', per: 15, runs: [['15:00', '16:00', '1']] }
]

export const DAY1 = '2031-04-07'
export const DAY2 = '2031-04-08'
export const DAY3 = '2031-04-09'

/** scheduledate rows: [id, date, provider, hour (the template named), status]. */
export const DAYS: [number, string, string, string, string][] = [
  [1, DAY1, '201', 'Clinic', 'A'], // 201's own
  [2, DAY1, '202', `${PREFIX}FullDay`, 'A'], // shared
  [3, DAY2, '201', `${PREFIX}AMonly`, 'A'], // shared, 30-minute characters
  [4, DAY2, '202', 'Clinic', 'A'], // 202 has no own `Clinic`; the shared one is `P:Clinic`
  [5, DAY3, '202', `${PREFIX}NoSuch`, 'A'], // no such shared template
  [6, DAY3, '201', `${PREFIX}FullDay`, 'D'] // deleted
]

/** The template a day's `hour` names, as OSCAR reads it: `P:<name>` a shared one, else the provider's own. */
export function namedTemplate (provider: string, hour: string): Template | undefined {
  return hour.startsWith(PREFIX)
    ? TEMPLATES.find((t) => t.provider === 'Public' && t.name === hour.slice(PREFIX.length))
    : TEMPLATES.find((t) => t.provider === provider && t.name === hour)
}

/** An appointment of 202 on DAY1 at 10:00, on the shared FullDay. */
export const HELD = { id: 301, date: DAY1, provider: '202', hour: '10:00', end: '10:15' }

/** Patients: [id, first, last, chart_no, hin]. */
export const PATIENTS: [number, string, string, string | null, string | null][] = [
  [1, 'Emma', 'Wilson', 'CH-7001-A', 'ON:1234'],
  [2, 'Liam', 'Brown', 'CH-7002-A', 'ON:5678'],
  [3, 'Noah', 'Roy', null, null]
]
/** chart rows: [id, chart_ref, email]; the latest (highest id) of a chart is the one read. */
export const CHARTS: [number, string, string][] = [
  [1, '7001', 'emma.old@example.ca'],
  [2, '7001', 'emma@example.ca'],
  [3, '7002', 'liam@example.ca'],
  [4, 'CH-7001-A', 'not-emma@example.ca'] // the whole text as a key: never joined
]
/** cellphone rows: [id, hin, number]. */
export const CELLS: [number, string, string][] = [
  [1, '1234', '905-555-0131'],
  [2, '1234', '905-555-0132'],
  [3, 'ON:1234', '905-555-0199'] // the whole text as a key: never collected
]

const q = (s: string | null): string => s === null ? 'NULL' : `'${s}'`

export function joinPrefixSchema (): string {
  return `
CREATE TABLE provider (provider_no VARCHAR(6) PRIMARY KEY, first_name VARCHAR(30) NOT NULL, last_name VARCHAR(30) NOT NULL);
CREATE TABLE demographic (demographic_no INTEGER PRIMARY KEY, first_name VARCHAR(30) NOT NULL, last_name VARCHAR(30) NOT NULL, chart_no VARCHAR(20), hin VARCHAR(20));
CREATE TABLE chart (id INTEGER PRIMARY KEY, chart_ref VARCHAR(20) NOT NULL, email VARCHAR(60));
CREATE TABLE cellphone (id INTEGER PRIMARY KEY, hin VARCHAR(20) NOT NULL, number VARCHAR(20) NOT NULL);
CREATE TABLE scheduletemplate (provider_no VARCHAR(6) NOT NULL, name VARCHAR(20) NOT NULL, timecode TEXT, PRIMARY KEY (provider_no, name));
CREATE TABLE scheduledate (id INTEGER PRIMARY KEY, sdate DATE NOT NULL, provider_no VARCHAR(6) NOT NULL, hour VARCHAR(255), status CHAR(1) NOT NULL);
CREATE TABLE appointment (appointment_no INTEGER PRIMARY KEY, provider_no VARCHAR(6) NOT NULL, appointment_date DATE NOT NULL, start_time TIME NOT NULL, end_time TIME NOT NULL, demographic_no INTEGER, status CHAR(1) NOT NULL);
INSERT INTO provider (provider_no, first_name, last_name) VALUES ('201', 'Alice', 'Tremblay'), ('202', 'Bruno', 'Gagnon');
INSERT INTO demographic (demographic_no, first_name, last_name, chart_no, hin) VALUES ${PATIENTS.map((p) => `(${p[0]}, ${q(p[1])}, ${q(p[2])}, ${q(p[3])}, ${q(p[4])})`).join(', ')};
INSERT INTO chart (id, chart_ref, email) VALUES ${CHARTS.map(([id, ref, email]) => `(${id}, ${q(ref)}, ${q(email)})`).join(', ')};
INSERT INTO cellphone (id, hin, number) VALUES ${CELLS.map(([id, hin, n]) => `(${id}, ${q(hin)}, ${q(n)})`).join(', ')};
INSERT INTO scheduletemplate (provider_no, name, timecode) VALUES ${TEMPLATES.map((t) => `(${q(t.provider)}, ${q(t.name)}, ${q(timecode(t))})`).join(', ')};
INSERT INTO scheduledate (id, sdate, provider_no, hour, status) VALUES ${DAYS.map(([id, d, p, h, s]) => `(${id}, ${q(d)}, ${q(p)}, ${q(h)}, ${q(s)})`).join(', ')};
INSERT INTO appointment (appointment_no, provider_no, appointment_date, start_time, end_time, demographic_no, status) VALUES (${HELD.id}, ${q(HELD.provider)}, ${q(HELD.date)}, ${q(`${HELD.hour}:00`)}, ${q(`${HELD.end}:00`)}, 1, 't');
`
}

/** The shared template's join; a test may write it otherwise (a misspelt column). */
export const SHARED_JOIN = `shared: { table: scheduletemplate, on: { hour: { column: name, prefix: '${PREFIX}' } }, where: { column: provider_no, eq: Public } }`

/** The client's `write` when a test gives none: new patients keep no phone or e-mail (both read through joins no write goes through). */
const CLIENT_WRITE = '    write: { key: { generate: max }, ignore: [phone, email] }\n'

export function joinPrefixMapping (shared = SHARED_JOIN, clientWrite = CLIENT_WRITE): string {
  return `version: 1
installation: join-prefix
timezone: America/Toronto
phone: { defaultCountry: CA }
states: { values: [WAITING, CANCELED], free: [CANCELED] }
resources:
  appointment:
    table: appointment
    key: appointment_no
    start:
      date: { column: appointment_date, format: date }
      hour: { column: start_time, format: time }
    end:
      hour: { column: end_time, format: time }
    state: { column: status, map: { t: WAITING, C: CANCELED } }
    refs:
      client: demographic_no
      professional: { column: provider_no, type: text }
    write:
      key: { generate: max }
  client:
    table: demographic
    key: demographic_no
    joins:
      chart:
        table: chart
        on: { chart_no: { column: chart_ref, prefix: 'CH-', suffix: '-A' } }
        first: { key: id, by: [{ column: id, desc: true }] }
    fields:
      name: { template: '{first_name} {last_name}' }
      email: chart.email
    phones:
      - collect: { table: cellphone, on: { hin: { column: hin, prefix: 'ON:' } }, column: number, by: [id] }
${clientWrite}  professional:
    table: provider
    key: { column: provider_no, type: text }
    fields: { name: { template: '{first_name} {last_name}' } }
availability:
  dated:
    table: scheduledate
    where: { column: status, eq: A }
    joins:
      own: { table: scheduletemplate, on: { provider_no: provider_no, hour: name } }
      ${shared}
    professional: { column: provider_no, type: text }
    date: { column: sdate, format: date }
    pattern:
      codes: { coalesce: [own.timecode, shared.timecode] }
      closed: '${CLOSED}'
`
}
