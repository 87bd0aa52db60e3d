// Free slots: the professionals' working windows (weekly template and/or dated rows), minus
// blocks and occupied appointments, cut into slots of the service's duration or the row's
// interval. A call costs one statement per source (hours, dated rows, each block source,
// occupancy: each once for the whole range) plus the cached catalogue, however long the range.
import { servedFrom, type Arrival, type Database } from '../db/database.js'
import { isUnsupported, standInAddress, type BlockRow, type CompiledAvailability, type CompiledMapping, type DatedRow, type SlotRowBooking, type SlotRow, type WeeklyRow } from '../mapping/compile/index.js'
import type { EntityName, LookupName } from '../mapping/model.js'
import type { SlotT } from '../schemas/resources.js'
import { addDaysWithin, dateOfDay, dayNumber, endMinutesOf, isCalendarDate, isClockHour, minutesOf, nowHourIn, todayIn } from '../normalise/datetime.js'
import { queryDateRange } from './date-range.js'
import { skippedOnWallClock } from '../normalise/zones.js'
import { NotFoundError } from '../errors.js'
import type { Catalog, Snapshot } from './catalog.js'
import { offered } from './bookable.js'
// The arithmetic and what holds a slot: slots.ts (booking uses them too).
import { openRows, openWindows } from './open-slots.js'
import { coveringWindow, type HoursSource } from './covering-hours.js'
import { around, blockedOn, datedIn, DAY_MINUTES, endHourOfMinutes, fitsIn, hasRoom, heldRows, heldSpan, hourOfMinutes, readAll, readBlocks, serviceUses, slotsIn, gridOf, windowsAround, windowsOn, type Window } from './slots.js'

export type Slot = SlotT

export interface AvailabilityQuery {
  start: string
  end: string
  professional?: string
  service?: string
  location?: string
  specialty?: string
  healthInsurance?: string
}

export interface AvailabilityOptions {
  /** The clock (tests). */
  now?: () => Date
  /** Appointment states that do not hold their slot. */
  freeing?: string[]
  /** Longest range one call may ask for, in days. */
  maxRangeDays?: number
}

export const MAX_RANGE_DAYS = 31

// ---- the service ----

type Occupancy = Map<string, { hour: string, endHour?: string, holding?: boolean, refs: Partial<Record<string, string>> }[]>
const occupancyKey = (professional: string, date: string): string => `${professional}|${date}`

export class Availability {
  private readonly mapped?: CompiledAvailability
  private readonly now: () => Date
  private readonly freeing: Set<string>
  private readonly maxRangeDays: number

  constructor (
    private readonly compiled: CompiledMapping,
    private readonly db: Database,
    private readonly catalog: Catalog,
    options: AvailabilityOptions = {}
  ) {
    this.mapped = compiled.availability
    this.now = options.now ?? (() => new Date())
    this.freeing = new Set(options.freeing ?? ['CANCELED'])
    this.maxRangeDays = options.maxRangeDays ?? MAX_RANGE_DAYS
  }

  /** Where a structured warning goes (the app's log, set by app.ts); nowhere until then. */
  warn: (fields: Record<string, unknown>, message: string) => void = () => {}
  private readonly saidUnreadable = new Set<string>()

  /** Once per block source: its recurring rows whose rule cannot be read block every day they could fall on. */
  private readonly unreadableBlocks = (source: string, rows: number): void => {
    if (this.saidUnreadable.has(source)) return
    this.saidUnreadable.add(source)
    this.warn({ source, rows }, 'recurring block rows whose repeat rule cannot be read block every day from their first date (to their until); ponte check lists them')
  }

  isMapped (): boolean {
    return this.mapped !== undefined
  }

