// Schedules as clinics keep them, on the generated "Clínica Andina" installation
// (test/helpers/schedules-installation.ts): datetime holidays, a half day, absences, a unit's closures,
// slot-holding rows of the appointment table, pattern-string lengths, a self-referencing
// column. What /availability does not offer, booking refuses, and the other way round.
import t from 'tap'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import {
  ABSENCE, CLOSURE, HALF_DAY, HOLDING_ROWS, HOLIDAY, NIGHT_CLOSURE, PARTIAL_ABSENCE, SCHEDULES_MAPPING, schedulesInstallation, schedulesSql
} from '../../helpers/schedules-installation.js'
import { openInstallation } from '../../../src/installation.js'
import { checkInstallation } from '../../../src/check/index.js'
import { scratchInstallation } from '../../helpers/scratch.js'
import { blockedOn, hourOfMinutes } from '../../../src/services/slots.js'
import { lengthPattern } from '../../../src/mapping/compile/derived.js'

const hm = (h: string): number => Number(h.slice(0, 2)) * 60 + Number(h.slice(3, 5))
const overlaps = (s: { hour: string, endHour: string }, from: string, to: string): boolean => hm(s.hour) < hm(to) && hm(from) < hm(s.endHour)
const key = (s: any): string => `${s.date} ${s.hour}-${s.endHour} ${s.professional.id}@${s.location?.id ?? '-'}`

t.test('blocks from every source, each with its scope', async (t) => {
  const { get, call } = await schedulesInstallation(t)
  const { status, body: all } = await get('/availability?start=2027-12-01&end=2027-12-31')
  t.equal(status, 200)
  t.ok(all.length > 300, `the month has slots (${all.length})`)
  const on = (date: string, professional?: string) => all.filter((s: any) => s.date === date && (professional === undefined || s.professional.id === professional))

  t.same(on(HOLIDAY).map(key), [], `nobody on ${HOLIDAY} (a datetime block 00:00…23:59:00)`)
  t.ok(on('2027-12-18', '2').length > 0, 'a Saturday without holiday has slots (so the holiday is what removes them)')
  const eve = on(HALF_DAY.date)
  t.ok(eve.some((s: any) => s.hour === '08:00'), `the morning of ${HALF_DAY.date} is offered`)
  t.same(eve.filter((s: any) => overlaps(s, HALF_DAY.from, HALF_DAY.to)).map(key), [], `nothing from ${HALF_DAY.from} to ${HALF_DAY.to}`)

  for (let d = ABSENCE.from; d <= ABSENCE.to; d = `2027-12-0${Number(d.slice(-1)) + 1}`) t.same(on(d, ABSENCE.professional).map(key), [], `professional ${ABSENCE.professional} is away on ${d}`)
  t.ok(on(ABSENCE.from, '2').length > 0, 'the others work')
  const partial = on(PARTIAL_ABSENCE.date, PARTIAL_ABSENCE.professional)
  t.same(partial.map((s: any) => s.hour), ['16:00', '16:30', '17:00', '17:30'], 'a partial absence takes only its hours')

  for (const d of [CLOSURE.from, CLOSURE.to]) {
    t.same(on(d).filter((s: any) => s.location?.id === CLOSURE.location).map(key), [], `unit ${CLOSURE.location} closed on ${d}: nobody there`)
    t.ok(on(d).some((s: any) => s.location?.id !== CLOSURE.location), `${d}: the other unit works`)
  }
  t.same(on(CLOSURE.to, '3').map(key), [], 'professional 3, at the closed unit on Tuesdays, has nothing that day')
  const [nightFrom, nightTo] = [NIGHT_CLOSURE.from.split(' '), NIGHT_CLOSURE.to.split(' ')]
  t.same(on(nightFrom[0], '1').map((s: any) => s.hour), ['08:00', '08:30', '09:00', '09:30', '10:00', '10:30', '11:00', '11:30', '13:00', '13:30', '14:00', '14:30'],
    `a closure from ${NIGHT_CLOSURE.from} takes that afternoon`)
  t.equal(on(nightTo[0], '1')[0]?.hour, '10:00', `… and the next morning until ${nightTo[1]}`)
  t.ok(on(nightTo[0], '3').length > 0, 'professional 3 at the other unit that morning is not affected')

  t.test('one day asked alone sees its datetime block', async (t) => {
    t.same((await get(`/availability?start=${HOLIDAY}&end=${HOLIDAY}`)).body, [])
    const eveAlone = (await get(`/availability?start=${HALF_DAY.date}&end=${HALF_DAY.date}`)).body
    t.same(eveAlone.map(key), eve.map(key))
  })

  t.test('booking what is not offered is a 409, on every source', async (t) => {
    const client = '1'
    const refused: [string, string, string, string?][] = [
      [HOLIDAY, '09:00', '2'],
      [HALF_DAY.date, '13:00', '1'],
      [HALF_DAY.date, '11:30', '1'], // 11:30-12:00 is fine … but with a 45-minute service it is not (below)
      [ABSENCE.from, '09:00', '1'],
      [PARTIAL_ABSENCE.date, '15:00', '3'],
      [CLOSURE.from, '10:00', '2'],
      [nightFrom[0], '15:30', '1'],
      [nightTo[0], '09:00', '1']
    ]
    for (const [date, hour, professional] of refused.filter((_, i) => i !== 2)) {
      const r = await call('POST', '/appointments', { date, hour, client, professional })
      t.equal(r.status, 409, `${date} ${hour} with ${professional}: ${JSON.stringify(r.body).slice(0, 120)}`)
    }
    const r = await call('POST', '/appointments', { date: HALF_DAY.date, hour: '11:30', client, professional: '1', service: '2' })
    t.equal(r.status, 409, 'a 45-minute service at 11:30 would run into the half-day block')
    const ok = await call('POST', '/appointments', { date: HALF_DAY.date, hour: '11:30', client, professional: '1' })
    t.equal(ok.status, 200, 'the 30-minute slot before the block is bookable')
    const moved = await call('PATCH', `/appointments/${ok.body.id}/time`, { date: HOLIDAY, hour: '09:00' })
    t.equal(moved.status, 409, 'nor can an appointment be moved onto a holiday')
  })
})

