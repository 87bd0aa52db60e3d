import t from 'tap'
import {
  nowIn,
  addDays,
  addMinutes,
  crossesMidnight,
  dateOfDay,
  dayNumber,
  daysBetween,
  endDatetimeOf,
  endHourAfter,
  endMinutesOf,
  isCalendarDate,
  isClockHour,
  nowHourIn,
  parseApiDate,
  readDate,
  readHour,
  todayIn,
  toStoredDate,
  toStoredHour,
  weekdayOf,
} from '../../../src/normalise/datetime.js'

const SP = 'America/Sao_Paulo'

t.test('readDate: Date objects are read by their local (wall-clock) fields', async (t) => {
  t.equal(readDate(new Date(2026, 2, 15), 'date'), '2026-03-15')
  // Late evening local: going through toISOString() would give the next day east of UTC
  // and the previous day west of it for early-morning values.
  t.equal(readDate(new Date(2026, 2, 15, 23, 59, 59), 'datetime'), '2026-03-15')
  t.equal(readDate(new Date(2026, 2, 15, 0, 0, 1), 'datetime'), '2026-03-15')
  t.equal(readDate(new Date(Number.NaN), 'date'), undefined)
})

t.test('readDate: text spellings', async (t) => {
  t.equal(readDate('2026-03-15', 'date'), '2026-03-15')
  t.equal(readDate('2026-03-15 14:30', 'datetime'), '2026-03-15')
  t.equal(readDate('2026-03-15 14:30:00', 'datetime'), '2026-03-15')
  t.equal(readDate('2026-03-15 14:30:00.000', 'datetime'), '2026-03-15')
  t.equal(readDate('2026-03-15T14:30', 'datetime'), '2026-03-15')
  t.equal(readDate('2026-03-15T14:30:00.123', 'text'), '2026-03-15')
  t.equal(readDate('15/03/2026', 'text'), '2026-03-15')
  t.equal(readDate(' 5/3/2026 ', 'text'), '2026-03-05')
  t.equal(readDate('15/03/2026 14:30', 'text'), '2026-03-15')
  t.equal(readDate('15.03.2026', 'text'), '2026-03-15')
  t.equal(readDate('20260315', 'text'), '2026-03-15')
})

t.test('readDate: int columns', async (t) => {
  t.equal(readDate(20260315, 'int'), '2026-03-15')
  t.equal(readDate(20260315n, 'int'), '2026-03-15')
  t.equal(readDate('20260315', 'int'), '2026-03-15')
  t.equal(readDate(2026031, 'int'), undefined, '7 digits')
  t.equal(readDate(20261315, 'int'), undefined, 'month 13')
  t.equal(readDate(20260315.5, 'int'), undefined)
  t.equal(readDate(20260315, 'date'), undefined, 'numbers only in int columns')
})

t.test('readDate: sentinels are no date', async (t) => {
  for (const raw of ['0000-00-00', '0001-01-01', '1900-01-01', '1899-12-30', '1900-01-01 00:00:00', '', '   ']) {
    t.equal(readDate(raw, 'datetime'), undefined, raw)
  }
  t.equal(readDate(0, 'int'), undefined)
  t.equal(readDate(19000101, 'int'), undefined)
  t.equal(readDate(new Date(1900, 0, 1), 'datetime'), undefined)
  t.equal(readDate(new Date(1899, 11, 30), 'datetime'), undefined)
  t.equal(readDate(null, 'date'), undefined)
  t.equal(readDate(undefined, 'date'), undefined)
  t.equal(readDate('1900-01-02', 'date'), '1900-01-02', 'first real day')
})

t.test('readDate: impossible calendar dates', async (t) => {
  for (const raw of ['2026-02-30', '2026-02-29', '2026-04-31', '2026-13-01', '2026-00-10', '2026-01-00', '31/04/2026', '29/02/2100']) {
    t.equal(readDate(raw, 'text'), undefined, raw)
  }
  t.equal(readDate('2024-02-29', 'text'), '2024-02-29', 'leap year')
  t.equal(readDate('29/02/2000', 'text'), '2000-02-29', 'leap century')
  t.equal(readDate('ontem', 'text'), undefined)
  t.equal(readDate('2026-3-15', 'text'), undefined)
})