  async freeSlots (asked: AvailabilityQuery, at: Arrival): Promise<Slot[]> {
    const av = this.mapped
    if (!av) throw new NotFoundError('Availability is not mapped for this installation.')
    const { timezone } = this.compiled.model
    const { start, end } = queryDateRange(asked, timezone, this.maxRangeDays)
    const now = this.now()
    const today = todayIn(timezone, now)
    const from = start < today ? today : start
    if (from > end) return []

    const snap = await this.catalog.snapshot(at)
    // Without ?service=, the service a booking would take (`write.refs.service.otherwise`), where it exists: what a booking of the slot then takes.
    const writes = this.compiled.writes.appointment
    const otherwise = isUnsupported(writes) || asked.service !== undefined ? undefined : writes.defaults.service
    const q = otherwise !== undefined && snap.record('service', otherwise) ? { ...asked, service: otherwise } : asked
    const professionals = this.candidates(snap, q)
    if (professionals.size === 0) return []
    let service: { id: string, name: string, duration?: number } | undefined
    if (q.service !== undefined) {
      const e = snap.record('service', q.service)?.entity as Record<string, unknown> | undefined
      if (!e) return []
      service = { id: q.service, name: String(e.name ?? '') }
      if (typeof e.duration === 'number' && e.duration > 0) service.duration = e.duration
    }
    const serviceLocations = q.service !== undefined ? snap.related('service', q.service, 'location') : undefined
    if (q.location !== undefined && serviceLocations && !serviceLocations.has(q.location)) return []

    const single = q.professional
    // The day before `from` too, for its night windows and what runs past its midnight; the
    // day after `end` for what is held or blocked after its midnight.
    const [before, after] = [addDaysWithin(from, -1), addDaysWithin(end, 1)]
    const [weekly, dated, blocks, occupancy, slotRows] = await Promise.all([
      this.readWeekly(av, undefined, at),
      this.readDated(av, before, end, undefined, at),
      readBlocks(this.db, av, before, after, at, this.unreadableBlocks),
      this.readOccupancy(before, after, single, at),
      this.readSlotRows(from, end, q.service, at)
    ])

    const nowMinutes = minutesOf(nowHourIn(timezone, now))
    // A slot shared by minutes (`capacity: minutes`): each appointment in it uses its service's.
    const byMinutes = this.slotRowBooking()?.byMinutes === true
    const byKey = new Map<string, Slot>()
    // Day numbers, not dates as text: the loop's bound is fixed before it starts (the range
    // is at most maxRangeDays, checked by queryDateRange).
    for (let day = dayNumber(before), last = dayNumber(end); day <= last; day++) {
      const date = dateOfDay(day)
      const next = dateOfDay(day + 1)
      for (const w of windowsOn(date, weekly, dated)) {
        // The day before the range offers only what its windows run into the range's first day.
        if (date < from && w.end <= DAY_MINUTES) continue
        if (!professionals.has(w.professional)) continue
        // A template code that does not take the service offers it nothing (`pattern.services`).
        if (service && w.refuses?.has(service.id) === true) continue
        const location = this.slotLocation(snap, w, q.location)
        if (location === null) continue
        if (location !== undefined && serviceLocations && !serviceLocations.has(location)) continue
        const step = w.interval ?? av.slotMinutes
        const length = w.whole ? step : service?.duration ?? step
        // On this date's clock: what the day before runs into it, and what the next day holds after its midnight.
        const taken = around(date, (d) => (occupancy.get(occupancyKey(w.professional, d)) ?? []).map((a) => ({ ...heldSpan(a, step), holding: a.holding, ...(byMinutes ? { uses: serviceUses(snap, a.refs.service) } : {}) })))
        for (const s of slotsIn(w, length, around(date, (d) => blockedOn(d, w.professional, blocks, location)), 0, gridOf(av.starts, w, step))) {
          // A start past midnight is the next date's.
          const [slotDate, start] = s.start >= DAY_MINUTES ? [next, s.start - DAY_MINUTES] : [date, s.start]
          if (slotDate < from || slotDate > end || (slotDate === today && start < nowMinutes)) continue
          const hour = hourOfMinutes(start)
          // A start or end the clinic's clock skips (spring forward) cannot be booked: not offered.
          const endDate = dateOfDay(day + Math.floor(s.end / DAY_MINUTES))
          if (skippedOnWallClock(`${slotDate} ${hour}`, timezone) || skippedOnWallClock(`${endDate} ${hourOfMinutes(s.end % DAY_MINUTES)}`, timezone)) continue
          // Slot-based booking books only a slot row's start, as many times as it takes.
          const capacity = slotRows ? capacityOf(slotRows, w.professional, slotDate, hour, location) : 1
          if (capacity === 0 || !hasRoom(s, taken, byMinutes ? { length: step } : capacity)) continue
          const slot: Slot = {
            date: slotDate,
            hour,
            endHour: endHourOfMinutes(s.end),
            professional: { id: w.professional, name: String(snap.record('professional', w.professional)?.entity.name ?? '') }
          }
          if (location !== undefined) slot.location = this.locationOf(snap, location)
          if (service) slot.service = service
          byKey.set(`${slotDate}|${slot.hour}|${w.professional}|${location ?? ''}`, slot)
        }
      }
    }
    return [...byKey.values()].sort(bySlot)
  }