t.test('rows that hold a slot without being an appointment', async (t) => {
  const { get, call, raw } = await schedulesInstallation(t)
  for (const [id, professional, date, hour, minutes] of HOLDING_ROWS) {
    const slots = (await get(`/availability?start=${date}&end=${date}&professional=${professional}`)).body
    const end = `${String(Math.floor((hm(hour) + minutes) / 60)).padStart(2, '0')}:${String((hm(hour) + minutes) % 60).padStart(2, '0')}`
    t.ok(slots.length > 0, `professional ${professional} works on ${date}`)
    t.same(slots.filter((s: any) => overlaps(s, hour, end)).map(key), [], `row ${id} holds ${hour}-${end}: not offered`)
    t.equal((await call('POST', '/appointments', { date, hour, client: '2', professional })).status, 409, `row ${id}: not bookable`)
    const list = (await get(`/appointments?start=${date}&end=${date}`)).body
    t.notOk(list.some((a: any) => a.id === String(id)), `row ${id} is not listed as an appointment`)
    t.equal((await get(`/appointments/${id}`)).status, 404, `row ${id} has no detail`)
  }
  t.equal((raw.prepare('SELECT ESTADO FROM CITA WHERE ID_CITA = 9002').get() as any).ESTADO, 2, 'row 9002 carries the state code of a cancelled appointment, and still holds')
})

