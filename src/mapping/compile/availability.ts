// Availability: the professionals' working hours (a weekly template and/or dated schedule
// rows) and the blocks cut out of them, compiled once into three statements and typed row
// readers. The slot arithmetic lives in services/availability.ts; here is only reading.
import type { Dialect } from '../../sql/dialect.js'
import { ParamList, type Statement } from '../../sql/statement.js'
import type { MappingModel, Value } from '../model.js'
import { asValue, whereList } from '../model.js'
import type { Static } from 'typebox'
import type { BlockSource, JoinDoc, SqlTypeName, ValueDoc, WhereDoc } from '../schema.js'
import { dateOnOrAfter, dateOnOrBefore, dateRange, dateUnset, EVERY_DATE, rangeArgs } from './date-range.js'
import type { Bound, DateRange } from './bind.js'
import { dateOf, hourOf, idOf, minutesOf, numberOf, type Decoder } from './decode.js'
import { addMinutes, endMinutesOf, isCalendarDate, minutesOf as minutesOfHour, todayIn } from '../../normalise/datetime.js'
import { bindId, matchesType } from './ids.js'
import { idType } from './key.js'
import type { Row } from './entity.js'
import { scanPlan, type ScanKey, type ScanPlan } from './scan.js'
import { CompileError, Scope, type ScopeSource } from './scope.js'
import { Columns, valueReader, valueSql, type Reader } from './value.js'
import { inClinicTime, sourceClock, type StoredClock } from './stored-clock.js'
import { readDayPattern, type MinuteSpan } from './day-pattern.js'
import { weekdayOf } from './weekday-base.js'
import { repeatRows, type RepeatRows } from './repeat-rows.js'
import type { Recurrence } from '../../normalise/recurrence.js'
import { columnGetter } from './entity.js'
import { hoursColumns, type CoveringHours, type HoursColumn } from './hours-copy.js'

export const DEFAULT_SLOT_MINUTES = 30

/** Hours of a working row: `start` to `end`, or (a `pattern`) only its `bookable` spans within them. */
interface WorkingHours {
  professional: string
  location?: string
  start: string
  end: string
  interval?: number
  /** A pattern row's runs of bookable slots, in minutes since midnight. */
  bookable?: MinuteSpan[]
  /** The columns appointments copy from the row covering their start (`{ hours: SALA }`: hours-copy.ts). */
  copies?: CoveringHours
}

/** One row of the weekly template: `weekday` 0 = Sunday … 6 = Saturday, whatever the stored base. */
export interface WeeklyRow extends WorkingHours {
  weekday: number
  validFrom?: string
  validTo?: string
}

/** One dated schedule row: the professional works `date` from `start` to `end`. */
export interface DatedRow extends WorkingHours {
  date: string
  /** A recurring row (`repeat`): `date` is its first date; services/slots.ts works out the rest for the range asked. */
  repeat?: Recurrence
  /** An open slot (a free row, `openSlots`): offered whole, at its start, whatever a service's length. */
  whole?: true
}

/**
 * A blocked period. Whole days from `from` to `to`, each between `start` and `end` (missing =
 * from the day's start / to its end). `exact`: one stretch of time instead, from `start` on
 * `from` to `end` on `to` (a datetime block: 2026-12-24 12:00 … 2026-12-24 18:00 is one
 * afternoon). Scope: `professional`, every professional at `location`, or (neither) everybody.
 */
export interface BlockRow {
  professional?: string
  location?: string
  from: string
  to: string
  start?: string
  end?: string
  exact?: boolean
  /** A recurring block (`repeat`): `from` (= `to`) is its first date, each date it falls on blocks `start`–`end`. */
  repeat?: Recurrence
  /** A recurring block whose rule cannot be read, blocking `start`–`end` on every day from its first date to its `until` (or on). */
  unreadable?: true
}

export interface CompiledPart<T> {
  statement: Statement
  read: (row: Row) => T | undefined
}

/** A part read for a closed range of dates. */
export interface RangedPart<T> extends CompiledPart<T> {
  bind: (range: DateRange) => Bound
}

/**
 * The rows of one professional (booking decides one slot: it reads that professional's hours,
 * not everybody's). The statement narrows by the professional's column; `read` is the whole
 * part's, and the caller still keeps only the rows whose id reads as the one asked for.
 * undefined: the id is one the column cannot hold, so no row is theirs.
 */
export interface ProfessionalPart<T> extends CompiledPart<T> {
  bind: (professional: string, range?: DateRange) => Bound | undefined
}

/**
 * Why a schedule row offers (or blocks) nothing: `ponte check` counts each kind. `unreached`:
 * the row reads, but the statement the server reads its source with never returns it. `rule`:
 * its `repeat` rule cannot be read (a block then blocks every day it could fall on).
 */
