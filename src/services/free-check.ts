// Whether a booked time is still free, inside the write's transaction: the one check a
// booking, a reschedule, a state move back and an open-slot claim all make before writing.
import type { Querier } from '../db/database.js'
import type { AppointmentRow, CompiledMapping } from '../mapping/compile/index.js'
import { addDaysWithin, dayNumber, endMinutesOf, minutesOf } from '../normalise/datetime.js'
import { ConflictError, type FieldIssue } from '../errors.js'
import { DAY_MINUTES, hasRoom, heldRowsOfEach, heldSpan, minutesLeft, overlaps, type SlotMinutes } from './slots.js'

/** The request fields a conflict over a booked time is about. */
export const TIME_FIELDS = ['/body/date', '/body/hour']

export function named (paths: string[], message: string): FieldIssue[] {
  return paths.map((path) => ({ path, message }))
}

/** A time to book (or keep), whose it is, and what it may share with. */
export interface WantedTime {
  date: string
  hour: string
  endHour: string
  /** The grid step of its window: how long an appointment without a stored end holds. */
  step: number
  professional?: string
  client?: string
  /** The appointment being moved, which does not conflict with itself. */
  except?: string
  /** How many appointments the professional's time takes (a slot row's capacity; 1 by default). */
  capacity?: number
  /**
   * A slot shared by minutes (`capacity: minutes`): the minutes each appointment in it uses
   * (undefined: the whole slot); its length is `step`, and `capacity` is then not counted.
   */
  uses?: (a: AppointmentRow) => number | undefined
}

/**
 * 409 when the professional's time is full (as many appointments overlap it as it takes), or
 * another appointment of the client overlaps it. `paths` are the fields the conflict names;
 * `clientPath`, where the request names the client, is named for the client's clash too.
 */
export async function checkFree (tx: Querier, compiled: CompiledMapping, freeing: string[], s: WantedTime, paths: string[], clientPath?: string): Promise<void> {
  // What holds a time is decided in one place (services/slots.ts), as /availability decides it.
  const wanted = { start: minutesOf(s.hour), end: endMinutesOf(s.hour, s.endHour) }
  // The professional's and the client's days in one read, each as heldRows reads it alone:
  // the day before and after too, for what runs past a midnight (on this date's clock).
  const day = await heldRowsOfEach(tx, compiled, freeing, { from: addDaysWithin(s.date, -1), to: addDaysWithin(s.date, 1) }, { professional: s.professional, client: s.client })
  const shift = (a: AppointmentRow): number => (dayNumber(a.date) - dayNumber(s.date)) * DAY_MINUTES
  for (const who of ['professional', 'client'] as const) {
    const id = s[who]
    if (id === undefined) continue
    const held = day[who]
    const uses = who === 'professional' ? s.uses : undefined
    const others = held.filter((a) => a.id !== s.except && (who === 'professional' || !a.holding))
    const spans = others.map((a) => {
      const span = heldSpan(a, s.step)
      return { start: span.start + shift(a), end: span.end + shift(a), holding: a.holding, uses: uses?.(a) }
    })
    // A client is never in two places at once, whatever a slot row takes.
    const capacity: number | SlotMinutes = uses ? { length: s.step } : who === 'professional' ? s.capacity ?? 1 : 1
    if (hasRoom(wanted, spans, capacity)) continue
    const clash = others.find((a, i) => overlaps(wanted, spans[i]))
    if (typeof capacity !== 'number' && !clash?.holding) {
      const left = Math.max(0, minutesLeft(spans.filter((h) => overlaps(wanted, h)), capacity))
      throw new ConflictError(`The slot at ${s.hour} on ${s.date} is full: ${left} of its ${capacity.length} minutes ${left === 1 ? 'is' : 'are'} left, and the appointment needs ${wanted.end - wanted.start}.`, named(paths, 'is a slot without the minutes left'))
    }
    if (typeof capacity === 'number' && (!clash || (capacity > 1 && !clash.holding))) {
      throw new ConflictError(`The slot at ${s.hour} on ${s.date} is full: it takes ${capacity === 1 ? 'one appointment' : `${capacity} appointments`}.`, named(paths, 'is a slot already full'))
    }
    // Unreached (each branch above throws without a clash); it tells the compiler `clash` is set.
    if (!clash) throw new ConflictError(`The time at ${s.hour} on ${s.date} is taken.`, named(paths, 'is taken'))
    if (who === 'professional') {
      throw new ConflictError(`The professional already has ${clash.holding ? 'that time taken' : 'an appointment'} from ${clash.hour}${clash.endHour ? ` to ${clash.endHour}` : ''} on ${clash.date}.`,
        named(paths, 'is a time the professional already has taken'))
    }
    throw new ConflictError(`The client already has an appointment at ${clash.hour} on ${clash.date}.`,
      [...clientPath ? [{ path: clientPath, message: 'already has an appointment at that time' }] : [], ...named(paths, 'overlaps another appointment of the client')])
  }
}
