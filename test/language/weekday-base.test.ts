// What a colleague new to Ponte hit mapping a Portuguese clinic from the docs alone, on every
// test database: ISO weekdays (Monday 1 … Sunday 7) said with `weekdayBase: iso`, a numbering
// read one day off warned of by check (it said "all readable"), and a state read from several
// codes named by check with the code a write stores.
import t from 'tap'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { testDialects } from '../helpers/contract.js'
import { scratchOn, type ServerScratch } from '../helpers/scratch-servers.js'
import { strangerMapping, strangerSchema, type StrangerVariant } from '../helpers/stranger-clinic.js'
import { openInstallation } from '../../src/installation.js'
import { checkInstallation } from '../../src/check/index.js'

const dir = mkdtempSync(join(tmpdir(), 'ponte-stranger-'))
t.teardown(() => rmSync(dir, { recursive: true, force: true }))
let files = 0

async function check (s: ServerScratch, v: StrangerVariant): Promise<string[]> {
  const file = join(dir, `mapping-${files++}.yaml`)
  writeFileSync(file, strangerMapping(v))
  const inst = await openInstallation(file, s.url, undefined, { structural: 'skip' })
  try {
    return (await checkInstallation(inst, '2026-11-22')).lines
  } finally {
    await inst.close()
  }
}

// Far enough ahead never to be in the past on the machine that runs the test.
const MONDAY = '2030-12-02'
const SATURDAY = '2030-11-30'
const SUNDAY = '2030-12-01'
const slotsOn = async (s: ServerScratch, day: string, professional: string): Promise<string[]> => {
  const r = await s.call('GET', `/availability?start=${day}&end=${day}&professional=${professional}`)
  if (r.status !== 200) throw new Error(`/availability → ${r.status}`)
  return (r.body as { hour: string }[]).map((x) => x.hour)
}

for (const dialect of testDialects()) {
  t.test(dialect, async (t) => {
    t.test('weekdayBase: iso reads Monday 1 … Sunday 7; check passes it without a shift warning', async (t) => {
      const s = await scratchOn(t, dialect, strangerSchema(dialect), strangerMapping())
      t.equal((await slotsOn(s, MONDAY, '1'))[0], '09:00', 'ISO 1 is Monday')
      t.same(await slotsOn(s, SATURDAY, '1'), [], 'provider 1 does not work on Saturdays')
      t.same((await slotsOn(s, SATURDAY, '2')).slice(0, 2), ['09:00', '09:30'], 'ISO 6 is Saturday')
      t.same(await slotsOn(s, SUNDAY, '2'), [], 'nobody works on Sundays')
      const lines = await check(s, {})
      t.ok(lines.some((l) => /✓ availability weekly: 21 rows, all readable/.test(l)), lines.join('\n'))
      t.notOk(lines.some((l) => /one day off/.test(l)), 'no shift warning')
    })

    t.test('ISO data read with weekdayBase: 1 reads well but a day off: check warns with the days it read', async (t) => {
      const v = { weekday: '    weekday: weekday\n    weekdayBase: 1' }
      const s = await scratchOn(t, dialect, strangerSchema(dialect), strangerMapping(v))
      const lines = await check(s, v)
      const warned = lines.filter((l) => /availability weekly\.weekday: more rows are read as Sunday than as Friday/.test(l))
      t.equal(warned.length, 1, lines.join('\n'))
      t.match(warned[0], /^! \S+:\d+:\d+: /, 'at the mapping line of weekday')
      t.match(warned[0], /\(Sun 4, Mon 4, Tue 4, Wed 4, Thu 4, Fri 1, Sat 0\)/)
      t.match(warned[0], /`iso` Monday 1 … Sunday 7/, 'names the fix')
    })

    t.test('a state read from two codes: check names the code a write stores, and the booking stores it', async (t) => {
      const s = await scratchOn(t, dialect, strangerSchema(dialect), strangerMapping())
      const lines = await check(s, {})
      const said = lines.filter((l) => /appointment state\.map: WAITING is read from 2 codes \(booked, resched\): a booking or move to WAITING writes booked/.test(l))
      t.equal(said.length, 1, lines.join('\n'))
      t.match(said[0], /give write\.states\.WAITING/)
      const booked = await s.call('POST', '/appointments', { date: MONDAY, hour: '09:00', client: '1', professional: '1' })
      t.equal(booked.status, 200, JSON.stringify(booked.body))
      t.same((await s.rows(`SELECT status_code FROM appointment WHERE appt_id = '${booked.body.id as string}'`)).map((r) => r.status_code), ['booked'], 'the code check named')

      const chosen = { states: '      states:\n        WAITING: { status_code: { value: resched } }' }
      const quiet = await check(s, chosen)
      t.notOk(quiet.some((l) => /WAITING is read from 2 codes/.test(l)), 'said only while the map decides')
    })
  })
}