export type ScheduleFault = 'unreadable' | 'zero' | 'reversed' | 'unreached' | 'rule'

/**
 * A row of a schedule table as `ponte check` scans it: its id (from the key it was scanned
 * by), what is wrong with it, and (weekly rows) the weekday it is read as, 0 = Sunday.
 */
export interface ScheduleScanRow { id?: string, fault?: ScheduleFault, weekday?: number, oneDay?: true }

/** One source of working hours or blocked time, to be read whole. */
export interface ScheduleScan {
  /** The mapping place: `/availability/weekly`, `/availability/blocks/1`. */
  place: string
  kind: 'weekly' | 'dated' | 'blocks'
  /** For progress lines: `availability blocks[1]`. */
  what: string
  table: string
  /** Schedule tables have no key in the mapping: the database's primary key (none: rows are read by position). */
  plan: (key: ScanKey[]) => ScanPlan<ScheduleScanRow>
  /**
   * A block's `to` whose `nullIf` lists a real date after today (`9999-12-31`): rows holding
   * it read as no end, the one day `from`, where the clinic meant "never ends".
   */
  farSentinel?: { path: string, value: string }
  /** A recurring source whose `repeat.kind` is read by `extract`: the SQL cannot keep past one-off rows out, so each read takes every row up to its last day. */
  unnarrowed?: { path: string }
}

/** A `nullIf` entry that is a real calendar date after `today` (YYYY-MM-DD, YYYYMMDD or DD/MM/YYYY, any time after it). */
export function farFutureDate (v: unknown, today: string): string | undefined {
  const s = String(v).trim()
  const ymd = /^(\d{4})-?(\d{2})-?(\d{2})(?:[ T].*)?$/.exec(s)
  const dmy = /^(\d{2})[/.](\d{2})[/.](\d{4})(?:[ T].*)?$/.exec(s)
  const date = ymd ? `${ymd[1]}-${ymd[2]}-${ymd[3]}` : dmy ? `${dmy[3]}-${dmy[2]}-${dmy[1]}` : undefined
  return date !== undefined && isCalendarDate(date) && date > today ? date : undefined
}

/**
 * Offered starts: every `every` minutes (default the slot's length; `interval`: the window's
 * own row's) from the window's start and, with `afterBlocks`, from each block's end.
 */
export interface StartGrid { every?: number | 'interval', afterBlocks?: true }

export interface CompiledAvailability {
  slotMinutes: number
  /** Where starts fall (`availability.starts`): none given, every slot's length from the window's start. */
  starts: StartGrid
  /** Every template row (a small table, read whole). */
  weekly?: CompiledPart<WeeklyRow>
  /** One professional's template rows. */
  weeklyOf?: ProfessionalPart<WeeklyRow>
  /** Rows dated within a closed range. */
  dated?: RangedPart<DatedRow>
  /** One professional's rows dated within a closed range. */
  datedOf?: ProfessionalPart<DatedRow>
  /** Each block source, its rows overlapping a closed range. */
  blocks: RangedPart<BlockRow>[]
  statements: () => Statement[]
}

function ranged<T> (part: CompiledPart<T>, clock: StoredClock | undefined): RangedPart<T> {
  return { ...part, bind: (range) => ({ statement: part.statement, args: rangeArgs(range.from, range.to, clock) }) }
}

type Doc = NonNullable<MappingModel['availability']>
type BlockSourceDoc = Static<typeof BlockSource>
const PATH = '/availability'

