// Two legacy schemas, generated here, that keep time as pattern strings (issue 27 items 3, 4):
// - OSCAR-like: each working day (`scheduledate`) names a template by name in `hour`; the
//   template (`scheduletemplate.timecode`) is one character per slot of the whole day, the
//   provider's own template first, then the shared one (`provider_no = 'Public'`); `_` is never
//   bookable; appointments and absences end on their last minute (09:00–09:14 is 15 minutes).
// - Open-Dental-like: an appointment's length is its `Pattern`, one character per 5 minutes
//   (`/XX/` = 20 minutes), as is a procedure's `ProcTime`; bookings write the pattern.
// Portable SQL for scratchOn; the templates are built from hour ranges so tests can derive
// the slots they expect from the same ranges.
import type { TestDialect } from './app.js'

/** [from, to, code]: the characters of a template between two hours. */
export type Run = [string, string, string]

export interface Template { provider: string, name: string, per: number, runs: Run[], length?: number }

const minutes = (h: string): number => Number(h.slice(0, 2)) * 60 + Number(h.slice(3, 5))

/** A whole-day timecode: one character per `per` minutes, `_` outside the runs. */
export function timecode (t: Template): string {
  const codes = Array.from({ length: 1440 / t.per }, () => '_')
  for (const [from, to, code] of t.runs) for (let m = minutes(from); m < minutes(to); m += t.per) codes[m / t.per] = code
  return codes.join('').slice(0, t.length)
}

export const DAY1 = '2027-03-01' // a Monday
export const DAY2 = '2027-03-02'

export const TEMPLATES: Template[] = [
  { provider: '101', name: 'P1', per: 15, runs: [['08:00', '10:00', '1'], ['10:15', '12:00', '1'], ['13:00', '14:00', 'C']] },
  // Same name, shared: never used for 101, who has their own.
  { provider: 'Public', name: 'P1', per: 15, runs: [['14:00', '17:00', '1']] },
  { provider: 'Public', name: 'HALF30', per: 30, runs: [['09:00', '12:00', '1']] },
  { provider: 'Public', name: 'FIVE', per: 5, runs: [['09:00', '09:30', '1'], ['09:40', '10:00', 'B']] },
  { provider: '102', name: 'TEN', per: 10, runs: [['14:00', '15:00', '1'], ['15:00', '15:30', 'a']] },
  // 95 characters: no whole-minute slot length, so the day offers nothing.
  { provider: 'Public', name: 'BROKEN', per: 15, runs: [['08:00', '12:00', '1']], length: 95 },
  // Not named by any day: the weekly template of 104 on Mondays (weektemplate), 20-minute characters.
  { provider: '104', name: 'MONDAYS', per: 20, runs: [['08:00', '09:00', '1'], ['09:20', '10:40', '1']] }
]

/** scheduledate rows: [id, date, provider, template name, status]. */
export const DAYS: [number, string, string, string, string][] = [
  [1, DAY1, '101', 'P1', 'A'],
  [2, DAY1, '102', 'HALF30', 'A'],
  [3, DAY1, '103', 'FIVE', 'A'],
  [4, DAY2, '102', 'TEN', 'A'],
  [5, DAY2, '101', 'P1', 'D'], // deleted: no hours
  [6, DAY2, '103', 'BROKEN', 'A'],
  [7, DAY2, '104', 'NO-SUCH', 'A'] // names no template
]

/** An appointment of 101 on DAY1 stored 08:30–08:44: 15 minutes. */
export const HELD = { id: '501', date: DAY1, hour: '08:30', storedEnd: '08:44:00', endHour: '08:45' }
/** An absence of 101 on DAY1 stored 11:00–11:00: the one minute 11:00–11:01, so the 11:00 slot. */
export const ABSENCE = { date: DAY1, start: '11:00', storedEnd: '11:00:00' }

const q = (s: string): string => `'${s}'`