t.test('readHour: text', async (t) => {
  const cases: Array<[string, string]> = [
    ['9:30', '09:30'],
    ['09:30', '09:30'],
    ['09:30:00', '09:30'],
    ['09:30:59.999', '09:30'],
    [' 9h30 ', '09:30'],
    ['9H30', '09:30'],
    ['14h', '14:00'],
    ['0930', '09:30'],
    ['930', '09:30'],
    ['1330', '13:30'],
    ['0000', '00:00'],
    ['23:59', '23:59'],
  ]
  for (const [raw, hour] of cases) t.equal(readHour(raw, 'text'), hour, raw)
  for (const raw of ['24:00', '9:60', '09:30:60', '2400', '9:', '9:3', '', 'manhã', '-1:00', '12345']) {
    t.equal(readHour(raw, 'text'), undefined, raw)
  }
  t.equal(readHour(930, 'text'), undefined, 'numbers are hhmm or minutes columns')
})

t.test('readHour: time and datetime columns', async (t) => {
  t.equal(readHour(new Date(1970, 0, 1, 9, 30, 45), 'time'), '09:30')
  t.equal(readHour(new Date(2026, 2, 15, 23, 5), 'datetime'), '23:05')
  t.equal(readHour(new Date(Number.NaN), 'time'), undefined)
  t.equal(readHour('09:30:00', 'time'), '09:30')
  t.equal(readHour('09:30:00.0000000', 'time'), '09:30')
  t.equal(readHour('2026-03-15 14:30:00', 'datetime'), '14:30')
  t.equal(readHour('2026-03-15T14:30', 'datetime'), '14:30')
  t.equal(readHour('1900-01-01 08:00:00.000', 'datetime'), '08:00', 'time stored on the zero date')
  t.equal(readHour('2026-03-15 25:00:00', 'datetime'), undefined)
  t.equal(readHour(null, 'time'), undefined)
})

t.test('readHour: hhmm and minutes columns', async (t) => {
  t.equal(readHour(1330, 'hhmm'), '13:30')
  t.equal(readHour(930, 'hhmm'), '09:30')
  t.equal(readHour(5, 'hhmm'), '00:05')
  t.equal(readHour(0, 'hhmm'), '00:00')
  t.equal(readHour('0930', 'hhmm'), '09:30')
  t.equal(readHour(960, 'hhmm'), undefined, 'minute 60')
  t.equal(readHour(2400, 'hhmm'), undefined)
  t.equal(readHour(-30, 'hhmm'), undefined)
  t.equal(readHour(9.5, 'hhmm'), undefined)
  t.equal(readHour(570, 'minutes'), '09:30')
  t.equal(readHour(0, 'minutes'), '00:00')
  t.equal(readHour(1439, 'minutes'), '23:59')
  t.equal(readHour('810', 'minutes'), '13:30')
  t.equal(readHour(1440, 'minutes'), undefined)
  t.equal(readHour(-1, 'minutes'), undefined)
  t.equal(readHour('9:30', 'minutes'), undefined)
})

t.test('addMinutes stays inside the day', async (t) => {
  t.equal(addMinutes('09:30', 30), '10:00')
  t.equal(addMinutes('09:30', 0), '09:30')
  t.equal(addMinutes('23:30', 29), '23:59')
  t.equal(addMinutes('23:30', 30), undefined, '24:00 is the next day')
  t.equal(addMinutes('00:10', -10), '00:00')
  t.equal(addMinutes('00:10', -11), undefined)
  t.equal(addMinutes('9:30', 10), undefined, 'not strict HH:MM')
  t.equal(addMinutes('09:30', 1.5), undefined)
})

t.test('an end earlier than its start is on the next day (00:00: the midnight closing the day)', async (t) => {
  t.equal(endMinutesOf('20:00', '00:00'), 24 * 60)
  t.equal(endMinutesOf('00:00', '00:00'), 0, 'a start at midnight: zero length, not a day')
  t.equal(endMinutesOf('20:00', '20:00'), 20 * 60, 'an end equal to the start: zero length, not a day')
  t.equal(endMinutesOf('20:00', '23:00'), 23 * 60)
  t.equal(endMinutesOf('20:00', '01:00'), 25 * 60, 'a night shift 20:00–01:00')
  t.equal(endMinutesOf('23:00', '00:30'), 24 * 60 + 30, 'a hospital\'s 23:00–00:30')
  t.ok(crossesMidnight('23:00', '00:30'))
  t.notOk(crossesMidnight('23:30', '00:00'), 'until midnight is not past it')
  t.notOk(crossesMidnight('09:00', '10:00'))
  t.equal(endHourAfter('23:30', 30), '00:00', 'an appointment until midnight')
  t.equal(endHourAfter('23:30', 31), '00:01', 'past it: the next day\'s hour')
  t.equal(endHourAfter('23:00', 90), '00:30')
  t.equal(endHourAfter('23:00', 24 * 60), undefined, 'a day or more has no end hour')
  t.equal(endHourAfter('09:30', 30), '10:00')
  t.equal(endHourAfter('00:00', 0), '00:00', 'nothing added is no midnight')
  t.equal(endDatetimeOf('2031-12-31', '23:30', '00:00'), '2032-01-01 00:00:00', 'stored as the next day\'s 00:00')
  t.equal(endDatetimeOf('2031-12-31', '23:00', '00:30'), '2032-01-01 00:30:00', 'past midnight: the next day')
  t.equal(endDatetimeOf('2031-12-31', '09:30', '10:00'), '2031-12-31 10:00:00')
})