export function compileAvailability (model: MappingModel, dialect: Dialect): CompiledAvailability | undefined {
  const doc = model.availability
  const open = model.appointment.openSlots
  // Open slots are the working hours: the free rows, read as appointments are (services/open-slots.ts).
  if (open && (doc?.weekly || doc?.dated)) throw new CompileError(`${PATH}/${doc.weekly ? 'weekly' : 'dated'}`, `with ${open.path} the free rows are the working hours: leave out \`weekly\` and \`dated\` (blocks still apply)`)
  if (!doc && !open) return undefined
  const professionalType = model.lookups.professional ? idType(model.lookups.professional.key) : 'int'
  // The columns appointments copy from the covering row are read with the hours, by every statement.
  const copies = hoursColumns(model)
  const weekly = doc?.weekly ? compileWeekly(doc.weekly, dialect, copies) : undefined
  const weeklyOf = doc?.weekly ? compileWeekly(doc.weekly, dialect, copies, professionalType) : undefined
  const datedClock = sourceClock(model, doc?.dated?.storedIn)
  const dated = doc?.dated ? ranged(compileDated(doc.dated, dialect, datedClock, copies), datedClock) : undefined
  const datedOf = doc?.dated ? compileDated(doc.dated, dialect, datedClock, copies, professionalType) : undefined
  // One source keeps the statement name it always had; a list numbers them.
  const sources = doc?.blocks === undefined ? [] : Array.isArray(doc.blocks) ? doc.blocks : [doc.blocks]
  const blocks = sources.map((b, i) => {
    const own = sourceClock(model, b.storedIn)
    return ranged(compileBlocks(b, Array.isArray(doc?.blocks) ? i : undefined, dialect, own), own)
  })
  if (!weekly && !dated && !open) throw new CompileError(PATH, 'availability needs working hours: `weekly`, `dated` or both')
  // Each row's own grid needs rows that say one; otherwise it would silently be `slotMinutes`.
  if (doc?.starts?.every === 'interval' && doc.weekly?.interval === undefined && doc.dated?.interval === undefined) throw new CompileError(`${PATH}/starts/every`, '`every: interval` steps by each hours row\'s `interval`: give `interval` (the row\'s grid column, e.g. `interval: INTERVALO`) on `weekly` or `dated`, or a number of minutes')
  return {
    slotMinutes: doc?.slotMinutes ?? DEFAULT_SLOT_MINUTES,
    starts: { ...(doc?.starts?.every !== undefined ? { every: doc.starts.every } : {}), ...(doc?.starts?.afterBlocks === true ? { afterBlocks: true } : {}) },
    weekly,
    dated,
    blocks,
    ...(weeklyOf ? { weeklyOf } : {}),
    ...(datedOf ? { datedOf } : {}),
    statements: () => [weekly, dated, ...blocks, weeklyOf, datedOf].flatMap((p) => p ? [p.statement] : [])
  }
}

// Each kind of row is read by one function, for the service (`full`: every field) and for
// `ponte check`'s scans (only what decides whether the row offers or blocks anything, so a
// scan selects what it always did); a row that cannot be used says why.

function weeklyRows (w: NonNullable<Doc['weekly']>, value: ValueOf, scope: Scope, cols: Columns, full: boolean, copies: HoursColumn[] = []): (row: Row) => WeeklyRow | ScheduleFault {
  const common = windowReaders({ ...w, path: `${PATH}/weekly` }, value, scope, cols, full, undefined, copies)
  const weekdayValue = value(w.weekday, 'weekday')
  const weekday = numberOf(weekdayValue, valueReader(weekdayValue, scope, cols))
  const dayOf = weekdayOf(w.weekdayBase ?? 0)
  // A validity bound that holds something unreadable is no bound: the row is unreadable.
  const validFrom = optional(maybe(value, w.validFrom, 'validFrom'), scope, cols, dateOf)
  const validTo = optional(maybe(value, w.validTo, 'validTo'), scope, cols, dateOf)
  return (row) => {
    const c = common(row)
    const n = weekday(row)
    const day = n === undefined ? undefined : dayOf(n)
    const from = validFrom(row)
    const to = validTo(row)
    if (day === undefined || from === null || to === null) return 'unreadable'
    if (typeof c === 'string') return c
    const out: WeeklyRow = { ...c, weekday: day }
    if (from !== undefined) out.validFrom = from
    if (to !== undefined) out.validTo = to
    return out
  }
}

function compileWeekly (w: NonNullable<Doc['weekly']>, dialect: Dialect, copies: HoursColumn[]): CompiledPart<WeeklyRow>
function compileWeekly (w: NonNullable<Doc['weekly']>, dialect: Dialect, copies: HoursColumn[], professionalType: SqlTypeName): ProfessionalPart<WeeklyRow>
function compileWeekly (w: NonNullable<Doc['weekly']>, dialect: Dialect, copies: HoursColumn[], professionalType?: SqlTypeName): CompiledPart<WeeklyRow> | ProfessionalPart<WeeklyRow> {
  const { scope, params, cols, value } = part(w, `${PATH}/weekly`, dialect)
  const read = weeklyRows(w, value, scope, cols, true, copies)
  const where = scope.where(params)
  const one = professionalType === undefined ? undefined : ofProfessional(value(w.professional, 'professional'), professionalType, scope, params, where)
  const compiled = {
    statement: select(one ? 'availability.weekly[professional]' : 'availability.weekly', dialect, w.table, scope, params, cols, where),
    read: (row: Row) => usable(read(row))
  }
  if (!one) return compiled
  return {
    ...compiled,
    bind (professional: string) {
      const args = one(professional)
      return args && { statement: compiled.statement, args }
    }
  }
}

/**
 * `professional = :professional` added to `where`; returns the input's binding (undefined:
 * an id the column cannot hold). Written as the appointment filters are (appointment.ts).
 */