export function oscarSchema (): string {
  return `
CREATE TABLE provider (provider_no VARCHAR(6) PRIMARY KEY, first_name VARCHAR(30) NOT NULL, last_name VARCHAR(30) NOT NULL);
CREATE TABLE demographic (demographic_no INTEGER PRIMARY KEY, first_name VARCHAR(30) NOT NULL, last_name VARCHAR(30) NOT NULL);
CREATE TABLE scheduletemplate (provider_no VARCHAR(6) NOT NULL, name VARCHAR(20) NOT NULL, summary VARCHAR(80), timecode TEXT, PRIMARY KEY (provider_no, name));
CREATE TABLE scheduledate (id INTEGER PRIMARY KEY, sdate DATE NOT NULL, provider_no VARCHAR(6) NOT NULL, hour VARCHAR(255), status CHAR(1) NOT NULL);
CREATE TABLE absence (id INTEGER PRIMARY KEY, provider_no VARCHAR(6) NOT NULL, sdate DATE NOT NULL, start_time TIME NOT NULL, end_time TIME NOT NULL);
CREATE TABLE appointment (appointment_no INTEGER PRIMARY KEY, provider_no VARCHAR(6) NOT NULL, appointment_date DATE NOT NULL, start_time TIME NOT NULL, end_time TIME NOT NULL, demographic_no INTEGER, status CHAR(2) NOT NULL);
INSERT INTO provider (provider_no, first_name, last_name) VALUES ('101', 'Alice', 'Tremblay'), ('102', 'Bruno', 'Gagnon'), ('103', 'Chloe', 'Roy'), ('104', 'Dev', 'Singh');
INSERT INTO demographic (demographic_no, first_name, last_name) VALUES (1, 'Emma', 'Wilson'), (2, 'Liam', 'Brown');
INSERT INTO scheduletemplate (provider_no, name, summary, timecode) VALUES ${TEMPLATES.map((t) => `(${q(t.provider)}, ${q(t.name)}, ${q(`${t.per}-minute`)}, ${q(timecode(t))})`).join(', ')};
INSERT INTO scheduledate (id, sdate, provider_no, hour, status) VALUES ${DAYS.map(([id, d, p, h, s]) => `(${id}, ${q(d)}, ${q(p)}, ${q(h)}, ${q(s)})`).join(', ')};
CREATE TABLE weektemplate (provider_no VARCHAR(6) NOT NULL, dow INTEGER NOT NULL, timecode TEXT NOT NULL, PRIMARY KEY (provider_no, dow));
INSERT INTO weektemplate (provider_no, dow, timecode) VALUES ('104', 1, ${q(timecode(TEMPLATES.find((t) => t.name === 'MONDAYS') as Template))});
INSERT INTO absence (id, provider_no, sdate, start_time, end_time) VALUES (1, '101', ${q(ABSENCE.date)}, ${q(`${ABSENCE.start}:00`)}, ${q(ABSENCE.storedEnd)});
INSERT INTO appointment (appointment_no, provider_no, appointment_date, start_time, end_time, demographic_no, status) VALUES (${HELD.id}, '101', ${q(HELD.date)}, ${q(`${HELD.hour}:00`)}, ${q(HELD.storedEnd)}, 1, 't');
`
}

/** The weekly source a mapping may add: 104's Monday template string. */
export const WEEKLY = `  weekly:
    table: weektemplate
    professional: { column: provider_no, type: text }
    weekday: dow
    pattern: { codes: timecode }
`

export function oscarMapping (pattern = "      codes: { coalesce: [own.timecode, shared.timecode] }\n      closed: '_'", weekly = ''): string {
  return `version: 1
installation: oscar-like
timezone: America/Toronto
states: { values: [WAITING, CANCELED], free: [CANCELED] }
resources:
  appointment:
    table: appointment
    key: appointment_no
    start:
      date: { column: appointment_date, format: date }
      hour: { column: start_time, format: time }
    end:
      hour: { column: end_time, format: time, inclusive: true }
    state: { column: status, map: { t: WAITING, C: CANCELED } }
    refs:
      client: demographic_no
      professional: { column: provider_no, type: text }
    write:
      key: { generate: max }
  client:
    table: demographic
    key: demographic_no
    fields: { name: { template: '{first_name} {last_name}' } }
    write: { key: { generate: max } }
  professional:
    table: provider
    key: { column: provider_no, type: text }
    fields: { name: { template: '{first_name} {last_name}' } }
availability:
${weekly}  dated:
    table: scheduledate
    where: { column: status, eq: A }
    joins:
      own: { table: scheduletemplate, on: { provider_no: provider_no, hour: name } }
      shared: { table: scheduletemplate, on: { hour: name }, where: { column: provider_no, eq: Public } }
    professional: { column: provider_no, type: text }
    date: { column: sdate, format: date }
    pattern:
${pattern}
  blocks:
    table: absence
    professional: { column: provider_no, type: text }
    from: { column: sdate, format: date }
    start: { column: start_time, format: time }
    end: { column: end_time, format: time, inclusive: true }
`
}

/** Open Dental's lengths: one character per 5 minutes, `/` at the ends, `X` between. */
export const PER = 5
export function odPattern (length: number): string {
  const n = length / PER
  return n <= 2 ? 'X'.repeat(n) : `/${'X'.repeat(n - 2)}/`
}

