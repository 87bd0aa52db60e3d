// Availability: the professionals' working hours (a weekly template and/or dated schedule
// rows) and the blocks cut out of them, compiled once into three statements and typed row
// readers. The slot arithmetic lives in services/availability.ts; here is only reading.
import type { Dialect } from '../../sql/dialect.js'
import { ParamList, type Statement } from '../../sql/statement.js'
import type { MappingModel, Value } from '../model.js'
import { asValue, whereList } from '../model.js'
import type { Static } from 'typebox'
import type { BlockSource, JoinDoc, ValueDoc, WhereDoc } from '../schema.js'
import { dateOnOrAfter, dateOnOrBefore, dateRange, rangeArgs } from './appointment.js'
import type { Bound, DateRange } from './bind.js'
import { dateOf, hourOf, idOf, minutesOf, numberOf, type Decoder } from './decode.js'
import type { Row } from './entity.js'
import { CompileError, Scope } from './scope.js'
import { Columns, valueReader, valueSql } from './value.js'

export const DEFAULT_SLOT_MINUTES = 30

/** One row of the weekly template: `weekday` 0 = Sunday … 6 = Saturday, whatever the stored base. */
export interface WeeklyRow {
  professional: string
  location?: string
  weekday: number
  start: string
  end: string
  interval?: number
  validFrom?: string
  validTo?: string
}

/** One dated schedule row: the professional works `date` from `start` to `end`. */
export interface DatedRow {
  professional: string
  location?: string
  date: string
  start: string
  end: string
  interval?: number
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
}

export interface CompiledPart<T> {
  statement: Statement
  read: (row: Row) => T | undefined
}

/** A part read for a closed range of dates. */
export interface RangedPart<T> extends CompiledPart<T> {
  bind: (range: DateRange) => Bound
}

export interface CompiledAvailability {
  slotMinutes: number
  /** Every template row (a small table, read whole). */
  weekly?: CompiledPart<WeeklyRow>
  /** Rows dated within a closed range. */
  dated?: RangedPart<DatedRow>
  /** Each block source, its rows overlapping a closed range. */
  blocks: RangedPart<BlockRow>[]
  statements: () => Statement[]
}

function ranged<T> (part: CompiledPart<T>): RangedPart<T> {
  return { ...part, bind: (range) => ({ statement: part.statement, args: rangeArgs(range.from, range.to) }) }
}

type Doc = NonNullable<MappingModel['availability']>
type BlockSourceDoc = Static<typeof BlockSource>
const PATH = '/availability'

export function compileAvailability (model: MappingModel, dialect: Dialect): CompiledAvailability | undefined {
  const doc = model.availability
  if (!doc) return undefined
  const weekly = doc.weekly ? compileWeekly(doc.weekly, dialect) : undefined
  const dated = doc.dated ? ranged(compileDated(doc.dated, dialect)) : undefined
  // One source keeps the statement name it always had; a list numbers them.
  const sources = doc.blocks === undefined ? [] : Array.isArray(doc.blocks) ? doc.blocks : [doc.blocks]
  const blocks = sources.map((b, i) => ranged(compileBlocks(b, Array.isArray(doc.blocks) ? i : undefined, dialect)))
  if (!weekly && !dated) throw new CompileError(PATH, 'availability needs working hours: `weekly`, `dated` or both')
  return {
    slotMinutes: doc.slotMinutes ?? DEFAULT_SLOT_MINUTES,
    weekly,
    dated,
    blocks,
    statements: () => [weekly, dated, ...blocks].flatMap((p) => p ? [p.statement] : [])
  }
}

function compileWeekly (w: NonNullable<Doc['weekly']>, dialect: Dialect): CompiledPart<WeeklyRow> {
  const path = `${PATH}/weekly`
  const { scope, params, cols, value } = part(w, path, dialect)
  const common = windowReaders(w, value, scope, cols)
  const weekdayValue = value(w.weekday, 'weekday')
  const weekday = numberOf(weekdayValue, valueReader(weekdayValue, scope, cols))
  const base = w.weekdayBase ?? 0
  const validFrom = optionalDate(w.validFrom, 'validFrom', value, scope, cols)
  const validTo = optionalDate(w.validTo, 'validTo', value, scope, cols)
  const where = scope.where(params)
  return {
    statement: select('availability.weekly', dialect, w.table, scope, params, cols, where),
    read (row) {
      const c = common(row)
      const n = weekday(row)
      if (!c || n === undefined || !Number.isInteger(n - base) || n - base < 0 || n - base > 6) return undefined
      const out: WeeklyRow = { ...c, weekday: n - base }
      const from = validFrom(row)
      const to = validTo(row)
      if (from !== undefined) out.validFrom = from
      if (to !== undefined) out.validTo = to
      return out
    }
  }
}

