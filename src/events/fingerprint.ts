// What the detector remembers of an appointment, and the events between two memories of it:
// a digest per answered field (a nested record by its id: a renamed professional or a new
// phone is a change of that record, not of every appointment naming it) and the plain values
// a reschedule or a state change reports as `previous`.
import { createHash } from 'node:crypto'
import type { AppointmentT } from '../schemas/resources.js'
import type { NewEvent } from './event.js'

export interface Fingerprint {
  date: string
  hour: string
  endHour?: string
  state: string
  /** Field name → a short digest of its value. */
  fields: Record<string, string>
  /**
   * The appointment as last answered, kept only where its row can stop being an appointment
   * without being deleted (open slots: a released claim), to say what was canceled.
   */
  appointment?: AppointmentT
  /**
   * Gone through a write of Ponte's (released or deleted): kept, with the write's generation,
   * so a poll that read the row before the write does not take it for a new appointment; the
   * next poll forgets it.
   */
  gone?: true
}

/** Fields a reschedule changes (the end follows the start). */
const WHEN = ['date', 'hour', 'endHour']

const digest = (value: unknown): string => createHash('sha256').update(JSON.stringify(value)).digest('base64url').slice(0, 16)

/** `keep`: with the whole appointment (open-slot installations, see `Fingerprint.appointment`). */
export function fingerprintOf (a: AppointmentT, keep = false): Fingerprint {
  const fields: Record<string, string> = {}
  for (const [name, value] of Object.entries(a)) {
    if (name === 'id' || value === undefined) continue
    const id = typeof value === 'object' && value !== null ? (value as { id?: unknown }).id : undefined
    fields[name] = digest(id ?? value)
  }
  return { date: a.date, hour: a.hour, ...(a.endHour !== undefined ? { endHour: a.endHour } : {}), state: a.state, fields, ...(keep ? { appointment: a } : {}) }
}

/** The whole fingerprint as one comparable text (what the store keeps as the hash). */
export function hashOf (f: Fingerprint): string {
  return digest(Object.keys(f.fields).sort().map((k) => [k, f.fields[k]]))
}

/** Field names whose digests differ, in the answer's order (a field gone counts as changed). */
export function changedFields (before: Fingerprint, after: Fingerprint): string[] {
  const names = new Set([...Object.keys(after.fields), ...Object.keys(before.fields)])
  return [...names].filter((n) => before.fields[n] !== after.fields[n])
}

/**
 * The events that take an appointment from `before` to `now`: created (no `before`), deleted
 * (no `now`), else one per kind of change: rescheduled, state_changed (and canceled on a move
 * into a freeing state), updated for the other fields. Nothing when nothing changed.
 * `released`: there is no `now` because the row is an open slot's free row again, which is a
 * cancellation (into `released.as`), not a deletion.
 */
export function eventsBetween (id: string, was: Fingerprint | undefined, now: AppointmentT | undefined, freeing: string[], released?: { as?: string }): NewEvent[] {
  // Gone already said so: its events were emitted when it went.
  const before = was?.gone === true ? undefined : was
  if (now === undefined && before !== undefined && released !== undefined) return releasedEvents(id, before, released.as ?? freeing[0], freeing)
  if (now === undefined) return before === undefined ? [] : [{ type: 'appointment.deleted', appointmentId: id, data: { appointment: { id } } }]
  if (before === undefined) return [{ type: 'appointment.created', appointmentId: id, data: { appointment: now } }]
  const changed = changedFields(before, fingerprintOf(now))
  if (changed.length === 0) return []
  const out: NewEvent[] = []
  const moved = before.date !== now.date || before.hour !== now.hour
  if (moved) {
    const previous = { date: before.date, hour: before.hour, ...(before.endHour !== undefined ? { endHour: before.endHour } : {}) }
    out.push({ type: 'appointment.rescheduled', appointmentId: id, data: { appointment: now, previous } })
  }
  if (before.state !== now.state) {
    const data = { appointment: now, previous: { state: before.state } }
    out.push({ type: 'appointment.state_changed', appointmentId: id, data })
    if (freeing.includes(now.state) && !freeing.includes(before.state)) out.push({ type: 'appointment.canceled', appointmentId: id, data })
  }
  const others = changed.filter((n) => n !== 'state' && !(moved && WHEN.includes(n)))
  if (others.length > 0) out.push({ type: 'appointment.updated', appointmentId: id, data: { appointment: now, changed: others } })
  return out
}

/**
 * A claimed open slot released (its row free again): the booked appointment ends canceled,
 * answered as it was last seen in the state `as`; the free row is not an appointment. One
 * already in a freeing state was canceled before: nothing new. Without a freeing state to
 * name, it is a deletion.
 */
function releasedEvents (id: string, before: Fingerprint, as: string | undefined, freeing: string[]): NewEvent[] {
  if (as === undefined) return [{ type: 'appointment.deleted', appointmentId: id, data: { appointment: { id } } }]
  if (freeing.includes(before.state)) return []
  const seen = before.appointment ?? { id, date: before.date, hour: before.hour, ...(before.endHour !== undefined ? { endHour: before.endHour } : {}) }
  const data = { appointment: { ...seen, state: as }, previous: { state: before.state } }
  return [
    { type: 'appointment.state_changed', appointmentId: id, data },
    { type: 'appointment.canceled', appointmentId: id, data }
  ]
}
