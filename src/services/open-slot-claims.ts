// Booking where the clinic keeps open slots as rows of the appointment table (`openSlots`):
// a booking claims the free row at its time, a reschedule claims another and leaves the old
// one as a cancellation does, and a cancellation releases or reopens the row. Each runs inside
// the caller's transaction; which rows are free is read by open-slots.ts, as /availability reads it.
import type { Querier } from '../db/database.js'
import { DEFAULT_SLOT_MINUTES, type AppointmentRow, type AppointmentWritePlans, type Booked, type BookingRef, type CompiledMapping } from '../mapping/compile/index.js'
import { endHourAfter, nowIn } from '../normalise/datetime.js'
import { ConflictError } from '../errors.js'
import { refuseMisstored } from './stored.js'
import { writable } from './writable.js'
import { openRowAt } from './open-slots.js'
import { minutesBetween } from './slots.js'
import { checkFree, named, TIME_FIELDS, type WantedTime } from './free-check.js'
import { boundOrUnknown, heldRefs, type AppointmentRows } from './appointment-rows.js'

/** A booked time: its start, its end and the grid step of its window. */
export type BookedTime = Pick<WantedTime, 'date' | 'hour' | 'endHour' | 'step'>

export class OpenSlotClaims {
  constructor (
    private readonly compiled: CompiledMapping,
    private readonly rows: AppointmentRows,
    /** States whose appointments do not hold their time; the first is what a move leaves the old row in. */
    private readonly freeing: string[]
  ) {}

  private get writes (): AppointmentWritePlans {
    return writable(this.compiled.writes.appointment, 'appointments')
  }

  private get open (): NonNullable<AppointmentWritePlans['openSlots']> {
    return this.writes.openSlots as NonNullable<AppointmentWritePlans['openSlots']>
  }

  /**
   * The free row starting at `time` is claimed for the client — one UPDATE that changes it
   * only while it is still free — and read back as the appointment sent. Returns the row as read back.
   */
  async claim (tx: Querier, time: BookedTime, refs: Partial<Record<BookingRef, string>> & { client: string }, now: ReturnType<typeof nowIn>, booked?: Booked): Promise<AppointmentRow> {
    const state = this.compiled.model.states.initial
    const row = await openRowAt(tx, this.compiled, time.date, time.hour, refs)
    if (!row) throw noOpenSlot(time.date, time.hour, refs.professional)
    await checkFree(tx, this.compiled, this.freeing, { ...time, professional: refs.professional, client: refs.client, capacity: 1 }, TIME_FIELDS, '/body/client')
    if (!await this.open.claim(tx, row.id, state, now, refs, booked)) throw openSlotTaken(time.date, time.hour)
    await this.rows.recordState(tx, row.id, state, now, false)
    await this.rows.recordAfter(tx, row.id, state, state, now, 'create')
    return await this.rows.readBack(tx, row.id, { date: time.date, hour: time.hour, state }, this.rows.writtenRefs({ ...refs, location: refs.location ?? row.refs.location }))
  }

  /**
   * Rescheduling between open slots: the free row at `time` is claimed for the same client,
   * refs and `state`, and the old row is left as a cancellation leaves it (onCancel). The
   * appointment is then the new row; the sentence answered says so.
   */
  async move (tx: Querier, current: AppointmentRow, time: BookedTime, state: string, booked?: (refs: AppointmentRow['refs']) => Promise<Booked>): Promise<string> {
    // Every ref the appointment holds moves with it: the occupancy read has only some of them.
    current = await this.rows.stored(tx, current.id) ?? current
    const client = current.refs.client
    if (client === undefined) throw new ConflictError(`Appointment ${current.id} has no client to move into another slot.`, [{ path: '/params/id', message: 'has no client' }])
    const row = await openRowAt(tx, this.compiled, time.date, time.hour, current.refs)
    if (!row) throw noOpenSlot(time.date, time.hour, current.refs.professional)
    await checkFree(tx, this.compiled, this.freeing, { ...time, professional: current.refs.professional, client, except: current.id, capacity: 1 }, TIME_FIELDS)
    const now = nowIn(this.compiled.model.timezone)
    // The new row is the appointment now: it takes the copies a booking writes (the client's name…).
    if (!await this.open.claim(tx, row.id, state, now, { ...current.refs, client }, await booked?.(current.refs))) throw openSlotTaken(time.date, time.hour)
    const cancelled = this.freeing[0]
    // The old row is what the move leaves behind, as a cancellation leaves it.
    await this.rows.recordLeft(tx, current.id, current.state, cancelled, now, 'reschedule')
    if (this.open.onCancel === 'release') await this.free(tx, current, now)
    else {
      const leave = writable(this.writes.stateMoves[cancelled], `the old slot's row into ${cancelled}`)
      const { statement, args } = boundOrUnknown(leave.bind(current.id, now), current.id)
      await tx.query(statement, args)
      await this.rows.recordState(tx, current.id, cancelled, now, true)
      await this.free(tx, current, now)
    }
    // The old row as the move left it (released, or cancelled); the new one as claimed.
    await this.rows.recordAfter(tx, current.id, current.state, cancelled, now, 'reschedule')
    await this.rows.recordState(tx, row.id, state, now, false)
    await this.rows.recordAfter(tx, row.id, state, state, now, 'create')
    await this.rows.readBack(tx, row.id, { date: time.date, hour: time.hour, state }, heldRefs(current))
    return `Appointment ${current.id} moved to ${time.date} ${time.hour}: it is now appointment ${row.id}, that slot's row${state !== current.state ? `, and is ${state}` : ''}.`
  }

  /**
   * What a cancellation does to a claimed row (`openSlots.onCancel`): `release` writes it free
   * again (in place of the state move), `reopen` inserts a free row at its time beside it.
   * Either way its time then reads as an open slot; `keep` leaves the row as it is.
   */
  async free (tx: Querier, current: AppointmentRow, now: ReturnType<typeof nowIn>): Promise<void> {
    const open = this.open
    if (open.onCancel === 'keep') return
    if (open.onCancel === 'release') await open.release(tx, current.id, now)
    else {
      const endHour = current.endHour ?? endHourAfter(current.hour, this.compiled.model.availability?.slotMinutes ?? DEFAULT_SLOT_MINUTES) ?? '00:00'
      await writable(open.reopen, 'a reopened slot').run(tx, now, { date: current.date, hour: current.hour, endHour, minutes: minutesBetween(current.hour, endHour) }, current.refs)
    }
    const opened = await openRowAt(tx, this.compiled, current.date, current.hour, current.refs)
    if (!opened || (open.onCancel === 'release' && opened.id !== current.id)) refuseMisstored(['state'], `slot at ${current.hour} on ${current.date} (it does not read as free afterwards)`)
  }
}

/** A time asked of an installation with open slots where no free row starts. */
export function noOpenSlot (date: string, hour: string, professional?: string): ConflictError {
  return new ConflictError(`No open slot starts at ${hour} on ${date}${professional === undefined ? '' : ` for professional ${professional}`}: only the slots /availability offers can be booked.`, named(TIME_FIELDS, 'is not the start of an open slot'))
}

function openSlotTaken (date: string, hour: string): ConflictError {
  return new ConflictError(`The slot at ${hour} on ${date} was taken while this booking was made; nothing was written.`, named(TIME_FIELDS, 'is a slot taken meanwhile'))
}