t.test('lengths kept as pattern strings', async (t) => {
  const { get, call, raw } = await schedulesInstallation(t)
  const services = (await get('/services')).body
  t.same(services.map((s: any) => [s.id, s.duration]), [['1', 30], ['2', 45], ['3', 15]], 'services read their length from the pattern')
  const slots = (await get('/availability?start=2027-12-15&end=2027-12-15&professional=1&service=2')).body
  t.ok(slots.length > 0 && slots.every((s: any) => hm(s.endHour) - hm(s.hour) === 45), '45-minute slots for the 45-minute service')
  const booked = await call('POST', '/appointments', { date: '2027-12-15', hour: slots[1].hour, client: '3', professional: '1', service: '2' })
  t.equal(booked.status, 200, JSON.stringify(booked.body).slice(0, 200))
  t.equal(booked.body.endHour, slots[1].endHour, 'endHour reads back 45 minutes later')
  const row = raw.prepare('SELECT PATRON, TIPO, INICIO FROM CITA WHERE ID_CITA = ?').get(Number(booked.body.id)) as any
  t.same(row, { PATRON: '/XXXXXXX/', TIPO: 'A', INICIO: `2027-12-15 ${slots[1].hour}:00` }, 'the 45-minute pattern is written as the legacy rows hold it')
  t.equal((await get(`/appointments/${booked.body.id}`)).body.endHour, slots[1].endHour)
  const after = (await get('/availability?start=2027-12-15&end=2027-12-15&professional=1')).body
  t.notOk(after.some((s: any) => overlaps(s, slots[1].hour, slots[1].endHour)), 'the booked 45 minutes are no longer offered')
})

t.test('a column holding the new row\'s own key', async (t) => {
  const { call, raw } = await schedulesInstallation(t)
  const created = await call('POST', '/clients', { name: 'Rosa Huamán', phone: '+51987654321' })
  t.equal(created.status, 200, JSON.stringify(created.body).slice(0, 200))
  t.equal(created.body.id, '13', 'the key table gave 13')
  t.same(raw.prepare('SELECT ID_PAC, ID_GARANTE FROM PACIENTE WHERE ID_PAC = 13').get(), { ID_PAC: 13, ID_GARANTE: 13 }, 'the patient is their own guarantor')
})

t.test('ponte check reads every block source and counts what it cannot read', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ponte-andina-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const db = new BetterSqlite3(join(dir, 'legacy.db'))
  db.exec(schedulesSql())
  db.exec("INSERT INTO FERIADO VALUES ('2027-12-31 00:00:00', '2027-12-31 23:59:00', 'Fin de año'), ('2027-12-31 08:00:00', 'mañana', 'sin fin legible')")
  db.close()
  writeFileSync(join(dir, 'mapping.yaml'), SCHEDULES_MAPPING)
  const inst = await openInstallation(join(dir, 'mapping.yaml'), `sqlite:${join(dir, 'legacy.db')}`)
  t.teardown(async () => { await inst.close() })
  const report = await checkInstallation(inst, '2027-12-15')
  const line = (name: string) => report.lines.find((l) => l.includes(`${name}:`)) ?? ''
  t.match(line('availability dated'), /^✓ availability dated: \d+ rows/)
  t.match(line('availability blocks[0]'), /^✗ \S*mapping\.yaml:\d+:\d+: availability blocks\[0\]: 1 of 4 rows .* cannot be read/, 'the holiday row with an unreadable end is counted')
  t.match(line('availability blocks[1]'), /^✓ availability blocks\[1\]: 2 rows/)
  t.match(line('availability blocks[2]'), /^✓ availability blocks\[2\]: 2 rows/)
  t.notOk(report.ok)
})

t.test('blockedOn: exact datetime blocks, the end of the day, location scope', async (t) => {
  const show = (xs: { start: number, end: number }[]) => xs.map((s) => `${hourOfMinutes(s.start)}-${hourOfMinutes(s.end)}`)
  const across = { from: '2027-12-20', to: '2027-12-22', start: '15:00', end: '10:00', exact: true, location: '1' }
  t.same(show(blockedOn('2027-12-20', '7', [across], '1')), ['15:00-24:00'], 'the first day from its start')
  t.same(show(blockedOn('2027-12-21', '7', [across], '1')), ['00:00-24:00'], 'the days between whole')
  t.same(show(blockedOn('2027-12-22', '7', [across], '1')), ['00:00-10:00'], 'the last day until its end')
  t.same(blockedOn('2027-12-21', '7', [across], '2'), [], 'another location is open')
  t.same(show(blockedOn('2027-12-21', '7', [across])), ['00:00-24:00'], 'a slot whose location is unknown is taken to be there')
  t.same(show(blockedOn('2027-12-25', '7', [{ from: '2027-12-25', to: '2027-12-25', start: '00:00', end: '23:59', exact: true }])), ['00:00-24:00'], '23:59 is the end of the day')
  t.same(show(blockedOn('2027-12-07', '7', [{ from: '2027-12-06', to: '2027-12-08', start: '14:00', end: '16:00' }])), ['14:00-16:00'], 'date bounds: the hours on each day')
  const typedAsDate = { from: '2027-01-11', to: '2027-01-11', start: '00:00', end: '00:00', exact: true }
  t.same(show(blockedOn('2027-01-11', '7', [typedAsDate])), ['00:00-24:00'], 'a date in a datetime column (midnight to the same midnight): the whole day')
  t.same(blockedOn('2027-01-12', '7', [typedAsDate]), [], '… and only that day')
  t.same(show(blockedOn('2027-01-11', '7', [{ ...typedAsDate, to: '2027-01-12' }])), ['00:00-24:00'], 'midnight to the next midnight: the day')
  t.same(blockedOn('2027-01-12', '7', [{ ...typedAsDate, to: '2027-01-12' }]), [], '… ending where the next day starts')
})