function ofProfessional (v: Value, fallback: SqlTypeName, scope: Scope, params: ParamList, where: string[]): (id: string) => Record<string, unknown> | undefined {
  const type = v.type ?? fallback
  where.push(`${valueSql(v, scope, params)} = ${params.input('professional', type)}`)
  return (id) => matchesType(id, type) ? { professional: bindId(id, type) } : undefined
}

/** How rows of a source are read, and (sources read by date) the range its statement keeps them by. */
interface SourceRows<T> {
  read: (row: Row) => T | ScheduleFault
  range?: (scope: Scope, params: ParamList) => string[]
}

function datedRows (d: NonNullable<Doc['dated']>, path: string, value: ValueOf, scope: Scope, cols: Columns, full: boolean, clock: StoredClock | undefined, copies: HoursColumn[] = []): Required<SourceRows<DatedRow>> {
  const common = windowReaders({ ...d, path }, value, scope, cols, full, clock, copies)
  // Without `date`, the start is a datetime and says the day too.
  if (!d.date && !d.start) throw new CompileError(`${path}/date`, 'give the day: `date`, or a `start` stored as datetime')
  const dateValue = plainColumn(d.date ? value(d.date, 'date') : value(d.start as ValueDoc, 'start'))
  if (!d.date && dateValue.format !== 'datetime') throw new CompileError(`${path}/date`, 'give `date`, or a `start` stored as datetime (`format: datetime`)')
  const date = dateOf(dateValue, inClinicTime(valueReader(dateValue, scope, cols), clock))
  const repeat = d.repeat ? repeatRows(d.repeat, path, value, scope, cols, clock) : undefined
  return {
    read (row) {
      const c = common(row)
      const day = date(row)
      if (day === undefined) return 'unreadable'
      if (typeof c === 'string') return c
      const rule = recurrenceOf(repeat, row, day)
      return typeof rule === 'string' ? rule : { ...c, date: day, ...(rule ? { repeat: rule } : {}) }
    },
    range: (scope, params) => repeat ? recurringRange(dateValue, repeat, scope, params) : dateRange(dateValue, false, scope, params)
  }
}

/** A recurring row's rule (undefined: it is its first date alone), or why it offers nothing. */
function recurrenceOf (repeat: RepeatRows | undefined, row: Row, first: string): Recurrence | ScheduleFault | undefined {
  const rule = repeat?.read(row)
  if (rule === undefined || (typeof rule === 'object' && rule.kind === 'once')) return undefined
  if (rule === 'unreadable') return 'rule'
  // Ended before it began.
  return rule.until !== undefined && rule.until < first ? 'reversed' : rule
}

/** Rows starting by the range's last day, and in it or recurring into it (their `until` not before it). */
function recurringRange (first: Value, repeat: RepeatRows, scope: Scope, params: ParamList): string[] {
  const before = dateOnOrBefore(first, false, scope, params)
  const recurs = repeat.recursInto(scope, params)
  return recurs === undefined ? [before] : [before, `(${scope.dialect.or([dateOnOrAfter(first, false, scope, params), recurs])})`]
}

function compileDated (d: NonNullable<Doc['dated']>, dialect: Dialect, clock: StoredClock | undefined, copies: HoursColumn[]): CompiledPart<DatedRow>
function compileDated (d: NonNullable<Doc['dated']>, dialect: Dialect, clock: StoredClock | undefined, copies: HoursColumn[], professionalType: SqlTypeName): ProfessionalPart<DatedRow>
function compileDated (d: NonNullable<Doc['dated']>, dialect: Dialect, clock: StoredClock | undefined, copies: HoursColumn[], professionalType?: SqlTypeName): CompiledPart<DatedRow> | ProfessionalPart<DatedRow> {
  const path = `${PATH}/dated`
  const { scope, params, cols, value } = part(d, path, dialect)
  const { read, range } = datedRows(d, path, value, scope, cols, true, clock, copies)
  const where = [...scope.where(params), ...range(scope, params)]
  const one = professionalType === undefined ? undefined : ofProfessional(value(d.professional, 'professional'), professionalType, scope, params, where)
  const compiled = {
    statement: select(one ? 'availability.dated[professional]' : 'availability.dated', dialect, d.table, scope, params, cols, where),
    read: (row: Row) => usable(read(row))
  }
  if (!one) return compiled
  return {
    ...compiled,
    bind (professional: string, range?: DateRange) {
      const args = one(professional)
      if (!args || !range) return undefined
      return { statement: compiled.statement, args: { ...rangeArgs(range.from, range.to, clock), ...args } }
    }
  }
}