  /**
   * Whether [hour, endHour) on `date` lies inside a working window of the professional (at
   * `location`, when given) and outside every block. Occupancy is not looked at: the
   * booking transaction checks that itself. Undefined when availability is not mapped.
   */
  async offers (date: string, hour: string, endHour: string, professional: string, location: string | undefined, at: Arrival): Promise<boolean | undefined> {
    return (await this.day(date, professional, at))?.offers(hour, endHour, location)
  }

  /**
   * The working window a slot starting at `hour` falls in: its grid step (the length of an
   * appointment with no service duration, as free slots are offered) and its location, when
   * exactly one window says so. Undefined when availability is not mapped or no window holds it.
   */
  async windowAt (date: string, hour: string, professional: string, at: Arrival): Promise<WindowAt | undefined> {
    const av = this.mapped
    if (!av || !isCalendarDate(date)) return undefined
    return windowHolding(await this.windowsOf(av, date, professional, at), hour, av.slotMinutes)
  }

  /**
   * One professional's working day, as booking asks about one slot: that professional's
   * windows on `date` (their template and dated rows only) and the day's blocks, each source
   * read once; `windowAt` and `offers` then answer without the database. Undefined when
   * availability is not mapped.
   */
  async day (date: string, professional: string, at: Arrival): Promise<WorkingDay | undefined> {
    const av = this.mapped
    if (!av) return undefined
    if (!isCalendarDate(date)) return NOWHERE
    const [snap, windows, blocks] = await Promise.all([
      this.catalog.snapshot(at),
      this.windowsOf(av, date, professional, at),
      readBlocks(this.db, av, addDaysWithin(date, -1), addDaysWithin(date, 1), at, this.unreadableBlocks)
    ])
    return {
      windowAt: (hour) => windowHolding(windows, hour, av.slotMinutes),
      coveredBy: (hour, location) => coveringWindow(windows, hour, location)?.source,
      offers: (hour, endHour, location) => this.refusal(snap, av, date, professional, windows, blocks, { hour, endHour, location }) === undefined,
      refusal: (hour, endHour, location) => this.refusal(snap, av, date, professional, windows, blocks, { hour, endHour, location })
    }
  }

  /** Why the day does not offer [hour, endHour): outside every window, blocked, or off the grid of starts; undefined when it offers it. */
  private refusal (snap: Snapshot, av: CompiledAvailability, date: string, professional: string, windows: Window[], blocks: BlockRow[],
    { hour, endHour, location }: { hour: string, endHour: string, location?: string }): Refusal | undefined {
    if (!isClockHour(hour) || !isClockHour(endHour)) return 'outside'
    const span = { start: minutesOf(hour), end: endMinutesOf(hour, endHour) }
    if (span.end <= span.start) return 'outside'
    let why: Refusal = 'outside'
    // Each window with the blocks of its own location (a closed unit closes only its windows).
    for (const w of windows) {
      const at = this.slotLocation(snap, w, location)
      if (at === null || span.start < w.start || span.end > w.end) continue
      const blocked = around(date, (d) => blockedOn(d, professional, blocks, at))
      if (fitsIn(span, [w], blocked, gridOf(av.starts, w, w.interval ?? av.slotMinutes))) return undefined
      // A block anywhere wins: moving off the grid would not help.
      if (blocked.some((b) => b.start < span.end && span.start < b.end)) why = 'blocked'
      else if (why !== 'blocked') why = 'off-grid'
    }
    return why
  }

  /** The professional's working windows on `date` (and the day before's night): their template and dated rows only. */
  private async windowsOf (av: CompiledAvailability, date: string, professional: string, at: Arrival): Promise<Window[]> {
    const [weekly, dated] = await Promise.all([this.readWeekly(av, professional, at), this.readDated(av, addDaysWithin(date, -1), date, professional, at)])
    return windowsAround(date, weekly, dated).filter((w) => w.professional === professional)
  }

  // ---- pieces ----

