// Dates and hours here are the clinic's local wall-clock values. Nothing is
// ever shifted through UTC: Date objects from the drivers are read with their
// local getters (mssql runs with useUTC:false, so those are the stored values),
// and Date.UTC is used only as calendar arithmetic. A database on another clock
// (mapping `storedIn`) is converted before these readers see it (zones.ts).

export type DateFormat = 'date' | 'datetime' | 'text' | 'int'
export type HourFormat = 'text' | 'time' | 'datetime' | 'hhmm' | 'minutes'
/** How a 'text' date column spells dates: '2026-03-15' or '15/03/2026'. */
export type TextDateStyle = 'iso' | 'dmy' | 'ymd'
/** What a `dmy` date keeps between its parts ('15/03/2026', '15.03.2026', '15-03-2026'). */
export type DmySeparator = '/' | '.' | '-'

const MINUTES_PER_DAY = 24 * 60
const DAYS_PER_ERA = 146_097 // 400 Gregorian years
const DAYS_0000_03_01_TO_1970 = 719_468
// 0001-01-01 and 9999-12-31: the dates a four-digit year can spell (and SQL Server's date holds).
const FIRST_DAY = -719_162
const LAST_DAY = 2_932_896

// Zero dates of MySQL, .NET/ODBC, SQL Server and Delphi (1899-12-30) all sort
// at or before 1900-01-01; no appointment or living patient's birth is there.
export const LAST_SENTINEL_DATE = '1900-01-01'
/** The first date readDate reads: every stored date before it is a zero date, read as none. */
export const FIRST_READ_DATE = '1900-01-02'

const TIME_TAIL = String.raw`(?:[ T]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?`
const ISO_DATE = new RegExp(String.raw`^(\d{4})-(\d{2})-(\d{2})${TIME_TAIL}$`)
const DMY_DATE = new RegExp(String.raw`^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})${TIME_TAIL}$`)
const COMPACT_DATE = /^(\d{4})(\d{2})(\d{2})$/
const API_INSTANT = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|([+-])(\d{2}):(\d{2}))$/

// '9h30', '9h', '9:30', '09:30:00.000', the last two optionally after a date.
const CLOCK_H = /^(\d{1,2})\s*[hH]\s*(\d{2})?$/
const CLOCK_COLON = /^(?:\d{4}-\d{2}-\d{2}[ T])?(\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/

/** A legacy date value as 'YYYY-MM-DD'; sentinels and impossible dates → undefined. */
export function readDate (raw: unknown, format: DateFormat): string | undefined {
  let date: string | undefined
  if (raw instanceof Date) date = dateOfJsDate(raw)
  else if (format === 'int' && (typeof raw === 'number' || typeof raw === 'bigint')) {
    date = dateOfInt(raw)
  } else if (typeof raw === 'string') date = dateOfText(raw.trim())
  return date !== undefined && date > LAST_SENTINEL_DATE ? date : undefined
}

/** A legacy hour value as 'HH:MM' (seconds dropped); out of range → undefined. */
export function readHour (raw: unknown, format: HourFormat): string | undefined {
  if (raw instanceof Date) {
    return Number.isNaN(raw.getTime()) ? undefined : clock(raw.getHours(), raw.getMinutes())
  }
  switch (format) {
    case 'hhmm':
      return hourOfHhmm(integerOf(raw))
    case 'minutes':
      return hourOfMinutes(integerOf(raw))
    default:
      return typeof raw === 'string' ? hourOfText(raw.trim()) : undefined
  }
}

/** hour + minutes, or undefined when the result leaves the day (before 00:00 or past 23:59). */
export function addMinutes (hour: string, minutes: number): string | undefined {
  if (!isClockHour(hour) || !Number.isInteger(minutes)) return undefined
  return hourOfMinutes(minutesOf(hour) + minutes)
}

// Legacy rows say "until midnight" with an end of 00:00, and a night shift or a hospital's
// appointment runs past it: 22:00–06:00, 23:00–00:30. The rule, in one place (decision:
// docs/decisions/overnight.md): an end hour earlier than its start is on the next day, so a
// span is shorter than a day; an end equal to its start is no time at all.

/** Minutes since the start's midnight of an end hour: earlier than the start, on the next day (see above). */
export function endMinutesOf (start: string, end: string): number {
  const m = minutesOf(end)
  return m < minutesOf(start) ? m + MINUTES_PER_DAY : m
}

/** Whether [start, end) runs past the midnight closing the start's day (an end of 00:00 is that midnight, not past it). */
export function crossesMidnight (start: string, end: string): boolean {
  return endMinutesOf(start, end) > MINUTES_PER_DAY
}

/** The end hour `minutes` after `hour`, on the next day past midnight (endMinutesOf reads it back); undefined for a day or more. */
export function endHourAfter (hour: string, minutes: number): string | undefined {
  if (minutes === 0) return addMinutes(hour, 0)
  if (!isClockHour(hour) || !Number.isInteger(minutes) || minutes < 0 || minutes >= MINUTES_PER_DAY) return undefined
  return hourOfMinutes((minutesOf(hour) + minutes) % MINUTES_PER_DAY)
}

/** An end as a stored date and time ('YYYY-MM-DD HH:MM:00'): one at or past the midnight closing the day is on the next day. */
export function endDatetimeOf (date: string, start: string, end: string): string {
  return `${endMinutesOf(start, end) >= MINUTES_PER_DAY ? addDays(date, 1) : date} ${end}:00`
}

/** Strict 'YYYY-MM-DD' naming a real calendar day. */
export function isCalendarDate (s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s)
  return m !== null && isRealDate(Number(m[1]), Number(m[2]), Number(m[3]))
}

