// The dates a recurring row falls on (src/normalise/recurrence.ts), against dates written out
// by hand from a calendar (2026-11-29 is a Sunday; 2027 is not a leap year, 2028 is), and the
// steps OpenEMR takes (library/appointments.inc.php): months and years carry a day the month
// lacks into the next, workdays skip Saturdays and Sundays.
import t from 'tap'
import { LAST, nthWeekday, occurrences, type Recurrence } from '../../../src/normalise/recurrence.js'
import { dateOfDay, dayNumber } from '../../../src/normalise/datetime.js'

const days = (from: string, to: string): string[] => {
  const out: string[] = []
  for (let d = dayNumber(from); d <= dayNumber(to); d++) out.push(dateOfDay(d))
  return out
}

t.test('once: the first date alone, when the window holds it', async (t) => {
  const once: Recurrence = { kind: 'once' }
  t.same(occurrences('2026-12-03', once, '2026-12-01', '2026-12-31'), ['2026-12-03'])
  t.same(occurrences('2026-12-03', once, '2026-12-04', '2026-12-31'), [])
})

t.test('every day: one date a day of the window, bounded by it (92 days, 92 dates)', async (t) => {
  const daily: Recurrence = { kind: 'every', every: 1, unit: 'day' }
  const got = occurrences('2020-01-01', daily, '2027-01-01', '2027-04-02')
  t.equal(got.length, 92)
  t.same(got, days('2027-01-01', '2027-04-02'))
  t.same(occurrences('2026-12-01', { kind: 'every', every: 3, unit: 'day' }, '2026-12-05', '2026-12-12'), ['2026-12-07', '2026-12-10'], 'every 3 days from the 1st: 4, 7, 10 …')
  t.same(occurrences('2026-12-10', daily, '2026-12-01', '2026-12-12'), ['2026-12-10', '2026-12-11', '2026-12-12'], 'none before the first date')
})

t.test('every N weeks, until inclusive, except left out', async (t) => {
  const fortnight: Recurrence = { kind: 'every', every: 2, unit: 'week', until: '2027-01-12', except: ['2026-12-15'] }
  t.same(occurrences('2026-12-01', fortnight, '2026-11-01', '2027-02-28'), ['2026-12-01', '2026-12-29', '2027-01-12'])
  t.same(occurrences('2026-12-01', { kind: 'every', every: 1, unit: 'week' }, '2031-01-01', '2031-01-14'), ['2031-01-07', '2031-01-14'], 'years on: still Tuesdays')
})

t.test('every month from the 31st runs on as OpenEMR does: 31 January, 3 March, 3 April', async (t) => {
  const monthly: Recurrence = { kind: 'every', every: 1, unit: 'month' }
  t.same(occurrences('2027-01-31', monthly, '2027-01-01', '2027-05-31'), ['2027-01-31', '2027-03-03', '2027-04-03', '2027-05-03'])
  t.same(occurrences('2028-01-31', monthly, '2028-01-01', '2028-04-30'), ['2028-01-31', '2028-03-02', '2028-04-02'], 'a leap February has 29 days')
  t.same(occurrences('2026-10-15', { kind: 'every', every: 3, unit: 'month' }, '2026-12-01', '2027-08-01'), ['2027-01-15', '2027-04-15', '2027-07-15'], 'every 3 months')
  t.same(occurrences('2027-01-31', { kind: 'every', every: 2, unit: 'month' }, '2027-01-01', '2027-12-31'), ['2027-01-31', '2027-03-31', '2027-05-31', '2027-07-31', '2027-10-01', '2027-12-01'], '31 September is 1 October, then the 1st')
})

t.test('every year from 29 February: 1 March in the years without one', async (t) => {
  t.same(occurrences('2028-02-29', { kind: 'every', every: 1, unit: 'year' }, '2028-01-01', '2031-12-31'), ['2028-02-29', '2029-03-01', '2030-03-01', '2031-03-01'])
})

