// What holds a slot, in one place: working windows, every block source (scoped to everybody,
// a professional or a location), and the rows of the appointment table that keep their time
// (appointments not in a free state, and slot-holding rows). /availability offers and booking
// refuses by these same functions, so the two cannot disagree. Arithmetic is on minutes since
// one date's midnight (a span past the next midnight ends after 24 * 60, one from the day
// before starts below 0: `around`); reading is one statement per source for a whole range.
import type { Arrival, Database, Querier } from '../db/database.js'
import type { Snapshot } from './catalog.js'
import type { AppointmentRow, BlockRow, CompiledAvailability, CompiledMapping, DatedRow, StartGrid, WeeklyRow } from '../mapping/compile/index.js'
import { addDays, endMinutesOf, minutesOf, weekdayOf } from '../normalise/datetime.js'
import { occurrences } from '../normalise/recurrence.js'

/** [start, end) in minutes since midnight. */
export interface Span { start: number, end: number }

/** Where and when a professional works on one date. */
export interface Window extends Span {
  date: string
  professional: string
  location?: string
  interval?: number
  /** An open slot: one slot, the whole window (DatedRow.whole). */
  whole?: true
  /** The services its template code does not take (`pattern.services`). */
  refuses?: ReadonlySet<string>
  /** Which source its row is of: a booking copies from the row covering its start (covering-hours.ts). */
  source: 'weekly' | 'dated'
  /** The columns appointments copy from its row (`{ hours: SALA }`). */
  copies?: WeeklyRow['copies']
}

