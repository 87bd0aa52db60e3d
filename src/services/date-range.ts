import { daysBetween } from '../normalise/datetime.js'
import { DATE_WINDOW, readApiDate } from '../normalise/date-window.js'
import { InvalidInputError, type FieldIssue } from '../errors.js'

/** A closed range of the clinic's dates from query parameters, inside the date window and at most `maxDays` long. */
export function queryDateRange (q: { start: string, end: string }, timezone: string, maxDays: number): { start: string, end: string } {
  const issues: FieldIssue[] = []
  const start = readApiDate(q.start, timezone, '/querystring/start', issues)
  const end = readApiDate(q.end, timezone, '/querystring/end', issues)
  if (start === undefined || end === undefined) throw new InvalidInputError(`start and end must be dates from ${DATE_WINDOW.first} to ${DATE_WINDOW.last}.`, issues)
  const days = daysBetween(start, end)
  if (days < 0) throw new InvalidInputError('end is before start.', [{ path: '/querystring/end', message: 'must not be before start' }])
  if (days + 1 > maxDays) {
    throw new InvalidInputError(`The range spans ${days + 1} days; the most is ${maxDays}.`, [{ path: '/querystring/end', message: `at most ${maxDays - 1} days after start` }])
  }
  return { start, end }
}
