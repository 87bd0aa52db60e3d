// Booking, state moves and rescheduling. The worst thing Ponte can do is a double booking
// or a half-written row, so every check that depends on other rows runs inside the same
// transaction as the write, which claims the days it checks (see Database.transaction).
import { servedFrom, type Arrival, type Database, type Querier } from '../db/database.js'
import { BOOKING_REFS, DEFAULT_SLOT_MINUTES, hoursColumns, isIntegerType, matchesType, type AppointmentRow, type AppointmentWritePlans, type BookingRef, type CompiledMapping, type CoveringHours, type DefaultedRef, type FoundSlotRow } from '../mapping/compile/index.js'
import type { EntityName, LookupName } from '../mapping/model.js'
import { planExists } from './plans.js'
import type { SqlTypeName } from '../mapping/schema.js'
import type { AppointmentT } from '../schemas/resources.js'
import { addDays, crossesMidnight, endHourAfter, isClockHour, nowIn, parseApiDate } from '../normalise/datetime.js'
import { readApiDate } from '../normalise/date-window.js'
import { skippedOnWallClock } from '../normalise/zones.js'
import { ConflictError, InvalidInputError, unknownId, type FieldIssue } from '../errors.js'
import { answered, refuseUnstorable, requiring, type Stored } from './stored.js'
import { writable } from './writable.js'
import { stateName, type Appointments } from './appointments.js'
import type { Catalog, Snapshot } from './catalog.js'
import type { Clients } from './clients.js'
import { describe } from './client-writes.js'
import { carryingId } from './ids.js'
import { minutesBetween, serviceUses } from './slots.js'
import { checkFree, named, TIME_FIELDS } from './free-check.js'
import { AppointmentRows, boundOrUnknown, heldRefs } from './appointment-rows.js'
import { noOpenSlot, OpenSlotClaims } from './open-slot-claims.js'
import type { WindowAt, WorkingDay } from './availability.js'
import { bookedRecords } from './booked.js'
import { refusesBooking } from './bookable.js'
import { resolveClientRefs } from './client-defaults.js'
import { coveringHours, type CoveredStart } from './covering-hours.js'

export interface NewAppointment {
  date: string
  hour: string
  client: string
  professional?: string
  service?: string
  location?: string
  healthInsurance?: string
  plan?: string
}

/** Working hours, where the mapping has them (services/availability.ts). */
export interface Offers {
  /** One professional's day (windows and blocks, read once): what a booking asks about its time. */
  day: (date: string, professional: string, at: Arrival) => Promise<WorkingDay | undefined>
  /** The working window a time starts in: its grid step and (when one) location. */
  windowAt: (date: string, hour: string, professional: string, at: Arrival) => Promise<WindowAt | undefined>
}

export interface BookingOptions {
  /** Refuse bookings and reschedules into the past (default true). */
  refusePast: boolean
  /** States whose appointments do not hold their time. */
  freeing: string[]
}

/** A row changed between the read outside the transaction and the one inside: the appointment is what conflicts. */
const CHANGED_MEANWHILE = [{ path: '/params/id', message: 'changed while this request was handled; retry' }]

/** Pairs that, when the mapping relates them, a booking must respect. */
const CONSISTENT: [LookupName, LookupName][] = [
  ['professional', 'service'], ['professional', 'location'], ['professional', 'healthInsurance'],
  ['service', 'location'], ['service', 'healthInsurance']
]

export class Booking {
  private readonly rows: AppointmentRows
  private readonly openSlots: OpenSlotClaims
  /** Whether the row copies a column of the working hours covering its start (`{ hours: … }`). */
  private readonly copiesHours: boolean

  constructor (
    private readonly compiled: CompiledMapping,
    private readonly db: Database,
    private readonly catalog: Catalog,
    private readonly clients: Clients,
    private readonly appointments: Appointments,
    private readonly hours: Offers | undefined,
    private readonly options: BookingOptions
  ) {
    this.rows = new AppointmentRows(compiled)
    this.openSlots = new OpenSlotClaims(compiled, this.rows, options.freeing)
    this.copiesHours = hoursColumns(compiled.model).length > 0
  }

  /** A mapping without a write block still serves every read: writes answer 501. */
  private get writes (): AppointmentWritePlans {
    return writable(this.compiled.writes.appointment, 'appointments')
  }

