// Issue 25, on SQLite, MariaDB and PostgreSQL alike: an absence whose last day is a sentinel
// ('0000-00-00' declared in `nullIf`, or blank text) blocks its one day, and one ending on
// '9999-12-31' every day from its first; working hours and absences that end at 00:00 run until
// midnight, and so does an appointment stored as ending at the next day's 00:00. /availability
// offers exactly the rest, and booking refuses what it does not offer (test/helpers/night-clinic.ts).
import t from 'tap'
import { fixtureInstallation, type FixtureApp } from '../../helpers/fixture-installation.js'
import { NIGHT, NIGHT_MAPPING, nightClinicFixture } from '../../helpers/night-clinic.js'
import { parseMapping } from '../../../src/mapping/load.js'
import { buildModel } from '../../../src/mapping/model.js'
import { compileMapping } from '../../../src/mapping/compile/index.js'
import { mssql } from '../../../src/sql/mssql/dialect.js'
import { parseTsql } from '../../helpers/tsql-grammar.js'

const MORNING_SLOTS = ['08:00-08:30', '08:30-09:00', '09:00-09:30', '09:30-10:00']
const NIGHT_SLOTS = ['20:00-20:30', '20:30-21:00', '21:00-21:30', '21:30-22:00', '22:00-22:30', '22:30-23:00', '23:00-23:30', '23:30-00:00']
const show = (s: any): string => `${s.date} ${s.hour}-${s.endHour} ${s.professional.id}`
const expected = (date: string, professional: string, slots: string[]): string[] => slots.map((s) => `${date} ${s} ${professional}`)

async function storedEnd (a: FixtureApp, id: string): Promise<string> {
  const d = a.inst.db.dialect
  const [row] = await a.inst.db.query({
    name: 'test.storedEnd',
    sql: `SELECT ${d.ident('fim')} AS ${d.ident('fim')} FROM ${d.table('consulta')} WHERE ${d.ident('cod_cons')} = ${d.placeholder(1)}`,
    params: [{ type: 'int', source: { input: 'id' } }]
  }, { id: Number(id) })
  return String(row?.fim).slice(0, 16)
}

for (const dialect of ['sqlite', 'mysql', 'postgres'] as const) {
  t.test(`on ${dialect}`, async (t) => {
    const a = await fixtureInstallation(t, dialect, nightClinicFixture(), NIGHT_MAPPING)

    t.test('/availability: until midnight, minus the absences whatever their last day holds', async (t) => {
      const { status, body } = await a.get(`/availability?start=${NIGHT.monday}&end=${NIGHT.nextMonday}`)
      t.equal(status, 200)
      t.same(body.map(show), [
        ...expected(NIGHT.monday, '1', [...MORNING_SLOTS, ...NIGHT_SLOTS]), // '20:00'…'00:00' in the weekly template: until midnight
        ...expected(NIGHT.shifts[0], '2', NIGHT_SLOTS), // a shift until the next day's 00:00: the same
        // NIGHT.zeroEnd: an absence whose last day is '0000-00-00' is that one day (its row was never read)
        ...expected(NIGHT.blankNight, '2', NIGHT_SLOTS.slice(0, 4)), // away 22:00…'00:00', the last day blank
        ...expected(NIGHT.blankMorning, '1', [...MORNING_SLOTS.slice(2), ...NIGHT_SLOTS]), // away 08:00…09:00, the last day blank
        ...expected(NIGHT.heldUntilMidnight, '2', NIGHT_SLOTS.slice(0, 4)) // 22:00 until the next day's 00:00 is taken
        // NIGHT.openFrom and the Monday after it: away until '9999-12-31'
      ])
      const alone = await a.get(`/availability?start=${NIGHT.zeroEnd}&end=${NIGHT.zeroEnd}`)
      t.same(alone.body, [], 'one day asked alone: the sentinel absence still blocks it')
    })

    t.test('booking refuses what is not offered, and books until midnight', async (t) => {
      const refused: [string, string, string, string][] = [
        [NIGHT.zeroEnd, '09:00', '1', 'an absence whose last day is 0000-00-00'],
        [NIGHT.blankMorning, '08:30', '1', 'an absence from 08:00 to 09:00 whose last day is blank'],
        [NIGHT.blankNight, '22:30', '2', 'an absence from 22:00 until 00:00 whose last day is blank'],
        [NIGHT.openFrom, '09:00', '1', 'an absence until 9999-12-31'],
        [NIGHT.nextMonday, '09:00', '1', '… a week later too'],
        [NIGHT.heldUntilMidnight, '23:00', '2', 'an appointment until the next day\'s 00:00']
      ]
      for (const [date, hour, professional, why] of refused) {
        const r = await a.call('POST', '/appointments', { date, hour, client: '1', professional })
        t.equal(r.status, 409, `${date} ${hour}, doctor ${professional}: ${why}`)
      }

      const booked = await a.call('POST', '/appointments', { date: NIGHT.monday, hour: '23:30', client: '1', professional: '1' })
      t.equal(booked.status, 200, `the last slot before midnight is booked: ${JSON.stringify(booked.body)}`)
      t.equal(booked.body.endHour, '00:00', 'it ends at midnight')
      t.equal(await storedEnd(a, booked.body.id), '2031-03-11 00:00', 'stored as the next day\'s 00:00, not the same day\'s')
      t.equal((await a.get(`/appointments/${booked.body.id as string}`)).body.endHour, '00:00', 'and read back so')
      const after = await a.get(`/availability?start=${NIGHT.monday}&end=${NIGHT.monday}`)
      t.same(after.body.map(show), expected(NIGHT.monday, '1', [...MORNING_SLOTS, ...NIGHT_SLOTS.slice(0, 7)]), 'no longer offered')
      const again = await a.call('POST', '/appointments', { date: NIGHT.monday, hour: '23:30', client: '2', professional: '1' })
      t.equal(again.status, 409, 'nor booked twice')
    })
  })
}

t.test('T-SQL: the blocks statement with sentinels above the zero dates parses', async (t) => {
  const yaml = NIGHT_MAPPING.replace("nullIf: ['0000-00-00']", "nullIf: ['0000-00-00', 'NONE', 0]")
  t.not(yaml, NIGHT_MAPPING)
  const compiled = compileMapping(buildModel(parseMapping(yaml, 'night.yaml')), mssql)
  const blocks = compiled.statements().find((s) => s.name === 'availability.blocks[0]')
  t.ok(blocks, 'compiled')
  t.match(blocks?.sql, /IN \(@p\d+\)/, '\'NONE\' is compared as text; the zero date and 0 sort before 1900-01-02')
  t.same(parseTsql(blocks?.sql ?? ''), [], 'valid T-SQL')
})