/** A block row, or why it blocks nothing: its days or hours cannot be read, or end before they start. */
function blockRows (b: BlockSourceDoc, path: string, value: ValueOf, scope: Scope, cols: Columns, full: boolean, clock: StoredClock | undefined): Required<SourceRows<BlockRow>> & { oneDay: (row: Row) => boolean } {
  const id = (v: ValueDoc | undefined, field: string): Decoder<string> => full && v ? idOf(valueReader(value(v, field), scope, cols)) : () => undefined
  const professional = id(b.professional, 'professional')
  const location = id(b.location, 'location')
  const fromValue = plainColumn(value(b.from, 'from'))
  const toValue = b.to ? plainColumn(value(b.to, 'to')) : undefined
  // Datetime bounds block exactly the time between them; date bounds whole days (or hours of each).
  const exact = fromValue.format === 'datetime'
  if (toValue && (toValue.format === 'datetime') !== exact) throw new CompileError(`${path}/to`, '`from` and `to` must both be dates or both datetimes')
  if (toValue?.inclusive === true && !exact) throw new CompileError(`${path}/to/inclusive`, 'a date `to` already includes its whole day: `inclusive` goes on a datetime `to`, or on `end`')
  if (exact && (b.start || b.end)) throw new CompileError(`${path}/${b.start ? 'start' : 'end'}`, 'datetime bounds carry their hours: `start`/`end` go with date bounds')
  // A recurring block is one day each time: its first date, and hours on each date.
  if (b.repeat && toValue) throw new CompileError(`${path}/to`, 'with `repeat` each date the block falls on is one day (its `start`–`end`, or the whole day): the last date goes in `repeat.until`; leave out `to`')
  if (b.repeat && exact) throw new CompileError(`${path}/from`, 'with `repeat`, `from` is the first date (a date, not a datetime): give the hours as `start` and `end`')
  const repeat = b.repeat ? repeatRows(b.repeat, path, value, scope, cols, clock) : undefined
  // Datetime bounds are instants, read on the clinic's clock (`storedIn`); whole days are calendar days.
  const at = exact ? clock : undefined
  const from = dateOf(fromValue, inClinicTime(valueReader(fromValue, scope, cols), at))
  const to = optional(toValue, scope, cols, dateOf, at)
  // A datetime's hours are its own (a date typed into a datetime column has none: the whole day).
  const start = exact ? hourOf(fromValue, inClinicTime(valueReader(fromValue, scope, cols), at)) : optional(maybe(value, b.start, 'start'), scope, cols, hourOf)
  const end = exact ? (toValue ? hourOf(toValue, inClinicTime(valueReader(toValue, scope, cols), at)) : () => undefined) : optional(maybe(value, b.end, 'end'), scope, cols, hourOf)
  const read = (row: Row): BlockRow | ScheduleFault => {
    const first = from(row)
    const last = to(row)
    const s = start(row)
    const e = end(row)
    if (first === undefined || last === null || s === null || e === null) return 'unreadable'
    // A blank `to` is the one day `from`.
    if (last !== undefined && last < first) return 'reversed'
    const out: BlockRow = { from: first, to: last ?? first }
    const p = professional(row)
    const l = location(row)
    if (p !== undefined) out.professional = p
    if (l !== undefined) out.location = l
    if (s !== undefined) out.start = s
    // A datetime block without an end runs to the end of its day.
    if (e !== undefined && !(exact && last === undefined)) out.end = e
    if (exact) out.exact = true
    const rule = recurrenceOf(repeat, row, first)
    // Fails closed: a block nobody can read may fall on any day from its first to its `until`.
    if (rule === 'rule' && full) return { ...out, to: repeat?.until(row) ?? EVERY_DATE.to, unreadable: true }
    if (typeof rule === 'string') return rule
    if (rule) out.repeat = rule
    return out
  }
  // Rows with a `to` column that reads as none: each blocks only its `from` day.
  const oneDay = (row: Row): boolean => toValue !== undefined && to(row) === undefined
  // Overlaps [from, to]: starts on or before `to`, and ends on or after `from` or has no end
  // the reader can tell (then it is the one day `from`; the reader decides, the SQL keeps the
  // candidates). A datetime compares with [first day 00:00, day after the last), as
  // appointment starts do.
  const range = (scope: Scope, params: ParamList): string[] => toValue
    ? [dateOnOrBefore(fromValue, false, scope, params), `(${scope.dialect.or([dateOnOrAfter(toValue, false, scope, params), dateUnset(toValue, false, scope, params)])})`]
    : repeat ? recurringRange(fromValue, repeat, scope, params) : [dateOnOrBefore(fromValue, false, scope, params), dateOnOrAfter(fromValue, false, scope, params)]
  return { read, range, oneDay }
}

