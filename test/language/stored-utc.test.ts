// Issue 27 item 1, date-times stored on another clock than the clinic's (`storedIn`), on a
// Tryton-like schema generated here (naive UTC `timestamp`/`datetime` columns, GNU Health
// names) and on every test database: lists by the clinic's date and hour, an evening
// appointment stored on the next UTC day, days around a DST change, working hours and leave
// on the clinic's clock in /availability, and bookings and moves written as UTC instants,
// read back from the database directly. A mapping that splits the start over a date and an
// hour is refused at its key.
import t from 'tap'
import { testDialects } from '../helpers/contract.js'
import type { TestDialect } from '../helpers/app.js'
import { scratchOn, type ServerScratch } from '../helpers/scratch-servers.js'
import { checkOf } from '../helpers/check-of.js'
import { parseMapping } from '../../src/mapping/load.js'
import { buildModel } from '../../src/mapping/model.js'
import { compileMapping } from '../../src/mapping/compile/index.js'
import { sqlite } from '../../src/sql/sqlite/dialect.js'
import { explainDialect, EXPLAIN_DIALECTS } from '../../src/sql/databases.js'
import { parseTsqlScript } from '../helpers/tsql-grammar.js'

const TIMESTAMP: Record<TestDialect, string> = { sqlite: 'TEXT', mysql: 'DATETIME', postgres: 'TIMESTAMP' }

interface Seed {
  /** Appointments: id, professional, start and end as stored (UTC). */
  appointments: [number, number, string, string][]
  /** Work shifts: professional, start, end as stored (UTC). */
  shifts: [number, string, string][]
  /** Leave: professional, from, to as stored (UTC). */
  leave: [number, string, string][]
}

function schema (dialect: TestDialect, seed: Seed): string {
  const ts = TIMESTAMP[dialect]
  return `
CREATE TABLE party_party (id INTEGER PRIMARY KEY, name VARCHAR(80) NOT NULL, phone VARCHAR(20));
CREATE TABLE gnuhealth_healthprofessional (id INTEGER PRIMARY KEY, name VARCHAR(80) NOT NULL);
CREATE TABLE gnuhealth_appointment (id INTEGER PRIMARY KEY, patient INTEGER NOT NULL, healthprof INTEGER, appointment_date ${ts} NOT NULL, appointment_date_end ${ts}, state VARCHAR(20) NOT NULL, create_date ${ts});
CREATE INDEX appointment_date_idx ON gnuhealth_appointment (appointment_date);
CREATE TABLE gnuhealth_work_shift (id INTEGER PRIMARY KEY, healthprof INTEGER NOT NULL, shift_start ${ts} NOT NULL, shift_end ${ts} NOT NULL);
CREATE TABLE gnuhealth_leave (id INTEGER PRIMARY KEY, healthprof INTEGER, leave_from ${ts} NOT NULL, leave_to ${ts} NOT NULL);
INSERT INTO party_party (id, name, phone) VALUES (1, 'Rita Moura', '11987650001');
INSERT INTO gnuhealth_healthprofessional (id, name) VALUES (7, 'Dra. Noemi Farias');
${seed.appointments.map(([id, prof, start, end]) => `INSERT INTO gnuhealth_appointment (id, patient, healthprof, appointment_date, appointment_date_end, state) VALUES (${id}, 1, ${prof}, '${start}', '${end}', 'confirmed');`).join('\n')}
${seed.shifts.map(([prof, start, end], i) => `INSERT INTO gnuhealth_work_shift (id, healthprof, shift_start, shift_end) VALUES (${i + 1}, ${prof}, '${start}', '${end}');`).join('\n')}
${seed.leave.map(([prof, from, to], i) => `INSERT INTO gnuhealth_leave (id, healthprof, leave_from, leave_to) VALUES (${i + 1}, ${prof}, '${from}', '${to}');`).join('\n')}
`
}

const START_LINE = '    start: { datetime: appointment_date }'