function compileDated (d: NonNullable<Doc['dated']>, dialect: Dialect): CompiledPart<DatedRow> {
  const path = `${PATH}/dated`
  const { scope, params, cols, value } = part(d, path, dialect)
  const common = windowReaders(d, value, scope, cols)
  // Without `date`, the start is a datetime and says the day too.
  const dateValue = plainColumn(d.date ? value(d.date, 'date') : value(d.start, 'start'))
  if (!d.date && dateValue.format !== 'datetime') throw new CompileError(`${path}/date`, 'give `date`, or a `start` stored as datetime (`format: datetime`)')
  const date = dateOf(dateValue, valueReader(dateValue, scope, cols))
  const where = [...scope.where(params), ...dateRange(dateValue, false, scope, params)]
  return {
    statement: select('availability.dated', dialect, d.table, scope, params, cols, where),
    read (row) {
      const c = common(row)
      const day = date(row)
      return c && day !== undefined ? { ...c, date: day } : undefined
    }
  }
}

function compileBlocks (b: BlockSourceDoc, index: number | undefined, dialect: Dialect): CompiledPart<BlockRow> {
  const path = index === undefined ? `${PATH}/blocks` : `${PATH}/blocks/${index}`
  const { scope, params, cols, value } = part(b, path, dialect)
  const id = (v: ValueDoc | undefined, field: string): Decoder<string> => v ? idOf(valueReader(value(v, field), scope, cols)) : () => undefined
  const professional = id(b.professional, 'professional')
  const location = id(b.location, 'location')
  const fromValue = plainColumn(value(b.from, 'from'))
  const toValue = b.to ? plainColumn(value(b.to, 'to')) : undefined
  // Datetime bounds block exactly the time between them; date bounds whole days (or hours of each).
  const exact = fromValue.format === 'datetime'
  if (toValue && (toValue.format === 'datetime') !== exact) throw new CompileError(`${path}/to`, '`from` and `to` must both be dates or both datetimes')
  if (exact && (b.start || b.end)) throw new CompileError(`${path}/${b.start ? 'start' : 'end'}`, 'datetime bounds carry their hours: `start`/`end` go with date bounds')
  const from = dateOf(fromValue, valueReader(fromValue, scope, cols))
  const toRaw = toValue ? valueReader(toValue, scope, cols) : () => undefined
  const to = toValue ? dateOf(toValue, toRaw) : () => undefined
  const start = exact ? hourOf(fromValue, valueReader(fromValue, scope, cols)) : optionalHour(b.start, 'start', value, scope, cols)
  const end = exact && toValue ? hourOf(toValue, valueReader(toValue, scope, cols)) : optionalHour(b.end, 'end', value, scope, cols)
  // Overlaps [from, to]: starts on or before `to`, and ends on or after `from` (or has no end,
  // then it is the one day `from`; the reader decides, the SQL only keeps the candidates).
  // A datetime compares with [first day 00:00, day after the last), as appointment starts do.
  const where = [...scope.where(params), dateOnOrBefore(fromValue, false, scope, params)]
  if (toValue) {
    where.push(`(${scope.dialect.or([dateOnOrAfter(toValue, false, scope, params), scope.dialect.isNull(valueSql(toValue, scope, params))])})`)
  } else {
    where.push(dateOnOrAfter(fromValue, false, scope, params))
  }
  return {
    statement: select(index === undefined ? 'availability.blocks' : `availability.blocks[${index}]`, dialect, b.table, scope, params, cols, where),
    read (row) {
      const first = from(row)
      // NULL `to` is the one day `from`; a `to` that holds something unreadable makes the row unreadable.
      const open = isBlank(toRaw(row))
      const last = open ? first : to(row)
      if (first === undefined || last === undefined || last < first) return undefined
      const out: BlockRow = { from: first, to: last }
      const p = professional(row)
      const l = location(row)
      const s = start(row)
      // A datetime block without an end runs to the end of its day.
      const e = exact && open ? undefined : end(row)
      if (p !== undefined) out.professional = p
      if (l !== undefined) out.location = l
      if (s !== undefined) out.start = s
      if (e !== undefined) out.end = e
      if (exact) out.exact = true
      return out
    }
  }
}