function compileBlocks (b: BlockSourceDoc, index: number | undefined, dialect: Dialect, clock: StoredClock | undefined): CompiledPart<BlockRow> {
  const path = index === undefined ? `${PATH}/blocks` : `${PATH}/blocks/${index}`
  const { scope, params, cols, value } = part(b, path, dialect)
  const { read, range } = blockRows(b, path, value, scope, cols, true, clock)
  const where = [...scope.where(params), ...range(scope, params)]
  return {
    statement: select(index === undefined ? 'availability.blocks' : `availability.blocks[${index}]`, dialect, b.table, scope, params, cols, where),
    read: (row) => usable(read(row))
  }
}

/**
 * Hours that block nothing: a block whose end is its start, or before it (a datetime block
 * from midnight to the same midnight is a whole day; one over several days always blocks).
 */
function blockHours (b: BlockRow): ScheduleFault | undefined {
  if (b.start === undefined || b.end === undefined || (b.exact === true && b.to > b.from)) return undefined
  if (b.exact === true && b.start === '00:00' && b.end === '00:00') return undefined
  // Hours of each day end at 00:00 as working hours do (endMinutesOf); a datetime's end is its own.
  const length = (b.exact === true ? minutesOfHour(b.end) : endMinutesOf(b.start, b.end)) - minutesOfHour(b.start)
  return length === 0 ? 'zero' : length < 0 ? 'reversed' : undefined
}

const usable = <T>(r: T | ScheduleFault): T | undefined => typeof r === 'string' ? undefined : r

/** Every source of working hours and blocks, each read whole by `ponte check` (see ScheduleScan). */
export function scheduleScans (model: MappingModel, dialect: Dialect): ScheduleScan[] {
  const doc = model.availability
  if (!doc) return []
  type Faults = (path: string, value: ValueOf, scope: Scope, cols: Columns) => { fault: (row: Row) => ScheduleFault | undefined, range?: SourceRows<unknown>['range'], weekday?: (row: Row) => number | undefined, oneDay?: (row: Row) => boolean }
  const sources: { place: string, kind: ScheduleScan['kind'], doc: PartDoc, faults: Faults, clock?: StoredClock, farSentinel?: ScheduleScan['farSentinel'] }[] = []
  const today = todayIn(model.timezone)
  const weekly = doc.weekly
  const dated = doc.dated
  if (weekly) {
    sources.push({
      place: `${PATH}/weekly`,
      kind: 'weekly',
      doc: weekly,
      faults: (_, ...r) => {
        const read = weeklyRows(weekly, ...r, false)
        return { fault: faultOf(read), weekday: (row) => { const w = read(row); return typeof w === 'string' ? undefined : w.weekday } }
      }
    })
  }
  if (dated) {
    const clock = sourceClock(model, dated.storedIn)
    sources.push({
      place: `${PATH}/dated`,
      kind: 'dated',
      doc: dated,
      clock,
      faults: (path, ...r) => { const rows = datedRows(dated, path, ...r, false, clock); return { fault: faultOf(rows.read), range: rows.range } }
    })
  }
  const blocks = doc.blocks === undefined ? [] : Array.isArray(doc.blocks) ? doc.blocks : [doc.blocks]
  blocks.forEach((b, i) => {
    const clock = sourceClock(model, b.storedIn)
    const place = Array.isArray(doc.blocks) ? `${PATH}/blocks/${i}` : `${PATH}/blocks`
    const nullIf = typeof b.to === 'object' && b.to !== null && 'nullIf' in b.to && Array.isArray(b.to.nullIf) ? b.to.nullIf : []
    const far = nullIf.map((v, k) => ({ k, value: farFutureDate(v, today) })).find((f) => f.value !== undefined)
    sources.push({
      place,
      kind: 'blocks',
      doc: b,
      clock,
      ...far ? { farSentinel: { path: `${place}/to/nullIf/${far.k}`, value: String(nullIf[far.k]) } } : {},
      faults: (path, ...r) => { const rows = blockRows(b, path, ...r, false, clock); return { fault: faultOf(rows.read, blockHours), range: rows.range, oneDay: rows.oneDay } }
    })
  })
  return sources.map(({ place, kind, doc: source, faults, clock, farSentinel }) => {
    const what = `availability ${place.split('/').slice(2).join(' ').replace(/ (\d+)$/, '[$1]')}`
    const repeatKind = (source as { repeat?: { kind?: unknown } }).repeat?.kind
    const extracted = typeof repeatKind === 'object' && repeatKind !== null && 'extract' in repeatKind
    return {
      place,
      kind,
      what,
      ...farSentinel ? { farSentinel } : {},
      ...extracted ? { unnarrowed: { path: `${place}/repeat/kind` } } : {},
      table: source.table,
      plan: (key) => scanPlan(dialect, what, sourceOf(source, place), key, `${place}/table`, (scope, params, cols) => {
        const ids = key.map((k) => idOf((row) => row[cols.add(scope.ref(k.column, `${place}/table`))]))
        const { fault, range, weekday, oneDay } = faults(place, (v, field) => toValue(v, `${place}/${field}`), scope, cols)
        // The server's own date filter, asked about every date a reader reads: a row it never
        // returns offers (or blocks) nothing, however well it reads.
        const reached = range && cols.add(dialect.caseWhen([{ when: dialect.and(range(scope, params)), then: '1' }], '0'))
        return (row) => {
          const out: ScheduleScanRow = {}
          if (key.length > 0) out.id = ids.map((read) => read(row) ?? '').join('-')
          const f = fault(row) ?? (reached !== undefined && Number(row[reached]) !== 1 ? 'unreached' : undefined)
          if (f !== undefined) out.fault = f
          const day = f === undefined ? weekday?.(row) : undefined
          if (day !== undefined) out.weekday = day
          if (f === undefined && oneDay?.(row) === true) out.oneDay = true
          return out
        }
      }, rangeArgs(EVERY_DATE.from, EVERY_DATE.to, clock))
    }
  })
}

