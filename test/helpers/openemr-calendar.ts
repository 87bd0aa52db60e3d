// An OpenEMR-like calendar, generated for the tests of `repeat` (test/language/repeat-rows*.test.ts):
// working hours ("In Office", pc_catid 2) and absences ("Out Of Office", 3) kept as rows of
// openemr_postcalendar_events that recur by pc_recurrtype and a PHP-serialized pc_recurrspec,
// the mapping reading them as stored with `extract`. The facts the rows are written from are
// exported, so a test can work out the dates it expects on its own.
import type { TestDialect } from './app.js'

export const DOCTOR = '7'
/** In Office Monday, Wednesday, Friday 09:00–17:00, from a Monday until a Wednesday, two dates left out. */
export const WEEKLY = { first: '2031-03-03', until: '2031-04-30', except: ['2031-03-12', '2031-04-04'], days: [1, 3, 5], start: '09:00', end: '17:00' }
/** In Office the second Tuesday of every month 08:00–12:00, no end. */
export const SECOND_TUESDAY = { first: '2031-03-11', start: '08:00', end: '12:00' }
/** Out Of Office every workday 12:00–13:00, no end. */
export const LUNCH = { first: '2031-03-03', start: '12:00', end: '13:00' }
/** In Office once, a Saturday 10:00–12:00. */
export const ONE_OFF = { date: '2031-03-15', start: '10:00', end: '12:00' }
/** The days asked about: from before the first date to past `until` and two more second Tuesdays. */
export const PERIOD = { from: '2031-03-01', to: '2031-05-20' }

/** PHP's serialize() of an array of strings, as OpenEMR stores pc_recurrspec. */
function serialized (o: Record<string, string>): string {
  const items = Object.entries(o).map(([k, v]) => `s:${k.length}:"${k}";s:${v.length}:"${v}";`)
  return `a:${items.length}:{${items.join('')}}`
}
const spec = (o: Partial<Record<'freq' | 'type' | 'num' | 'day' | 'onFreq' | 'exdate', string>>): string => serialized({
  event_repeat_freq: o.freq ?? '',
  event_repeat_freq_type: o.type ?? '',
  event_repeat_on_num: o.num ?? '1',
  event_repeat_on_day: o.day ?? '0',
  event_repeat_on_freq: o.onFreq ?? '0',
  exdate: o.exdate ?? ''
})
const ymd = (d: string): string => d.replace(/-/g, '')

export function openemrSchema (dialect: TestDialect): string {
  // OpenEMR's columns are camelCase: kept as written on every database.
  const q = (name: string): string => dialect === 'mysql' ? `\`${name}\`` : `"${name}"`
  // No end is '0000-00-00' where the database can hold it (MariaDB, SQLite); NULL on PostgreSQL.
  const noEnd = dialect === 'postgres' ? 'NULL' : "'0000-00-00'"
  const cols = ['pc_eid', 'pc_catid', 'pc_aid', 'pc_pid', 'pc_title', 'pc_eventDate', 'pc_endDate', 'pc_recurrtype', 'pc_recurrspec', 'pc_startTime', 'pc_endTime', 'pc_apptstatus'].map(q).join(', ')
  const row = (eid: number, cat: number, aid: string, title: string, date: string, end: string, type: number, rs: string, start: string, stop: string): string =>
    `(${eid}, ${cat}, '${aid}', NULL, '${title}', '${date}', ${end}, ${type}, '${rs}', '${start}:00', '${stop}:00', '-')`
  return `
CREATE TABLE users (id INTEGER PRIMARY KEY, fname VARCHAR(30) NOT NULL, lname VARCHAR(30) NOT NULL);
CREATE TABLE patient_data (pid INTEGER PRIMARY KEY, fname VARCHAR(30) NOT NULL, lname VARCHAR(30) NOT NULL);
CREATE TABLE openemr_postcalendar_events (${q('pc_eid')} INTEGER PRIMARY KEY, ${q('pc_catid')} INTEGER NOT NULL DEFAULT 0, ${q('pc_aid')} VARCHAR(255), ${q('pc_pid')} INTEGER, ${q('pc_title')} VARCHAR(150), ${q('pc_eventDate')} DATE NOT NULL, ${q('pc_endDate')} DATE, ${q('pc_recurrtype')} INTEGER NOT NULL DEFAULT 0, ${q('pc_recurrspec')} TEXT, ${q('pc_startTime')} TIME, ${q('pc_endTime')} TIME, ${q('pc_apptstatus')} VARCHAR(15) NOT NULL DEFAULT '-');
INSERT INTO users (id, fname, lname) VALUES (7, 'Ada', 'Okafor'), (8, 'Ben', 'Lind');
INSERT INTO patient_data (pid, fname, lname) VALUES (1, 'Cora', 'Reyes'), (2, 'Dan', 'Moss');
INSERT INTO openemr_postcalendar_events (${cols}) VALUES
${row(1, 2, DOCTOR, 'In Office', WEEKLY.first, `'${WEEKLY.until}'`, 3, spec({ freq: WEEKLY.days.map((d) => d + 1).join(','), type: '6', exdate: WEEKLY.except.map(ymd).join(',') }), WEEKLY.start, WEEKLY.end)},
${row(2, 2, DOCTOR, 'In Office', SECOND_TUESDAY.first, noEnd, 2, spec({ num: '2', day: '2', onFreq: '1' }), SECOND_TUESDAY.start, SECOND_TUESDAY.end)},
${row(3, 3, DOCTOR, 'Out Of Office', LUNCH.first, noEnd, 1, spec({ freq: '1', type: '4' }), LUNCH.start, LUNCH.end)},
${row(4, 2, DOCTOR, 'In Office', ONE_OFF.date, noEnd, 0, spec({}), ONE_OFF.start, ONE_OFF.end)},
${row(5, 2, DOCTOR, 'In Office', '2020-01-06', noEnd, 0, spec({}), '09:00', '17:00')},
${row(6, 2, '8', 'In Office', '2031-03-03', noEnd, 1, 'a:1:{s:4:"junk";s:0:"";}', '09:00', '17:00')};
`
}