  async book (request: NewAppointment, at: Arrival): Promise<Stored<AppointmentT>> {
    writable(this.compiled.writes.appointment, 'appointments', request)
    const ignored = this.unstored(request)
    // A ref left out takes the mapping's default (`write.refs.<ref>.otherwise`) as if sent; a location only once the hours do not tell it.
    const { location: defaultLocation, ...defaults } = this.writes.defaults
    // One the client may hold (`fromClient`) is decided on the booking's transaction (client-defaults.ts).
    const defaulted = Object.fromEntries(Object.entries(defaults).filter(([name]) => request[name as keyof NewAppointment] === undefined && !(name in this.writes.clientDefaults)))
    const input: NewAppointment = { ...request, ...defaulted, ...this.normaliseTime(request) }
    const issues: FieldIssue[] = []
    this.checkTimeInput(input.date, input.hour, issues)
    // An open slot is a professional's row: the one to claim is found by whose it is.
    if (this.writes.openSlots && input.professional === undefined && this.compiled.model.appointment.refs.professional) issues.push({ path: '/body/professional', message: 'is required: this installation books by claiming a professional\'s open slot' })
    const snap = await this.catalog.snapshot(at)
    await this.checkRefs(input, snap, issues, at)
    if (issues.length > 0) throw new InvalidInputError(describe(issues), issues.map((i) => defaultedIssue(i, defaulted)))

    // The same length /availability offers: the service's duration, else the window's step.
    const day = input.professional ? await this.hours?.day(input.date, input.professional, at) : undefined
    const window = day?.windowAt(input.hour)
    const step = window?.step ?? this.defaultMinutes()
    // An open slot is booked whole, whatever the service's length (availability offers it so).
    const minutes = window?.whole ? step : this.serviceMinutes(input.service, snap) ?? step
    const endHour = endHourAfter(input.hour, minutes)
    if (endHour === undefined) throw new InvalidInputError(`A ${minutes}-minute appointment cannot be booked: an appointment lasts less than a day.`, [{ path: '/body/hour', message: 'cannot start an appointment a day or more long' }])
    this.refuseSkippedEnd(input.date, input.hour, endHour)
    if (input.professional) {
      if (this.writes.openSlots && window?.whole !== true) throw noOpenSlot(input.date, input.hour, input.professional)
      this.checkHours(day, input.date, input.hour, endHour, input.location)
      takesService(window, input.service, input.date, input.hour)
      // The caller may leave the location out; the professional's hours (or only workplace) tell it.
      if (input.location === undefined && this.compiled.model.appointment.refs.location) {
        input.location = window?.location ?? onlyOne(snap.related('professional', input.professional, 'location'))
      }
    }
    if (input.location === undefined && defaultLocation !== undefined) {
      const problem = this.refProblem('location', defaultLocation, snap)
      if (problem !== undefined) throw new InvalidInputError(`The mapping's default location is refused: ${problem}.`, [defaultedIssue({ path: '/body/location', message: problem }, { location: defaultLocation })])
      input.location = defaultLocation
    }

    const now = nowIn(this.compiled.model.timezone)
    const booked = { date: input.date, hour: input.hour, endHour, minutes }
    // The booked time's columns are the date's and the hour's alike (one datetime column may hold both).
    const timeColumns = { columns: Object.keys(this.writes.written.time(booked)).map((column) => ({ column })) }
    const writers = { ...this.writes.refs, ...Object.fromEntries(Object.entries(this.writes.joinedRefs).map(([k, j]) => [k, { columns: [j.column] }])), date: timeColumns, hour: timeColumns }
    // A key the database already holds is, for an appointment, most likely its booked time (a unique index on it).
    const stores = ['date', 'hour', ...Object.keys(this.rows.writtenRefs(input))]
    // What the row copies from the client and lookups it names (a name for the day sheet) is
    // read on the transaction that writes it: a rename committed before the insert is stored.
    if (this.writes.openSlots) {
      const claimed = await requiring(writers, stores, async () => await this.db.transaction(async (tx) => {
        await this.clients.refuseUnbookable(input.client, at, tx)
        return await this.openSlots.claim(tx, { date: input.date, hour: input.hour, endHour, step }, input, now, await bookedRecords(this.writes, tx, input))
      }, at, dayClaims(input.date, input, { hour: input.hour, endHour })))
      return answered(await this.appointments.answer(claimed, at), ignored, this.writes.ignored)
    }
    const pointers: Record<string, unknown> = {}
    for (const [name, joined] of Object.entries(this.writes.joinedRefs) as [BookingRef, NonNullable<AppointmentWritePlans['joinedRefs'][BookingRef]>][]) {
      const id = input[name]
      if (id === undefined) { pointers[joined.column.column] = null; continue }
      // One that must be the client's own is looked up among the client's rows, on the transaction.
      if (this.writes.clientDefaults[name as DefaultedRef]?.owned === true) continue
      const { statement, args } = joined.bind(id, input.client)
      const [row] = await this.db.query(statement, args, at)
      // An owned join (a coverage card) takes only the client's own rows: none is the client's situation, not a bad id.
      if ((row?.id === undefined || row.id === null) && joined.owner !== undefined && this.refProblem(name as Exclude<BookingRef, 'client'>, id, snap) === undefined) {
        throw new ConflictError(`Client "${input.client}" has no ${name} "${id}" of their own (no row of the mapped ${joined.table} table holds both), so it cannot be booked for them. Nothing was written.`, [{ path: `/body/${name}`, message: `is not held by client "${input.client}"` }])
      }
      if (row?.id === undefined || row.id === null) throw new InvalidInputError(`The ${name} "${id}" cannot hold appointments (nothing in the mapped ${joined.table} table refers to it).`, [{ path: `/body/${name}`, message: 'cannot be booked' }])
      pointers[joined.column.column] = row.id
    }

    const insert = writable(this.writes.insert, 'appointments', request)
    const claims = dayClaims(input.date, input, { hour: input.hour, endHour })
    const stored = await requiring(writers, stores, async () => await this.db.transaction(async (tx) => {
      await this.clients.refuseUnbookable(input.client, at, tx)
      Object.assign(pointers, await resolveClientRefs(this.writes, tx, input, request, (name, id, refs) => this.refProblem(name, id, snap) ?? unrelated(name, id, refs, snap)))
      // The length is the service's as the transaction reads it: a duration the clinic changed
      // since the catalogue was read would otherwise be stored, overlapping the next appointment.
      const service = window?.whole === true ? undefined : await this.serviceRead(tx, input.service)
      const time = service === undefined ? booked : this.lengthen(input, day, service.minutes ?? step, claims)
      const covering = await this.coveringOf(tx, day, { date: input.date, hour: input.hour, professional: input.professional, location: input.location })
      const columns = { ...this.writes.columns(now, { ...time, ...covering }, input, await bookedRecords(this.writes, tx, input, service?.row)), ...pointers }
      // The slot row first (where the mapping books into one): how many appointments it takes
      // decides whether the time is free. Without a service in the request, the one the mapping
      // writes must be accepted too.
      const slotRow = await this.findSlotRow(tx, input.date, input.hour, { ...input, service: input.service ?? this.writtenService(columns) })
      await checkFree(tx, this.compiled, this.options.freeing, { date: input.date, hour: input.hour, endHour: time.endHour, step, professional: input.professional, client: input.client, capacity: slotRow.capacity, uses: this.minutesUsed(snap) }, TIME_FIELDS, '/body/client')
      const id = await insert.run(tx, { ...columns, ...slotRow.pointer })
      await this.rows.recordState(tx, id, this.compiled.model.states.initial, now, false)
      await this.rows.recordAfter(tx, id, this.compiled.model.states.initial, this.compiled.model.states.initial, now, 'create')
      return await this.rows.readBack(tx, id, { date: input.date, hour: input.hour, state: this.compiled.model.states.initial }, this.rows.writtenRefs(input), true)
    }, at, claims))
    // The row as the transaction read it back is the answer: no second read after the commit.
    return answered(await this.appointments.answer(stored, at), ignored, this.writes.ignored)
  }

