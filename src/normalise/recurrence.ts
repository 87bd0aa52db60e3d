// The dates a recurring schedule row (`repeat`) falls on, within one asked window. Stepping
// follows OpenEMR's calendar (library/appointments.inc.php, encounter_events.inc.php), the
// system the construct was written for: each step goes on from the previous date, so a
// monthly row from the 31st carries its overflow (31 January + 1 month is 3 March, then 3 April).
// Dates are 'YYYY-MM-DD' on the clinic's calendar; nothing here reads a clock.
import { dateOfDay, dayNumber, weekdayOf } from './datetime.js'

export type RepeatUnit = 'day' | 'week' | 'month' | 'year' | 'workday'
export type RepeatKind = 'once' | 'every' | 'nth' | 'weekdays'
export const REPEAT_KINDS: readonly RepeatKind[] = ['once', 'every', 'nth', 'weekdays']
export const REPEAT_UNITS: readonly RepeatUnit[] = ['day', 'week', 'month', 'year', 'workday']

/** `last` in `nth`: the month's last such weekday (OpenEMR's 5, "the 5th, else the 4th"). */
export const LAST = 5

interface Bounds {
  /** The last date it may fall on (inclusive); none: no end. */
  until?: string
  /** Dates left out. */
  except?: readonly string[]
}

/**
 * A recurrence, from the row's first date on:
 * - `every`: every `every` days, weeks, months, years, or workdays (Monday to Friday);
 * - `nth`: the `nth` (1–4, or LAST) `weekday` (0 = Sunday) of every `months` months, counted
 *   from the first date's month;
 * - `weekdays`: the listed `weekdays` (0 = Sunday) of every `weeks` weeks (Monday to Sunday),
 *   counted from the first date's week. The first date itself always is one, listed or not.
 */
export type Recurrence = Bounds & (
  | { kind: 'once' }
  | { kind: 'every', every: number, unit: RepeatUnit }
  | { kind: 'nth', months: number, nth: number, weekday: number }
  | { kind: 'weekdays', weeks: number, weekdays: readonly number[] }
)

/**
 * The dates in [from, to] the rule starting on `first` falls on, in order: none before
 * `first`, after `until`, or listed in `except`. Bounded by the window: at most one date a day.
 */
export function occurrences (first: string, rule: Recurrence, from: string, to: string): string[] {
  const lo = Math.max(dayNumber(first), dayNumber(from))
  const hi = Math.min(dayNumber(to), rule.until === undefined ? Infinity : dayNumber(rule.until))
  if (lo > hi) return []
  const except = new Set(rule.except ?? [])
  const days = daysOf(dayNumber(first), rule, lo, hi)
  return days.filter((d) => d >= lo && d <= hi).map(dateOfDay).filter((d) => !except.has(d))
}

/** Day numbers of the rule that may fall in [lo, hi] (the caller keeps those that do). */
function daysOf (first: number, rule: Recurrence, lo: number, hi: number): number[] {
  switch (rule.kind) {
    case 'once': return [first]
    case 'every': return everyDays(first, rule.every, rule.unit, lo, hi)
    case 'nth': return nthDays(first, rule.months, rule.nth, rule.weekday, lo, hi)
    case 'weekdays': return weekdayDays(first, rule.weeks, rule.weekdays, lo, hi)
  }
}

function everyDays (first: number, every: number, unit: RepeatUnit, lo: number, hi: number): number[] {
  const out: number[] = []
  if (unit === 'day' || unit === 'week') {
    // Fixed steps: the first one in the window is computed, not walked to.
    const step = unit === 'day' ? every : 7 * every
    for (let d = first + Math.max(0, Math.ceil((lo - first) / step)) * step; d <= hi; d += step) out.push(d)
    return out
  }
  // Months, years and workdays go on from the previous date, as OpenEMR steps them.
  const next = unit === 'workday' ? (d: number) => afterWorkdays(d, every) : (d: number) => afterMonths(d, unit === 'month' ? every : 12 * every)
  for (let d = unit === 'workday' ? skipWeeks(first, lo, next) : first; d <= hi; d = next(d)) if (d >= lo) out.push(d)
  return out
}