/** Strict 'HH:MM', 00:00–23:59. */
export function isClockHour (s: string): boolean {
  return /^([01]\d|2[0-3]):[0-5]\d$/.test(s)
}

/**
 * API date input: a calendar date as is, or an RFC 3339 instant (with Z or an
 * offset) turned into the date it is on the clinic's wall calendar. An instant
 * within a day of the ends of years 1–9999 gives undefined: its wall-clock date
 * may have no four-digit year (and Intl prints year 0 as "1").
 */
export function parseApiDate (s: string, timeZone: string): string | undefined {
  if (typeof s !== 'string') return undefined
  if (isCalendarDate(s)) return s
  const m = API_INSTANT.exec(s)
  if (m === null || !isCalendarDate(m[1]!)) return undefined
  // Date.parse rolls '02-30' over into March and accepts '24:00'; reject those first.
  const [hh, mm, ss, offH, offM] = [m[2], m[3], m[4], m[6], m[7]].map((v) => Number(v ?? 0)) as [number, number, number, number, number]
  if (hh > 23 || mm > 59 || ss > 59 || offH > 23 || offM > 59) return undefined
  const offset = (m[5] === '-' ? -1 : 1) * (offH * 60 + offM)
  const utcDay = dayNumber(m[1]!) + Math.floor((hh * 60 + mm - offset) / MINUTES_PER_DAY)
  if (utcDay <= FIRST_DAY || utcDay >= LAST_DAY) return undefined
  return wallClockIn(timeZone, new Date(s)).date
}

/**
 * API input of a calendar date that is no moment (a birthday): a date as is, or an RFC 3339
 * date-time's date part as written. `Date.toISOString()` spells a birthday as midnight UTC,
 * which in the Americas is the evening before, so the clinic's zone would move it a day.
 */
export function parseApiCalendarDate (s: string): string | undefined {
  if (typeof s !== 'string') return undefined
  if (isCalendarDate(s)) return s
  const m = API_INSTANT.exec(s)
  if (m === null || !isCalendarDate(m[1]!)) return undefined
  const [hh, mm, ss, offH, offM] = [m[2], m[3], m[4], m[6], m[7]].map((v) => Number(v ?? 0)) as [number, number, number, number, number]
  if (hh > 23 || mm > 59 || ss > 59 || offH > 23 || offM > 59) return undefined
  return m[1]
}

/** b − a in calendar days. */
export function daysBetween (a: string, b: string): number {
  return dayNumber(b) - dayNumber(a)
}

/** The calendar date `days` after (or before) `date`; RangeError when that leaves years 1–9999. */
export function addDays (date: string, days: number): string {
  return dateOfDay(dayNumber(date) + days)
}