/** What is wrong with a row, if anything (`more`: what else can be wrong with a usable one). */
function faultOf<T extends object> (read: (row: Row) => T | ScheduleFault, more: (r: T) => ScheduleFault | undefined = () => undefined): (row: Row) => ScheduleFault | undefined {
  return (row) => {
    const r = read(row)
    return typeof r === 'string' ? r : more(r)
  }
}

// ---- shared pieces ----

interface PartDoc { table: string, where?: WhereDoc, joins?: Record<string, JoinDoc> }
type ValueOf = (v: ValueDoc, field: string) => Value

const sourceOf = (doc: PartDoc, path: string): ScopeSource => ({ table: doc.table, joins: doc.joins ?? {}, where: whereList(doc.where), path })

function part (doc: PartDoc, path: string, dialect: Dialect): { scope: Scope, params: ParamList, cols: Columns, value: ValueOf } {
  const scope = new Scope(dialect, sourceOf(doc, path), 't')
  return { scope, params: new ParamList(dialect), cols: new Columns(), value: (v, field) => toValue(v, `${path}/${field}`) }
}

const maybe = (value: ValueOf, v: ValueDoc | undefined, field: string): Value | undefined => v === undefined ? undefined : value(v, field)

// The availability block is kept as written in the model; its values are expanded here,
// by the same rule as every other value of the mapping.
function toValue (v: ValueDoc, path: string): Value {
  const { value, problem, at } = asValue(v, path)
  if (problem) throw new CompileError(at ?? path, problem)
  return value
}

// A date range is compiled over the column itself: DD/MM/YYYY text (`dmy`) is rearranged
// in SQL as appointment dates are (date-range.ts), which costs its index but filters alike.
function plainColumn (v: Value): Value {
  if (v.column === undefined || !['date', 'datetime', 'text', 'int', 'dmy', 'ymd', undefined].includes(v.format)) {
    throw new CompileError(v.path, 'must be a plain `column` stored as date, datetime, text (YYYY-MM-DD), dmy (DD/MM/YYYY) or int (YYYYMMDD), so date ranges can be compiled to SQL')
  }
  return v
}

type WindowDoc = Pick<NonNullable<Doc['dated']>, 'professional' | 'location' | 'start' | 'end' | 'interval' | 'pattern'> & { path: string }

/**
 * professional, location, start, end and interval (`full`; else only what says whether the row
 * offers anything): what weekly and dated rows share; and, `full`, the columns appointments copy
 * (`copies`: a column of the source or of its joins, named at the copy's place).
 */