const REPEAT = `    repeat: &openemr-repeat
      kind: { column: pc_recurrtype, type: int, map: { 0: once, 1: every, 2: nth, 3: weekdays } }
      every: { column: pc_recurrspec, extract: '"event_repeat_freq";s:\\d+:"(\\d+)"' }
      unit: { column: pc_recurrspec, extract: '"event_repeat_freq_type";s:\\d+:"(\\d)"', map: { 0: day, 1: week, 2: month, 3: year, 4: workday } }
      months: { column: pc_recurrspec, extract: '"event_repeat_on_freq";s:\\d+:"(\\d+)"' }
      nth: { column: pc_recurrspec, extract: '"event_repeat_on_num";s:\\d+:"(\\d)"' }
      weekday: { column: pc_recurrspec, extract: '"event_repeat_on_day";s:\\d+:"(\\d)"' }
      weekdays: { column: pc_recurrspec, extract: '"event_repeat_freq";s:\\d+:"([\\d,]+)"' }
      weekdaysBase: 1
      until: { column: pc_endDate, format: date, nullIf: ['0000-00-00'] }
      except: { column: pc_recurrspec, extract: '"exdate";s:\\d+:"([^"]*)"' }
`

export const OPENEMR_MAPPING = `version: 1
installation: openemr-like
timezone: America/New_York
states: { values: [WAITING, CANCELED], free: [CANCELED] }
resources:
  appointment:
    table: openemr_postcalendar_events
    key: pc_eid
    where: { column: pc_catid, notIn: [2, 3] }
    start:
      date: { column: pc_eventDate, format: date }
      hour: { column: pc_startTime, format: time }
    end:
      hour: { column: pc_endTime, format: time }
    state: { column: pc_apptstatus, map: { '-': WAITING, x: CANCELED } }
    refs:
      client: pc_pid
      professional: { column: pc_aid, type: text }
    write:
      key: { generate: max }
      set:
        pc_catid: { value: 5 }
        pc_recurrtype: { value: 0 }
        pc_title: { value: Office Visit }
  client:
    table: patient_data
    key: pid
    fields: { name: { template: '{fname} {lname}' } }
  professional:
    table: users
    key: id
    fields: { name: { template: '{fname} {lname}' } }
availability:
  slotMinutes: 30
  dated:
    table: openemr_postcalendar_events
    where: { column: pc_catid, eq: 2 }
    professional: { column: pc_aid, type: text }
    date: { column: pc_eventDate, format: date }
    start: { column: pc_startTime, format: time }
    end: { column: pc_endTime, format: time }
${REPEAT}  blocks:
    table: openemr_postcalendar_events
    where: { column: pc_catid, eq: 3 }
    professional: { column: pc_aid, type: text }
    from: { column: pc_eventDate, format: date }
    start: { column: pc_startTime, format: time }
    end: { column: pc_endTime, format: time }
    repeat: *openemr-repeat
`
