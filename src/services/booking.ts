// Booking, state moves and rescheduling. The worst thing Ponte can do is a double booking
// or a half-written row, so every check that depends on other rows runs inside the same
// transaction as the write, which claims the days it checks (see Database.transaction).
import { servedFrom, type Arrival, type Database, type Querier } from '../db/database.js'
import { BOOKING_REFS, DEFAULT_SLOT_MINUTES, isIntegerType, matchesType, type AppointmentRow, type AppointmentWritePlans, type BookingRef, type CompiledMapping, type FoundSlot } from '../mapping/compile/index.js'
import type { EntityName, LookupName } from '../mapping/model.js'
import { planExists } from './plans.js'
import type { SqlTypeName } from '../mapping/schema.js'
import type { AppointmentT } from '../schemas/resources.js'
import { endHourAfter, endMinutesOf, isClockHour, minutesOf, nowIn, parseApiDate } from '../normalise/datetime.js'
import { readApiDate } from '../normalise/date-window.js'
import { ConflictError, InvalidInputError, unknownId, type FieldIssue } from '../errors.js'
import { refuseMisstored, refuseUnstorable, requiring, type Stored } from './stored.js'
import { writable } from './writable.js'
import { stateName, type Appointments } from './appointments.js'
import type { Catalog, Snapshot } from './catalog.js'
import type { Clients } from './clients.js'
import { describe } from './client-writes.js'
import { carryingId } from './ids.js'
import { hasRoom, heldRowsOfEach, heldSpan, overlaps } from './slots.js'
import type { WorkingDay } from './availability.js'

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
  /** One professional's day (windows and blocks, read once): what a booking asks about its slot. */
  day: (date: string, professional: string, at: Arrival) => Promise<WorkingDay | undefined>
  /** The working window a slot starts in: its grid step and (when one) location. */
  windowAt: (date: string, hour: string, professional: string, at: Arrival) => Promise<{ step: number, location?: string } | undefined>
}

export interface BookingOptions {
  /** Refuse bookings and reschedules into the past (default true). */
  refusePast: boolean
  /** States whose appointments do not hold their slot. */
  freeing: string[]
}

/** The request fields a slot conflict of a booking or reschedule is about. */
const SLOT = ['/body/date', '/body/hour']
/** A row changed between the read outside the transaction and the one inside: the appointment is what conflicts. */
const CHANGED_MEANWHILE = [{ path: '/params/id', message: 'changed while this request was handled; retry' }]

function named (paths: string[], message: string): FieldIssue[] {
  return paths.map((path) => ({ path, message }))
}

/** Pairs that, when the mapping relates them, a booking must respect. */
const CONSISTENT: [LookupName, LookupName][] = [
  ['professional', 'service'], ['professional', 'location'], ['professional', 'healthInsurance'],
  ['service', 'location'], ['service', 'healthInsurance']
]

export class Booking {
  constructor (
    private readonly compiled: CompiledMapping,
    private readonly db: Database,
    private readonly catalog: Catalog,
    private readonly clients: Clients,
    private readonly appointments: Appointments,
    private readonly hours: Offers | undefined,
    private readonly options: BookingOptions
  ) {}

  /** A mapping without a write block still serves every read: writes answer 501. */
  private get plans (): AppointmentWritePlans {
    return writable(this.compiled.writes.appointment, 'appointments')
  }

