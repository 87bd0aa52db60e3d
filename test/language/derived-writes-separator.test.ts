// A booked date written into a text column as day-month-year keeps the separator the mapping
// gives (`write.set: { DATA: { slot: start, format: dmy, separator: '.' } }`), as birthdays do.
import t from 'tap'
import { derivedValue } from '../../src/mapping/compile/derived.js'
import type { BookedTime } from '../../src/mapping/compile/index.js'

const time: BookedTime = { date: '2031-03-04', hour: '09:30', endHour: '10:00', minutes: 30 }
const written = (w: Parameters<typeof derivedValue>[0]): unknown => derivedValue(w, 'DATA', 'write.set.DATA', 'text').value(undefined as never, { time })

t.test('a dmy start and end keep the separator given', async (t) => {
  t.equal(written({ slot: 'start', format: 'dmy', separator: '.' }), '04.03.2031', 'dots')
  t.equal(written({ slot: 'end', format: 'dmy', separator: '-' }), '04-03-2031', 'dashes')
  t.equal(written({ slot: 'start', format: 'dmy' }), '04/03/2031', 'slashes by default')
})

t.test('a separator with another format is refused at its place', async (t) => {
  t.throws(() => written({ slot: 'start', format: 'date', separator: '.' }), { message: /`separator` goes with `format: dmy`/ })
})