function mapping (timezone: string): string {
  return `version: 1
installation: gnu-health-like
timezone: ${timezone}
storedIn: UTC
phone: { defaultCountry: BR }
states:
  values: [WAITING, CONFIRMED, CANCELED]
resources:
  appointment:
    table: gnuhealth_appointment
    key: id
${START_LINE}
    end: { datetime: appointment_date_end }
    state: { column: state, map: { scheduled: WAITING, confirmed: CONFIRMED, cancelled: CANCELED } }
    refs: { client: patient, professional: healthprof }
    write:
      key: { generate: max }
      set:
        create_date: { now: datetime }
  client:
    table: party_party
    key: id
    fields: { name: name }
    phones: [phone]
    write: { key: { generate: max } }
  professional:
    table: gnuhealth_healthprofessional
    key: id
    fields: { name: name }
availability:
  slotMinutes: 30
  dated:
    table: gnuhealth_work_shift
    professional: healthprof
    start: { column: shift_start, format: datetime }
    end: { column: shift_end, format: datetime }
  blocks:
    table: gnuhealth_leave
    professional: healthprof
    from: { column: leave_from, format: datetime }
    to: { column: leave_to, format: datetime }
`
}

// São Paulo keeps UTC-3 all year. Stored values are UTC; the comments give the clinic's clock.
const SAO_PAULO: Seed = {
  appointments: [
    [1, 7, '2031-03-10 01:00:00', '2031-03-10 01:30:00'], // 09th 22:00: UTC says the 10th
    [2, 7, '2031-03-10 12:00:00', '2031-03-10 12:30:00'], // 10th 09:00
    [3, 7, '2031-03-11 02:30:00', '2031-03-11 03:00:00'], // 10th 23:30 until midnight: UTC says the 11th
    [4, 7, '2031-03-11 04:00:00', '2031-03-11 04:30:00'], // 11th 01:00
    [5, 7, '2031-03-13 01:30:00', '2031-03-13 02:00:00'] // 12th 22:30, inside the evening shift
  ],
  shifts: [[7, '2031-03-12 23:00:00', '2031-03-13 02:00:00']], // 12th 20:00–23:00
  leave: [[7, '2031-03-13 00:00:00', '2031-03-13 01:00:00']] // 12th 21:00–22:00
}

// New York moves its clocks forward on Sunday 2031-03-09 at 02:00 (UTC-5 → UTC-4).
const NEW_YORK: Seed = {
  appointments: [
    [1, 7, '2031-03-09 00:30:00', '2031-03-09 01:00:00'], // 8th 19:30 EST
    [2, 7, '2031-03-09 23:30:00', '2031-03-10 00:00:00'], // 9th 19:30 EDT
    [3, 7, '2031-03-10 04:30:00', '2031-03-10 05:00:00'] // 10th 00:30 EDT
  ],
  shifts: [[7, '2031-03-08 13:00:00', '2031-03-08 14:00:00'], [7, '2031-03-09 12:00:00', '2031-03-09 13:00:00']], // 08:00–09:00 on both days
  leave: []
}

// Chicago moves its clocks forward on Sunday 2027-03-14 at 02:00 (CST UTC-6 → CDT UTC-5):
// 02:00–03:00 never shows. It falls back on 2027-11-07 at 02:00: 01:00–02:00 shows twice.
const CHICAGO: Seed = {
  appointments: [[1, 7, '2027-03-12 16:00:00', '2027-03-12 16:30:00']], // 12th 10:00 CST
  shifts: [
    [7, '2027-03-13 07:00:00', '2027-03-13 10:00:00'], // 13th 01:00–04:00 CST
    [7, '2027-03-14 07:00:00', '2027-03-14 09:00:00'], // 14th 01:00 CST–04:00 CDT, two hours long
    [7, '2027-11-07 06:00:00', '2027-11-07 09:00:00'] // 7 Nov 01:00 CDT–03:00 CST, three hours long
  ],
  leave: []
}

/** A stored date-time as its text, whichever way the side connection hands it back. */
function stored (x: unknown): string {
  if (!(x instanceof Date)) return String(x).slice(0, 19).replace('T', ' ')
  const p = (n: number): string => String(n).padStart(2, '0')
  return `${x.getFullYear()}-${p(x.getMonth() + 1)}-${p(x.getDate())} ${p(x.getHours())}:${p(x.getMinutes())}:${p(x.getSeconds())}`
}

