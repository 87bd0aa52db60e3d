// Free slots: the professionals' working windows (weekly template and/or dated rows), minus
// blocks and occupied appointments, cut into slots of the service's duration or the row's
// interval. A call costs at most four statements (hours, dated rows, blocks, occupancy: each
// once for the whole range) plus the cached catalogue, however long the range.
import type { Database } from '../db/database.js'
import type { CompiledMapping } from '../mapping/compile/index.js'
import type { BlockRow, CompiledAvailability, DatedRow, WeeklyRow } from '../mapping/compile/availability.js'
import { rangeArgs, type AppointmentRow } from '../mapping/compile/appointment.js'
import type { EntityName, LookupName } from '../mapping/model.js'
import type { SlotT } from '../schemas/resources.js'
import { addDays, isCalendarDate, isClockHour, minutesOf, nowHourIn, todayIn } from '../normalise/datetime.js'
import { queryDateRange } from './date-range.js'
import { NotFoundError } from '../errors.js'
import type { Catalog, Snapshot } from './catalog.js'
import { bindId, matchesType } from './ids.js'

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

// ---- the arithmetic, on minutes since midnight (exported for unit tests) ----

/** [start, end) in minutes since midnight. */
export interface Span { start: number, end: number }

/** Where and when a professional works on one date. */
export interface Window extends Span {
  date: string
  professional: string
  location?: string
  interval?: number
}