t.test('isCalendarDate and isClockHour are strict', async (t) => {
  t.ok(isCalendarDate('2024-02-29'))
  t.ok(isCalendarDate('2026-12-31'))
  t.notOk(isCalendarDate('2026-02-29'))
  t.notOk(isCalendarDate('2026-02-30'))
  t.notOk(isCalendarDate('1900-02-29'))
  t.notOk(isCalendarDate('2026-3-15'))
  t.notOk(isCalendarDate('2026-03-15 '))
  t.notOk(isCalendarDate('2026-03-15T00:00'))
  t.notOk(isCalendarDate('15/03/2026'))
  t.ok(isClockHour('00:00'))
  t.ok(isClockHour('23:59'))
  t.notOk(isClockHour('24:00'))
  t.notOk(isClockHour('9:30'))
  t.notOk(isClockHour('09:60'))
  t.notOk(isClockHour('09:30:00'))
})

t.test('parseApiDate converts instants to the clinic calendar', async (t) => {
  t.equal(parseApiDate('2026-05-01', SP), '2026-05-01')
  t.equal(parseApiDate('2026-05-01T01:30:00Z', SP), '2026-04-30', 'UTC 01:30 is 22:30 the day before in São Paulo')
  t.equal(parseApiDate('2026-05-01T02:30:00Z', SP), '2026-04-30')
  t.equal(parseApiDate('2026-05-01T03:00:00Z', SP), '2026-05-01', 'midnight in São Paulo')
  t.equal(parseApiDate('2026-05-01T23:30:00-03:00', SP), '2026-05-01')
  t.equal(parseApiDate('2026-05-01T23:30:00.250-03:00', 'Asia/Tokyo'), '2026-05-02')
  t.equal(parseApiDate('2026-05-01T01:30Z', 'UTC'), '2026-05-01')
  t.equal(parseApiDate('2026-05-01T01:30:00+05:30', 'UTC'), '2026-04-30')
})

t.test('parseApiDate rejects invalid input', async (t) => {
  for (const s of [
    '',
    '2026-02-30',
    '2026-02-30T10:00:00Z', // Date.parse would roll this into March
    '2026-05-01T24:00:00Z',
    '2026-05-01T10:60:00Z',
    '2026-05-01T10:00:00', // no offset: whose wall clock?
    '2026-05-01 10:00:00Z',
    '01/05/2026',
    '2026-5-1',
    'tomorrow',
  ]) {
    t.equal(parseApiDate(s, SP), undefined, s)
  }
  t.equal(parseApiDate('2026-05-01T10:00:00+24:00', SP), undefined, 'offset out of range')
  t.equal(parseApiDate(20260501 as unknown as string, SP), undefined, 'untyped JS caller')
})

t.test('daysBetween is plain calendar math', async (t) => {
  t.equal(daysBetween('2026-03-01', '2026-03-15'), 14)
  t.equal(daysBetween('2026-03-15', '2026-03-01'), -14)
  t.equal(daysBetween('2026-02-28', '2026-03-01'), 1)
  t.equal(daysBetween('2024-02-28', '2024-03-01'), 2)
  t.equal(daysBetween('2025-12-31', '2026-01-01'), 1)
  // Across a DST change of the machine's zone, still whole days.
  t.equal(daysBetween('2026-03-01', '2026-04-01'), 31)
  t.equal(daysBetween('2026-10-01', '2026-11-01'), 31)
  t.throws(() => daysBetween('2026-02-30', '2026-03-01'), RangeError)
})