  /**
   * Enabled professionals that pass the filters. A filter id the catalogue does not know
   * leaves nobody; a relation the mapping does not hold restricts nothing (as in lookups).
   */
  private candidates (snap: Snapshot, q: AvailabilityQuery): Set<string> {
    let ids = snap.list('professional').filter(offered).map((r) => r.id)
    if (q.professional !== undefined) ids = ids.filter((id) => id === q.professional)
    for (const name of ['service', 'specialty', 'healthInsurance', 'location'] as const satisfies LookupName[]) {
      const id = q[name]
      if (id === undefined) continue
      const rec = snap.record(name, id)
      if (!rec) return new Set()
      // Locations restrict through the windows' rows (slotLocation), not here.
      if (name === 'location') continue
      // A disabled service, specialty or health insurance is offered nothing new (bookable.ts).
      if (!offered(rec)) return new Set()
      const related = snap.related(name as EntityName, id, 'professional')
      if (related) ids = ids.filter((p) => related.has(p))
    }
    return new Set(ids)
  }

  /**
   * The location a window's slots are at: its row's, when the row has one; otherwise the
   * wanted one (when the professional is related to it), or the professional's only
   * location. null: the window does not serve the wanted location, or its location is unknown.
   */
  private slotLocation (snap: Snapshot, w: Window, wanted: string | undefined): string | undefined | null {
    if (w.location !== undefined) {
      if (wanted !== undefined && w.location !== wanted) return null
      // A location the catalogue does not hold (closed, deleted) offers nothing.
      // A disabled one (retired) neither: it still shows on the past appointments that name it.
      if (this.compiled.model.lookups.location && !offered(snap.record('location', w.location))) return null
      return w.location
    }
    const related = snap.related('professional', w.professional, 'location')
    if (wanted !== undefined) return related && !related.has(wanted) ? null : wanted
    return related?.size === 1 ? [...related][0] : undefined
  }

  private locationOf (snap: Snapshot, id: string): NonNullable<Slot['location']> {
    const e = snap.record('location', id)?.entity as Record<string, unknown> | undefined
    // A location the mapping does not read has the stand-in address (compile/lookup.ts), never blank.
    const out: NonNullable<Slot['location']> = { id, address: e ? String(e.address) : standInAddress({ id }) }
    if (typeof e?.name === 'string') out.name = e.name
    return out
  }

  /** The template rows: everybody's, or (booking) one professional's. */
  private async readWeekly (av: CompiledAvailability, professional: string | undefined, at: Arrival): Promise<WeeklyRow[]> {
    if (!av.weekly) return []
    if (professional === undefined || !av.weeklyOf) return readAll(await this.db.query(av.weekly.statement, {}, at), av.weekly.read)
    const bound = av.weeklyOf.bind(professional)
    return bound ? readAll(await this.db.query(bound.statement, bound.args, at), av.weeklyOf.read) : []
  }

  private async readDated (av: CompiledAvailability, from: string, to: string, professional: string | undefined, at: Arrival): Promise<DatedRow[]> {
    // Open slots are the working hours (the compiler allows no other dated rows with them).
    if (this.compiled.model.appointment.openSlots) return openWindows(await openRows(servedFrom(this.db, at), this.compiled, { from, to }, professional), av.slotMinutes)
    if (!av.dated) return []
    if (professional === undefined || !av.datedOf) {
      const { statement, args } = av.dated.bind({ from, to })
      return datedIn(readAll(await this.db.query(statement, args, at), av.dated.read), from, to)
    }
    const bound = av.datedOf.bind(professional, { from, to })
    return bound ? datedIn(readAll(await this.db.query(bound.statement, bound.args, at), av.datedOf.read), from, to) : []
  }

  /**
   * Slot-based booking (write.slot): the slot rows starting in the range, by professional,
   * date and hour; with a service, only those whose block accepts it. One statement for the
   * whole range; undefined where appointments hold their own time.
   */
  private async readSlotRows (from: string, to: string, service: string | undefined, at: Arrival): Promise<SlotRows | undefined> {
    const booking = this.slotRowBooking()
    if (!booking) return undefined
    const out: SlotRows = new Map()
    const bound = booking.bindRows({ from, to }, service)
    if (!bound) return out
    for (const row of await this.db.query(bound.statement, bound.args, at)) {
      const r = booking.readRow(row)
      if (r?.professional === undefined) continue
      const key = slotRowKey(r.professional, r.date, r.hour)
      let list = out.get(key)
      if (!list) out.set(key, list = [])
      list.push(r)
    }
    return out
  }

