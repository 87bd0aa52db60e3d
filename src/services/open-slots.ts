// Open slots kept as rows of the appointment table (`openSlots`): reading the free rows, as
// /availability's working windows and as the row a booking claims. One reader for both, so
// what is offered is exactly what can be claimed.
import type { Querier } from '../db/database.js'
import type { AppointmentRow, CompiledMapping, DatedRow } from '../mapping/compile/index.js'
import { endMinutesOf, minutesOf } from '../normalise/datetime.js'
import { endHourOfMinutes } from './slots.js'

/** The free rows starting on [from, to] (one professional's, when given), in start order then by key. */
export async function openRows (q: Querier, compiled: CompiledMapping, range: { from: string, to: string }, professional?: string): Promise<AppointmentRow[]> {
  if (!compiled.model.appointment.openSlots) return []
  const filtered = professional !== undefined && compiled.model.appointment.refs.professional !== undefined
  const shape = compiled.appointments({ filters: filtered ? ['professional'] : [], minimal: false, occupancy: true, open: true })
  const bound = shape.bind({ ...range, ...filtered ? { professional } : {} })
  if (!bound) return []
  return (await q.query(bound.statement, bound.args)).flatMap((row) => shape.read(row) ?? [])
}

/** Free rows as working windows one slot long: from the row's start to its end (`slotMinutes` when it has none). */
export function openWindows (rows: AppointmentRow[], slotMinutes: number): DatedRow[] {
  return rows.flatMap((r): DatedRow[] => {
    const professional = r.refs.professional
    if (professional === undefined) return []
    const start = minutesOf(r.hour)
    const stored = r.endHour === undefined ? undefined : endMinutesOf(r.hour, r.endHour)
    const end = stored !== undefined && stored > start ? stored : Math.min(start + slotMinutes, 24 * 60)
    const out: DatedRow = { professional, date: r.date, start: r.hour, end: endHourOfMinutes(end), interval: end - start, whole: true }
    if (r.refs.location !== undefined) out.location = r.refs.location
    return [out]
  })
}

/**
 * The free row a booking of `date hour` with this professional (and location, when given)
 * claims: the first by key, as /availability offers one slot for them all.
 */
export async function openRowAt (q: Querier, compiled: CompiledMapping, date: string, hour: string, who: { professional?: string, location?: string }): Promise<AppointmentRow | undefined> {
  const rows = await openRows(q, compiled, { from: date, to: date }, who.professional)
  return rows.find((r) => r.hour === hour && r.refs.professional === who.professional && (who.location === undefined || r.refs.location === undefined || r.refs.location === who.location))
}

/**
 * Whether the row `id` is a free row now: a claimed row released (by a cancellation through
 * Ponte or by the clinic's program clearing its patient), which reads as no appointment.
 */
export async function isOpenRow (q: Querier, compiled: CompiledMapping, id: string): Promise<boolean> {
  if (!compiled.model.appointment.openSlots) return false
  const shape = compiled.appointments({ filters: [], minimal: true, byId: true, open: true })
  const bound = shape.bind({ id })
  if (!bound) return false
  return (await q.query(bound.statement, bound.args)).some((row) => shape.read(row) !== undefined)
}