  /**
   * The refs a booking sends that will not be stored: those the mapping does not map, and
   * those it reads but declares ignored. One it reads but cannot write is a 501 here.
   */
  private unstored (request: NewAppointment): string[] {
    const ignored: string[] = []
    const refused: FieldIssue[] = []
    for (const name of BOOKING_REFS) {
      if (request[name] === undefined) continue
      if (this.rows.stores(name)) continue
      const reason = this.writes.readOnlyRefs[name]
      if (reason === undefined || this.writes.ignored.has(name)) ignored.push(name)
      else refused.push({ path: `/body/${name}`, message: reason })
    }
    refuseUnstorable(refused)
    return ignored
  }

  async changeState (id: string, requested: string, at: Arrival): Promise<string> {
    const { states } = this.compiled.model
    const state = stateName(requested, states.values, '/body/state')
    this.requireKnownId(id)
    writable(this.compiled.writes.appointment, 'appointments', { state })
    const move = writable(this.writes.stateMoves[state], `appointments into ${state}`, { state })
    const now = nowIn(this.compiled.model.timezone)
    // Working hours are read before the transaction: SQLite serves one transaction at a time.
    const before = await this.current(servedFrom(this.db, at), id, false)
    const step = await this.stepOf(before, at)
    const uses = this.writes.slotRowBooking?.byMinutes === true ? this.minutesUsed(await this.catalog.snapshot(at)) : undefined
    // Back from a state that freed the time, its day is checked, and so claimed, as for a booking.
    const claims = this.frees(before.state) && !this.frees(state) ? dayClaims(before.date, before.refs, { hour: before.hour, endHour: before.endHour ?? endHourAfter(before.hour, step) }) : []
    return await requiring({}, ['state'], async () => await this.db.transaction(async (tx) => {
      const current = await this.current(tx, id)
      if (current.state === state) return `Appointment ${id} is already ${state}.`
      if (!(states.moves[current.state] ?? []).includes(state)) {
        throw new ConflictError(`An appointment in state ${current.state} cannot move to ${state} (allowed: ${(states.moves[current.state] ?? []).join(', ') || 'none'}).`,
          [{ path: '/body/state', message: `is not a move this installation allows from ${current.state}` }])
      }
      const open = this.writes.openSlots
      const cancelling = this.frees(state) && !this.frees(current.state)
      if (open?.onCancel === 'reopen' && this.frees(current.state) && !this.frees(state)) {
        throw new ConflictError(`Appointment ${id} is ${current.state} and its slot was reopened as a free row: book that slot again instead.`, [{ path: '/body/state', message: `cannot leave ${current.state}: the slot was reopened` }])
      }
      // A released row is an open slot again, no longer an appointment: the release is the move.
      if (cancelling && open?.onCancel === 'release') {
        await this.rows.recordLeft(tx, id, current.state, state, now, 'state')
        await this.rows.recordState(tx, id, state, now, true)
        await this.openSlots.free(tx, current, now)
        await this.rows.recordAfter(tx, id, current.state, state, now, 'state')
        return `Appointment ${id} is now ${state}; its slot at ${current.hour} on ${current.date} is open again.`
      }
      // Back from a state that freed the time: the time must still be free, as for a booking.
      if (this.frees(current.state) && !this.frees(state)) {
        if (!covers(claims, current.date, current.refs)) throw new ConflictError('The appointment changed while its state was being changed; try again.', CHANGED_MEANWHILE)
        // In a slot shared by minutes it comes back for its service's minutes, not the whole slot.
        const endHour = (uses ? endHourAfter(current.hour, uses(current) ?? step) : current.endHour ?? endHourAfter(current.hour, step)) ?? '23:59'
        const capacity = await this.capacityAt(tx, current.date, current.hour, current.refs)
        await checkFree(tx, this.compiled, this.options.freeing, { date: current.date, hour: current.hour, endHour, step, professional: current.refs.professional, client: current.refs.client, except: id, capacity, uses }, ['/body/state'])
      }
      const { statement, args } = boundOrUnknown(move.bind(id, now), id)
      await this.rows.recordLeft(tx, id, current.state, state, now, 'state')
      await tx.query(statement, args)
      await this.rows.recordState(tx, id, state, nowIn(this.compiled.model.timezone), true)
      await this.rows.recordAfter(tx, id, current.state, state, now, 'state')
      await this.rows.readBack(tx, id, { date: current.date, hour: current.hour, state }, heldRefs(current))
      if (cancelling && open?.onCancel === 'reopen') {
        await this.openSlots.free(tx, current, now)
        return `Appointment ${id} is now ${state}; its slot at ${current.hour} on ${current.date} is open again as a new row.`
      }
      return `Appointment ${id} is now ${state}.`
    }, at, claims))
  }