  // A slot declaration the compiler refuses leaves booking to say so (501): here, no slots.
  private slotRowBooking (): SlotRowBooking | undefined {
    const slots = this.compiled.writes.slotRows
    return isUnsupported(slots) ? undefined : slots
  }

  /** What holds its slot (services/slots.ts), by professional and date: one statement for the whole range. */
  private async readOccupancy (from: string, to: string, professional: string | undefined, at: Arrival): Promise<Occupancy> {
    const out: Occupancy = new Map()
    if (!this.compiled.model.appointment.refs.professional) return out
    for (const a of await heldRows(servedFrom(this.db, at), this.compiled, this.freeing, { from, to }, { professional })) {
      const p = a.refs.professional
      if (p === undefined) continue
      const key = occupancyKey(p, a.date)
      let list = out.get(key)
      if (!list) out.set(key, list = [])
      list.push(a)
    }
    return out
  }
}

/** One professional's day, read once (Availability.day): booking's questions about one slot. */
export interface WorkingDay {
  /** The window a slot starting at `hour` falls in: its grid step and (when exactly one window says) location. */
  windowAt: (hour: string) => WindowAt | undefined
  /** The source of the row a start at `hour` copies its working-hours columns from (covering-hours.ts); undefined when no window holds it. */
  coveredBy: (hour: string, location?: string) => HoursSource | undefined
  /** Whether [hour, endHour) is inside a window (at `location`, when given) and outside every block. */
  offers: (hour: string, endHour: string, location?: string) => boolean
  /** Why it is not offered (undefined when it is): for a refusal that says which. */
  refusal: (hour: string, endHour: string, location?: string) => Refusal | undefined
}

/** Why a time is not offered: no window holds it, a block covers part of it, or it does not start on the window's grid. */
export type Refusal = 'outside' | 'blocked' | 'off-grid'

/** The window a time starts in: its grid step, its location (when one), whether it is an open slot, and the services its code refuses. */
export interface WindowAt { step: number, location?: string, whole?: true, refuses?: ReadonlySet<string> }

/** The window a slot starting at `hour` falls in, among one professional's windows of a day (see WorkingDay). */
function windowHolding (windows: Window[], hour: string, slotMinutes: number): WindowAt | undefined {
  if (!isClockHour(hour)) return undefined
  const at = minutesOf(hour)
  const holding = windows.filter((w) => w.start <= at && at < w.end)
  if (holding.length === 0) return undefined
  const places = new Set(holding.flatMap((w) => w.location ?? []))
  // A service any window there takes is taken (two rows of one professional at one time are one offer).
  const refuses = holding.every((w) => w.refuses !== undefined) ? new Set([...holding[0].refuses ?? []].filter((s) => holding.every((w) => w.refuses?.has(s) === true))) : undefined
  return {
    step: holding[0].interval ?? slotMinutes,
    ...(places.size === 1 ? { location: [...places][0] } : {}),
    ...(holding[0].whole ? { whole: true as const } : {}),
    ...(refuses !== undefined && refuses.size > 0 ? { refuses } : {})
  }
}

/** A day that is not a date: no window, nothing offered. */
const NOWHERE: WorkingDay = { windowAt: () => undefined, coveredBy: () => undefined, offers: () => false, refusal: () => 'outside' }

type SlotRows = Map<string, SlotRow[]>
const slotRowKey = (professional: string, date: string, hour: string): string => `${professional}|${date}|${hour}`

/**
 * How many appointments the slot row starting then takes (the first by key, as booking finds
 * it; at `location` when both say one); 0 when no slot row starts then: nothing to book.
 */
function capacityOf (rows: SlotRows, professional: string, date: string, hour: string, location: string | undefined): number {
  const row = (rows.get(slotRowKey(professional, date, hour)) ?? []).find((r) => location === undefined || r.location === undefined || r.location === location)
  return row?.capacity ?? 0
}

function compareIds (a: string, b: string): number {
  if (/^\d+$/.test(a) && /^\d+$/.test(b) && a.length !== b.length) return a.length - b.length
  return a < b ? -1 : a > b ? 1 : 0
}

function bySlot (a: Slot, b: Slot): number {
  return a.date.localeCompare(b.date) || a.hour.localeCompare(b.hour) ||
    compareIds(a.professional.id, b.professional.id) || compareIds(a.location?.id ?? '', b.location?.id ?? '')
}