t.test('the own key with an identity key: set right after the insert', async (t) => {
  const { call, raw } = await scratchInstallation(t, `
CREATE TABLE PAT (PatNum INTEGER PRIMARY KEY AUTOINCREMENT, LName TEXT NOT NULL, Phone TEXT, Guarantor INTEGER);
CREATE TABLE APPT (AptNum INTEGER PRIMARY KEY AUTOINCREMENT, PatNum INTEGER, AptDateTime DATETIME NOT NULL, Pattern TEXT NOT NULL, AptStatus INTEGER NOT NULL);
INSERT INTO PAT VALUES (1, 'Old', NULL, 1);`, `
version: 1
installation: own-key
resources:
  appointment:
    table: APPT
    key: AptNum
    start: { datetime: AptDateTime }
    end: { duration: { sql: { sqlite: 'LENGTH({Pattern}) * 5', mssql: 'LEN({Pattern}) * 5' } } }
    state: { column: AptStatus, type: int, map: { '1': WAITING, '5': CANCELED } }
    refs: { client: PatNum }
    write:
      set: { Pattern: { slot: length, repeat: '/', per: 5 } }
  client:
    table: PAT
    key: PatNum
    fields: { name: LName }
    phones: [Phone]
    write:
      set: { Guarantor: { newKey: true } }
`)
  const created = await call('POST', '/clients', { name: 'Nova', phone: '+5511987650000' })
  t.equal(created.status, 200, JSON.stringify(created.body).slice(0, 200))
  t.same(raw.prepare('SELECT PatNum, Guarantor FROM PAT WHERE PatNum = ?').get(Number(created.body.id)), { PatNum: 2, Guarantor: 2 })
  const booked = await call('POST', '/appointments', { date: '2099-03-02', hour: '10:00', client: created.body.id })
  t.equal(booked.status, 200, JSON.stringify(booked.body).slice(0, 200))
  t.equal(booked.body.endHour, '10:30', 'no availability mapped: the default 30 minutes, read back from the pattern')
  t.equal((raw.prepare('SELECT Pattern FROM APPT WHERE AptNum = ?').get(Number(booked.body.id)) as any).Pattern, '//////')
  t.equal((await call('PATCH', `/appointments/${booked.body.id}/time`, { date: '2099-03-03', hour: '11:00' })).status, 200)
  t.match((await call('GET', `/appointments/${booked.body.id}`)).body, { date: '2099-03-03', hour: '11:00', endHour: '11:30' }, 'a move keeps the pattern')
})

t.test('a length as a pattern: one character per `per` minutes, edges included', async (t) => {
  t.equal(lengthPattern(30, 5, 'X', '//'), '//XX//', '30 minutes with two-character edges (the legacy form in the issue)')
  t.equal(lengthPattern(45, 5, 'X', '//'), '//XXXXX//', '45 minutes')
  t.equal(lengthPattern(15, 5, 'X', '//'), 'XXX', 'too short for its edges: the fill alone')
  t.equal(lengthPattern(45, 5, 'X', ''), 'XXXXXXXXX', 'no edges')
  t.equal(lengthPattern(40, 15, 'X', ''), 'XXX', 'a part of `per` minutes counts whole')
})