/**
 * The first date of a walk by `next` that is on or after `lo`, or the last before it. A
 * workday step depends only on the weekday it starts from, so once a weekday recurs the dates
 * repeat by whole weeks: those are skipped, not walked (a rule begun years ago costs a few steps).
 */
function skipWeeks (first: number, lo: number, next: (d: number) => number): number {
  let d = first
  let skipped = false
  const seen = new Map<number, number>()
  while (d < lo) {
    const w = weekdayOfDay(d)
    const earlier = seen.get(w)
    if (!skipped && earlier !== undefined) {
      const period = d - earlier
      d += Math.floor((lo - d) / period) * period
      skipped = true
      if (d >= lo) break
    }
    seen.set(w, d)
    d = next(d)
  }
  return d
}

/**
 * `months` calendar months after day `d`, keeping its day of the month; a day the month does
 * not have runs on into the next (PHP's mktime: 31 January + 1 month = 3 March, 2027).
 */
function afterMonths (d: number, months: number): number {
  const [y, m, day] = partsOf(d)
  const index = y * 12 + (m - 1) + months
  return dayNumber(isoOf(Math.floor(index / 12), (index % 12) + 1, 1)) + day - 1
}

/**
 * `n` workdays after day `d`, counted as OpenEMR counts them: every Saturday or Sunday among
 * the next `n` days adds a day, and a Saturday or Sunday reached is passed over.
 */
function afterWorkdays (d: number, n: number): number {
  let f = n
  for (let k = 1; k <= n; k++) if (isWeekend(d + k)) f++
  const landed = weekdayOfDay(d + f)
  if (landed === 6) f += 2
  else if (landed === 0) f += 1
  return d + f
}

function nthDays (first: number, months: number, nth: number, weekday: number, lo: number, hi: number): number[] {
  const [y, m] = partsOf(first)
  const start = y * 12 + (m - 1)
  const [ly, lm] = partsOf(lo)
  // The first stepped month that can reach the window (a month earlier than lo's holds none of it).
  let index = start + Math.max(0, Math.floor((ly * 12 + (lm - 1) - start) / months)) * months
  const out: number[] = []
  for (;; index += months) {
    const year = Math.floor(index / 12)
    const month = (index % 12) + 1
    if (dayNumber(isoOf(year, month, 1)) > hi) return out
    out.push(nthWeekday(year, month, nth, weekday))
  }
}

/** The `nth` (1–4, or LAST: the last) `weekday` of a month. */
export function nthWeekday (year: number, month: number, nth: number, weekday: number): number {
  const firstDay = dayNumber(isoOf(year, month, 1))
  const firstMatch = firstDay + ((weekday - weekdayOfDay(firstDay) + 7) % 7)
  if (nth !== LAST) return firstMatch + 7 * (nth - 1)
  const nextMonth = month === 12 ? dayNumber(isoOf(year + 1, 1, 1)) : dayNumber(isoOf(year, month + 1, 1))
  let d = firstMatch + 28
  while (d >= nextMonth) d -= 7
  return d
}

function weekdayDays (first: number, weeks: number, weekdays: readonly number[], lo: number, hi: number): number[] {
  const out: number[] = [first]
  // Weeks run Monday to Sunday; the first date's week is week 0.
  const monday = (d: number): number => d - ((weekdayOfDay(d) + 6) % 7)
  const week0 = monday(first)
  const span = 7 * weeks
  const days = [...new Set(weekdays)].map((w) => (w + 6) % 7).sort((a, b) => a - b)
  for (let week = week0 + Math.max(0, Math.floor((monday(lo) - week0) / span)) * span; week <= hi; week += span) {
    for (const offset of days) {
      const d = week + offset
      if (d > first) out.push(d)
    }
  }
  return out
}

const weekdayOfDay = (d: number): number => weekdayOf(dateOfDay(d))
const isWeekend = (d: number): boolean => { const w = weekdayOfDay(d); return w === 0 || w === 6 }

function partsOf (d: number): [number, number, number] {
  const [y, m, day] = dateOfDay(d).split('-').map(Number)
  return [y, m, day]
}

const isoOf = (y: number, m: number, d: number): string => `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`