  async reschedule (id: string, requested: { date: string, hour: string }, at: Arrival): Promise<string> {
    const time = this.normaliseTime(requested)
    const issues: FieldIssue[] = []
    this.checkTimeInput(time.date, time.hour, issues)
    if (issues.length > 0) throw new InvalidInputError(describe(issues), issues)
    this.requireKnownId(id)
    writable(this.compiled.writes.appointment, 'appointments', requested)
    const { states, timezone } = this.compiled.model
    // Working hours are read before the transaction: SQLite serves one transaction at a time.
    const before = await this.current(servedFrom(this.db, at), id, false)
    const day = before.refs.professional ? await this.hours?.day(time.date, before.refs.professional, at) : undefined
    const window = day?.windowAt(time.hour)
    const step = window?.step ?? this.defaultMinutes()
    if (this.writes.openSlots && window?.whole !== true) throw noOpenSlot(time.date, time.hour, before.refs.professional)
    const snap = await this.catalog.snapshot(at)
    const uses = this.minutesUsed(snap)
    // An open slot keeps its own length; in a slot shared by minutes, its service's (its stored end is the slot's).
    const bySlot = window?.whole ? step : before.endHour && !uses ? minutesBetween(before.hour, before.endHour) : undefined
    const lengthAt = (duration: number | undefined): { minutes: number, endHour: string } => {
      const minutes = bySlot ?? duration ?? step
      const endHour = endHourAfter(time.hour, minutes)
      if (endHour === undefined) throw new InvalidInputError(`A ${minutes}-minute appointment cannot be moved: an appointment lasts less than a day.`, [{ path: '/body/hour', message: 'cannot start an appointment a day or more long' }])
      this.refuseSkippedEnd(time.date, time.hour, endHour)
      if (before.refs.professional) this.checkHours(day, time.date, time.hour, endHour, before.refs.location)
      return { minutes, endHour }
    }
    // Checked first with the catalogue's duration, so a move the hours refuse claims nothing.
    const { endHour: cataloguedEnd } = lengthAt(this.serviceMinutes(before.refs.service, snap))
    if (before.refs.professional) takesService(window, before.refs.service, time.date, time.hour, named(TIME_FIELDS, 'is a slot whose template code does not take the appointment\'s service'))

    const claims = dayClaims(time.date, before.refs, { hour: time.hour, endHour: cataloguedEnd })
    return await requiring({}, ['date', 'hour'], async () => await this.db.transaction(async (tx) => {
      const current = await this.current(tx, id)
      // The length is the service's as the transaction reads it (a duration changed since the catalogue was read counts).
      const { minutes, endHour } = bySlot !== undefined ? lengthAt(undefined) : lengthAt(await this.serviceDuration(tx, current.refs.service, snap))
      // Its hours were checked, and its new day claimed, for the professional and client read before.
      if (current.refs.professional !== before.refs.professional || !dayClaims(time.date, current.refs, { hour: time.hour, endHour }).every((c) => claims.includes(c))) throw new ConflictError('The appointment changed while it was being rescheduled; try again.', CHANGED_MEANWHILE)
      const target = states.onReschedule === 'keep' ? current.state : states.onReschedule
      if (this.frees(current.state) || (target !== current.state && !(states.moves[current.state] ?? []).includes(target))) {
        throw new ConflictError(`An appointment in state ${current.state} cannot be rescheduled.`, [{ path: '/params/id', message: `is ${current.state}, which cannot be rescheduled` }])
      }
      if (this.writes.openSlots) return await this.openSlots.move(tx, current, { ...time, endHour, step }, target)
      const slotRow = await this.findSlotRow(tx, time.date, time.hour, current.refs)
      await checkFree(tx, this.compiled, this.options.freeing, { date: time.date, hour: time.hour, endHour, step, professional: current.refs.professional, client: current.refs.client, except: id, capacity: slotRow.capacity, uses }, TIME_FIELDS)
      const now = nowIn(timezone)
      // The working hours' columns the row copies follow it: the row covering the new start's.
      const covering = await this.coveringOf(tx, day, { date: time.date, hour: time.hour, professional: current.refs.professional, location: current.refs.location })
      const { statement, args } = boundOrUnknown(this.writes.reschedule.bind(id, now, { date: time.date, hour: time.hour, endHour, minutes, ...covering }, slotRow.pointer), id)
      await this.rows.recordLeft(tx, id, current.state, target, now, 'reschedule')
      await tx.query(statement, args)
      if (target !== current.state) await this.rows.recordState(tx, id, target, now, true)
      await this.rows.recordAfter(tx, id, current.state, target, now, 'reschedule')
      await this.rows.readBack(tx, id, { date: time.date, hour: time.hour, state: target }, heldRefs(current))
      return `Appointment ${id} moved to ${time.date} ${time.hour}${target !== current.state ? ` and is now ${target}` : ''}.`
    }, at, claims))
  }