async function day (s: ServerScratch, date: string): Promise<string[]> {
  const res = await s.call('GET', `/appointments?start=${date}&end=${date}&minimal=true`)
  if (res.status !== 200) throw new Error(JSON.stringify(res.body))
  return res.body.map((a: { id: string, date: string, hour: string, endHour?: string }) => `${a.id} ${a.date} ${a.hour}-${a.endHour ?? ''}`)
}

async function offered (s: ServerScratch, date: string): Promise<string[]> {
  const res = await s.call('GET', `/availability?start=${date}&end=${date}&professional=7`)
  if (res.status !== 200) throw new Error(JSON.stringify(res.body))
  return res.body.map((slot: { date: string, hour: string }) => `${slot.date} ${slot.hour}`)
}

async function storedStart (s: ServerScratch, id: string): Promise<Record<string, string>> {
  const [row] = await s.rows(`SELECT appointment_date, appointment_date_end, create_date FROM gnuhealth_appointment WHERE id = ${Number(id)}`)
  return { start: stored(row?.appointment_date), end: stored(row?.appointment_date_end), created: stored(row?.create_date) }
}

for (const dialect of testDialects()) {
  t.test(dialect, async (t) => {
    t.test('São Paulo over UTC: each appointment on its clinic date and hour', async (t) => {
      const s = await scratchOn(t, dialect, schema(dialect, SAO_PAULO), mapping('America/Sao_Paulo'))
      t.same(await day(s, '2031-03-09'), ['1 2031-03-09 22:00-22:30'], 'an evening stored on the next UTC day')
      t.same(await day(s, '2031-03-10'), ['2 2031-03-10 09:00-09:30', '3 2031-03-10 23:30-00:00'], 'the 10th holds its own evening, not the 9th\'s')
      t.same(await day(s, '2031-03-11'), ['4 2031-03-11 01:00-01:30'])
      const one = await s.call('GET', '/appointments/3')
      t.match(one.body, { date: '2031-03-10', hour: '23:30', endHour: '00:00' }, 'details agree with the list')
    })

    t.test('São Paulo over UTC: /availability offers the shift on the clinic clock, minus leave and bookings', async (t) => {
      const s = await scratchOn(t, dialect, schema(dialect, SAO_PAULO), mapping('America/Sao_Paulo'))
      t.same(await offered(s, '2031-03-12'), ['2031-03-12 20:00', '2031-03-12 20:30', '2031-03-12 22:00'], '21:00–22:00 on leave, 22:30 booked')
      t.same(await offered(s, '2031-03-13'), [], 'the shift ends on the 12th at the clinic, though UTC says the 13th')
    })

    t.test('leave typed on the clinic clock beside UTC appointments: blocks.storedIn keeps it unconverted', async (t) => {
      // The same leave, 21:00–22:00 on the 12th, as the desk types it in São Paulo time.
      const local: Seed = { ...SAO_PAULO, leave: [[7, '2031-03-12 21:00:00', '2031-03-12 22:00:00']] }
      const own = mapping('America/Sao_Paulo').replace('    to: { column: leave_to, format: datetime }\n', '    to: { column: leave_to, format: datetime }\n    storedIn: America/Sao_Paulo\n')
      const s = await scratchOn(t, dialect, schema(dialect, local), own)
      t.same(await offered(s, '2031-03-12'), ['2031-03-12 20:00', '2031-03-12 20:30', '2031-03-12 22:00'], 'the same hours blocked as the UTC leave: 21:00–22:00')
      const booked = await s.call('POST', '/appointments', { date: '2031-03-12', hour: '21:00', client: '1', professional: '7' })
      t.equal(booked.status, 409, 'a booking into the leave is refused')
      t.same(await s.rows('SELECT COUNT(*) AS n FROM gnuhealth_appointment'), [{ n: 5 }], 'nothing written')
      // Read as UTC (without the source's storedIn), the same rows would block 18:00–19:00, outside the shift.
      const asUtc = await scratchOn(t, dialect, schema(dialect, local), mapping('America/Sao_Paulo'))
      t.same(await offered(asUtc, '2031-03-12'), ['2031-03-12 20:00', '2031-03-12 20:30', '2031-03-12 21:00', '2031-03-12 21:30', '2031-03-12 22:00'], 'without it the leave falls three hours early and blocks nothing of the shift')
    })

    t.test('São Paulo over UTC: a booking and a move are written as UTC instants', async (t) => {
      const s = await scratchOn(t, dialect, schema(dialect, SAO_PAULO), mapping('America/Sao_Paulo'))
      const booked = await s.call('POST', '/appointments', { date: '2031-03-12', hour: '22:00', client: '1', professional: '7' })
      t.equal(booked.status, 200, JSON.stringify(booked.body))
      t.match(booked.body, { date: '2031-03-12', hour: '22:00', endHour: '22:30' }, 'answered on the clinic clock')
      const row = await storedStart(s, booked.body.id)
      t.same([row.start, row.end], ['2031-03-13 01:00:00', '2031-03-13 01:30:00'], 'stored as UTC: the next day')
      const created = Date.parse(`${row.created.replace(' ', 'T')}Z`)
      t.ok(Math.abs(created - Date.now()) < 5 * 60_000, `now: datetime is UTC's now (${row.created})`)
      t.same(await offered(s, '2031-03-12'), ['2031-03-12 20:00', '2031-03-12 20:30'], 'the booked slot is no longer offered')
      const taken = await s.call('POST', '/appointments', { date: '2031-03-12', hour: '22:30', client: '1', professional: '7' })
      t.equal(taken.status, 409, 'a slot held by a UTC row is taken')

      const moved = await s.call('PATCH', `/appointments/${booked.body.id as string}/time`, { date: '2031-03-12', hour: '20:30' })
      t.equal(moved.status, 200, JSON.stringify(moved.body))
      const after = await storedStart(s, booked.body.id)
      t.same([after.start, after.end], ['2031-03-12 23:30:00', '2031-03-13 00:00:00'], 'the move is stored as UTC too')
      t.same(await day(s, '2031-03-12'), [`${booked.body.id as string} 2031-03-12 20:30-21:00`, '5 2031-03-12 22:30-23:00'], 'and read back on the clinic clock')
      const outside = await s.call('POST', '/appointments', { date: '2031-03-13', hour: '01:00', client: '1', professional: '7' })
      t.equal(outside.status, 409, 'the UTC hour of a shift is not a clinic hour of it')
    })

    t.test('New York over UTC: the day clocks move forward is 23 hours long', async (t) => {
      const s = await scratchOn(t, dialect, schema(dialect, NEW_YORK), mapping('America/New_York'))
      t.same(await day(s, '2031-03-08'), ['1 2031-03-08 19:30-20:00'], 'EST: UTC-5')
      t.same(await day(s, '2031-03-09'), ['2 2031-03-09 19:30-20:00'], 'EDT: UTC-4, on the day of the change')
      t.same(await day(s, '2031-03-10'), ['3 2031-03-10 00:30-01:00'])
      t.same(await offered(s, '2031-03-08'), ['2031-03-08 08:00', '2031-03-08 08:30'], 'a winter shift at 13:00 UTC')
      t.same(await offered(s, '2031-03-09'), ['2031-03-09 08:00', '2031-03-09 08:30'], 'a summer shift at 12:00 UTC')
      const booked = await s.call('POST', '/appointments', { date: '2031-03-09', hour: '08:30', client: '1', professional: '7' })
      t.equal(booked.status, 200, JSON.stringify(booked.body))
      t.same((await storedStart(s, booked.body.id)).start, '2031-03-09 12:30:00', 'EDT is UTC-4 from that morning')
      const winter = await s.call('PATCH', `/appointments/${booked.body.id as string}/time`, { date: '2031-03-08', hour: '08:00' })
      t.equal(winter.status, 200, JSON.stringify(winter.body))
      t.same((await storedStart(s, booked.body.id)).start, '2031-03-08 13:00:00', 'the day before, UTC-5')
    })

    t.test('Chicago over UTC: the hour clocks skip is never offered nor booked', async (t) => {
      const s = await scratchOn(t, dialect, schema(dialect, CHICAGO), mapping('America/Chicago'))
      const rows = async (): Promise<string[]> => (await s.rows('SELECT id, appointment_date, appointment_date_end FROM gnuhealth_appointment ORDER BY id')).map((r) => `${String(r.id)} ${stored(r.appointment_date)} ${stored(r.appointment_date_end)}`)
      const hours = (date: string, list: string[]): string[] => list.map((h) => `${date} ${h}`)
      t.same(await offered(s, '2027-03-13'), hours('2027-03-13', ['01:00', '01:30', '02:00', '02:30', '03:00', '03:30']), 'the day before: every half hour from 01:00 to 04:00')
      t.same(await offered(s, '2027-03-14'), hours('2027-03-14', ['01:00', '03:00', '03:30']), 'no start in 02:00–03:00, nor 01:30, which would end at 02:00')
      const before = await rows()

      const gap = await s.call('POST', '/appointments', { date: '2027-03-14', hour: '02:30', client: '1', professional: '7' })
      t.equal(gap.status, 400, JSON.stringify(gap.body))
      t.same(gap.body.errors, [{ path: '/body/hour', message: '02:30 does not exist on 2027-03-14 in America/Chicago: clocks go forward' }], 'named at hour, saying why')
      const ending = await s.call('POST', '/appointments', { date: '2027-03-14', hour: '01:30', client: '1', professional: '7' })
      t.equal(ending.status, 400, JSON.stringify(ending.body))
      t.match(ending.body.errors, [{ path: '/body/hour', message: /would end at 02:00 on 2027-03-14, which does not exist in America\/Chicago/ }], 'an end in the gap too')
      const moved = await s.call('PATCH', '/appointments/1/time', { date: '2027-03-14', hour: '02:00' })
      t.equal(moved.status, 400, JSON.stringify(moved.body))
      t.match(moved.body.errors, [{ path: '/body/hour', message: /^02:00 does not exist on 2027-03-14/ }], 'a move into the gap')
      t.same(await rows(), before, 'nothing written')

      const after = await s.call('POST', '/appointments', { date: '2027-03-14', hour: '03:00', client: '1', professional: '7' })
      t.equal(after.status, 200, JSON.stringify(after.body))
      t.same((await storedStart(s, after.body.id)).start, '2027-03-14 08:00:00', 'the hour after the gap is CDT')
    })

    t.test('Chicago over UTC: a repeated hour is its first occurrence', async (t) => {
      const s = await scratchOn(t, dialect, schema(dialect, CHICAGO), mapping('America/Chicago'))
      t.same(await offered(s, '2027-11-07'), ['01:00', '01:30', '02:00', '02:30'].map((h) => `2027-11-07 ${h}`), 'the wall clock\'s 01:00–03:00, each start once')
      const booked = await s.call('POST', '/appointments', { date: '2027-11-07', hour: '01:30', client: '1', professional: '7' })
      t.equal(booked.status, 200, JSON.stringify(booked.body))
      const row = await storedStart(s, booked.body.id)
      t.same([row.start, row.end], ['2027-11-07 06:30:00', '2027-11-07 08:00:00'], 'starts at the first 01:30 (CDT), ends at 02:00 CST')
      t.match(await day(s, '2027-11-07'), [`${booked.body.id as string} 2027-11-07 01:30-02:00`], 'read back as booked')
    })

    t.test('Chicago on its own clock: the skipped hour is refused without storedIn too', async (t) => {
      const s = await scratchOn(t, dialect, schema(dialect, CHICAGO), mapping('America/Chicago').replace('storedIn: UTC\n', ''))
      const gap = await s.call('POST', '/appointments', { date: '2027-03-14', hour: '02:30', client: '1', professional: '7' })
      t.equal(gap.status, 400, JSON.stringify(gap.body))
      t.same(gap.body.errors, [{ path: '/body/hour', message: '02:30 does not exist on 2027-03-14 in America/Chicago: clocks go forward' }])
      t.same((await s.rows('SELECT id FROM gnuhealth_appointment')).length, 1, 'nothing written')
    })

    t.test('check passes the UTC mapping: every statement and write path', async (t) => {
      const s = await scratchOn(t, dialect, schema(dialect, SAO_PAULO), mapping('America/Sao_Paulo'))
      const report = await checkOf(t, s.url, mapping('America/Sao_Paulo'))
      t.ok(report.ok, report.lines.join('\n'))
    })
  })
}

