// Issue 27 item 14, on every test database: appointments and shifts that run past midnight
// (docs/decisions/overnight.md). An end hour earlier than the start is the next day's: read so
// from a date + start + end time schema (and from start and end datetimes), listed on the day
// it starts, holding the next day's first minutes for /availability and booking alike; a
// night shift 22:00 → 06:00 offers both dates' slots on one grid; a booking across midnight
// writes the start's date with both hours, and one overlapping across the boundary is refused
// with nothing written (test/helpers/overnight-hospital.ts).
import t from 'tap'
import { testDialects } from '../helpers/contract.js'
import { fixtureInstallation, type FixtureApp } from '../helpers/fixture-installation.js'
import { HOSPITAL, OVERNIGHT_MAPPING, overnightHospitalFixture } from '../helpers/overnight-hospital.js'
import { NIGHT_MAPPING, nightClinicFixture } from '../helpers/night-clinic.js'
import { tableContents } from '../helpers/table-contents.js'

const show = (s: any): string => `${s.date} ${s.hour}-${s.endHour} ${s.professional.id}`
/** Half-hour slots from `from` for `n` slots, as `show` prints them (wrapping at midnight onto `nextDate`). */
function halfHours (date: string, from: string, n: number, professional: string, nextDate?: string): string[] {
  const out: string[] = []
  let m = Number(from.slice(0, 2)) * 60 + Number(from.slice(3))
  for (let i = 0; i < n; i++, m += 30) {
    const day = m >= 1440 ? nextDate as string : date
    const hh = (x: number): string => `${String(Math.floor((x % 1440) / 60)).padStart(2, '0')}:${String(x % 60).padStart(2, '0')}`
    out.push(`${day} ${hh(m)}-${hh(m + 30)} ${professional}`)
  }
  return out
}

/** The stored row of an appointment, as the hospital's own program sees it. */
async function storedRow (a: FixtureApp, id: string): Promise<{ dia: string, entrada: string, saida: string, crm: number, prontuario: number } | undefined> {
  const d = a.inst.db.dialect
  const rows = await a.inst.db.query({
    name: 'test.atendimento',
    sql: `SELECT ${['dia', 'entrada', 'saida', 'crm', 'prontuario'].map((c) => d.ident(c)).join(', ')} FROM ${d.table('atendimento')} WHERE ${d.ident('num_atend')} = ${d.placeholder(1)}`,
    params: [{ type: 'int', source: { input: 'id' } }]
  }, { id: Number(id) })
  const r = rows[0]
  if (!r) return undefined
  const day = r.dia instanceof Date ? `${r.dia.getFullYear()}-${String(r.dia.getMonth() + 1).padStart(2, '0')}-${String(r.dia.getDate()).padStart(2, '0')}` : String(r.dia).slice(0, 10)
  return { dia: day, entrada: String(r.entrada).slice(0, 5), saida: String(r.saida).slice(0, 5), crm: Number(r.crm), prontuario: Number(r.prontuario) }
}

