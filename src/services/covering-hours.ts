// The working-hours row a booked start falls in, for the appointment columns copying it
// (`SALA: { hours: SALA }`, docs/mapping.md). Which row covers is decided as /availability
// decides the window a start is in: the professional's windows holding the start (at the
// booked location, when both say one), a weekly row before a dated one, then the earliest
// start, the earliest end and the lowest value, so two overlapping rows give the same answer
// on every database whatever order it returns them in. The row is read on the write's own
// transaction, by the one statement of the source covering the start, so a room the clinic
// moved before the write is the room stored.
import type { Querier } from '../db/database.js'
import type { CompiledMapping, CoveringHours, DatedRow, WeeklyRow } from '../mapping/compile/index.js'
import { addDaysWithin, isCalendarDate, isClockHour, minutesOf } from '../normalise/datetime.js'
import { datedIn, readAll, windowsAround, type Window } from './slots.js'

/** A start to copy working hours for: whose, and where when the booking says. */
export interface CoveredStart { date: string, hour: string, professional?: string, location?: string }

export type HoursSource = Window['source']

/** The window whose row a start copies, among one professional's windows of its date (and the night before's). */
export function coveringWindow (windows: Window[], hour: string, location?: string): Window | undefined {
  if (!isClockHour(hour)) return undefined
  const at = minutesOf(hour)
  const holding = windows.filter((w) => w.start <= at && at < w.end && (location === undefined || w.location === undefined || w.location === location))
  return holding.sort(coveringOrder)[0]
}

const SOURCES: HoursSource[] = ['weekly', 'dated']

function coveringOrder (a: Window, b: Window): number {
  return SOURCES.indexOf(a.source) - SOURCES.indexOf(b.source) || a.start - b.start || a.end - b.end || compareValues(Object.values(a.copies ?? {}), Object.values(b.copies ?? {}))
}

function compareValues (a: unknown[], b: unknown[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const [x, y] = [a[i], b[i]]
    if (x === y) continue
    // NULL last; numbers as numbers; anything else as its text.
    if (x === null || x === undefined) return 1
    if (y === null || y === undefined) return -1
    if (typeof x === 'number' && typeof y === 'number') return x - y
    const [p, q] = [String(x), String(y)]
    if (p !== q) return p < q ? -1 : 1
  }
  return 0
}

/**
 * The copied columns of the row covering `start`, read through `q` (the write's transaction):
 * the first of `sources` whose rows cover it is read and decides; undefined when none does,
 * or there is no professional whose hours to read. One statement per source tried: booking
 * passes the one source its day, read before the transaction, found covering.
 */
export async function coveringHours (q: Querier, compiled: CompiledMapping, start: CoveredStart, sources: readonly HoursSource[] = SOURCES): Promise<CoveringHours | undefined> {
  const av = compiled.availability
  const { professional, date } = start
  if (!av || professional === undefined || !isCalendarDate(date)) return undefined
  for (const source of sources) {
    let weekly: WeeklyRow[] = []
    let dated: DatedRow[] = []
    if (source === 'weekly') {
      const bound = av.weeklyOf?.bind(professional)
      if (!av.weeklyOf || !bound) continue
      weekly = readAll(await q.query(bound.statement, bound.args), av.weeklyOf.read)
    } else {
      const bound = av.datedOf?.bind(professional, { from: addDaysWithin(date, -1), to: date })
      if (!av.datedOf || !bound) continue
      // A recurring row stands for the dates it recurs on, as availability reads it.
      dated = datedIn(readAll(await q.query(bound.statement, bound.args), av.datedOf.read), addDaysWithin(date, -1), date)
    }
    const windows = windowsAround(date, weekly, dated).filter((w) => w.professional === professional)
    const found = coveringWindow(windows, start.hour, start.location)
    if (found) return found.copies ?? {}
  }
  return undefined
}