  /**
   * Booking into a slot table (`slotRowBooking`): the pointer to the slot row starting then, of
   * this professional (and location), as column values, and how many appointments the row
   * takes; where the appointment row holds its own time, nothing and 1. A slot row whose block
   * does not accept the service is refused here. Inside the transaction, before checkFree, so
   * the row checked free is the one written.
   */
  private async findSlotRow (tx: Querier, date: string, hour: string, refs: Partial<Record<string, string>>): Promise<{ pointer: Record<string, unknown>, capacity: number }> {
    const booking = this.writes.slotRowBooking
    if (!booking) return { pointer: {}, capacity: 1 }
    const service = booking.services ? refs.service : undefined
    const found = await this.lookupSlotRow(tx, date, hour, refs, service)
    if (!found) {
      throw new ConflictError(`No time slot starts at ${hour} on ${date}${booking.refs.filter((r) => refs[r] !== undefined).map((r) => ` for ${r} ${refs[r]}`).join('')}: only the slots /availability offers can be booked.`, named(TIME_FIELDS, 'is not the start of a slot /availability offers'))
    }
    if (!found.accepts) {
      throw new ConflictError(`The slot at ${hour} on ${date} does not take service ${service}: its block accepts other services (/availability?service=${service} lists the slots that do).`, [{ path: '/body/service', message: 'is not accepted by the slot at that time' }])
    }
    return { pointer: booking.pointer(found), capacity: found.capacity }
  }

  /** The service id a booking writes when the request names none (a `write.set` default for its column). */
  private writtenService (values: Record<string, unknown>): string | undefined {
    const columns = this.writes.refs.service?.columns ?? []
    const value = columns.length === 1 ? values[columns[0].column] : undefined
    return value === undefined || value === null ? undefined : String(value)
  }

  /** How many appointments the slot row an appointment sits in takes (1 where there is no slot table, or the row is gone). */
  private async capacityAt (tx: Querier, date: string, hour: string, refs: Partial<Record<string, string>>): Promise<number> {
    return (await this.lookupSlotRow(tx, date, hour, refs, undefined))?.capacity ?? 1
  }