function windowReaders (doc: WindowDoc, value: ValueOf, scope: Scope, cols: Columns, full: boolean, clock?: StoredClock, copies: HoursColumn[] = []): (row: Row) => Omit<DatedRow, 'date'> | ScheduleFault {
  const professional = idOf(valueReader(value(doc.professional, 'professional'), scope, cols))
  const copied = full ? copies.map((c) => ({ name: c.name, read: columnGetter(cols.add(scope.ref(c.name, c.path))) })) : []
  const location = full && doc.location ? idOf(valueReader(value(doc.location, 'location'), scope, cols)) : () => undefined
  const hour = (field: 'start' | 'end'): Decoder<string> | undefined => {
    const d = doc[field]
    if (d === undefined) return undefined
    const v = value(d, field)
    return hourOf(v, inClinicTime(valueReader(v, scope, cols), clock))
  }
  const pattern = doc.pattern
  if (!pattern && (!doc.start || !doc.end)) throw new CompileError(`${doc.path}/${doc.start ? 'end' : 'start'}`, 'give `start` and `end`, or a `pattern`')
  if (pattern && doc.interval) throw new CompileError(`${doc.path}/interval`, 'a `pattern` says its own slot length: leave out `interval`')
  if (pattern?.bookable !== undefined && pattern.closed !== undefined) throw new CompileError(`${doc.path}/pattern`, 'give `bookable` or `closed`, not both')
  for (const [service, codes] of Object.entries(pattern?.services ?? {})) {
    // A code that is never bookable would offer the service nothing there: a mistyped code.
    const never = [...codes].filter((c) => pattern?.bookable !== undefined ? !pattern.bookable.includes(c) : (pattern?.closed ?? '_').includes(c))
    if (never.length > 0) throw new CompileError(`${doc.path}/pattern/services/${service}`, `${never.map((c) => `'${c}'`).join(', ')} ${never.length === 1 ? 'is' : 'are'} never bookable (see \`${pattern?.bookable !== undefined ? 'bookable' : 'closed'}\`): give the characters whose slots take service ${service}`)
  }
  // A pattern without hours is the whole day, from midnight to midnight.
  const start = hour('start') ?? (() => '00:00')
  const end = hour('end')
  const codes = pattern ? valueReader(value(pattern.codes, 'pattern/codes'), scope, cols) : undefined
  const intervalValue = full && doc.interval ? value(doc.interval, 'interval') : undefined
  const interval = intervalValue ? minutesOf(intervalValue, valueReader(intervalValue, scope, cols)) : () => undefined
  const sameDay = datetimesOnOneDay(doc, value, scope, cols, clock)
  return (row) => {
    const p = professional(row)
    const s = start(row)
    const e = end?.(row)
    // Unreadable rows offer nothing (`ponte check` is where clinic IT sees them).
    if (p === undefined || s === undefined || (end !== undefined && e === undefined)) return 'unreadable'
    // An end earlier than the start is the next day's (a night shift), unless its own date says otherwise.
    if (e !== undefined && e < s && sameDay?.(row) === true) return 'reversed'
    const out: Omit<DatedRow, 'date'> = { professional: p, start: s, end: e ?? '00:00' }
    if (e !== undefined) {
      const length = endMinutesOf(s, e) - minutesOfHour(s)
      if (length <= 0) return length === 0 ? 'zero' : 'reversed'
    }
    if (pattern && codes) {
      const day = readDayPattern(codes(row), minutesOfHour(s), e === undefined ? undefined : endMinutesOf(s, e), pattern)
      if (!day) return 'unreadable'
      out.end = addMinutes('00:00', day.end % MINUTES_PER_DAY) ?? out.end
      out.interval = day.interval
      out.bookable = day.bookable
    }
    const l = location(row)
    const i = interval(row)
    if (l !== undefined) out.location = l
    if (i !== undefined) out.interval = i
    if (copied.length > 0) out.copies = Object.fromEntries(copied.map((c) => [c.name, c.read(row) ?? null]))
    return out
  }
}

const MINUTES_PER_DAY = 24 * 60

/** Where start and end are both datetimes: whether a row's two are on one date (undefined where either cannot be read). */
function datetimesOnOneDay (doc: WindowDoc, value: ValueOf, scope: Scope, cols: Columns, clock?: StoredClock): ((row: Row) => boolean | undefined) | undefined {
  if (doc.start === undefined || doc.end === undefined) return undefined
  const [s, e] = [value(doc.start, 'start'), value(doc.end, 'end')]
  if (s.format !== 'datetime' || e.format !== 'datetime') return undefined
  const [first, last] = [s, e].map((v) => dateOf(v, inClinicTime(valueReader(v, scope, cols), clock), 'datetime'))
  return (row) => {
    const a = first(row)
    const b = last(row)
    return a === undefined || b === undefined ? undefined : a === b
  }
}

/**
 * A value that may be left blank: undefined when it is (NULL, a `nullIf` sentinel, spaces),
 * null when it holds something that cannot be read (a bound nobody can tell is no bound).
 */
function optional<T> (v: Value | undefined, scope: Scope, cols: Columns, decode: (v: Value, read: Reader) => Decoder<T>, clock?: StoredClock): (row: Row) => T | undefined | null {
  if (v === undefined) return () => undefined
  const raw = valueReader(v, scope, cols)
  const read = decode(v, inClinicTime(raw, clock))
  return (row) => {
    const x = read(row)
    return x !== undefined ? x : isBlank(raw(row)) ? undefined : null
  }
}

function select (name: string, dialect: Dialect, table: string, scope: Scope, params: ParamList, cols: Columns, where: string[]): Statement {
  return {
    name,
    sql: dialect.select({ columns: cols.list, from: { table: dialect.table(table), alias: 't' }, joins: scope.joins(params), where, orderBy: [] }),
    params: params.params
  }
}

const isBlank = (x: unknown): boolean => x === null || x === undefined || (typeof x === 'string' && x.trim() === '')
