// Issue 27 items 3 and 4 on an OSCAR-like schema generated in the test, on every test
// database: working days that name a template string (one character per slot, its length the
// day's minutes ÷ the string's length), the provider's own template over the shared one, `_`
// never offered; ends stored as their last minute, read one minute later and booked one minute
// earlier. The slots expected are derived from the same hour ranges the templates are built from.
import t from 'tap'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openInstallation } from '../../src/installation.js'
import { checkInstallation } from '../../src/check/index.js'
import { testDialects } from '../helpers/contract.js'
import { scratchOn, type ServerScratch } from '../helpers/scratch-servers.js'
import { ABSENCE, DAY1, DAY2, HELD, TEMPLATES, WEEKLY, oscarMapping, oscarSchema, type Template } from '../helpers/pattern-clinics.js'

const hhmm = (m: number): string => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`
const minutes = (h: string): number => Number(h.slice(0, 2)) * 60 + Number(h.slice(3, 5))

/** Every slot start the template's runs of bookable codes hold (`_` is never one). */
function expectedSlots (provider: string, name: string, bookable = (c: string) => c !== '_'): string[] {
  const tpl = TEMPLATES.find((x) => x.provider === provider && x.name === name) as Template
  return tpl.runs.filter(([, , c]) => bookable(c)).flatMap(([from, to]) => {
    const out: string[] = []
    for (let m = minutes(from); m < minutes(to); m += tpl.per) out.push(hhmm(m))
    return out
  }).sort()
}

async function slots (s: ServerScratch, day: string, professional: string): Promise<{ hour: string, endHour: string }[]> {
  const r = await s.call('GET', `/availability?start=${day}&end=${day}&professional=${professional}`)
  if (r.status !== 200) throw new Error(`/availability → ${r.status} ${JSON.stringify(r.body)}`)
  return r.body
}
const hours = async (s: ServerScratch, day: string, professional: string): Promise<string[]> => (await slots(s, day, professional)).map((x) => x.hour)

const dir = mkdtempSync(join(tmpdir(), 'ponte-oscar-'))
t.teardown(() => rmSync(dir, { recursive: true, force: true }))

for (const dialect of testDialects()) {
  t.test(dialect, async (t) => {
    const s = await scratchOn(t, dialect, oscarSchema(), oscarMapping())

    t.test('the provider\'s own template, 15-minute characters, minus `_`, the appointment and the one-minute absence', async (t) => {
      const got = await slots(s, DAY1, '101')
      const want = expectedSlots('101', 'P1').filter((h) => h !== HELD.hour && h !== ABSENCE.start)
      t.same(got.map((x) => x.hour), want, 'exactly the bookable characters\' slots')
      t.ok(got.every((x) => minutes(x.endHour) - minutes(x.hour) === 15), 'each 15 minutes long (1440 ÷ 96)')
      t.notOk(got.some((x) => x.hour === '10:00'), 'the `_` at 10:00 is not offered')
      t.notOk(got.some((x) => x.hour >= '14:00'), 'the shared template of the same name is not used')
    })

    t.test('shared templates by name: 30-minute and 5-minute characters', async (t) => {
      const half = await slots(s, DAY1, '102')
      t.same(half.map((x) => x.hour), expectedSlots('Public', 'HALF30'), '48 characters: 30-minute slots')
      t.ok(half.every((x) => minutes(x.endHour) - minutes(x.hour) === 30))
      const five = await slots(s, DAY1, '103')
      t.same(five.map((x) => x.hour), expectedSlots('Public', 'FIVE'), '288 characters: 5-minute slots, the `_` gap left out')
      t.ok(five.every((x) => minutes(x.endHour) - minutes(x.hour) === 5))
    })

    t.test('10-minute characters; deleted days, unreadable strings and missing templates offer nothing', async (t) => {
      t.same(await hours(s, DAY2, '102'), expectedSlots('102', 'TEN'), '144 characters: 10-minute slots')
      t.same(await hours(s, DAY2, '101'), [], 'a day whose row is not active')
      t.same(await hours(s, DAY2, '103'), [], 'a 95-character string divides no day into whole minutes')
      t.same(await hours(s, DAY2, '104'), [], 'a day naming no template')
    })

    t.test('an end stored as its last minute reads one minute later', async (t) => {
      const r = await s.call('GET', `/appointments/${HELD.id}`)
      t.equal(r.status, 200, JSON.stringify(r.body))
      t.same([r.body.hour, r.body.endHour], [HELD.hour, HELD.endHour], `${HELD.storedEnd} is the end ${HELD.endHour}`)
    })

    t.test('a booking stores its end as the last minute; a `_` slot is refused', async (t) => {
      const offered = await slots(s, DAY1, '101')
      const slot = offered.find((x) => x.hour === '11:45') as { hour: string, endHour: string }
      t.ok(slot, '11:45 is offered')
      const booked = await s.call('POST', '/appointments', { date: DAY1, hour: slot.hour, client: '2', professional: '101' })
      t.equal(booked.status, 200, JSON.stringify(booked.body))
      t.equal(booked.body.endHour, '12:00', 'answered with the slot\'s end')
      const [row] = await s.rows(`SELECT start_time, end_time FROM appointment WHERE appointment_no = ${Number(booked.body.id)}`)
      t.same([String(row.start_time).slice(0, 5), String(row.end_time).slice(0, 8)], ['11:45', '11:59:00'], 'stored 11:45–11:59, as OSCAR keeps it')
      const again = await s.call('GET', `/appointments/${booked.body.id as string}`)
      t.equal(again.body.endHour, '12:00', 'read back as 12:00')
      t.notOk((await hours(s, DAY1, '101')).includes('11:45'), 'no longer offered')

      const closed = await s.call('POST', '/appointments', { date: DAY1, hour: '10:00', client: '2', professional: '101' })
      t.equal(closed.status, 409, 'the `_` at 10:00 cannot be booked')
      t.same(await s.rows('SELECT COUNT(*) AS n FROM appointment').then((r) => Number(r[0].n)), 2, 'nothing else written')
    })

    t.test('check counts the days whose template cannot be read, and proves the inclusive end written', async (t) => {
      const file = join(dir, `${dialect}.yaml`)
      writeFileSync(file, oscarMapping())
      const inst = await openInstallation(file, s.url, undefined, { structural: 'skip' })
      t.teardown(async () => { await inst.close() })
      const { lines } = await checkInstallation(inst, '2027-02-22')
      const days = lines.filter((l) => l.includes('availability dated:'))
      t.equal(days.length, 1, lines.join('\n'))
      t.match(days[0], /2 of 6 rows of `scheduledate` cannot be read .*: they offer nothing/, 'the 95-character string and the missing template (the deleted day is not a row)')
      t.ok(lines.some((l) => /^✓ appointment write: POST \/appointments with every ref: .*read back as sent by the mapping and as stored; rolled back/.test(l)), 'the write probe reads back the end it stored')
    })

    t.test('weekly rows may hold the string too: 20-minute characters on Mondays', async (t) => {
      const weekly = await scratchOn(t, dialect, oscarSchema(), oscarMapping(undefined, WEEKLY))
      const got = await slots(weekly, DAY1, '104')
      t.same(got.map((x) => x.hour), expectedSlots('104', 'MONDAYS'), '72 characters: 20-minute slots, the gap at 09:00 left out')
      t.ok(got.every((x) => minutes(x.endHour) - minutes(x.hour) === 20))
      t.same(await hours(weekly, DAY2, '104'), [], 'a Tuesday has no row')
      t.same(await hours(weekly, DAY1, '101'), expectedSlots('101', 'P1').filter((h) => h !== HELD.hour && h !== ABSENCE.start), 'the dated days still read')
    })

    t.test('`bookable` offers only the codes it names (case counts)', async (t) => {
      const only = await scratchOn(t, dialect, oscarSchema(), oscarMapping("      codes: { coalesce: [own.timecode, shared.timecode] }\n      bookable: 'C1'"))
      t.same(await hours(only, DAY1, '101'), expectedSlots('101', 'P1', (c) => 'C1'.includes(c)).filter((h) => h !== HELD.hour && h !== ABSENCE.start))
      t.same(await hours(only, DAY2, '102'), expectedSlots('102', 'TEN', (c) => 'C1'.includes(c)), 'the `a` run is not offered')
      const upper = await scratchOn(t, dialect, oscarSchema(), oscarMapping("      codes: { coalesce: [own.timecode, shared.timecode] }\n      bookable: 'A'"))
      t.same(await hours(upper, DAY2, '102'), [], '`A` does not offer `a`')
    })
  })
}