export const hourOfMinutes = (m: number): string => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`
const DAY: Span = { start: 0, end: 24 * 60 }
/** Minutes in a day: a span's minutes past it are the next day's. */
export const DAY_MINUTES = DAY.end
/** An end as the interface writes it: past midnight, the next day's hour ('00:30' after '23:00'), as it is read (endMinutesOf). */
export const endHourOfMinutes = (m: number): string => hourOfMinutes(m % DAY.end)
/** The minutes from one hour to the next (at least one: a row ending when it starts holds a minute). */
export const minutesBetween = (from: string, to: string): number => Math.max(endMinutesOf(from, to) - minutesOf(from), 1)
// The last minute a legacy system can write ('23:59', '23:59:59') is the end of the day.
const endOfDay = (m: number): number => m === DAY.end - 1 ? DAY.end : m

/**
 * The spans of the days around `date` on its clock: the day before's moved back a day, the
 * day after's forward, so a night shift or an appointment past midnight meets what the next
 * (or previous) date holds. Nothing is longer than a day, so two days around are enough.
 */
export function around<S extends Span> (date: string, spansOf: (date: string) => S[]): S[] {
  return [-1, 0, 1].flatMap((k) => spansOf(k === 0 ? date : addDays(date, k)).map((s) => k === 0 ? s : { ...s, start: s.start + k * DAY.end, end: s.end + k * DAY.end }))
}

/** The windows of `date` and what the day before's run past midnight into it, on `date`'s clock. */
export function windowsAround (date: string, weekly: WeeklyRow[], dated: DatedRow[]): Window[] {
  const before = windowsOn(addDays(date, -1), weekly, dated).filter((w) => w.end > DAY.end)
    .map((w) => ({ ...w, date, start: w.start - DAY.end, end: w.end - DAY.end }))
  return [...windowsOn(date, weekly, dated), ...before]
}

// 0 = Sunday … 6 = Saturday, from day numbers (normalise/datetime.ts).
export { weekdayOf }

/** The working windows of one date: template rows of its weekday valid that day, and dated rows of that day. */
export function windowsOn (date: string, weekly: WeeklyRow[], dated: DatedRow[]): Window[] {
  const weekday = weekdayOf(date)
  const out: Window[] = []
  const add = (r: WeeklyRow | DatedRow, source: Window['source']) => {
    // A pattern row works only its runs of bookable slots, each a window of its own.
    for (const span of r.bookable ?? [{ start: minutesOf(r.start), end: endMinutesOf(r.start, r.end) }]) {
      const w: Window = { date, professional: r.professional, ...span, source }
      if (r.location !== undefined) w.location = r.location
      if (r.interval !== undefined) w.interval = r.interval
      if (r.copies !== undefined) w.copies = r.copies
      if ('whole' in r && r.whole) w.whole = true
      if (w.end > w.start) out.push(w)
    }
  }
  for (const r of weekly) {
    if (r.weekday !== weekday) continue
    if (r.validFrom !== undefined && date < r.validFrom) continue
    if (r.validTo !== undefined && date > r.validTo) continue
    add(r, 'weekly')
  }
  for (const r of dated) if (r.date === date) add(r, 'dated')
  return out
}

/**
 * What blocks take from one professional's day (at `location`, where the slot has one).
 * A block without scope is everybody's; a location's block closes every professional there,
 * and, as nobody can tell where a slot without a location is, those slots too.
 */
export function blockedOn (date: string, professional: string, blocks: BlockRow[], location?: string): Span[] {
  const out: Span[] = []
  for (const b of blocks) {
    if (date < b.from || date > b.to) continue
    if (b.professional !== undefined && b.professional !== professional) continue
    if (b.location !== undefined && location !== undefined && b.location !== location) continue
    // An exact (datetime) block holds from its start on the first day to its end on the last;
    // a block of whole days holds its hours on each of them. A datetime block that starts and
    // ends at the same midnight is a date typed into a datetime column (a holiday entered as
    // '2027-01-11'): the whole day, not nothing.
    const dateOnly = b.exact === true && b.from === b.to && b.start === b.end && b.start !== undefined && minutesOf(b.start) === 0
    const starts = b.start !== undefined && !dateOnly && (!b.exact || date === b.from)
    const ends = b.end !== undefined && !dateOnly && (!b.exact || date === b.to)
    // Hours of each day end at 00:00 as working hours do; an exact block's end is on its own date.
    const end = !ends ? DAY.end : endOfDay(b.exact === true ? minutesOf(b.end as string) : endMinutesOf(b.start ?? '00:00', b.end as string))
    const span = { start: starts ? minutesOf(b.start as string) : DAY.start, end }
    if (span.end > span.start) out.push(span)
  }
  return out
}

export const overlaps = (a: Span, b: Span): boolean => a.start < b.end && b.start < a.end

/** Where one window's starts fall: every `every` minutes (default the slot's length), and with `afterBlocks` from each block's end. */
export interface Grid { every?: number, afterBlocks?: true }

/** The mapped grid for a window whose rows step by `step` (its `interval`, else `slotMinutes`); an open slot keeps its own start. */
export function gridOf (starts: StartGrid, w: Pick<Window, 'whole'>, step: number): Grid {
  if (w.whole === true) return {}
  const every = starts.every === 'interval' ? step : starts.every
  return { ...(every !== undefined ? { every } : {}), ...(starts.afterBlocks === true ? { afterBlocks: true } : {}) }
}

/**
 * Slots of `length` minutes inside the window, none overlapping a busy span, none starting
 * before `notBefore` (minutes; today's "now"). They start every `grid.every` minutes (default
 * `length`) from the window's start; with `grid.afterBlocks`, a slot a busy span overlaps
 * moves the grid to that span's end.
 */
export function slotsIn (window: Span, length: number, busy: Span[], notBefore = 0, grid: Grid = {}): Span[] {
  const out: Span[] = []
  const every = grid.every ?? length
  if (!(length > 0) || !(every > 0)) return out
  for (let start = window.start; start + length <= window.end;) {
    const slot = { start, end: start + length }
    const hit = busy.find((b) => overlaps(slot, b))
    if (hit === undefined && start >= notBefore) out.push(slot)
    start = hit !== undefined && grid.afterBlocks === true && hit.end > start ? hit.end : start + every
  }
  return out
}

/**
 * Time held in a slot: `holding` marks a slot-holding row (a lunch, a meeting), which fills it
 * whatever its capacity; `uses`, in a slot shared by minutes, the minutes it takes of it (none
 * said: the whole slot).
 */
export interface HeldSpan extends Span { holding?: boolean, uses?: number }

/** A slot shared by minutes (`capacity: minutes`): its length, which its appointments' durations fill. */
export interface SlotMinutes { length: number }

/**
 * Whether `span` takes one more appointment: no slot-holding row overlaps it, and the rows
 * holding time overlapping it are fewer than its capacity (1 unless the mapping says more) or,
 * by minutes, leave at least `span`'s length of the slot. /availability offers and booking
 * refuses by this one test.
 */
export function hasRoom (span: Span, held: HeldSpan[], capacity: number | SlotMinutes = 1): boolean {
  const overlapping = held.filter((h) => overlaps(span, h))
  if (overlapping.some((h) => h.holding === true)) return false
  if (typeof capacity === 'number') return overlapping.length < capacity
  return minutesLeft(overlapping, capacity) >= span.end - span.start
}

/** The minutes of a slot shared by minutes that `held` (the rows in it) leave. */
export function minutesLeft (held: HeldSpan[], slot: SlotMinutes): number {
  return slot.length - held.reduce((sum, h) => sum + Math.min(h.uses ?? slot.length, slot.length), 0)
}

/** The minutes a service's appointment uses of a slot shared by minutes: its duration; undefined (the whole slot) when it has none. */
export function serviceUses (snap: Snapshot, service: string | undefined): number | undefined {
  const duration = service === undefined ? undefined : snap.record('service', service)?.entity.duration
  return typeof duration === 'number' && duration > 0 ? duration : undefined
}

/**
 * Whether [start, end) is one of the slots a window offers: slotsIn's own, so booking refuses
 * exactly what /availability would not offer.
 */
export function fitsIn (span: Span, windows: Span[], blocked: Span[], grid: Grid = {}): boolean {
  const length = span.end - span.start
  return length > 0 && windows.some((w) => span.start >= w.start && span.end <= w.end && slotsIn(w, length, blocked, span.start, grid).some((s) => s.start === span.start))
}

// ---- what the appointment table holds ----

/** A row of the appointment table as occupancy reads it: `holding` marks a slot-holding row (not an appointment). */
export type HeldRow = AppointmentRow & { holding?: boolean }

/** Whether a row of the appointment table keeps its time: a slot-holding row always, an appointment unless its state frees it. */
export function holdsSlot (a: HeldRow, freeing: ReadonlySet<string> | readonly string[]): boolean {
  if (a.holding === true) return true
  return !(Array.isArray(freeing) ? freeing.includes(a.state) : (freeing as ReadonlySet<string>).has(a.state))
}

/** The time a row holds: to its end, or `step` minutes (the grid of its window) when it has none that makes sense. */
export function heldSpan (a: { hour: string, endHour?: string }, step: number): Span {
  const start = minutesOf(a.hour)
  const stored = a.endHour === undefined ? undefined : endMinutesOf(a.hour, a.endHour)
  const end = stored !== undefined && stored > start ? stored : start + step
  return { start, end }
}

/**
 * The rows of the appointment table on [from, to] (of one professional or client, when given)
 * that hold their slot. Read without locks: inside booking's transaction, its claims keep
 * other bookings of the day out (Database.transaction).
 */
export async function heldRows (q: Querier, compiled: CompiledMapping, freeing: ReadonlySet<string> | readonly string[],
  range: { from: string, to: string }, who: { professional?: string, client?: string } = {}): Promise<AppointmentRow[]> {
  const filter = who.professional !== undefined ? 'professional' : who.client !== undefined ? 'client' : undefined
  if (filter && !compiled.model.appointment.refs[filter]) return []
  return await readHeld(q, compiled, freeing, range, filter ? [filter] : [], who) ?? []
}

/**
 * Booking's one read of what holds time on a day for a professional and a client (each when
 * given and mapped), in one statement: the rows holding their slot, by whose they are (a row
 * of both is in both lists). Each list is exactly what heldRows reads for that one.
 */
export async function heldRowsOfEach (q: Querier, compiled: CompiledMapping, freeing: ReadonlySet<string> | readonly string[],
  range: { from: string, to: string }, who: { professional?: string, client?: string }): Promise<{ professional: AppointmentRow[], client: AppointmentRow[] }> {
  const filters = (['professional', 'client'] as const).filter((f) => who[f] !== undefined && compiled.model.appointment.refs[f])
  const out = { professional: [] as AppointmentRow[], client: [] as AppointmentRow[] }
  if (filters.length === 0) return out
  const rows = await readHeld(q, compiled, freeing, range, [...filters], who, filters.length > 1)
  // An id one column cannot hold matches nothing there (no statement can be bound): each read on its own.
  if (rows === undefined) return { professional: await heldRows(q, compiled, freeing, range, { professional: who.professional }), client: await heldRows(q, compiled, freeing, range, { client: who.client }) }
  for (const a of rows) {
    for (const f of filters) if (filters.length === 1 || a.matches?.includes(f)) out[f].push(a)
  }
  return out
}

async function readHeld (q: Querier, compiled: CompiledMapping, freeing: ReadonlySet<string> | readonly string[], range: { from: string, to: string },
  filters: ('professional' | 'client')[], who: { professional?: string, client?: string }, either = false): Promise<AppointmentRow[] | undefined> {
  const shape = compiled.appointments({ filters, minimal: false, occupancy: true, ...(either ? { either } : {}) })
  const args: Record<string, string> = {}
  for (const f of filters) args[f] = who[f] as string
  const bound = shape.bind({ ...range, ...args })
  if (!bound) return either ? undefined : []
  const out: AppointmentRow[] = []
  for (const row of await q.query(bound.statement, bound.args)) {
    const a = shape.read(row)
    if (a && holdsSlot(a, freeing)) out.push(a)
  }
  return out
}

/** Every block source's rows overlapping [from, to]: one statement per source; a recurring block as one row per date it falls on there. */
/** Said once per source a read finds recurring blocks whose rule cannot be read (counts and the source only, never a row's values). */
export type UnreadableBlocks = (source: string, rows: number) => void

export async function readBlocks (db: Database, av: CompiledAvailability, from: string, to: string, at: Arrival, unreadable?: UnreadableBlocks): Promise<BlockRow[]> {
  const lists = await Promise.all(av.blocks.map(async (source) => {
    const { statement, args } = source.bind({ from, to })
    const rows = readAll(await db.query(statement, args, at), source.read)
    const closed = rows.filter((b) => b.unreadable === true).length
    if (closed > 0) unreadable?.(statement.name, closed)
    return rows
  }))
  return lists.flat().flatMap((b) => {
    if (b.repeat === undefined) return [b]
    const { repeat, ...one } = b
    return occurrences(b.from, repeat, from, to).map((date) => ({ ...one, from: date, to: date }))
  })
}

/**
 * Dated rows as the rows of each date in [from, to] they fall on: a recurring row's dates are
 * worked out for the range asked only (a daily rule over 92 days is 92 rows), so /availability
 * and booking, which both read through here, see the same dates.
 */
export function datedIn (rows: DatedRow[], from: string, to: string): DatedRow[] {
  return rows.flatMap((r) => {
    if (r.repeat === undefined) return [r]
    const { repeat, ...one } = r
    return occurrences(r.date, repeat, from, to).map((date) => ({ ...one, date }))
  })
}

export function readAll<T> (rows: Record<string, unknown>[], read: (row: Record<string, unknown>) => T | undefined): T[] {
  const out: T[] = []
  for (const row of rows) {
    const x = read(row)
    if (x !== undefined) out.push(x)
  }
  return out
}