// ---- shared pieces ----

interface PartDoc { table: string, where?: WhereDoc, joins?: Record<string, JoinDoc> }
type ValueOf = (v: ValueDoc, field: string) => Value

function part (doc: PartDoc, path: string, dialect: Dialect): { scope: Scope, params: ParamList, cols: Columns, value: ValueOf } {
  const scope = new Scope(dialect, { table: doc.table, joins: doc.joins ?? {}, where: whereList(doc.where), path }, 't')
  return { scope, params: new ParamList(dialect), cols: new Columns(), value: (v, field) => toValue(v, `${path}/${field}`) }
}

// The availability block is kept as written in the model; its values are expanded here,
// by the same rule as every other value of the mapping.
function toValue (v: ValueDoc, path: string): Value {
  const { value, problem } = asValue(v, path)
  if (problem) throw new CompileError(path, problem)
  return value
}

function plainColumn (v: Value): Value {
  if (v.column === undefined || !['date', 'datetime', 'text', 'int', undefined].includes(v.format)) {
    throw new CompileError(v.path, 'must be a plain `column` stored as date, datetime, text (YYYY-MM-DD) or int (YYYYMMDD), so date ranges can use its index')
  }
  return v
}

type WindowDoc = Pick<NonNullable<Doc['dated']>, 'professional' | 'location' | 'start' | 'end' | 'interval'>

/** professional, location, start, end and interval: what weekly and dated rows share. */
function windowReaders (doc: WindowDoc, value: ValueOf, scope: Scope, cols: Columns): Decoder<Omit<DatedRow, 'date'>> {
  const professional = idOf(valueReader(value(doc.professional, 'professional'), scope, cols))
  const location = doc.location ? idOf(valueReader(value(doc.location, 'location'), scope, cols)) : () => undefined
  const start = optionalHour(doc.start, 'start', value, scope, cols)
  const end = optionalHour(doc.end, 'end', value, scope, cols)
  const intervalValue = doc.interval ? value(doc.interval, 'interval') : undefined
  const interval = intervalValue ? minutesOf(intervalValue, valueReader(intervalValue, scope, cols)) : () => undefined
  return (row) => {
    const p = professional(row)
    const s = start(row)
    const e = end(row)
    // Unreadable rows offer nothing (`ponte check` is where clinic IT sees them).
    if (p === undefined || s === undefined || e === undefined || e <= s) return undefined
    const out: Omit<DatedRow, 'date'> = { professional: p, start: s, end: e }
    const l = location(row)
    const i = interval(row)
    if (l !== undefined) out.location = l
    if (i !== undefined) out.interval = i
    return out
  }
}

function optionalHour (v: ValueDoc | undefined, field: string, value: ValueOf, scope: Scope, cols: Columns): Decoder<string> {
  if (v === undefined) return () => undefined
  const val = value(v, field)
  return hourOf(val, valueReader(val, scope, cols))
}

function optionalDate (v: ValueDoc | undefined, field: string, value: ValueOf, scope: Scope, cols: Columns): Decoder<string> {
  if (v === undefined) return () => undefined
  const val = value(v, field)
  return dateOf(val, valueReader(val, scope, cols))
}

function select (name: string, dialect: Dialect, table: string, scope: Scope, params: ParamList, cols: Columns, where: string[]): Statement {
  return {
    name,
    sql: dialect.select({ columns: cols.list, from: { table: dialect.table(table), alias: 't' }, joins: scope.joins(params), where, orderBy: [] }),
    params: params.params
  }
}

const isBlank = (x: unknown): boolean => x === null || x === undefined || (typeof x === 'string' && x.trim() === '')