for (const dialect of testDialects()) {
  t.test(`on ${dialect}`, async (t) => {
    const a = await fixtureInstallation(t, dialect, overnightHospitalFixture(), OVERNIGHT_MAPPING)

    t.test('an appointment 23:00 → 00:30 is read so, and listed on the day it starts', async (t) => {
      const one = await a.get('/appointments/1')
      t.equal(one.status, 200)
      t.match(one.body, { date: HOSPITAL.night1, hour: '23:00', endHour: '00:30' }, 'endHour earlier than hour: the next day\'s')
      const night = await a.get(`/appointments?start=${HOSPITAL.night1}&end=${HOSPITAL.night1}`)
      t.same(night.body.map((x: any) => x.id), ['1'], 'listed on its start date')
      const morning = await a.get(`/appointments?start=${HOSPITAL.morning1}&end=${HOSPITAL.morning1}`)
      t.same(morning.body, [], 'not on the next date as well: one appointment, one date')
    })

    t.test('/availability: a night shift on one grid across midnight, minus what crosses it', async (t) => {
      const both = await a.get(`/availability?start=${HOSPITAL.night1}&end=${HOSPITAL.morning1}&professional=501`)
      t.equal(both.status, 200)
      t.same(both.body.map(show), [
        ...halfHours(HOSPITAL.night1, '22:00', 2, '501'), // 23:00 and 23:30 taken by the appointment
        ...halfHours(HOSPITAL.morning1, '00:30', 11, '501') // 00:00 taken by its last half hour; the shift ends 06:00
      ])
      const morning = await a.get(`/availability?start=${HOSPITAL.morning1}&end=${HOSPITAL.morning1}&professional=501`)
      t.same(morning.body.map(show), halfHours(HOSPITAL.morning1, '00:30', 11, '501'), 'the morning asked alone: the shift and the appointment of the night before still count')
      const nightOnly = await a.get(`/availability?start=${HOSPITAL.night1}&end=${HOSPITAL.night1}&professional=502`)
      t.same(nightOnly.body.map(show), halfHours(HOSPITAL.night1, '22:00', 4, '502'), 'the night asked alone: its own date only, the last slot ending at 00:00')

      const long = await a.get(`/availability?start=${HOSPITAL.night2}&end=${HOSPITAL.morning2}&professional=501&service=${HOSPITAL.observation}`)
      t.same(long.body.map(show), [
        `${HOSPITAL.night2} 22:00-23:30 501`, `${HOSPITAL.night2} 23:30-01:00 501`,
        `${HOSPITAL.morning2} 01:00-02:30 501`, `${HOSPITAL.morning2} 02:30-04:00 501`, `${HOSPITAL.morning2} 04:00-05:30 501`
      ], '90 minutes: one slot runs past midnight (endHour before hour), the grid goes on into the next date')

      const handover = await a.get(`/availability?start=${HOSPITAL.night3}&end=${HOSPITAL.morning3}&professional=501`)
      t.same(handover.body.map(show), [...halfHours(HOSPITAL.night3, '22:00', 2, '501'), ...halfHours(HOSPITAL.morning3, '01:00', 10, '501')],
        'a block from 23:00 to 01:00 takes both dates\' time')
    })

    t.test('booking across midnight writes both hours on the start\'s date; overlaps across it are refused', async (t) => {
      const booked = await a.call('POST', '/appointments', { date: HOSPITAL.night2, hour: '23:30', client: '2', professional: '501', service: HOSPITAL.observation })
      t.equal(booked.status, 200, JSON.stringify(booked.body))
      t.match(booked.body, { date: HOSPITAL.night2, hour: '23:30', endHour: '01:00' }, 'the answer: 23:30 → 01:00')
      t.same(await storedRow(a, booked.body.id), { dia: HOSPITAL.night2, entrada: '23:30', saida: '01:00', crm: 501, prontuario: 2 }, 'stored: the start\'s date, both hours')
      t.match((await a.get(`/appointments/${booked.body.id as string}`)).body, { date: HOSPITAL.night2, hour: '23:30', endHour: '01:00' }, 'read back so')

      const early = await a.call('POST', '/appointments', { date: HOSPITAL.morning4, hour: '00:30', client: '2', professional: '501' })
      t.equal(early.status, 200, 'a half hour just after a midnight')

      const before = await tableContents(a.inst.db)
      const refused: [object, string, string][] = [
        [{ date: HOSPITAL.morning2, hour: '00:30', client: '1', professional: '501' }, '/body/date', 'the doctor\'s next-day half hour the booking holds'],
        [{ date: HOSPITAL.night4, hour: '23:30', client: '1', professional: '501', service: HOSPITAL.observation }, '/body/date', '23:30 → 01:00 would run into the next date\'s 00:30'],
        [{ date: HOSPITAL.morning2, hour: '00:00', client: '2', professional: '502' }, '/body/client', 'the client is in observation until 01:00'],
        [{ date: HOSPITAL.morning2, hour: '05:30', client: '1', professional: '501', service: HOSPITAL.observation }, '/body/date', 'past the shift\'s end at 06:00'],
        [{ date: HOSPITAL.morning3, hour: '00:30', client: '1', professional: '501' }, '/body/date', 'inside the handover 23:00 → 01:00']
      ]
      for (const [body, path, why] of refused) {
        const r = await a.call('POST', '/appointments', body)
        t.equal(r.status, 409, `409: ${why}`)
        t.ok(r.body?.errors?.some((e: any) => e.path === path), `it names ${path}`) || t.same(r.body, {})
      }
      t.same(await tableContents(a.inst.db), before, 'nothing written by the refusals')

      const after = await a.call('POST', '/appointments', { date: HOSPITAL.morning2, hour: '01:00', client: '1', professional: '501' })
      t.equal(after.status, 200, `the first free half hour after it, on the next date: ${JSON.stringify(after.body)}`)
      t.same(await storedRow(a, after.body.id), { dia: HOSPITAL.morning2, entrada: '01:00', saida: '01:30', crm: 501, prontuario: 1 }, 'stored on its own date')
      const left = await a.get(`/availability?start=${HOSPITAL.night2}&end=${HOSPITAL.morning2}&professional=501`)
      t.same(left.body.map(show), [...halfHours(HOSPITAL.night2, '22:00', 3, '501'), ...halfHours(HOSPITAL.morning2, '01:30', 9, '501')], 'no longer offered, on either date')
    })

    t.test('two bookings racing across a midnight: exactly one is written', async (t) => {
      // One runs past the midnight, the other starts after it: each claims a day they share.
      for (const [night, morning] of [[HOSPITAL.night2, HOSPITAL.morning2], [HOSPITAL.night3, HOSPITAL.morning3]]) {
        const [late, early] = await Promise.all([
          a.call('POST', '/appointments', { date: night, hour: '23:30', client: '1', professional: '502', service: HOSPITAL.observation }),
          a.call('POST', '/appointments', { date: morning, hour: '00:00', client: '3', professional: '502' })
        ])
        t.same([late.status, early.status].sort(), [200, 409], `${night} 23:30 → 01:00 against ${morning} 00:00: one 200, one 409`)
        const won = late.status === 200 ? late : early
        t.ok(await storedRow(a, won.body.id), 'the one accepted is stored')
      }
    })

    t.test('rescheduling across midnight keeps the length and writes the next day\'s end', async (t) => {
      const booked = await a.call('POST', '/appointments', { date: HOSPITAL.night4, hour: '22:00', client: '1', professional: '502', service: HOSPITAL.observation })
      t.equal(booked.status, 200, JSON.stringify(booked.body))
      const moved = await a.call('PATCH', `/appointments/${booked.body.id as string}/time`, { date: HOSPITAL.night4, hour: '23:30' })
      t.equal(moved.status, 200, JSON.stringify(moved.body))
      t.same(await storedRow(a, booked.body.id), { dia: HOSPITAL.night4, entrada: '23:30', saida: '01:00', crm: 502, prontuario: 1 }, 'stored 23:30 → 01:00')
      const clash = await a.call('POST', '/appointments', { date: HOSPITAL.morning4, hour: '00:30', client: '2', professional: '502' })
      t.equal(clash.status, 409, 'its next-day half hours are taken')
    })
  })
}

for (const dialect of testDialects()) {
  t.test(`start and end datetimes on ${dialect}`, async (t) => {
    // The night clinic's appointments keep two datetimes: one ending on the next date past 00:00 reads so.
    const a = await fixtureInstallation(t, dialect, nightClinicFixture({ consulta: [[2, 1, 2, '2031-03-11 23:00:00', '2031-03-12 00:30:00', 'A'], [3, 1, 2, '2031-03-18 21:00:00', '2031-03-18 20:30:00', 'A']] }), NIGHT_MAPPING)
    t.match((await a.get('/appointments/2')).body, { date: '2031-03-11', hour: '23:00', endHour: '00:30' }, 'an end on the next date: the next day\'s hour')
    t.same((await a.get('/appointments?start=2031-03-12&end=2031-03-12')).body, [], 'listed on its start date only')
    t.notOk('endHour' in (await a.get('/appointments/3')).body, 'an end on the same date before its start tells no end (never read as a day long)')
  })
}
