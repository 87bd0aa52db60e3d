// `availability.starts`: where offered starts fall. An Open Dental-like practice books
// 40-minute visits on a 10-minute grid (`every: 10`), and after a blockout the grid runs again
// from the blockout's end (`afterBlocks`). On SQLite, MariaDB and PostgreSQL: /availability
// offers exactly those starts, a booking at each offered start is taken and read back from
// the table, a start off the grid is a 409 with nothing written; without `starts`, starts
// step by the visit's length as before.
import t from 'tap'
import { testDialects } from '../helpers/contract.js'
import { scratchOn } from '../helpers/scratch-servers.js'
import { checkOf } from '../helpers/check-of.js'

const DAY = '2031-03-04' // a Tuesday

const SCHEMA = `
CREATE TABLE provider (prov_num INTEGER PRIMARY KEY, abbr VARCHAR(20) NOT NULL);
CREATE TABLE patient (pat_num INTEGER PRIMARY KEY, lname VARCHAR(40) NOT NULL);
CREATE TABLE appt_type (type_num INTEGER PRIMARY KEY, descript VARCHAR(40) NOT NULL, minutes INTEGER NOT NULL);
CREATE TABLE schedule (sched_num INTEGER PRIMARY KEY, prov_num INTEGER NOT NULL, sched_date DATE NOT NULL, start_time VARCHAR(5) NOT NULL, stop_time VARCHAR(5) NOT NULL, sched_type INTEGER NOT NULL);
CREATE TABLE appointment (apt_num INTEGER PRIMARY KEY, pat_num INTEGER NOT NULL, prov_num INTEGER NOT NULL, type_num INTEGER, apt_date DATE NOT NULL, apt_hour VARCHAR(5) NOT NULL, apt_end VARCHAR(5) NOT NULL, apt_status INTEGER NOT NULL);
INSERT INTO provider (prov_num, abbr) VALUES (1, 'DOC1');
INSERT INTO patient (pat_num, lname) VALUES (1, 'Smith'), (2, 'Jones'), (3, 'Brown');
INSERT INTO appt_type (type_num, descript, minutes) VALUES (5, 'Exam', 40);
INSERT INTO schedule (sched_num, prov_num, sched_date, start_time, stop_time, sched_type) VALUES (1, 1, '${DAY}', '08:00', '10:00', 0);
INSERT INTO schedule (sched_num, prov_num, sched_date, start_time, stop_time, sched_type) VALUES (2, 1, '${DAY}', '08:45', '09:05', 2);
`

const mapping = (starts: string): string => `
version: 1
installation: availability-starts
timezone: America/Los_Angeles
states: { values: [WAITING, CANCELED], free: [CANCELED] }
resources:
  appointment:
    table: appointment
    key: apt_num
    start: { date: { column: apt_date, format: date }, hour: apt_hour }
    end: { hour: apt_end }
    state: { column: apt_status, type: int, map: { '1': WAITING, '5': CANCELED } }
    refs: { client: pat_num, professional: prov_num, service: type_num }
    write: { key: { generate: max }, states: { WAITING: { apt_status: { value: 1 } }, CANCELED: { apt_status: { value: 5 } } } }
  client: { table: patient, key: pat_num, fields: { name: lname }, write: { key: { generate: max } } }
  professional: { table: provider, key: prov_num, fields: { name: abbr } }
  service: { table: appt_type, key: type_num, fields: { name: descript, duration: minutes } }
availability:
${starts}
  dated:
    table: schedule
    where: { column: sched_type, eq: 0 }           # provider hours
    professional: prov_num
    date: { column: sched_date, format: date }
    start: start_time
    end: stop_time
  blocks:
    table: schedule
    where: { column: sched_type, eq: 2 }           # blockouts
    professional: prov_num
    from: { column: sched_date, format: date }
    start: start_time
    end: stop_time
`

const GRID = mapping('  starts: { every: 10, afterBlocks: true }')
const hours = (body: Array<{ hour: string }>): string[] => body.map((s) => s.hour)

for (const dialect of testDialects()) {
  t.test(dialect, async (t) => {
    t.test('40-minute visits every 10 minutes, the grid running again after the blockout', async (t) => {
      const s = await scratchOn(t, dialect, SCHEMA, GRID)
      const offered = await s.call('GET', `/availability?start=${DAY}&end=${DAY}&service=5`)
      t.equal(offered.status, 200, JSON.stringify(offered.body))
      // 08:10 would end past the blockout's 08:45 start, so the grid moves to its end, 09:05: 09:05, 09:15 (the last to end by 10:00).
      t.same(hours(offered.body), ['08:00', '09:05', '09:15'], 'on the grid, none overlapping the blockout')
      const off = await s.call('POST', '/appointments', { date: DAY, hour: '09:10', client: '1', professional: '1', service: '5' })
      t.equal(off.status, 409, 'off the grid after the blockout')
      t.same(await s.rows('SELECT COUNT(*) AS n FROM appointment'), [{ n: 0 }], 'nothing written')
      const booked = await s.call('POST', '/appointments', { date: DAY, hour: '09:05', client: '1', professional: '1', service: '5' })
      t.equal(booked.status, 200, JSON.stringify(booked.body))
      t.same((await s.rows('SELECT apt_hour, apt_end FROM appointment')).map((r) => [r.apt_hour, r.apt_end]), [['09:05', '09:45']], 'stored as offered')
      const after = await s.call('GET', `/availability?start=${DAY}&end=${DAY}&service=5`)
      t.same(hours(after.body), ['08:00'], 'the booked visit takes 09:05–09:45, so 09:15 goes')
    })

    t.test('a 10-minute grid without afterBlocks, and no grid at all', async (t) => {
      const plain = await scratchOn(t, dialect, SCHEMA, mapping('  starts: { every: 10 }'))
      t.same(hours((await plain.call('GET', `/availability?start=${DAY}&end=${DAY}&service=5`)).body), ['08:00', '09:10', '09:20'], 'from 08:00 only')
      const none = await scratchOn(t, dialect, SCHEMA, mapping(''))
      t.same(hours((await none.call('GET', `/availability?start=${DAY}&end=${DAY}&service=5`)).body), ['08:00', '09:20'], 'stepping by 40 minutes: 08:00, 08:40 (overlapping the blockout), 09:20')
      const booked = await none.call('POST', '/appointments', { date: DAY, hour: '09:05', client: '2', professional: '1', service: '5' })
      t.equal(booked.status, 409, 'without the grid, 09:05 is not a start')
    })

    t.test('check passes', async (t) => {
      const s = await scratchOn(t, dialect, SCHEMA, GRID)
      const report = await checkOf(t, s.url, GRID, DAY)
      t.same(report.findings.filter((f) => f.severity === 'problem').map((f) => f.message), [], report.lines.join('\n'))
    })
  })
}
