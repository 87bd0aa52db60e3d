// Issue 27 items 3 and 4 on an Open-Dental-like schema generated in the test, on every test
// database: an appointment's length kept only as its `Pattern` (one character per 5 minutes,
// whichever character) and a procedure's as `proctime`, read as characters × 5 and written on
// booking as the pattern of the booked length, read back from the database directly.
import t from 'tap'
import { testDialects } from '../helpers/contract.js'
import { scratchOn } from '../helpers/scratch-servers.js'
import { BLOCKOUT, DAY1, DAY2, OD_APPOINTMENTS, OPEN_DENTAL_MAPPING, PER, PROCEDURES, odPattern, openDentalSchema } from '../helpers/pattern-clinics.js'
import { parseMapping } from '../../src/mapping/load.js'
import { buildModel } from '../../src/mapping/model.js'
import { MappingError } from '../../src/mapping/errors.js'

const minutes = (h: string): number => Number(h.slice(0, 2)) * 60 + Number(h.slice(3, 5))
const length = (pattern: string): number => pattern.trimEnd().length * PER

for (const dialect of testDialects()) {
  t.test(dialect, async (t) => {
    const s = await scratchOn(t, dialect, openDentalSchema(dialect), OPEN_DENTAL_MAPPING)

    t.test('appointments end after as many 5-minute characters as their pattern has', async (t) => {
      const r = await s.call('GET', `/appointments?start=${DAY1}&end=${DAY1}&minimal=true`)
      t.equal(r.status, 200, JSON.stringify(r.body))
      for (const [id, , , at, pattern] of OD_APPOINTMENTS) {
        const a = (r.body as { id: string, hour: string, endHour: string }[]).find((x) => x.id === String(id))
        t.equal(a && minutes(a.endHour) - minutes(a.hour), length(pattern), `${JSON.stringify(pattern)} from ${at.slice(11, 16)}: ${length(pattern)} minutes`)
      }
    })

    t.test('a datetime blockout ending on its last minute blocks that minute\'s slot', async (t) => {
      const r = await s.call('GET', `/availability?start=${BLOCKOUT.date}&end=${BLOCKOUT.date}&professional=1`)
      t.equal(r.status, 200, JSON.stringify(r.body))
      const hours = (r.body as { hour: string }[]).map((x) => x.hour)
      t.notOk(hours.includes(BLOCKOUT.hour), `${BLOCKOUT.hour}–${BLOCKOUT.hour} stored is the minute ${BLOCKOUT.hour}–12:01: its slot is not offered`)
      t.ok(hours.includes('11:50') && hours.includes('12:10'), 'the slots either side are')
    })

    t.test('a procedure\'s duration is its proctime pattern', async (t) => {
      const r = await s.call('GET', '/services')
      t.equal(r.status, 200, JSON.stringify(r.body))
      t.same((r.body as { id: string, duration: number }[]).map((x) => [x.id, x.duration]), PROCEDURES.map(([n, , p]) => [String(n), length(p)]))
    })

    t.test('a booking writes the pattern of its length; the appointment reads back with that end', async (t) => {
      for (const [code, , procTime] of PROCEDURES) {
        const booked = await s.call('POST', '/appointments', { date: DAY2, hour: `${String(8 + code).padStart(2, '0')}:00`, client: '2', professional: '1', service: String(code) })
        t.equal(booked.status, 200, JSON.stringify(booked.body))
        const [row] = await s.rows(`SELECT pattern FROM appointment WHERE aptnum = ${Number(booked.body.id)}`)
        const mins = length(procTime)
        t.equal(row.pattern, odPattern(mins), `${mins} minutes stored as ${odPattern(mins)}`)
        const read = await s.call('GET', `/appointments/${booked.body.id as string}`)
        t.equal(minutes(read.body.endHour) - minutes(read.body.hour), mins, 'read back as booked')
      }
      const plain = await s.call('POST', '/appointments', { date: DAY2, hour: '11:30', client: '1', professional: '1' })
      t.equal(plain.status, 200, JSON.stringify(plain.body))
      const [row] = await s.rows(`SELECT pattern FROM appointment WHERE aptnum = ${Number(plain.body.id)}`)
      t.equal(row.pattern, odPattern(10), 'without a service: the 10-minute slot, too short for its edges: XX')
    })

    t.test('a length that is not whole characters is refused, naming why, and nothing is written', async (t) => {
      const odd = await scratchOn(t, dialect, openDentalSchema(dialect), OPEN_DENTAL_MAPPING.replace('slotMinutes: 10', 'slotMinutes: 12'))
      const count = async (): Promise<number> => Number((await odd.rows('SELECT COUNT(*) AS n FROM appointment'))[0].n)
      const before = await count()
      const r = await odd.call('POST', '/appointments', { date: DAY2, hour: '08:00', client: '1', professional: '1' })
      t.equal(r.status, 501, JSON.stringify(r.body))
      t.match(r.body.detail, /12 minutes cannot be stored: .*characters of 5 minutes/)
      t.equal(await count(), before, 'no row written')
    })
  })
}

t.test('the converters of ends and lengths are refused where nothing reads them', async (t) => {
  const refused = (yaml: string): string => {
    try {
      buildModel(parseMapping(yaml, 'x.yaml'))
      return 'accepted'
    } catch (err) {
      return err instanceof MappingError ? err.message : String(err)
    }
  }
  t.match(refused(OPEN_DENTAL_MAPPING.replace('name: descript', 'name: { column: descript, inclusive: true }')), /service\/fields\/name.*`inclusive` goes on an end/s)
  t.match(refused(OPEN_DENTAL_MAPPING.replace('name: descript', 'name: { column: descript, pattern: { per: 5 } }')), /service\/fields\/name.*`pattern` goes on a length/s)
  t.match(refused(OPEN_DENTAL_MAPPING.replace('pattern: { per: 5 } }', 'pattern: { per: 5 }, unit: seconds }')), /leave out `unit`/)
})