t.test('todayIn and nowHourIn read the wall clock of a zone', async (t) => {
  const instant = new Date('2026-05-01T01:30:00Z')
  t.equal(todayIn(SP, instant), '2026-04-30')
  t.equal(nowHourIn(SP, instant), '22:30')
  t.equal(todayIn('UTC', instant), '2026-05-01')
  t.equal(nowHourIn('UTC', instant), '01:30')
  t.equal(nowHourIn('Asia/Kolkata', instant), '07:00')
  t.equal(nowHourIn(SP, new Date('2026-05-01T03:00:00Z')), '00:00', 'midnight is 00, not 24')
  t.ok(isCalendarDate(todayIn(SP)))
  t.ok(isClockHour(nowHourIn(SP)))
  t.throws(() => todayIn('Mars/Olympus_Mons', instant), RangeError)
})

t.test('toStoredHour and toStoredDate invert the readers', async (t) => {
  t.equal(toStoredHour('13:30', 'text'), '13:30')
  t.equal(toStoredHour('13:30', 'hhmm'), 1330)
  t.equal(toStoredHour('09:05', 'hhmm'), 905)
  t.equal(toStoredHour('13:30', 'minutes'), 810)
  t.equal(toStoredHour('13:30', 'time'), '13:30:00')
  t.equal(toStoredHour('13:30', 'datetime'), '13:30:00')
  t.throws(() => toStoredHour('25:00', 'text'), RangeError)
  for (const format of ['text', 'time', 'datetime', 'hhmm', 'minutes'] as const) {
    for (const hour of ['00:00', '09:05', '13:30', '23:59']) {
      t.equal(readHour(toStoredHour(hour, format), format), hour, `${hour} ${format}`)
    }
  }

  t.equal(toStoredDate('2026-03-15', 'date'), '2026-03-15')
  t.equal(toStoredDate('2026-03-15', 'text'), '2026-03-15')
  t.equal(toStoredDate('2026-03-15', 'text', 'dmy'), '15/03/2026')
  t.equal(toStoredDate('2026-03-15', 'datetime'), '2026-03-15 00:00:00')
  t.equal(toStoredDate('2026-03-15', 'int'), 20260315)
  t.throws(() => toStoredDate('2026-02-30', 'date'), RangeError)
  for (const format of ['date', 'datetime', 'text', 'int'] as const) {
    t.equal(readDate(toStoredDate('2026-03-05', format), format), '2026-03-05', format)
  }
  t.equal(readDate(toStoredDate('2026-03-05', 'text', 'dmy'), 'text'), '2026-03-05')
})

t.test('nowIn: the clinic wall clock in the forms legacy columns take', async (t) => {
  // 2026-05-01T02:30:15Z is 2026-04-30 23:30:15 in São Paulo (UTC−3).
  t.same(nowIn('America/Sao_Paulo', new Date('2026-05-01T02:30:15Z')), { date: '2026-04-30', time: '23:30:15', datetime: '2026-04-30 23:30:15', at: new Date('2026-05-01T02:30:15Z') })
  t.same(nowIn('UTC', new Date('2026-05-01T00:00:00Z')).time, '00:00:00', 'midnight is 00, not 24')
})

// Issue 7, defect 1: dates are day numbers. String arithmetic stepped from 9999-12-31 to
// '+010000-01-01', which sorts before it, and a loop over dates never ended.
t.test('dayNumber and dateOfDay: plain arithmetic over every day of years 1–9999', async (t) => {
  t.equal(dayNumber('1970-01-01'), 0)
  t.equal(dayNumber('0001-01-01'), -719_162)
  t.equal(dayNumber('9999-12-31'), 2_932_896)
  // Every day of the first and last 400-year cycles (the whole Gregorian pattern) and of the
  // window around today, checked against the ISO form of an epoch-day Date (toISOString reads
  // four-digit years right; it is new Date(y, …) and Date.UTC that map 0–99 to the 1900s).
  let wrong = 0
  for (const [from, to] of [['0001-01-01', '0401-12-31'], ['1899-01-01', '2200-12-31'], ['9599-01-01', '9999-12-31']] as const) {
    let previous = ''
    for (let day = dayNumber(from); day <= dayNumber(to); day++) {
      const iso = new Date(day * 86_400_000).toISOString().slice(0, 10)
      const date = dateOfDay(day)
      if (date !== iso || dayNumber(date) !== day || !(date > previous)) wrong++
      previous = date
    }
  }
  t.equal(wrong, 0, 'dateOfDay and dayNumber agree with the calendar, and dates as text sort as their day numbers')
  // Every year boundary from 1 to 9999: each year is 365 or 366 days after the one before.
  for (let year = 2; year <= 9999; year++) {
    const leap = (year - 1) % 4 === 0 && ((year - 1) % 100 !== 0 || (year - 1) % 400 === 0)
    const first = `${String(year).padStart(4, '0')}-01-01`
    const before = `${String(year - 1).padStart(4, '0')}-12-31`
    if (dayNumber(first) - dayNumber(before) !== 1 || dateOfDay(dayNumber(first) - 1) !== before ||
      daysBetween(`${String(year - 1).padStart(4, '0')}-01-01`, first) !== (leap ? 366 : 365)) wrong++
  }
  t.equal(wrong, 0, 'every year boundary')
  for (const day of [dayNumber('0001-01-01') - 1, dayNumber('9999-12-31') + 1, 1.5, NaN]) {
    t.throws(() => dateOfDay(day), RangeError, `day ${day}`)
  }
  for (const s of ['0000-12-31', '10000-01-01', '+010000-01-01', '2026-02-29', '2026-13-01', '']) {
    t.throws(() => dayNumber(s), RangeError, s)
    t.notOk(isCalendarDate(s), s)
  }
})