/** Procedures: [CodeNum, description, ProcTime]; booked at 09:00, 10:00, 11:00 on the grid of their length. */
export const PROCEDURES: [number, string, string][] = [[1, 'Exam', 'X/X/'], [2, 'Crown', '//XXXXXXXX//'], [3, 'Recall', '/XX/']]
/** Appointments: [AptNum, PatNum, ProvNum, start, Pattern]. */
export const OD_APPOINTMENTS: [number, number, number, string, string][] = [
  [1, 1, 1, `${DAY1} 08:00:00`, '//XX//'],
  [2, 2, 1, `${DAY1} 09:00:00`, 'XXXX'],
  [3, 1, 1, `${DAY1} 10:00:00`, 'XXXXXXXXX   '] // padded as a CHAR would be: 45 minutes
]

/** A blockout stored from 12:00 to its last minute 12:00: the one minute 12:00–12:01, so the 12:00 slot. */
export const BLOCKOUT = { date: DAY1, hour: '12:00' }

export function openDentalSchema (dialect: TestDialect): string {
  const datetime = dialect === 'mysql' ? 'DATETIME' : 'TIMESTAMP'
  return `
CREATE TABLE provider (provnum INTEGER PRIMARY KEY, fname VARCHAR(30) NOT NULL, lname VARCHAR(30) NOT NULL);
CREATE TABLE patient (patnum INTEGER PRIMARY KEY, fname VARCHAR(30) NOT NULL, lname VARCHAR(30) NOT NULL);
CREATE TABLE procedurecode (codenum INTEGER PRIMARY KEY, descript VARCHAR(60) NOT NULL, proctime VARCHAR(24) NOT NULL);
CREATE TABLE schedule (schedulenum INTEGER PRIMARY KEY, scheddate DATE NOT NULL, starttime TIME NOT NULL, stoptime TIME NOT NULL, provnum INTEGER NOT NULL);
CREATE TABLE blockout (id INTEGER PRIMARY KEY, provnum INTEGER NOT NULL, startat ${datetime} NOT NULL, stopat ${datetime} NOT NULL);
INSERT INTO blockout (id, provnum, startat, stopat) VALUES (1, 1, ${q(`${BLOCKOUT.date} ${BLOCKOUT.hour}:00`)}, ${q(`${BLOCKOUT.date} ${BLOCKOUT.hour}:00`)});
CREATE TABLE appointment (aptnum INTEGER PRIMARY KEY, patnum INTEGER NOT NULL, provnum INTEGER NOT NULL, aptdatetime ${datetime} NOT NULL, pattern VARCHAR(255) NOT NULL, aptstatus INTEGER NOT NULL, codenum INTEGER);
INSERT INTO provider (provnum, fname, lname) VALUES (1, 'Grace', 'Hopper');
INSERT INTO patient (patnum, fname, lname) VALUES (1, 'Ada', 'Lovelace'), (2, 'Alan', 'Turing');
INSERT INTO procedurecode (codenum, descript, proctime) VALUES ${PROCEDURES.map(([n, d, p]) => `(${n}, ${q(d)}, ${q(p)})`).join(', ')};
INSERT INTO schedule (schedulenum, scheddate, starttime, stoptime, provnum) VALUES (1, ${q(DAY1)}, '08:00:00', '17:00:00', 1), (2, ${q(DAY2)}, '08:00:00', '12:00:00', 1);
INSERT INTO appointment (aptnum, patnum, provnum, aptdatetime, pattern, aptstatus, codenum) VALUES ${OD_APPOINTMENTS.map(([n, pat, prov, at, p]) => `(${n}, ${pat}, ${prov}, ${q(at)}, ${q(p)}, 1, NULL)`).join(', ')};
`
}

export const OPEN_DENTAL_MAPPING = `version: 1
installation: open-dental-like
timezone: America/Chicago
states: { values: [WAITING, CANCELED, DONE], free: [CANCELED] }
resources:
  appointment:
    table: appointment
    key: aptnum
    start: { datetime: { column: aptdatetime, format: datetime } }
    end:
      duration: { column: pattern, pattern: { per: ${PER}, repeat: X, edges: '/' } }
    state: { column: aptstatus, type: int, map: { '1': WAITING, '5': CANCELED, '2': DONE } }
    refs:
      client: patnum
      professional: provnum
      service: codenum
    write:
      key: { generate: max }
  client:
    table: patient
    key: patnum
    fields: { name: { template: '{fname} {lname}' } }
  professional:
    table: provider
    key: provnum
    fields: { name: { template: '{fname} {lname}' } }
  service:
    table: procedurecode
    key: codenum
    fields:
      name: descript
      duration: { column: proctime, pattern: { per: ${PER} } }
availability:
  slotMinutes: 10
  dated:
    table: schedule
    professional: provnum
    date: { column: scheddate, format: date }
    start: { column: starttime, format: time }
    end: { column: stoptime, format: time }
  blocks:
    table: blockout
    professional: provnum
    from: { column: startat, format: datetime }
    to: { column: stopat, format: datetime, inclusive: true }
`
