// The one home of `storedIn`: a database keeping its date-times on another clock than the
// clinic's (Tryton's naive UTC). A date-time held in one value is an instant, converted on
// read (to the clinic's wall clock), on write and in range filters (the bounds are converted,
// never the column, so its index is still used). A date or an hour kept alone is a calendar
// day or a time of day and is never converted; an appointment or dated working hours split
// over a date and an hour cannot be (the date can change), so such a mapping is refused here.
import { shiftWallClock, naiveDatetime } from '../../normalise/zones.js'
import { LAST_SENTINEL_DATE, nowIn, type NowParts } from '../../normalise/datetime.js'
import type { MappingModel, Value } from '../model.js'
import type { Reader } from './value.js'
import { CompileError } from './scope.js'

/** The clinic's zone and the zone the database stores date-times in, when they differ. */
export interface StoredClock { clinic: string, stored: string }

export function storedClock (model: Pick<MappingModel, 'timezone' | 'storedIn'>): StoredClock | undefined {
  return model.storedIn === undefined || model.storedIn === model.timezone ? undefined : { clinic: model.timezone, stored: model.storedIn }
}

/** The clock of one schedule source whose own `storedIn` (if any) overrides the installation's. */
export function sourceClock (model: Pick<MappingModel, 'timezone' | 'storedIn'>, own: string | undefined): StoredClock | undefined {
  return storedClock(own === undefined ? model : { timezone: model.timezone, storedIn: own })
}

/**
 * A stored date-time on the clinic's wall clock ('YYYY-MM-DD HH:MM:SS'), which the date and
 * hour readers then read as any date-time. What is not a date-time (NULL, blank, unreadable
 * text) or is a zero date passes through as stored: readers then decide as they always have.
 */
export function onClinicClock (raw: unknown, clock: StoredClock | undefined): unknown {
  if (clock === undefined) return raw
  const naive = naiveDatetime(raw)
  if (naive === undefined || naive.slice(0, 10) <= LAST_SENTINEL_DATE) return raw
  return shiftWallClock(naive, clock.stored, clock.clinic) ?? raw
}

/** A reader of a stored date-time giving it on the clinic's wall clock (onClinicClock). */
export function inClinicTime (read: Reader, clock: StoredClock | undefined): Reader {
  return clock === undefined ? read : (row) => onClinicClock(read(row), clock)
}

/** A clinic wall-clock date-time ('YYYY-MM-DD HH:MM:SS') as the database stores it. */
export function toStoredTime (wall: string, clock: StoredClock | undefined): string {
  if (clock === undefined) return wall
  const stored = shiftWallClock(wall, clock.clinic, clock.stored)
  if (stored === undefined) throw new RangeError(`${wall} cannot be stored on the clock of ${clock.stored}`)
  return stored
}

/** The same range bound as the database stores it; a bound past the years a clock can spell (9999-12-31 "never") is kept. */
export function storedBound (wall: string, clock: StoredClock | undefined): string {
  return clock === undefined ? wall : shiftWallClock(wall, clock.clinic, clock.stored) ?? wall
}

/** `now` as the database stores it (a `now:` write): the same instant on the stored clock. */
export function storedNow (now: NowParts, clock: StoredClock | undefined): NowParts {
  return clock === undefined ? now : nowIn(clock.stored, now.at)
}

/**
 * Refuses, naming the key, each place where a date-time of the schedule is split over a date
 * and an hour (or kept as text) while `storedIn` says it is on another clock: such values
 * cannot be turned into the clinic's wall clock by columns alone.
 */
export function refuseSplitClock (model: MappingModel): void {
  const clock = storedClock(model)
  if (clock !== undefined) {
    const why = splitWhy(clock)
    const { start, end } = model.appointment
    if (!start.datetime) throw new CompileError(`${model.appointment.path}/start`, `the appointment start ${why}; map it as start.datetime`)
    mustBeDatetime(start.datetime, 'datetime', `the appointment start ${why}`)
    if (end?.hour) mustBeDatetime(end.hour, 'text', `the appointment end ${why}; use end.datetime or end.duration`)
    if (end?.datetime) mustBeDatetime(end.datetime, 'datetime', `the appointment end ${why}`)
  }
  // Each schedule source on its own clock: the installation's unless it says another.
  const dated = model.availability?.dated
  const datedClock = dated ? sourceClock(model, dated.storedIn) : undefined
  if (dated && datedClock) {
    const path = '/availability/dated'
    for (const field of ['date', 'start', 'end'] as const) {
      const v = dated[field]
      if (v === undefined) continue
      const format = typeof v === 'string' ? undefined : v.format
      if (format !== 'datetime') throw new CompileError(`${path}/${field}`, `dated working hours' ${field} ${splitWhy(datedClock)}; give start and end as datetimes (and leave date out)`)
    }
  }
  const blocks = model.availability?.blocks === undefined ? [] : Array.isArray(model.availability.blocks) ? model.availability.blocks : [model.availability.blocks]
  blocks.forEach((b, i) => {
    const own = b.storedIn === undefined ? undefined : sourceClock(model, b.storedIn)
    const field = b.start !== undefined ? 'start' : b.end !== undefined ? 'end' : undefined
    // Hours of a block apart from its dates cannot be converted (the date can change with them).
    if (own && field) throw new CompileError(`/availability/blocks${Array.isArray(model.availability?.blocks) ? `/${i}` : ''}/${field}`, `a block's ${field} ${splitWhy(own)}; give from and to as datetimes`)
  })
}

const splitWhy = (clock: StoredClock): string =>
  `is stored on the clock of ${clock.stored} (storedIn), so it must be a date-time in one datetime column (format: datetime): a date or an hour kept apart cannot be converted to ${clock.clinic}, since the date can change`

function mustBeDatetime (v: Value, fallback: string, message: string): void {
  if ((v.format ?? fallback) !== 'datetime') throw new CompileError(v.format === undefined ? v.path : `${v.path}/format`, message)
}
