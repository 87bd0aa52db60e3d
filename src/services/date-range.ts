import { daysBetween, parseApiDate } from '../normalise/datetime.js'
import { InvalidInputError, type FieldIssue } from '../errors.js'

/** A closed range of the clinic's dates from query parameters, at most `maxDays` long. */
export function queryDateRange (q: { start: string, end: string }, timezone: string, maxDays: number): { start: string, end: string } {
  const start = parseApiDate(q.start, timezone)
  const end = parseApiDate(q.end, timezone)
  const issues: FieldIssue[] = []
  if (!start) issues.push({ path: '/querystring/start', message: 'must be a date (YYYY-MM-DD) or an ISO date-time' })
  if (!end) issues.push({ path: '/querystring/end', message: 'must be a date (YYYY-MM-DD) or an ISO date-time' })
  if (!start || !end) throw new InvalidInputError('start and end must be dates.', issues)
  const days = daysBetween(start, end)
  if (days < 0) throw new InvalidInputError('end is before start.', [{ path: '/querystring/end', message: 'must not be before start' }])
  if (days + 1 > maxDays) {
    throw new InvalidInputError(`The range spans ${days + 1} days; the most is ${maxDays}.`, [{ path: '/querystring/end', message: `at most ${maxDays - 1} days after start` }])
  }
  return { start, end }
}