t.test('workdays: Monday to Friday, N at a time as OpenEMR counts them', async (t) => {
  const workdays: Recurrence = { kind: 'every', every: 1, unit: 'workday' }
  t.same(occurrences('2026-11-27', workdays, '2026-11-27', '2026-12-08'), ['2026-11-27', '2026-11-30', '2026-12-01', '2026-12-02', '2026-12-03', '2026-12-04', '2026-12-07', '2026-12-08'], 'from a Friday')
  t.same(occurrences('2026-11-26', { kind: 'every', every: 2, unit: 'workday' }, '2026-11-26', '2026-12-09'), ['2026-11-26', '2026-11-30', '2026-12-02', '2026-12-04', '2026-12-08'], 'every 2nd workday from a Thursday')
  t.same(occurrences('2000-01-03', workdays, '2026-11-29', '2026-12-06'), ['2026-11-30', '2026-12-01', '2026-12-02', '2026-12-03', '2026-12-04'], 'a rule begun in 2000 reaches the window on the same days')
  t.same(occurrences('2026-11-28', workdays, '2026-11-28', '2026-12-01'), ['2026-11-28', '2026-11-30', '2026-12-01'], 'a Saturday first date is a date, then Mondays on')
})

t.test('the nth weekday of every N months, and the last', async (t) => {
  const secondTuesday: Recurrence = { kind: 'nth', months: 1, nth: 2, weekday: 2 }
  t.same(occurrences('2026-12-08', secondTuesday, '2026-12-01', '2027-03-31'), ['2026-12-08', '2027-01-12', '2027-02-09', '2027-03-09'])
  t.same(occurrences('2026-12-08', secondTuesday, '2027-02-10', '2027-03-31'), ['2027-03-09'], 'a window starting mid-month')
  const lastFriday: Recurrence = { kind: 'nth', months: 2, nth: LAST, weekday: 5 }
  t.same(occurrences('2026-12-25', lastFriday, '2026-12-01', '2027-05-31'), ['2026-12-25', '2027-02-26', '2027-04-30'])
  t.same(occurrences('2026-12-20', secondTuesday, '2026-12-01', '2027-01-31'), ['2027-01-12'], 'none before the first date, even in its month')
  t.equal(dateOfDay(nthWeekday(2027, 5, LAST, 1)), '2027-05-31', 'the last Monday of May 2027')
  t.equal(dateOfDay(nthWeekday(2027, 2, 4, 0)), '2027-02-28', 'the fourth Sunday of February 2027')
})

t.test('listed weekdays: every week, or every N weeks; the first date is one, listed or not', async (t) => {
  const mwf: Recurrence = { kind: 'weekdays', weeks: 1, weekdays: [1, 3, 5], until: '2026-12-18', except: ['2026-12-09'] }
  t.same(occurrences('2026-11-30', mwf, '2026-11-01', '2027-01-31'), ['2026-11-30', '2026-12-02', '2026-12-04', '2026-12-07', '2026-12-11', '2026-12-14', '2026-12-16', '2026-12-18'])
  t.same(occurrences('2026-12-01', { kind: 'weekdays', weeks: 2, weekdays: [2] }, '2026-12-01', '2026-12-31'), ['2026-12-01', '2026-12-15', '2026-12-29'])
  t.same(occurrences('2026-12-01', { kind: 'weekdays', weeks: 1, weekdays: [1] }, '2026-12-01', '2026-12-14'), ['2026-12-01', '2026-12-07', '2026-12-14'], 'a Tuesday first date before Mondays')
  t.same(occurrences('2026-12-02', { kind: 'weekdays', weeks: 1, weekdays: [0, 6] }, '2026-12-01', '2026-12-07'), ['2026-12-02', '2026-12-05', '2026-12-06'], 'Saturday and Sunday of its week')
})

t.test('a window after `until` or before the first date holds nothing', async (t) => {
  const daily: Recurrence = { kind: 'every', every: 1, unit: 'day', until: '2026-12-10' }
  t.same(occurrences('2026-12-01', daily, '2026-12-11', '2026-12-31'), [])
  t.same(occurrences('2026-12-01', daily, '2026-11-01', '2026-11-30'), [])
})
