// The appointment row a write leaves, inside its transaction: read as GET reads it, checked to
// read back as written, its state history recorded. Shared by booking and open-slot claims, so
// a claimed row is held to the same read-back as an inserted one.
import type { Querier } from '../db/database.js'
import { BOOKING_REFS, runKeyed, type AppointmentRow, type AppointmentWritePlans, type BookingRef, type CompiledMapping } from '../mapping/compile/index.js'
import type { nowIn } from '../normalise/datetime.js'
import { unknownId } from '../errors.js'
import { refuseMisstored } from './stored.js'
import { writable } from './writable.js'
import { carryingId } from './ids.js'

/** A plan bound for an appointment id; none (no row can have the id) is a 404. */
export function boundOrUnknown<T> (bound: T | undefined, id: string): T {
  if (bound === undefined) throw unknownId('appointment', id)
  return bound
}

/** The refs an appointment holds that a state move or reschedule must leave as they are. */
export function heldRefs (a: AppointmentRow): Partial<Record<BookingRef, string>> {
  return Object.fromEntries(BOOKING_REFS.flatMap((name) => a.refs[name] === undefined ? [] : [[name, a.refs[name]]]))
}

export class AppointmentRows {
  constructor (private readonly compiled: CompiledMapping) {}

  private get writes (): AppointmentWritePlans {
    return writable(this.compiled.writes.appointment, 'appointments')
  }

  /** Whether a booking stores this ref: the mapping maps it and can write it. */
  stores (name: BookingRef): boolean {
    return this.compiled.model.appointment.refs[name] !== undefined && this.writes.readOnlyRefs[name] === undefined
  }

  /** The refs a booking writes, with the ids they must read back as. */
  writtenRefs (input: Partial<Record<BookingRef, string>>): Partial<Record<BookingRef, string>> {
    return Object.fromEntries(BOOKING_REFS.flatMap((name) => input[name] !== undefined && this.stores(name) ? [[name, input[name]]] : []))
  }

  /** The appointment as GET /appointments/{id} reads it (every ref, not the occupancy read's few), in the write's transaction. */
  async stored (tx: Querier, id: string): Promise<AppointmentRow | undefined> {
    const shape = this.compiled.appointments({ filters: [], minimal: false, byId: true })
    const { statement, args } = boundOrUnknown(shape.bind({ id }), id)
    return carryingId((await tx.query(statement, args)).flatMap((row) => shape.read(row) ?? []), id, (a) => a.id)[0]
  }

  /**
   * Inside the write's transaction: the row reads back as sent (date, hour, state, every ref,
   * and for a booking (`booked`) each owned joined row the client's), or everything rolls
   * back. Returns the row as read (GET's shape), which a booking answers.
   */
  async readBack (tx: Querier, id: string, expected: { date: string, hour: string, state: string }, refs: Partial<Record<BookingRef, string>>, booked = false): Promise<AppointmentRow> {
    const stored = await this.stored(tx, id)
    if (!stored) refuseMisstored(['date', 'hour', ...Object.keys(refs)], 'appointment (it is not found through the mapping\'s filters)')
    const wrong: string[] = (['date', 'hour', 'state'] as const).filter((f) => stored[f] !== expected[f])
    for (const [name, value] of Object.entries(refs)) if (stored.refs[name as BookingRef] !== value) wrong.push(name)
    if (wrong.length > 0) refuseMisstored(wrong, 'appointment')
    // Only where this write chose the joined row: a move leaves the clinic's own choice as it was.
    const foreign = booked ? await this.foreignRows(tx, id, refs) : []
    if (foreign.length > 0) refuseMisstored(foreign, `appointment (its ${foreign.join(', ')} row belongs to another client)`)
    return stored
  }

  /**
   * The refs written through an owned join (`firstOf: { owner }`) whose row the stored
   * appointment points at belongs to someone other than its client: the id reads back as sent
   * either way, so only the owner tells another patient's card from the client's own.
   */
  private async foreignRows (tx: Querier, id: string, refs: Partial<Record<BookingRef, string>>): Promise<string[]> {
    const out: string[] = []
    for (const [name, joined] of Object.entries(this.writes.joinedRefs) as [BookingRef, NonNullable<AppointmentWritePlans['joinedRefs'][BookingRef]>][]) {
      if (joined.owner === undefined || refs[name] === undefined || refs.client === undefined) continue
      const bound = joined.pointedRow(joined.owner, id)
      const [row] = bound ? await tx.query(bound.statement, bound.args) : []
      if (row?.value === undefined || row.value === null || String(row.value).trim() !== refs.client) out.push(name)
    }
    return out
  }

  /**
   * The row a change leaves behind (`write.history.left`: the state left, the row as it was),
   * before the change's own UPDATE, in its transaction, the appointment row already locked by
   * the change's read of it. `change`: a state change, or a reschedule (into `entered`, which
   * is the state left where the reschedule keeps it).
   */
  async recordLeft (tx: Querier, id: string, left: string, entered: string, now: ReturnType<typeof nowIn>, change: 'state' | 'reschedule'): Promise<void> {
    const plan = this.writes.history?.left
    if (!plan) return
    const moved = left !== entered
    if (!(change === 'reschedule' ? plan.on.reschedule || (plan.on.state && moved) : plan.on.state)) return
    await runKeyed(tx, boundOrUnknown(plan.bind(id, left, entered, now, change), id))
  }

  /**
   * The row as a change left it (`write.history.after`: Open Dental's histappointment), after
   * the change's own write, in its transaction: `create` a booking's insert or claim, `state`
   * a state change, `reschedule` a move (into `entered`; `left` the state it had). Then the
   * `write.log` rows (Open Dental's securitylog), in order.
   */
  async recordAfter (tx: Querier, id: string, left: string, entered: string, now: ReturnType<typeof nowIn>, change: 'create' | 'state' | 'reschedule'): Promise<void> {
    const { history, log } = this.writes
    for (const plan of [history?.after, ...log ?? []]) {
      if (plan?.on[change] === true) await runKeyed(tx, boundOrUnknown(plan.bind(id, left, entered, now, change), id))
    }
  }

  /**
   * The rows of a state entered: status history (history.ts: close the current one, open the
   * new one) and the rows recording a state outside the status column (state-rows.ts).
   */
  async recordState (tx: Querier, id: string, state: string, now: ReturnType<typeof nowIn>, closing: boolean): Promise<void> {
    const { history, stateRows } = this.writes
    if (history) for (const bound of boundOrUnknown(history.bind(id, state, now, closing), id)) await runKeyed(tx, bound)
    if (stateRows) for (const { statement, args } of boundOrUnknown(stateRows.bind(id, state, now), id)) await tx.query(statement, args)
  }
}
