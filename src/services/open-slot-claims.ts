// Booking where the clinic keeps open slots as rows of the appointment table (`openSlots`):
// a booking claims the free row at its time, a reschedule swaps times with another, and a
// cancellation releases or reopens the row. Each runs inside
// the caller's transaction; which rows are free is read by open-slots.ts, as /availability reads it.
import type { Querier } from '../db/database.js'
import { DEFAULT_SLOT_MINUTES, type AppointmentRow, type AppointmentWritePlans, type Booked, type BookingRef, type CompiledMapping, type BookedTime as WrittenTime } from '../mapping/compile/index.js'
import { endHourAfter, nowIn } from '../normalise/datetime.js'
import { ConflictError } from '../errors.js'
import { refuseMisstored } from './stored.js'
import { writable } from './writable.js'
import { openRowAt, openRows } from './open-slots.js'
import { minutesBetween } from './slots.js'
import { checkFree, named, TIME_FIELDS, type WantedTime } from './free-check.js'
import { heldRefs, type AppointmentRows } from './appointment-rows.js'

/** A booked time: its start, its end and the grid step of its window. */
export type BookedTime = Pick<WantedTime, 'date' | 'hour' | 'endHour' | 'step'>

export class OpenSlotClaims {
  constructor (
    private readonly compiled: CompiledMapping,
    private readonly rows: AppointmentRows,
    /** States whose appointments do not hold their time. */
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
   * Rescheduling between open slots: the appointment and the free row at `time` swap times, so
   * the appointment keeps its id (the caller's) and its old time reads as that free row, offered
   * again. Each UPDATE holds its row's condition (still free; still booked in its state).
   */
  async move (tx: Querier, current: AppointmentRow, time: BookedTime, state: string): Promise<string> {
    // Every ref the appointment holds stays with it: the occupancy read has only some of them.
    current = await this.rows.stored(tx, current.id) ?? current
    const row = await openRowAt(tx, this.compiled, time.date, time.hour, current.refs)
    if (!row) throw noOpenSlot(time.date, time.hour, current.refs.professional)
    await checkFree(tx, this.compiled, this.freeing, { ...time, professional: current.refs.professional, client: current.refs.client, except: current.id, capacity: 1 }, TIME_FIELDS)
    const now = nowIn(this.compiled.model.timezone)
    await this.rows.recordLeft(tx, current.id, current.state, state, now, 'reschedule')
    const swapped = await this.open.swap(tx, { id: current.id, state: current.state, time: bookedTime(current) }, { id: row.id, time: bookedTime(row) }, now)
    if (swapped === 'taken') throw openSlotTaken(time.date, time.hour)
    if (swapped === 'changed') throw new ConflictError(`Appointment ${current.id} changed while it was being rescheduled; nothing was written.`, [{ path: '/params/id', message: 'changed while this request was handled; retry' }])
    if (state !== current.state) await this.rows.recordState(tx, current.id, state, now, true)
    // The appointment's row as the move left it: its id, at the free row's time.
    await this.rows.recordAfter(tx, current.id, current.state, state, now, 'reschedule')
    const offered = await openRows(tx, this.compiled, { from: current.date, to: current.date }, current.refs.professional)
    if (!offered.some((r) => r.id === row.id && r.hour === current.hour)) refuseMisstored(['date', 'hour'], `slot at ${current.hour} on ${current.date} (it does not read as free after the move)`)
    await this.rows.readBack(tx, current.id, { date: row.date, hour: row.hour, state }, heldRefs(current))
    return `Appointment ${current.id} moved to ${row.date} ${row.hour}${state !== current.state ? ` and is now ${state}` : ''}.`
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

/** A row's time as a write stores it: its start, its end (where it has one) and the length between. */
function bookedTime (r: AppointmentRow): WrittenTime {
  return { date: r.date, hour: r.hour, ...r.endHour === undefined ? {} : { endHour: r.endHour, minutes: minutesBetween(r.hour, r.endHour) } }
}

/** A time asked of an installation with open slots where no free row starts. */
export function noOpenSlot (date: string, hour: string, professional?: string): ConflictError {
  return new ConflictError(`No open slot starts at ${hour} on ${date}${professional === undefined ? '' : ` for professional ${professional}`}: only the slots /availability offers can be booked.`, named(TIME_FIELDS, 'is not the start of an open slot'))
}

function openSlotTaken (date: string, hour: string): ConflictError {
  return new ConflictError(`The slot at ${hour} on ${date} was taken while this booking was made; nothing was written.`, named(TIME_FIELDS, 'is a slot taken meanwhile'))
}
