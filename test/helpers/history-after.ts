// An orthodontic practice whose program logs every change of a booking, its creation included,
// as a copy of the booking row after the change with an action code, a user and a stamp (as
// Open Dental's `histappointment` does), for `write.history.after` (docs/mapping.md), unlike the
// samples. Portable SQL for `scratchOn`; the mapping is also compiled for SQL Server by
// test/language/history-after-golden.test.ts.
import type { TestDialect } from './app.js'
import { DATETIME, IDENTITY } from './openmrs-like.js'
import { addDays, todayIn } from '../../src/normalise/datetime.js'

export const ZONE = 'America/Phoenix'
export const DAY = addDays(todayIn(ZONE), 3)
export const USER = 9
/** The booking row's columns the log copies. */
export const COPIED = ['chart_no', 'clin_no', 'on_day', 'at_hour', 'state_no', 'memo']

export function schema (dialect: TestDialect): string {
  return `
CREATE TABLE chart (chart_no INTEGER PRIMARY KEY, given VARCHAR(30) NOT NULL, surname VARCHAR(30) NOT NULL);
CREATE TABLE clinician (clin_no INTEGER PRIMARY KEY, initials VARCHAR(5) NOT NULL);
CREATE TABLE shift (clin_no INTEGER NOT NULL, weekday INTEGER NOT NULL, from_hour VARCHAR(5) NOT NULL, to_hour VARCHAR(5) NOT NULL);
CREATE TABLE booking (booking_no INTEGER PRIMARY KEY, chart_no INTEGER NOT NULL, clin_no INTEGER NOT NULL, on_day DATE NOT NULL, at_hour VARCHAR(5) NOT NULL, state_no INTEGER NOT NULL, memo VARCHAR(40));
CREATE TABLE booking_hist (hist_no ${IDENTITY[dialect]}, booking_no INTEGER NOT NULL, chart_no INTEGER, clin_no INTEGER, on_day DATE, at_hour VARCHAR(5), state_no INTEGER, memo VARCHAR(40),
  hist_action INTEGER NOT NULL, hist_user INTEGER NOT NULL, hist_stamp ${DATETIME[dialect]} NOT NULL);
INSERT INTO chart (chart_no, given, surname) VALUES (1, 'Kai', 'Yazzie');
INSERT INTO chart (chart_no, given, surname) VALUES (2, 'Rosa', 'Lucero');
INSERT INTO clinician (clin_no, initials) VALUES (4, 'DMH');
${[1, 2, 3, 4, 5, 6, 7].map((d) => `INSERT INTO shift (clin_no, weekday, from_hour, to_hour) VALUES (4, ${d}, '08:00', '16:00');`).join('\n')}
INSERT INTO booking (booking_no, chart_no, clin_no, on_day, at_hour, state_no, memo) VALUES (1, 2, 4, '${DAY}', '08:00', 1, 'desk');
`
}

export const MAPPING = `version: 1
installation: history-after
timezone: ${ZONE}
settings: { userId: ${USER} }
states:
  values: [WAITING, CONFIRMED, CANCELED]
  moves: { WAITING: [CONFIRMED, CANCELED], CONFIRMED: [WAITING, CANCELED] }
resources:
  appointment:
    table: booking
    key: booking_no
    start:
      date: { column: on_day, format: date }
      hour: { column: at_hour, format: text }
    state: { column: state_no, type: int, map: { '1': WAITING, '2': CONFIRMED, '3': CANCELED } }
    refs: { client: chart_no, professional: clin_no }
    write:
      key: { generate: max }
      set: { memo: { value: via ponte } }
      history:
        table: booking_hist
        key: booking_no
        on: [create, state, reschedule]
        after:
${COPIED.map((c) => `          ${c}: { after: ${c} }`).join('\n')}
          hist_action: { event: { create: 0, state: 1, reschedule: 1 } }
          hist_user: { setting: userId }
          hist_stamp: { now: datetime }
  client:
    table: chart
    key: chart_no
    fields: { name: { template: '{given} {surname}' } }
    write: { key: { generate: max } }
  professional:
    table: clinician
    key: clin_no
    fields: { name: initials }
availability:
  slotMinutes: 30
  weekly:
    table: shift
    professional: clin_no
    weekday: weekday
    weekdayBase: iso
    start: { column: from_hour, format: text }
    end: { column: to_hour, format: text }
`