/** `addDays`, stopping at the calendar's ends: the days around 9999-12-31 that a read spans. */
export function addDaysWithin (date: string, days: number): string {
  return dateOfDay(Math.min(Math.max(dayNumber(date) + days, FIRST_DAY), LAST_DAY))
}

/** 0 = Sunday … 6 = Saturday. */
export function weekdayOf (date: string): number {
  // 1970-01-01 was a Thursday.
  return (((dayNumber(date) + 4) % 7) + 7) % 7
}

/**
 * Days since 1970-01-01 of a 'YYYY-MM-DD' date (proleptic Gregorian), by plain
 * arithmetic: Date.UTC and new Date(y, …) read years 0–99 as 1900–1999.
 */
export function dayNumber (date: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date)
  if (m === null || !isRealDate(Number(m[1]), Number(m[2]), Number(m[3]))) throw new RangeError(`not a YYYY-MM-DD date: ${date}`)
  // Howard Hinnant's days_from_civil: years start in March, so the leap day ends one.
  const month = Number(m[2])
  const y = Number(m[1]) - (month <= 2 ? 1 : 0)
  const era = Math.floor(y / 400)
  const yearOfEra = y - era * 400
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + Number(m[3]) - 1
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear
  return era * DAYS_PER_ERA + dayOfEra - DAYS_0000_03_01_TO_1970
}

/** The 'YYYY-MM-DD' date of a day number; RangeError outside 0001-01-01…9999-12-31. */
export function dateOfDay (day: number): string {
  if (!Number.isInteger(day) || day < FIRST_DAY || day > LAST_DAY) throw new RangeError(`day ${day} is outside the years 1–9999`)
  // Hinnant's civil_from_days, the inverse of dayNumber.
  const z = day + DAYS_0000_03_01_TO_1970
  const era = Math.floor(z / DAYS_PER_ERA)
  const dayOfEra = z - era * DAYS_PER_ERA
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36524) - Math.floor(dayOfEra / 146096)) / 365)
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100))
  const mp = Math.floor((5 * dayOfYear + 2) / 153)
  const d = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1
  const month = mp + (mp < 10 ? 3 : -9)
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
  return `${String(year).padStart(4, '0')}-${pad2(month)}-${pad2(d)}`
}

/** Today's date on the clinic's wall calendar. Throws RangeError on an unknown zone. */
export function todayIn (timeZone: string, now: Date = new Date()): string {
  return wallClockIn(timeZone, now).date
}

/** The clinic's current wall-clock 'HH:MM'. Throws RangeError on an unknown zone. */
export function nowHourIn (timeZone: string, now: Date = new Date()): string {
  return wallClockIn(timeZone, now).hour
}

/** Inverse of readHour for writing; 'time'/'datetime' get a time-only 'HH:MM:00'. */
export function toStoredHour (hour: string, format: 'hhmm' | 'minutes'): number
export function toStoredHour (hour: string, format: 'text' | 'time' | 'datetime'): string
export function toStoredHour (hour: string, format: HourFormat): string | number
export function toStoredHour (hour: string, format: HourFormat): string | number {
  if (!isClockHour(hour)) throw new RangeError(`not an HH:MM hour: ${hour}`)
  switch (format) {
    case 'hhmm':
      return Number(hour.replace(':', ''))
    case 'minutes':
      return minutesOf(hour)
    case 'text':
      return hour
    default:
      return `${hour}:00`
  }
}

/** Inverse of readDate for writing. */
export function toStoredDate (date: string, format: 'int'): number
export function toStoredDate (date: string, format: Exclude<DateFormat, 'int'>, textStyle?: TextDateStyle, separator?: DmySeparator): string
export function toStoredDate (date: string, format: DateFormat, textStyle?: TextDateStyle, separator?: DmySeparator): string | number
export function toStoredDate (date: string, format: DateFormat, textStyle: TextDateStyle = 'iso', separator: DmySeparator = '/'): string | number {
  if (!isCalendarDate(date)) throw new RangeError(`not a YYYY-MM-DD date: ${date}`)
  switch (format) {
    case 'int':
      return Number(date.replaceAll('-', ''))
    case 'datetime':
      return `${date} 00:00:00`
    case 'text':
      return textStyle === 'dmy' ? date.split('-').reverse().join(separator) : textStyle === 'ymd' ? date.replaceAll('-', '') : date
    default:
      return date
  }
}