export const hourOfMinutes = (m: number): string => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`
const DAY: Span = { start: 0, end: 24 * 60 }

/** 0 = Sunday … 6 = Saturday. */
export function weekdayOf (date: string): number {
  return new Date(`${date}T00:00:00Z`).getUTCDay()
}

/** The working windows of one date: template rows of its weekday valid that day, and dated rows of that day. */
export function windowsOn (date: string, weekly: WeeklyRow[], dated: DatedRow[]): Window[] {
  const weekday = weekdayOf(date)
  const out: Window[] = []
  const add = (r: { professional: string, location?: string, start: string, end: string, interval?: number }) => {
    const w: Window = { date, professional: r.professional, start: minutesOf(r.start), end: minutesOf(r.end) }
    if (r.location !== undefined) w.location = r.location
    if (r.interval !== undefined) w.interval = r.interval
    if (w.end > w.start) out.push(w)
  }
  for (const r of weekly) {
    if (r.weekday !== weekday) continue
    if (r.validFrom !== undefined && date < r.validFrom) continue
    if (r.validTo !== undefined && date > r.validTo) continue
    add(r)
  }
  for (const r of dated) if (r.date === date) add(r)
  return out
}

/** What blocks take from one professional's day: a block without professional is everybody's. */
export function blockedOn (date: string, professional: string, blocks: BlockRow[]): Span[] {
  const out: Span[] = []
  for (const b of blocks) {
    if (date < b.from || date > b.to) continue
    if (b.professional !== undefined && b.professional !== professional) continue
    const span = { start: b.start !== undefined ? minutesOf(b.start) : DAY.start, end: b.end !== undefined ? minutesOf(b.end) : DAY.end }
    if (span.end > span.start) out.push(span)
  }
  return out
}

const overlaps = (a: Span, b: Span): boolean => a.start < b.end && b.start < a.end

/**
 * Slots of `length` minutes stepping from the window's start, each inside the window, none
 * overlapping a busy span, none starting before `notBefore` (minutes; today's "now").
 */
export function slotsIn (window: Span, length: number, busy: Span[], notBefore = 0): Span[] {
  const out: Span[] = []
  if (!(length > 0)) return out
  for (let start = window.start; start + length <= window.end; start += length) {
    const slot = { start, end: start + length }
    if (start < notBefore) continue
    if (busy.some((b) => overlaps(slot, b))) continue
    out.push(slot)
  }
  return out
}

/** Whether [start, end) lies inside one of the windows and outside every blocked span. */
export function fitsIn (span: Span, windows: Span[], blocked: Span[]): boolean {
  return windows.some((w) => span.start >= w.start && span.end <= w.end) && !blocked.some((b) => overlaps(span, b))
}

// ---- the service ----

type Occupancy = Map<string, { start: number, end?: number }[]>
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

  isMapped (): boolean {
    return this.mapped !== undefined
  }

  async freeSlots (q: AvailabilityQuery): Promise<Slot[]> {
    const av = this.mapped
    if (!av) throw new NotFoundError('Availability is not mapped for this installation.')
    const { timezone } = this.compiled.model
    const { start, end } = queryDateRange(q, timezone, this.maxRangeDays)
    const now = this.now()
    const today = todayIn(timezone, now)
    const from = start < today ? today : start
    if (from > end) return []

    const snap = await this.catalog.snapshot()
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
    const [weekly, dated, blocks, occupancy] = await Promise.all([
      this.readWeekly(av),
      this.readDated(av, from, end),
      this.readBlocks(av, from, end),
      this.readOccupancy(from, end, single)
    ])

    const nowMinutes = minutesOf(nowHourIn(timezone, now))
    const byKey = new Map<string, Slot>()
    for (let date = from; date <= end; date = addDays(date, 1)) {
      for (const w of windowsOn(date, weekly, dated)) {
        if (!professionals.has(w.professional)) continue
        const location = this.slotLocation(snap, w, q.location)
        if (location === null) continue
        if (location !== undefined && serviceLocations && !serviceLocations.has(location)) continue
        const step = w.interval ?? av.slotMinutes
        const length = service?.duration ?? step
        const taken = (occupancy.get(occupancyKey(w.professional, date)) ?? []).map((a) => ({ start: a.start, end: a.end ?? a.start + step }))
        const busy = [...blockedOn(date, w.professional, blocks), ...taken]
        for (const s of slotsIn(w, length, busy, date === today ? nowMinutes : 0)) {
          const slot: Slot = {
            date,
            hour: hourOfMinutes(s.start),
            endHour: hourOfMinutes(s.end),
            professional: { id: w.professional, name: String(snap.record('professional', w.professional)?.entity.name ?? '') }
          }
          if (location !== undefined) slot.location = this.locationOf(snap, location)
          if (service) slot.service = service
          byKey.set(`${date}|${slot.hour}|${w.professional}|${location ?? ''}`, slot)
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
  async offers (date: string, hour: string, endHour: string, professional: string, location?: string): Promise<boolean | undefined> {
    const av = this.mapped
    if (!av) return undefined
    if (!isCalendarDate(date) || !isClockHour(hour) || !isClockHour(endHour) || endHour <= hour) return false
    const [snap, weekly, dated, blocks] = await Promise.all([
      this.catalog.snapshot(),
      this.readWeekly(av),
      this.readDated(av, date, date),
      this.readBlocks(av, date, date)
    ])
    const windows = windowsOn(date, weekly, dated)
      .filter((w) => w.professional === professional && (location === undefined || this.slotLocation(snap, w, location) !== null))
    return fitsIn({ start: minutesOf(hour), end: minutesOf(endHour) }, windows, blockedOn(date, professional, blocks))
  }

  /**
   * The working window a slot starting at `hour` falls in: its grid step (the length of an
   * appointment with no service duration, as free slots are offered) and its location, when
   * exactly one window says so. Undefined when availability is not mapped or no window holds it.
   */
  async windowAt (date: string, hour: string, professional: string): Promise<{ step: number, location?: string } | undefined> {
    const av = this.mapped
    if (!av || !isCalendarDate(date) || !isClockHour(hour)) return undefined
    const [weekly, dated] = await Promise.all([this.readWeekly(av), this.readDated(av, date, date)])
    const at = minutesOf(hour)
    const windows = windowsOn(date, weekly, dated).filter((w) => w.professional === professional && w.start <= at && at < w.end)
    if (windows.length === 0) return undefined
    const places = new Set(windows.flatMap((w) => w.location ?? []))
    return { step: windows[0].interval ?? av.slotMinutes, ...(places.size === 1 ? { location: [...places][0] } : {}) }
  }

  // ---- pieces ----

  /**
   * Enabled professionals that pass the filters. A filter id the catalogue does not know
   * leaves nobody; a relation the mapping does not hold restricts nothing (as in lookups).
   */
  private candidates (snap: Snapshot, q: AvailabilityQuery): Set<string> {
    let ids = snap.list('professional').filter((r) => r.enabled).map((r) => r.id)
    if (q.professional !== undefined) ids = ids.filter((id) => id === q.professional)
    for (const name of ['service', 'specialty', 'healthInsurance', 'location'] as const satisfies LookupName[]) {
      const id = q[name]
      if (id === undefined) continue
      const rec = snap.record(name, id)
      if (!rec || (name === 'service' && !rec.enabled)) return new Set()
      // Locations restrict through the windows' rows (slotLocation), not here.
      if (name === 'location') continue
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
      if (this.compiled.model.lookups.location && !snap.record('location', w.location)) return null
      return w.location
    }
    const related = snap.related('professional', w.professional, 'location')
    if (wanted !== undefined) return related && !related.has(wanted) ? null : wanted
    return related?.size === 1 ? [...related][0] : undefined
  }

  private locationOf (snap: Snapshot, id: string): NonNullable<Slot['location']> {
    const e = snap.record('location', id)?.entity as Record<string, unknown> | undefined
    const out: NonNullable<Slot['location']> = { id, address: String(e?.address ?? '') }
    if (typeof e?.name === 'string') out.name = e.name
    return out
  }

  private async readWeekly (av: CompiledAvailability): Promise<WeeklyRow[]> {
    if (!av.weekly) return []
    return readAll(await this.db.query(av.weekly.statement), av.weekly.read)
  }

  private async readDated (av: CompiledAvailability, from: string, to: string): Promise<DatedRow[]> {
    if (!av.dated) return []
    return readAll(await this.db.query(av.dated.statement, rangeArgs(from, to)), av.dated.read)
  }

  private async readBlocks (av: CompiledAvailability, from: string, to: string): Promise<BlockRow[]> {
    if (!av.blocks) return []
    return readAll(await this.db.query(av.blocks.statement, rangeArgs(from, to)), av.blocks.read)
  }

  /** Appointments that hold their slot, by professional and date: one statement for the whole range. */
  private async readOccupancy (from: string, to: string, professional: string | undefined): Promise<Occupancy> {
    const out: Occupancy = new Map()
    if (!this.compiled.model.appointment.refs.professional) return out
    const filtered = professional !== undefined
    const compiled = this.compiled.appointments({ filters: filtered ? ['professional'] : [], minimal: false, occupancy: true })
    const args = rangeArgs(from, to)
    if (filtered) {
      const type = compiled.inputTypes.professional
      if (!matchesType(professional, type)) return out
      args.professional = bindId(professional, type)
    }
    for (const row of await this.db.query(compiled.statement, args)) {
      const a: AppointmentRow | undefined = compiled.read(row)
      const p = a?.refs.professional
      if (!a || p === undefined || this.freeing.has(a.state)) continue
      const start = minutesOf(a.hour)
      // No (or a nonsensical) end: the slot grid of its window decides (see freeSlots).
      const end = a.endHour !== undefined && a.endHour > a.hour ? minutesOf(a.endHour) : undefined
      const key = occupancyKey(p, a.date)
      let list = out.get(key)
      if (!list) out.set(key, list = [])
      list.push({ start, end })
    }
    return out
  }
}

function readAll<T> (rows: Record<string, unknown>[], read: (row: Record<string, unknown>) => T | undefined): T[] {
  const out: T[] = []
  for (const row of rows) {
    const x = read(row)
    if (x !== undefined) out.push(x)
  }
  return out
}

function compareIds (a: string, b: string): number {
  if (/^\d+$/.test(a) && /^\d+$/.test(b) && a.length !== b.length) return a.length - b.length
  return a < b ? -1 : a > b ? 1 : 0
}

function bySlot (a: Slot, b: Slot): number {
  return a.date.localeCompare(b.date) || a.hour.localeCompare(b.hour) ||
    compareIds(a.professional.id, b.professional.id) || compareIds(a.location?.id ?? '', b.location?.id ?? '')
}