  private async lookupSlotRow (tx: Querier, date: string, hour: string, refs: Partial<Record<string, string>>, service: string | undefined): Promise<FoundSlotRow | undefined> {
    const booking = this.writes.slotRowBooking
    if (!booking) return undefined
    const bound = booking.bindLookup(date, hour, refs, service)
    // A service id its column cannot hold is accepted by no block.
    if (!bound) return { id: undefined, capacity: 0, accepts: false }
    const [row] = await tx.query(bound.statement, bound.args)
    return row === undefined ? undefined : booking.read(row)
  }

  /** '9:30' is 09:30; an ISO date-time stands for its date at the clinic. */
  private normaliseTime (s: { date: string, hour: string }): { date: string, hour: string } {
    const date = s.date.length > 10 ? parseApiDate(s.date, this.compiled.model.timezone) ?? s.date : s.date
    const hour = /^\d:\d{2}$/.test(s.hour) ? `0${s.hour}` : s.hour
    return { date, hour }
  }

  /** An id no row can have is a 404 at once. */
  private requireKnownId (id: string): void {
    boundOrUnknown(this.compiled.appointments({ filters: [], minimal: false, byId: true }).bind({ id }), id)
  }

  private frees (state: string): boolean {
    return this.options.freeing.includes(state)
  }

  private async current (q: Querier, id: string, lock = true): Promise<AppointmentRow> {
    const shape = this.compiled.appointments({ filters: [], minimal: false, byId: true, occupancy: true, lock })
    const { statement, args } = boundOrUnknown(shape.bind({ id }), id)
    const rows = await q.query(statement, args)
    const [current] = carryingId(rows.flatMap((row) => shape.read(row) ?? []), id, (a) => a.id)
    if (!current) throw unknownId('appointment', id)
    return current
  }

  /** The professional's hours (read once for the request: Offers.day) must offer the time, where the mapping has hours. */
  private checkHours (day: WorkingDay | undefined, date: string, hour: string, endHour: string, location?: string): void {
    const why = day?.refusal(hour, endHour, location)
    if (why === undefined) return
    const at = location ? ' at that location' : ''
    if (why === 'off-grid') throw new ConflictError(`The professional attends on ${date} from ${hour} to ${endHour}${at}, but bookings there start only at the times /availability offers, and ${hour} is not one of them.`, named(TIME_FIELDS, 'is not a start time /availability offers'))
    if (why === 'blocked') throw new ConflictError(`The professional's time on ${date} from ${hour} to ${endHour}${at} is blocked (time off, a holiday or a closed unit).`, named(TIME_FIELDS, 'is in a blocked time'))
    throw new ConflictError(`The professional does not attend on ${date} from ${hour} to ${endHour}${at}.`, named(TIME_FIELDS, 'is outside the professional\'s hours'))
  }

  /** Why the clinic's clock never shows `hour` on `date` (the night clocks go forward); undefined when it does. */
  private skippedHour (date: string, hour: string): string | undefined {
    const { timezone } = this.compiled.model
    return skippedOnWallClock(`${date} ${hour}`, timezone) ? `${hour} does not exist on ${date} in ${timezone}: clocks go forward` : undefined
  }

  /** An appointment ending at a wall time the clinic's clock skips is refused as its start would be: it could not be read back as booked. */
  private refuseSkippedEnd (date: string, hour: string, endHour: string): void {
    const endDate = endHour <= hour ? addDays(date, 1) : date
    if (this.skippedHour(endDate, endHour) === undefined) return
    const why = `${endHour} on ${endDate}, which does not exist in ${this.compiled.model.timezone}: clocks go forward`
    throw new InvalidInputError(`An appointment at ${hour} would end at ${why}.`, [{ path: '/body/hour', message: `would end at ${why}` }])
  }

  private checkTimeInput (date: string, hour: string, issues: FieldIssue[]): void {
    const validDate = readApiDate(date, this.compiled.model.timezone, '/body/date', issues) !== undefined
    const validHour = isClockHour(hour)
    if (!validHour) issues.push({ path: '/body/hour', message: 'must be an hour from 00:00 to 23:59 (HH:MM)' })
    if (validDate && validHour) {
      const skipped = this.skippedHour(date, hour)
      if (skipped !== undefined) issues.push({ path: '/body/hour', message: skipped })
    }
    if (validDate && validHour && this.options.refusePast) {
      const now = nowIn(this.compiled.model.timezone)
      if (`${date} ${hour}` <= `${now.date} ${now.time.slice(0, 5)}`) issues.push({ path: '/body/date', message: `is in the past (now is ${now.date} ${now.time.slice(0, 5)} at the clinic)` })
    }
  }