function dateOfJsDate (d: Date): string | undefined {
  if (Number.isNaN(d.getTime())) return undefined
  return ymd(d.getFullYear(), d.getMonth() + 1, d.getDate())
}

function dateOfInt (n: number | bigint): string | undefined {
  return typeof n === 'bigint' || Number.isSafeInteger(n) ? dateOfText(String(n)) : undefined
}

function dateOfText (s: string): string | undefined {
  let m = ISO_DATE.exec(s) ?? COMPACT_DATE.exec(s)
  if (m !== null) return ymd(Number(m[1]), Number(m[2]), Number(m[3]))
  m = DMY_DATE.exec(s)
  if (m !== null) return ymd(Number(m[3]), Number(m[2]), Number(m[1]))
  return undefined
}

function ymd (y: number, m: number, d: number): string | undefined {
  if (!isRealDate(y, m, d)) return undefined
  return `${String(y).padStart(4, '0')}-${pad2(m)}-${pad2(d)}`
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

// Plain arithmetic: Date.UTC maps years 0–99 to 1900–1999. Years 1–9999 only: the ones
// 'YYYY' spells without a sign (year 0 is 1 BC) and SQL Server's date type holds.
function isRealDate (y: number, m: number, d: number): boolean {
  if (y < 1 || y > 9999 || m < 1 || m > 12 || d < 1) return false
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0)
  return d <= (m === 2 && leap ? 29 : DAYS_IN_MONTH[m - 1]!)
}

function hourOfText (s: string): string | undefined {
  const compact = /^\d{3,4}$/.test(s) ? hourOfHhmm(Number(s)) : undefined
  if (compact !== undefined) return compact
  const m = CLOCK_H.exec(s) ?? CLOCK_COLON.exec(s)
  if (m === null || Number(m[3] ?? 0) > 59) return undefined
  return clock(Number(m[1]), Number(m[2] ?? 0))
}

function hourOfHhmm (n: number | undefined): string | undefined {
  if (n === undefined) return undefined
  return clock(Math.floor(n / 100), n % 100)
}

function hourOfMinutes (n: number | undefined): string | undefined {
  if (n === undefined || n < 0 || n >= MINUTES_PER_DAY) return undefined
  return clock(Math.floor(n / 60), n % 60)
}

function clock (h: number, m: number): string | undefined {
  if (h < 0 || h > 23 || m < 0 || m > 59) return undefined
  return `${pad2(h)}:${pad2(m)}`
}

function integerOf (raw: unknown): number | undefined {
  if (typeof raw === 'number') return Number.isSafeInteger(raw) ? raw : undefined
  if (typeof raw === 'string' && /^\s*\d+\s*$/.test(raw)) return Number(raw)
  return undefined
}

/** Minutes since midnight of an 'HH:MM' (or 'HH:MM:SS') hour. */
export function minutesOf (hour: string): number {
  return Number(hour.slice(0, 2)) * 60 + Number(hour.slice(3, 5))
}

function pad2 (n: number): string {
  return String(n).padStart(2, '0')
}

// Building an Intl.DateTimeFormat is costly relative to formatting; zones are few.
const formatters = new Map<string, Intl.DateTimeFormat>()

function wallClockIn (timeZone: string, instant: Date): { date: string; hour: string; second: string } {
  let fmt = formatters.get(timeZone)
  if (fmt === undefined) {
    fmt = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
    formatters.set(timeZone, fmt)
  }
  const parts: Record<string, string> = {}
  for (const p of fmt.formatToParts(instant)) parts[p.type] = p.value
  return {
    date: `${parts.year!.padStart(4, '0')}-${parts.month}-${parts.day}`,
    hour: `${parts.hour}:${parts.minute}`,
    second: parts.second!,
  }
}

/** A wall clock's now in the forms a legacy column may want, and the instant itself (for another clock: mapping `storedIn`). */
export interface NowParts { date: string; time: string; datetime: string; at: Date }

/** The clinic's wall clock now, in the forms a legacy column may want ('now' in write.set). */
export function nowIn (timeZone: string, at: Date = new Date()): NowParts {
  const { date, hour, second } = wallClockIn(timeZone, at)
  const time = `${hour}:${second}`
  return { date, time, datetime: `${date} ${time}`, at }
}
