// The dates the interface accepts, on every route that takes one. Outside it a date is a
// typo or a probe, never an appointment or a living patient's birthday; refusing it at the
// door keeps year 10000 (which no 'YYYY-MM-DD' spells) away from the date arithmetic, the
// database and the legacy system.
import type { FieldIssue } from '../errors.js'
import { dayNumber, parseApiCalendarDate, parseApiDate } from './datetime.js'

export const DATE_WINDOW = { first: '1900-01-01', last: '2199-12-31' } as const

const FIRST = dayNumber(DATE_WINDOW.first)
const LAST = dayNumber(DATE_WINDOW.last)

/**
 * An API date (YYYY-MM-DD, or an ISO date-time read on the clinic's calendar) inside the
 * window; otherwise undefined, with the reason added to `issues` under `path`.
 */
export function readApiDate (raw: unknown, timeZone: string, path: string, issues: FieldIssue[]): string | undefined {
  return inWindow(typeof raw === 'string' ? parseApiDate(raw, timeZone) : undefined, path, issues)
}

/** A calendar date (a birthday is no moment: a date-time's date part as written), as readApiDate reads dates. */
export function readApiCalendarDate (raw: unknown, path: string, issues: FieldIssue[]): string | undefined {
  return inWindow(typeof raw === 'string' ? parseApiCalendarDate(raw) : undefined, path, issues)
}

function inWindow (date: string | undefined, path: string, issues: FieldIssue[]): string | undefined {
  if (date === undefined) {
    issues.push({ path, message: `must be a date (YYYY-MM-DD) or an ISO date-time, from ${DATE_WINDOW.first} to ${DATE_WINDOW.last}` })
    return undefined
  }
  const day = dayNumber(date)
  if (day < FIRST || day > LAST) {
    issues.push({ path, message: `must be from ${DATE_WINDOW.first} to ${DATE_WINDOW.last}` })
    return undefined
  }
  return date
}