  /**
   * Every id in the body, checked before anything is written: the client must exist (exact
   * id), lookups must be in the catalogue, and a plan among those the mapping's relations
   * name. A ref the mapping writes but cannot look up must at least have the form its column
   * holds (an INT column takes only canonical integers: "abc" and "01" are refused here,
   * never converted by the database or stored as text).
   */
  private async checkRefs (input: NewAppointment, snap: Snapshot, issues: FieldIssue[], at: Arrival): Promise<void> {
    if (!await this.clients.exists(input.client, at)) issues.push({ path: '/body/client', message: `no client with id "${input.client}"` })
    for (const name of ['professional', 'service', 'location', 'healthInsurance', 'plan'] as const) {
      const id = input[name]
      const problem = id === undefined ? undefined : this.refProblem(name, id, snap)
      if (problem) issues.push({ path: `/body/${name}`, message: problem })
    }
    if (issues.length > 0) return
    for (const [a, b] of [...CONSISTENT, ['healthInsurance', 'plan']] as [EntityName, EntityName][]) {
      const x = input[a as keyof NewAppointment]
      const y = input[b as keyof NewAppointment]
      if (x === undefined || y === undefined) continue
      const related = snap.related(a, x, b)
      if (related && !related.has(y)) issues.push({ path: `/body/${b}`, message: `${b} "${y}" is not offered with ${a} "${x}"` })
    }
  }

  private refProblem (name: Exclude<BookingRef, 'client'>, id: string, snap: Snapshot): string | undefined {
    if (name !== 'plan' && this.compiled.model.lookups[name]) {
      const rec = snap.record(name, id)
      if (!rec) return `no ${name} with id "${id}"`
      // Who may be booked: bookable.ts (retired places and insurances take no new appointments).
      return refusesBooking(name, rec) ? `${name} "${id}" is not enabled for new appointments` : undefined
    }
    if (name === 'plan' && planExists(this.compiled.model, snap, id) === false) return `no plan with id "${id}"`
    const type = this.writtenType(name)
    return type === undefined || matchesType(id, type) ? undefined : `"${id}" cannot be a ${name} id here (expected ${isIntegerType(type) ? `a whole number, as the ${type} column holds it` : 'text without surrounding spaces'})`
  }

  /** The type a ref is written with; undefined when the mapping does not write it (the value is ignored). */
  private writtenType (name: BookingRef): SqlTypeName | undefined {
    if (!this.compiled.model.appointment.refs[name]) return undefined
    const joined = this.writes.joinedRefs[name]
    return this.writes.refs[name]?.columns[0]?.type ?? joined?.type
  }

  private serviceMinutes (service: string | undefined, snap: Snapshot): number | undefined {
    return serviceUses(snap, service)
  }

  /**
   * The columns of the working-hours row covering a start, where the row copies some
   * (`{ hours: … }`): read on `tx` by the one source `day` (read before the transaction) found
   * covering it. None covering (no professional, so nobody's hours to read): nothing, and a
   * booking writes the copies' `otherwise` while a reschedule keeps them as stored. A row that
   * covered the start when `day` was read and is gone on `tx` refuses the write (409).
   */
  private async coveringOf (tx: Querier, day: WorkingDay | undefined, start: CoveredStart): Promise<{ covering?: CoveringHours }> {
    if (!this.copiesHours) return {}
    const source = day?.coveredBy(start.hour, start.location)
    if (source === undefined) return {}
    const covering = await coveringHours(tx, this.compiled, start, [source])
    if (covering === undefined) throw new ConflictError(`The professional's working hours on ${start.date} changed while the appointment was being written: no row covers ${start.hour} any more. Nothing was written; try again.`, named(TIME_FIELDS, 'is no longer inside the professional\'s working hours'))
    return { covering }
  }

  /** A service's duration as `tx` reads it (the catalogue's where the mapping cannot read one service by id). */
  private async serviceDuration (tx: Querier, service: string | undefined, snap: Snapshot): Promise<number | undefined> {
    const read = this.writes.serviceById
    if (service === undefined || !read) return this.serviceMinutes(service, snap)
    const bound = read.bind(service)
    const [row] = bound ? await tx.query(bound.statement, bound.args) : []
    const duration = row === undefined ? undefined : read.read(row)?.entity.duration
    return typeof duration === 'number' && duration > 0 ? duration : undefined
  }

  /**
   * The booked service's row and duration as `tx` reads them (`<service>.byId`), where the
   * mapping can read one service by id and services have a duration; undefined otherwise
   * (the catalogue's duration stands). `minutes` is undefined for a service without one.
   */
  private async serviceRead (tx: Querier, service: string | undefined): Promise<{ row?: Record<string, unknown>, minutes?: number } | undefined> {
    const read = this.writes.serviceById
    const bound = service === undefined ? undefined : read?.bind(service)
    if (!read || !bound) return undefined
    const [row] = await tx.query(bound.statement, bound.args)
    const duration = row === undefined ? undefined : read.read(row)?.entity.duration
    return { row, minutes: typeof duration === 'number' && duration > 0 ? duration : undefined }
  }