t.test('addDays: calendar steps, years 0–99 included, never past 9999', async (t) => {
  t.equal(addDays('2026-03-15', 1), '2026-03-16')
  t.equal(addDays('2026-03-01', -1), '2026-02-28')
  t.equal(addDays('2024-02-28', 1), '2024-02-29')
  t.equal(addDays('1900-02-28', 1), '1900-03-01', '1900 is not a leap year')
  t.equal(addDays('2000-02-28', 1), '2000-02-29', '2000 is')
  t.equal(addDays('0001-01-01', 365), '0002-01-01')
  t.equal(addDays('0099-12-31', 1), '0100-01-01')
  t.equal(addDays('0004-02-28', 1), '0004-02-29', 'year 4 is a leap year, 1904 too, but the answer stays in year 4')
  t.equal(addDays('9999-12-30', 1), '9999-12-31')
  t.equal(addDays('2199-12-31', 1), '2200-01-01')
  t.equal(addDays('2026-03-15', 0), '2026-03-15')
  t.throws(() => addDays('9999-12-31', 1), RangeError, 'no YYYY-MM-DD after 9999-12-31')
  t.throws(() => addDays('0001-01-01', -1), RangeError)
  t.equal(daysBetween('0001-01-01', '9999-12-31'), 3_652_058)
  t.equal(daysBetween('0099-12-31', '0100-01-01'), 1, 'not 1900 years apart')
})

t.test('weekdayOf counts from day numbers', async (t) => {
  t.equal(weekdayOf('1970-01-01'), 4, 'a Thursday')
  t.equal(weekdayOf('2027-01-03'), 0)
  t.equal(weekdayOf('2027-01-09'), 6)
  t.equal(weekdayOf('0001-01-01'), 1, 'a Monday, proleptic Gregorian')
  t.equal(weekdayOf('9999-12-31'), 5)
  t.equal(weekdayOf('1900-01-01'), 1)
})

t.test('parseApiDate at the ends of the calendar: no year 0, no year 10000, no exception', async (t) => {
  t.equal(parseApiDate('0001-01-01', SP), '0001-01-01')
  t.equal(parseApiDate('9999-12-31', SP), '9999-12-31')
  t.equal(parseApiDate('9999-12-30T23:59:59Z', SP), '9999-12-30')
  t.equal(parseApiDate('0001-01-02T12:00:00Z', 'UTC'), '0001-01-02')
  t.equal(parseApiDate('2199-12-31T23:59:59-12:00', SP), '2200-01-01', 'the clinic\'s date, not the caller\'s')
  // Within a day of the ends the clinic's date may be 0000-12-31 or 10000-01-01 (Intl would
  // print year 0 as "1"): no date.
  t.equal(parseApiDate('9999-12-31T00:00:00+14:00', SP), '9999-12-30', '10:00 UTC the day before')
  for (const s of ['9999-12-31T23:59:59Z', '9999-12-31T12:00:00-03:00', '0001-01-01T00:00:00-03:00', '0001-01-01T00:00:00Z',
    '0000-12-31', '0000-12-31T12:00:00Z', '10000-01-01', '10000-01-01T00:00:00Z', '+010000-01-01']) {
    t.equal(parseApiDate(s, SP), undefined, s)
  }
})
