// The arithmetic of template strings, pattern lengths and inclusive ends, apart from any
// database: how a string cuts its hours into slots (src/mapping/compile/day-pattern.ts), which
// lengths a pattern column can hold (length-pattern.ts), and last minutes both ways (inclusive.ts).
import t from 'tap'
import { readDayPattern } from '../../../../src/mapping/compile/day-pattern.js'
import { patternMinutes, storedPattern } from '../../../../src/mapping/compile/length-pattern.js'
import { endAfterLastMinute, endDateAfterLastMinute, lastMinuteDatetimeOf, lastMinuteOf } from '../../../../src/mapping/compile/inclusive.js'

t.test('a whole-day string: the slot length is the day ÷ its length', async (t) => {
  for (const per of [5, 10, 15, 20, 30]) {
    const day = readDayPattern('_'.repeat(1440 / per - 1) + '1', 0, undefined, {})
    t.same(day && [day.interval, day.bookable], [per, [{ start: 1440 - per, end: 1440 }]], `${1440 / per} characters: ${per} minutes, the last slot ending at midnight`)
  }
  t.equal(readDayPattern('1'.repeat(7), 0, undefined, {}), undefined, '7 characters divide no day into whole minutes')
  t.equal(readDayPattern('   ', 0, undefined, {}), undefined, 'blank')
  t.equal(readDayPattern(null, 0, undefined, {}), undefined, 'no template')
})

t.test('runs of bookable characters are windows; `closed` and `bookable` decide which (case counts)', async (t) => {
  const hours = (from: number, to: number | undefined, codes: string, p = {}) => readDayPattern(codes, from, to, p)?.bookable
  t.same(hours(480, 600, '11_1_CC.'), [{ start: 480, end: 510 }, { start: 525, end: 540 }, { start: 555, end: 600 }], '08:00–10:00 in 15-minute characters: `_` closes, anything else offers')
  t.same(hours(480, 600, '11_1_CC.', { closed: '_.' }), [{ start: 480, end: 510 }, { start: 525, end: 540 }, { start: 555, end: 585 }])
  t.same(hours(480, 600, '11_1_Cc.', { bookable: 'C' }), [{ start: 555, end: 570 }], '`c` is not `C`')
  t.same(hours(0, undefined, '_'.repeat(96)), [], 'a day of `_` offers nothing and is no fault')
})

t.test('fixed minutes per character: the string runs from `start`, and must fill a given `end`', async (t) => {
  t.same(readDayPattern('11_1', 480, undefined, { minutes: 15 }), { interval: 15, end: 540, bookable: [{ start: 480, end: 510 }, { start: 525, end: 540 }] })
  t.ok(readDayPattern('1111', 480, 540, { minutes: 15 }), 'exactly 08:00–09:00')
  t.equal(readDayPattern('111', 480, 540, { minutes: 15 }), undefined, 'short of its end')
  t.equal(readDayPattern('1'.repeat(5), 1380, undefined, { minutes: 15 }), undefined, 'past midnight')
  t.same(readDayPattern('11  ', 480, undefined, { minutes: 15 })?.end, 510, 'trailing spaces are padding')
})

t.test('pattern lengths: characters × per; a booking writes whole characters only', async (t) => {
  t.equal(patternMinutes('XX//', 5), 20)
  t.equal(patternMinutes('/XX/   ', 5), 20, 'CHAR padding is not length')
  t.equal(patternMinutes('', 5), undefined)
  t.equal(patternMinutes(15, 5), undefined, 'a number is not a pattern')
  t.equal(storedPattern(30, { per: 5, edges: '/' }), '/XXXX/')
  t.equal(storedPattern(10, { per: 5, repeat: 'X', edges: '/' }), 'XX', 'too short for its edges')
  t.equal(storedPattern(45, { per: 15, repeat: 'O' }), 'OOO')
  t.equal(storedPattern(12, { per: 5 }), undefined, '12 minutes is no whole number of 5-minute characters')
})

t.test('inclusive ends: the last minute read one minute later and written one minute earlier, across midnight', async (t) => {
  t.equal(endAfterLastMinute('09:14'), '09:15')
  t.equal(endAfterLastMinute('23:59'), '00:00', 'midnight, as an end of 00:00 reads')
  t.equal(endDateAfterLastMinute('2027-03-01', '23:59'), '2027-03-02', 'a date-time\'s last minute at 23:59 ends on the next day')
  t.equal(endDateAfterLastMinute('2027-03-01', '12:00'), '2027-03-01')
  t.equal(lastMinuteOf('09:00', '09:15'), '09:14')
  t.equal(lastMinuteOf('23:30', '00:00'), '23:59', 'a slot ending at midnight')
  t.equal(lastMinuteDatetimeOf('2027-03-01', '23:30', '00:00'), '2027-03-01 23:59:00', 'on the start\'s day')
  t.equal(lastMinuteOf('23:00', '00:30'), '00:29', 'a slot past midnight')
  t.equal(lastMinuteDatetimeOf('2027-03-01', '23:00', '00:30'), '2027-03-02 00:29:00', 'on the next day')
})