  /**
   * A new booking's time for the length its transaction read: the same checks as before it
   * (less than a day, an end the clock shows, inside the professional's hours), and the days it
   * claimed must still be the ones it touches (a length now past midnight is retried).
   */
  private lengthen (input: NewAppointment, day: WorkingDay | undefined, minutes: number, claims: readonly string[]): { date: string, hour: string, endHour: string, minutes: number } {
    const endHour = endHourAfter(input.hour, minutes)
    if (endHour === undefined) throw new InvalidInputError(`A ${minutes}-minute appointment cannot be booked: an appointment lasts less than a day.`, [{ path: '/body/hour', message: 'cannot start an appointment a day or more long' }])
    this.refuseSkippedEnd(input.date, input.hour, endHour)
    if (input.professional) this.checkHours(day, input.date, input.hour, endHour, input.location)
    if (!dayClaims(input.date, input, { hour: input.hour, endHour }).every((c) => claims.includes(c))) throw new ConflictError('The service\'s length changed while this booking was made; try again.', [{ path: '/body/service', message: 'changed its length while this request was handled; retry' }])
    return { date: input.date, hour: input.hour, endHour, minutes }
  }

  /** Where slots are shared by minutes (`capacity: minutes`): the minutes each appointment in one uses, by its service. */
  private minutesUsed (snap: Snapshot): ((a: { refs: Partial<Record<string, string>> }) => number | undefined) | undefined {
    return this.writes.slotRowBooking?.byMinutes === true ? (a) => serviceUses(snap, a.refs.service) : undefined
  }

  private defaultMinutes (): number {
    return this.compiled.model.availability?.slotMinutes ?? DEFAULT_SLOT_MINUTES
  }

  /** The grid step of the window an appointment sits in. */
  private async stepOf (a: AppointmentRow, at: Arrival): Promise<number> {
    const window = a.refs.professional ? await this.hours?.windowAt(a.date, a.hour, a.refs.professional, at) : undefined
    return window?.step ?? this.defaultMinutes()
  }
}

/**
 * What a write putting an appointment on `date` claims (Database.transaction): the days of its
 * professional and of its client, the two checkFree reads; for a time past midnight, the next
 * day's too (two writes whose times overlap then always claim a day in common).
 */
export function dayClaims (date: string, who: { professional?: string, client?: string }, time?: { hour: string, endHour?: string }): string[] {
  const days = time?.endHour !== undefined && isClockHour(time.hour) && isClockHour(time.endHour) && crossesMidnight(time.hour, time.endHour) ? [date, addDays(date, 1)] : [date]
  return (['professional', 'client'] as const).flatMap((f) => who[f] === undefined ? [] : days.map((day) => `${f} ${day} ${who[f]}`))
}

/** Whether `claims` hold the days a check of `date` reads (the row may have changed since it was read outside the transaction). */
function covers (claims: readonly string[], date: string, who: { professional?: string, client?: string }): boolean {
  return dayClaims(date, who).every((c) => claims.includes(c))
}

/** 409 when the template code a time starts in does not take the service (`pattern.services`). */
function takesService (window: WindowAt | undefined, service: string | undefined, date: string, hour: string,
  issues: FieldIssue[] = [{ path: '/body/service', message: 'is not taken by the slot at that time' }]): void {
  if (service === undefined || window?.refuses?.has(service) !== true) return
  throw new ConflictError(`The slot at ${hour} on ${date} does not take service ${service}: its template code is for other services (/availability?service=${service} lists the slots that do).`, issues)
}

/** An issue about a ref the caller left out is about the mapping's default for it: said so. */
function defaultedIssue (issue: FieldIssue, defaulted: Record<string, string | undefined>): FieldIssue {
  const name = issue.path.replace('/body/', '')
  const id = defaulted[name]
  return id === undefined ? issue : { path: issue.path, message: `was not sent, and the mapping's default (write.refs.${name}.otherwise: "${id}") is refused: ${issue.message}` }
}

/** Why `id` is not offered with the other refs of the booking the mapping relates it to; undefined when it is. */
function unrelated (name: DefaultedRef, id: string, refs: Partial<Record<BookingRef, string>>, snap: Snapshot): string | undefined {
  for (const [a, b] of [...CONSISTENT, ['healthInsurance', 'plan']] as [EntityName, EntityName][]) {
    if (a !== name && b !== name) continue
    const other = a === name ? b : a
    const otherId = refs[other as BookingRef]
    if (otherId === undefined) continue
    const related = snap.related(other, otherId, name)
    if (related && !related.has(id)) return `${name} "${id}" is not offered with ${other} "${otherId}"`
  }
  return undefined
}

function onlyOne (ids: Set<string> | undefined): string | undefined {
  return ids?.size === 1 ? [...ids][0] : undefined
}