t.test('a mapping storedIn another zone is refused where it cannot be converted', async (t) => {
  const refused = (yaml: string): string => {
    try {
      compileMapping(buildModel(parseMapping(yaml, 'utc.yaml')), sqlite)
      return 'compiled'
    } catch (err) {
      return (err as Error).message
    }
  }
  const split = mapping('America/Sao_Paulo').replace(START_LINE, '    start: { date: { column: appointment_date, format: date }, hour: { column: appointment_date, format: text } }')
  t.match(refused(split), /utc\.yaml:\d+:\d+: \/resources\/appointment\/start: .*stored on the clock of UTC \(storedIn\).*date can change/, 'a date and an hour kept apart, named at start')
  t.match(refused(mapping('America/Sao_Paulo').replace('storedIn: UTC', 'storedIn: Mars/Olympus')), /\/storedIn: `Mars\/Olympus` is not an IANA time zone/)
  t.match(refused(mapping('Brazil/Nowhere')), /\/timezone: `Brazil\/Nowhere` is not an IANA time zone/)
  t.match(refused(mapping('America/Sao_Paulo').replace('    to: { column: leave_to, format: datetime }\n', '    to: { column: leave_to, format: datetime }\n    storedIn: Local/Desk\n')),
    /utc\.yaml:\d+:\d+: \/availability\/blocks\/storedIn: `Local\/Desk` is not an IANA time zone/, 'a source\'s own zone checked at its line')
  t.equal(refused(split.replace('storedIn: UTC', 'storedIn: America/Sao_Paulo')), 'compiled', 'the clinic\'s own zone converts nothing, so a split start is fine')
  const splitShift = (yaml: string, own?: string): string => yaml.replace('    start: { column: shift_start, format: datetime }\n    end: { column: shift_end, format: datetime }\n',
    `    date: { column: shift_start, format: date }\n    start: { column: shift_start, format: time }\n    end: { column: shift_end, format: time }\n${own === undefined ? '' : `    storedIn: ${own}\n`}`)
  t.equal(refused(splitShift(mapping('America/Sao_Paulo'), 'America/Sao_Paulo')), 'compiled', 'shifts on the clinic\'s clock beside UTC appointments: a date and hours apart are fine')
  t.match(refused(splitShift(mapping('America/Sao_Paulo'))), /\/availability\/dated\/date: .*stored on the clock of UTC/, 'under the installation\'s UTC they are not')
  t.match(refused(splitShift(mapping('America/Sao_Paulo').replace('storedIn: UTC\n', ''), 'UTC')), /\/availability\/dated\/date: .*stored on the clock of UTC/, 'nor under the source\'s own UTC')
  t.match(refused(mapping('America/Sao_Paulo').replace('    to: { column: leave_to, format: datetime }\n', '    to: { column: leave_to, format: datetime }\n    start: { column: leave_from, format: time }\n    storedIn: Europe/Lisbon\n')),
    /\/availability\/blocks\/start: a block's start is stored on the clock of Europe\/Lisbon/, 'a block on its own clock with hours apart from its dates')
})

t.test('the SQL is the same with and without storedIn on every dialect: the bounds are converted, never the column', async (t) => {
  const utc = mapping('America/Sao_Paulo')
  const local = utc.replace('storedIn: UTC\n', '')
  for (const name of EXPLAIN_DIALECTS) {
    const dialect = await explainDialect(name)
    const [zoned, plain] = [utc, local].map((yaml) => compileMapping(buildModel(parseMapping(yaml, 'utc.yaml')), dialect))
    t.same(zoned!.statements().map((s) => s.sql), plain!.statements().map((s) => s.sql), `${name}: every statement`)
    if (name.startsWith('mssql')) {
      const errors = zoned!.statements().flatMap((s) => parseTsqlScript(s.sql).errors.map((e) => `${s.name}: ${e}`))
      t.same(errors, [], `${name}: the T-SQL grammar parses every statement`)
    }
    const list = zoned!.appointments({ filters: [], minimal: true }).bind({ from: '2031-03-10', to: '2031-03-10' })
    t.match(list?.args, { fromDatetime: '2031-03-10 03:00:00', afterDatetime: '2031-03-11 03:00:00' }, `${name}: a clinic day is 03:00 to 03:00 UTC`)
    t.match(list?.statement.sql, /appointment_date[\]"`] >= \+?[@$?]\w*(\/\*p1\*\/)? AND \S+appointment_date[\]"`] < /, `${name}: the column compared bare`)
  }
})