  async book (request: NewAppointment, at: Arrival): Promise<Stored<AppointmentT>> {
    writable(this.compiled.writes.appointment, 'appointments', request)
    const ignored = this.unstored(request)
    const input = { ...request, ...this.normaliseSlot(request) }
    const issues: FieldIssue[] = []
    this.checkSlotInput(input.date, input.hour, issues)
    const snap = await this.catalog.snapshot(at)
    await this.checkRefs(input, snap, issues, at)
    if (issues.length > 0) throw new InvalidInputError(describe(issues), issues)

    // The same length /availability offers: the service's duration, else the window's step.
    const day = input.professional ? await this.hours?.day(input.date, input.professional, at) : undefined
    const window = day?.windowAt(input.hour)
    const step = window?.step ?? this.defaultMinutes()
    const minutes = this.serviceMinutes(input.service, snap) ?? step
    const endHour = endHourAfter(input.hour, minutes)
    if (endHour === undefined) throw new InvalidInputError(`A ${minutes}-minute appointment at ${input.hour} would end after midnight.`, [{ path: '/body/hour', message: 'too late for the appointment\'s length' }])
    if (input.professional) {
      this.checkHours(day, input.date, input.hour, endHour, input.location)
      // The caller may leave the location out; the professional's hours (or only workplace) tell it.
      if (input.location === undefined && this.compiled.model.appointment.refs.location) {
        input.location = window?.location ?? onlyOne(snap.related('professional', input.professional, 'location'))
      }
    }

    const now = nowIn(this.compiled.model.timezone)
    const booked = { date: input.date, hour: input.hour, endHour, minutes }
    const columns = this.plans.columns(now, booked, input)
    for (const [name, joined] of Object.entries(this.plans.joinedRefs) as [BookingRef, NonNullable<AppointmentWritePlans['joinedRefs'][BookingRef]>][]) {
      const id = input[name]
      if (id === undefined) { columns[joined.column.column] = null; continue }
      const { statement, args } = joined.bind(id)
      const [row] = await this.db.query(statement, args, at)
      if (row?.id === undefined || row.id === null) throw new InvalidInputError(`The ${name} "${id}" cannot hold appointments (nothing in the mapped ${joined.lookup.name} table refers to it).`, [{ path: `/body/${name}`, message: 'cannot be booked' }])
      columns[joined.column.column] = row.id
    }

    const insert = writable(this.plans.insert, 'appointments', request)
    const writers = { ...this.plans.refs, ...Object.fromEntries(Object.entries(this.plans.joinedRefs).map(([k, j]) => [k, { columns: [j.column] }])) }
    // A key the database already holds is, for an appointment, most likely its slot (a unique index on it).
    const stores = ['date', 'hour', ...Object.keys(this.writtenRefs(input))]
    const id = await requiring(writers, stores, async () => await this.db.transaction(async (tx) => {
      // The slot first: how many appointments it takes decides whether it is free.
      // Without a service in the request, the one the mapping writes must be accepted too.
      const slot = await this.findSlot(tx, input.date, input.hour, { ...input, service: input.service ?? this.writtenService(columns) })
      await this.checkFree(tx, { date: input.date, hour: input.hour, endHour, step, professional: input.professional, client: input.client, capacity: slot.capacity }, SLOT, '/body/client')
      const id = await insert.run(tx, { ...columns, ...slot.pointer })
      await this.recordState(tx, id, this.compiled.model.states.initial, now, false)
      await this.readBack(tx, id, { date: input.date, hour: input.hour, state: this.compiled.model.states.initial }, this.writtenRefs(input))
      return id
    }, at, dayClaims(input.date, input)))
    return { record: await this.appointments.get(id, at), ignored }
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
      if (this.stores(name)) continue
      const reason = this.plans.readOnlyRefs[name]
      if (reason === undefined || this.plans.ignored.has(name)) ignored.push(name)
      else refused.push({ path: `/body/${name}`, message: reason })
    }
    refuseUnstorable(refused)
    return ignored
  }

  /** Whether a booking stores this ref: the mapping maps it and can write it. */
  private stores (name: BookingRef): boolean {
    return this.compiled.model.appointment.refs[name] !== undefined && this.plans.readOnlyRefs[name] === undefined
  }

  /** The refs a booking writes, with the ids they must read back as. */
  private writtenRefs (input: NewAppointment): Partial<Record<BookingRef, string>> {
    return Object.fromEntries(BOOKING_REFS.flatMap((name) => input[name] !== undefined && this.stores(name) ? [[name, input[name]]] : []))
  }

  /** Inside the write's transaction: the row reads back as sent (date, hour, state, every ref), or everything rolls back. */
  private async readBack (tx: Querier, id: string, expected: { date: string, hour: string, state: string }, refs: Partial<Record<BookingRef, string>>): Promise<void> {
    // The shape GET /appointments/{id} reads (every ref), not the occupancy one.
    const shape = this.compiled.appointments({ filters: [], minimal: false, byId: true })
    const { statement, args } = this.found(shape.bind({ id }), id)
    const [stored] = carryingId((await tx.query(statement, args)).flatMap((row) => shape.read(row) ?? []), id, (a) => a.id)
    if (!stored) refuseMisstored(['date', 'hour', ...Object.keys(refs)], 'appointment (it is not found through the mapping\'s filters)')
    const wrong: string[] = (['date', 'hour', 'state'] as const).filter((f) => stored[f] !== expected[f])
    for (const [name, value] of Object.entries(refs)) if (stored.refs[name as BookingRef] !== value) wrong.push(name)
    if (wrong.length > 0) refuseMisstored(wrong, 'appointment')
  }

  async changeState (id: string, requested: string, at: Arrival): Promise<string> {
    const { states } = this.compiled.model
    const state = stateName(requested, states.values, '/body/state')
    this.keyOf(id)
    writable(this.compiled.writes.appointment, 'appointments', { state })
    const move = writable(this.plans.stateMoves[state], `appointments into ${state}`, { state })
    const now = nowIn(this.compiled.model.timezone)
    // Working hours are read before the transaction: SQLite serves one transaction at a time.
    const before = await this.current(servedFrom(this.db, at), id, false)
    const step = await this.stepOf(before, at)
    // Back from a state that freed the slot, its day is checked, and so claimed, as for a booking.
    const claims = this.frees(before.state) && !this.frees(state) ? dayClaims(before.date, before.refs) : []
    return await requiring({}, ['state'], async () => await this.db.transaction(async (tx) => {
      const current = await this.current(tx, id)
      if (current.state === state) return `Appointment ${id} is already ${state}.`
      if (!(states.moves[current.state] ?? []).includes(state)) {
        throw new ConflictError(`An appointment in state ${current.state} cannot move to ${state} (allowed: ${(states.moves[current.state] ?? []).join(', ') || 'none'}).`,
          [{ path: '/body/state', message: `is not a move this installation allows from ${current.state}` }])
      }
      // Back from a state that freed the slot: the slot must still be free, as for a booking.
      if (this.frees(current.state) && !this.frees(state)) {
        if (!covers(claims, current.date, current.refs)) throw new ConflictError('The appointment changed while its state was being changed; try again.', CHANGED_MEANWHILE)
        const endHour = current.endHour ?? endHourAfter(current.hour, step) ?? '23:59'
        const capacity = await this.capacityAt(tx, current.date, current.hour, current.refs)
        await this.checkFree(tx, { date: current.date, hour: current.hour, endHour, step, professional: current.refs.professional, client: current.refs.client, except: id, capacity }, ['/body/state'])
      }
      const { statement, args } = this.found(move.bind(id, now), id)
      await tx.query(statement, args)
      await this.recordState(tx, id, state, nowIn(this.compiled.model.timezone), true)
      await this.readBack(tx, id, { date: current.date, hour: current.hour, state }, heldRefs(current))
      return `Appointment ${id} is now ${state}.`
    }, at, claims))
  }

  async reschedule (id: string, requested: { date: string, hour: string }, at: Arrival): Promise<string> {
    const slot = this.normaliseSlot(requested)
    const issues: FieldIssue[] = []
    this.checkSlotInput(slot.date, slot.hour, issues)
    if (issues.length > 0) throw new InvalidInputError(describe(issues), issues)
    this.keyOf(id)
    writable(this.compiled.writes.appointment, 'appointments', requested)
    const { states, timezone } = this.compiled.model
    // Working hours are read before the transaction: SQLite serves one transaction at a time.
    const before = await this.current(servedFrom(this.db, at), id, false)
    const day = before.refs.professional ? await this.hours?.day(slot.date, before.refs.professional, at) : undefined
    const window = day?.windowAt(slot.hour)
    const step = window?.step ?? this.defaultMinutes()
    const minutes = before.endHour ? minutesBetween(before.hour, before.endHour) : this.serviceMinutes(before.refs.service, await this.catalog.snapshot(at)) ?? step
    const endHour = endHourAfter(slot.hour, minutes)
    if (endHour === undefined) throw new InvalidInputError(`A ${minutes}-minute appointment at ${slot.hour} would end after midnight.`, [{ path: '/body/hour', message: 'too late for the appointment\'s length' }])
    if (before.refs.professional) this.checkHours(day, slot.date, slot.hour, endHour, before.refs.location)

    const claims = dayClaims(slot.date, before.refs)
    return await requiring({}, ['date', 'hour'], async () => await this.db.transaction(async (tx) => {
      const current = await this.current(tx, id)
      // Its hours were checked, and its new day claimed, for the professional and client read before.
      if (current.refs.professional !== before.refs.professional || !covers(claims, slot.date, current.refs)) throw new ConflictError('The appointment changed while it was being rescheduled; try again.', CHANGED_MEANWHILE)
      const target = states.onReschedule === 'keep' ? current.state : states.onReschedule
      if (this.frees(current.state) || (target !== current.state && !(states.moves[current.state] ?? []).includes(target))) {
        throw new ConflictError(`An appointment in state ${current.state} cannot be rescheduled.`, [{ path: '/params/id', message: `is ${current.state}, which cannot be rescheduled` }])
      }
      const found = await this.findSlot(tx, slot.date, slot.hour, current.refs)
      await this.checkFree(tx, { date: slot.date, hour: slot.hour, endHour, step, professional: current.refs.professional, client: current.refs.client, except: id, capacity: found.capacity }, SLOT)
      const now = nowIn(timezone)
      const { statement, args } = this.found(this.plans.reschedule.bind(id, now, { date: slot.date, hour: slot.hour, endHour, minutes }, found.pointer), id)
      await tx.query(statement, args)
      if (target !== current.state) await this.recordState(tx, id, target, now, true)
      await this.readBack(tx, id, { date: slot.date, hour: slot.hour, state: target }, heldRefs(current))
      return `Appointment ${id} moved to ${slot.date} ${slot.hour}${target !== current.state ? ` and is now ${target}` : ''}.`
    }, at, claims))
  }

  /**
   * Slot-based booking: the pointer to the slot starting then, of this professional (and
   * location), as column values, and how many appointments the slot takes; where the
   * appointment row holds its own time, nothing and 1. A slot whose block does not accept
   * the service is refused here. Inside the transaction, before checkFree, so the slot
   * checked free is the one written.
   */
  private async findSlot (tx: Querier, date: string, hour: string, refs: Partial<Record<string, string>>): Promise<{ pointer: Record<string, unknown>, capacity: number }> {
    const booking = this.plans.slotBooking
    if (!booking) return { pointer: {}, capacity: 1 }
    const service = booking.services ? refs.service : undefined
    const found = await this.lookupSlot(tx, date, hour, refs, service)
    if (!found) {
      throw new ConflictError(`No time slot starts at ${hour} on ${date}${booking.refs.filter((r) => refs[r] !== undefined).map((r) => ` for ${r} ${refs[r]}`).join('')}: only the slots /availability offers can be booked.`, named(SLOT, 'is not the start of a slot /availability offers'))
    }
    if (!found.accepts) {
      throw new ConflictError(`The slot at ${hour} on ${date} does not take service ${service}: its block accepts other services (/availability?service=${service} lists the slots that do).`, [{ path: '/body/service', message: 'is not accepted by the slot at that time' }])
    }
    return { pointer: booking.pointer(found), capacity: found.capacity }
  }

  /** The service id a booking writes when the request names none (a `write.set` default for its column). */
  private writtenService (values: Record<string, unknown>): string | undefined {
    const columns = this.plans.refs.service?.columns ?? []
    const value = columns.length === 1 ? values[columns[0].column] : undefined
    return value === undefined || value === null ? undefined : String(value)
  }

  /** How many appointments the slot an appointment sits in takes (1 where there are no slots, or it is gone). */
  private async capacityAt (tx: Querier, date: string, hour: string, refs: Partial<Record<string, string>>): Promise<number> {
    return (await this.lookupSlot(tx, date, hour, refs, undefined))?.capacity ?? 1
  }

  private async lookupSlot (tx: Querier, date: string, hour: string, refs: Partial<Record<string, string>>, service: string | undefined): Promise<FoundSlot | undefined> {
    const booking = this.plans.slotBooking
    if (!booking) return undefined
    const bound = booking.bindLookup(date, hour, refs, service)
    // A service id its column cannot hold is accepted by no block.
    if (!bound) return { id: undefined, capacity: 0, accepts: false }
    const [row] = await tx.query(bound.statement, bound.args)
    return row === undefined ? undefined : booking.read(row)
  }

  /** The status-history rows of a state entered (history.ts): close the current one, open the new one. */
  private async recordState (tx: Querier, id: string, state: string, now: ReturnType<typeof nowIn>, closing: boolean): Promise<void> {
    const history = this.plans.history
    if (!history) return
    for (const { statement, args } of this.found(history.bind(id, state, now, closing), id)) await tx.query(statement, args)
  }

  /** '9:30' is 09:30; an ISO date-time stands for its date at the clinic. */
  private normaliseSlot (s: { date: string, hour: string }): { date: string, hour: string } {
    const date = s.date.length > 10 ? parseApiDate(s.date, this.compiled.model.timezone) ?? s.date : s.date
    const hour = /^\d:\d{2}$/.test(s.hour) ? `0${s.hour}` : s.hour
    return { date, hour }
  }

  /** An id no row can have is a 404 at once. */
  private keyOf (id: string): void {
    this.found(this.compiled.appointments({ filters: [], minimal: false, byId: true }).bind({ id }), id)
  }

  /** A plan bound for an appointment id; none (no row can have the id) is a 404. */
  private found<T> (bound: T | undefined, id: string): T {
    if (bound === undefined) throw unknownId('appointment', id)
    return bound
  }

  private frees (state: string): boolean {
    return this.options.freeing.includes(state)
  }

  private async current (q: Querier, id: string, lock = true): Promise<AppointmentRow> {
    const shape = this.compiled.appointments({ filters: [], minimal: false, byId: true, occupancy: true, lock })
    const { statement, args } = this.found(shape.bind({ id }), id)
    const rows = await q.query(statement, args)
    const [current] = carryingId(rows.flatMap((row) => shape.read(row) ?? []), id, (a) => a.id)
    if (!current) throw unknownId('appointment', id)
    return current
  }

  /**
   * 409 when the professional's slot is full (as many appointments overlap it as it takes:
   * `capacity`, 1 by default), or another appointment of the client overlaps it. An
   * appointment without a stored end holds `step` minutes (the grid of its window, as
   * /availability counts it).
   */
  private async checkFree (tx: Querier, s: { date: string, hour: string, endHour: string, step: number, professional?: string, client?: string, except?: string, capacity?: number }, slot: string[], clientPath?: string): Promise<void> {
    // What holds a slot is decided in one place (services/slots.ts), as /availability decides it.
    const wanted = { start: minutesOf(s.hour), end: endMinutesOf(s.hour, s.endHour) }
    // The professional's and the client's day in one read, each as heldRows reads it alone.
    const day = await heldRowsOfEach(tx, this.compiled, this.options.freeing, { from: s.date, to: s.date }, { professional: s.professional, client: s.client })
    for (const who of ['professional', 'client'] as const) {
      const id = s[who]
      if (id === undefined) continue
      const held = day[who]
      const others = held.filter((a) => a.id !== s.except && (who === 'professional' || !a.holding))
      const spans = others.map((a) => ({ ...heldSpan(a, s.step), holding: a.holding }))
      // A client is never in two places at once, whatever a slot takes.
      const capacity = who === 'professional' ? s.capacity ?? 1 : 1
      if (hasRoom(wanted, spans, capacity)) continue
      const clash = others.find((a, i) => overlaps(wanted, spans[i]))
      if (!clash || (capacity > 1 && !clash.holding)) {
        throw new ConflictError(`The slot at ${s.hour} on ${s.date} is full: it takes ${capacity === 1 ? 'one appointment' : `${capacity} appointments`}.`, named(slot, 'is a slot already full'))
      }
      if (who === 'professional') {
        throw new ConflictError(`The professional already has ${clash.holding ? 'that time taken' : 'an appointment'} from ${clash.hour}${clash.endHour ? ` to ${clash.endHour}` : ''} on ${s.date}.`,
          named(slot, 'is a time the professional already has taken'))
      }
      throw new ConflictError(`The client already has an appointment at ${clash.hour} on ${s.date}.`,
        [...clientPath ? [{ path: clientPath, message: 'already has an appointment at that time' }] : [], ...named(slot, 'overlaps another appointment of the client')])
    }
  }

  /** The professional's hours (read once for the request: Offers.day) must offer the slot, where the mapping has hours. */
  private checkHours (day: WorkingDay | undefined, date: string, hour: string, endHour: string, location?: string): void {
    const offered = day?.offers(hour, endHour, location)
    if (offered === false) throw new ConflictError(`The professional does not attend on ${date} from ${hour} to ${endHour}${location ? ' at that location' : ''}.`, named(SLOT, 'is outside the professional\'s hours'))
  }

  private checkSlotInput (date: string, hour: string, issues: FieldIssue[]): void {
    const validDate = readApiDate(date, this.compiled.model.timezone, '/body/date', issues) !== undefined
    const validHour = isClockHour(hour)
    if (!validHour) issues.push({ path: '/body/hour', message: 'must be an hour from 00:00 to 23:59 (HH:MM)' })
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
      // Retired places and insurances take no new appointments (professionals and services
      // keep their own rules: /availability leaves the disabled ones out).
      return (name === 'location' || name === 'healthInsurance') && !rec.enabled ? `${name} "${id}" is not enabled for new appointments` : undefined
    }
    if (name === 'plan' && planExists(this.compiled.model, snap, id) === false) return `no plan with id "${id}"`
    const type = this.writtenType(name)
    return type === undefined || matchesType(id, type) ? undefined : `"${id}" cannot be a ${name} id here (expected ${isIntegerType(type) ? `a whole number, as the ${type} column holds it` : 'text without surrounding spaces'})`
  }

  /** The type a ref is written with; undefined when the mapping does not write it (the value is ignored). */
  private writtenType (name: BookingRef): SqlTypeName | undefined {
    if (!this.compiled.model.appointment.refs[name]) return undefined
    const joined = this.plans.joinedRefs[name]
    return this.plans.refs[name]?.columns[0]?.type ?? joined?.type
  }

  private serviceMinutes (service: string | undefined, snap: Snapshot): number | undefined {
    const duration = service === undefined ? undefined : snap.record('service', service)?.entity.duration
    return typeof duration === 'number' && duration > 0 ? duration : undefined
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
 * professional and of its client, the two checkFree reads.
 */
export function dayClaims (date: string, who: { professional?: string, client?: string }): string[] {
  return (['professional', 'client'] as const).flatMap((f) => who[f] === undefined ? [] : [`${f} ${date} ${who[f]}`])
}

/** Whether `claims` hold the days a check of `date` reads (the row may have changed since it was read outside the transaction). */
function covers (claims: readonly string[], date: string, who: { professional?: string, client?: string }): boolean {
  return dayClaims(date, who).every((c) => claims.includes(c))
}

/** The refs an appointment holds that a state move or reschedule must leave as they are. */
function heldRefs (a: AppointmentRow): Partial<Record<BookingRef, string>> {
  return Object.fromEntries(BOOKING_REFS.flatMap((name) => a.refs[name] === undefined ? [] : [[name, a.refs[name]]]))
}

function onlyOne (ids: Set<string> | undefined): string | undefined {
  return ids?.size === 1 ? [...ids][0] : undefined
}

function minutesBetween (from: string, to: string): number {
  return Math.max(endMinutesOf(from, to) - minutesOf(from), 1)
}
