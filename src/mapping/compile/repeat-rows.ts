// `repeat` on dated working hours and block sources: the rule one stored row stands for, read
// from its columns (services/slots.ts works out its dates for the range asked), and the SQL
// keeping the rows that can fall in a range although their first date is before it.
import type { ParamList } from '../../sql/statement.js'
import type { RepeatDoc, ValueDoc } from '../schema.js'
import { isTextType, type Value } from '../model.js'
import { isCalendarDate } from '../../normalise/datetime.js'
import { LAST, REPEAT_KINDS, REPEAT_UNITS, type Recurrence, type RepeatKind, type RepeatUnit } from '../../normalise/recurrence.js'
import { overlong } from '../extract.js'
import { conditionSql } from './condition.js'
import { dateOnOrAfter, dateUnset } from './date-range.js'
import { dateOf, numberOf, type Decoder } from './decode.js'
import type { Row } from './entity.js'
import { CompileError, type Scope } from './scope.js'
import { inClinicTime, type StoredClock } from './stored-clock.js'
import { valueReader, type Columns, type Reader } from './value.js'
import { weekdayOf } from './weekday-base.js'

/** A rule's parts past reading sense (`every: 400000`) are a sloppy row, not a schedule. */
const MOST = 1000

export interface RepeatRows {
  /** The row's rule (once: no rule, the row is its own date), or 'unreadable'. */
  read: (row: Row) => Recurrence | 'unreadable'
  /** The row's `until` where it reads, whether or not its rule does. */
  until: (row: Row) => string | undefined
  /**
   * SQL holding for a row that may fall on a date after its first (bound with the range's
   * inputs): it recurs, and its `until` is not before the range. undefined: any row may.
   */
  recursInto: (scope: Scope, params: ParamList) => string | undefined
}

type ValueOf = (v: ValueDoc, field: string) => Value

/** `path`: the source's (`/availability/dated`); `value` compiles its values at their places. */
export function repeatRows (doc: RepeatDoc, path: string, value: ValueOf, scope: Scope, cols: Columns, clock: StoredClock | undefined): RepeatRows {
  const at = `${path}/repeat`
  const field = (v: ValueDoc | undefined, name: string): Value | undefined => v === undefined ? undefined : value(v, `repeat/${name}`)
  const kindValue = field(doc.kind, 'kind') as Value
  const kinds = possible(kindValue, REPEAT_KINDS, `${at}/kind`)
  const needs = (kind: RepeatKind, name: keyof RepeatDoc): void => {
    if (kinds.includes(kind) && doc[name] === undefined) throw new CompileError(`${at}/${name}`, `rows can be \`${kind}\` (see \`kind\`): give \`${name}\``)
  }
  needs('every', 'unit')
  needs('nth', 'nth')
  needs('nth', 'weekday')
  needs('weekdays', 'weekdays')
  const unitValue = field(doc.unit, 'unit')
  if (unitValue) possible(unitValue, REPEAT_UNITS, `${at}/unit`)

  const read = (v: Value | undefined): Reader => v === undefined ? () => undefined : valueReader(v, scope, cols)
  const kind = textOf(read(kindValue))
  const count = (v: Value | undefined): Decoder<number> => {
    if (v === undefined) return () => 1
    const n = numberOf(v, read(v))
    return (row) => { const x = n(row); return x !== undefined && Number.isInteger(x) && x >= 1 && x <= MOST ? x : undefined }
  }
  const every = count(field(doc.every, 'every'))
  const months = count(field(doc.months, 'months'))
  const weeks = count(field(doc.weeks, 'weeks'))
  const unit = textOf(read(unitValue))
  const nth = textOf(read(field(doc.nth, 'nth')))
  const weekdayValue = field(doc.weekday, 'weekday')
  const weekday = weekdayValue === undefined ? () => undefined : numberOf(weekdayValue, read(weekdayValue))
  const dayOf = weekdayOf(doc.weekdayBase ?? 0)
  const weekdays = textOf(read(field(doc.weekdays, 'weekdays')))
  const dayOfList = weekdayOf(doc.weekdaysBase ?? 0)
  const untilValue = field(doc.until, 'until')
  const untilRaw = read(untilValue)
  const until = untilValue === undefined ? () => undefined : dateOf(untilValue, inClinicTime(untilRaw, untilValue.format === 'datetime' ? clock : undefined))
  const except = textOf(read(field(doc.except, 'except')))
  // A text longer than `extract` searches may hide what it would have found (the end of a long exdate list).
  const cut = [kindValue, unitValue, field(doc.every, 'every'), field(doc.months, 'months'), field(doc.nth, 'nth'), weekdayValue, field(doc.weekdays, 'weekdays'), field(doc.except, 'except')]
    .filter((v): v is Value => v?.extract !== undefined && v.column !== undefined)
    .map((v) => valueReader({ column: v.column, path: v.path }, scope, cols))

  const rule = (row: Row, k: RepeatKind): Recurrence | undefined => {
    switch (k) {
      case 'once': return { kind: 'once' }
      case 'every': {
        const n = every(row)
        const u = unit(row)?.toLowerCase()
        return n === undefined || !isUnit(u) ? undefined : { kind: 'every', every: n, unit: u }
      }
      case 'nth': {
        const m = months(row)
        const which = nthOf(nth(row))
        const w = weekday(row)
        const day = w === undefined ? undefined : dayOf(w)
        return m === undefined || which === undefined || day === undefined ? undefined : { kind: 'nth', months: m, nth: which, weekday: day }
      }
      case 'weekdays': {
        const n = weeks(row)
        const days = listOf(weekdays(row), (s) => /^\d+$/.test(s) ? dayOfList(Number(s)) : undefined)
        return n === undefined || days === undefined || days.length === 0 ? undefined : { kind: 'weekdays', weeks: n, weekdays: days }
      }
    }
  }

  return {
    read (row) {
      const k = kind(row)?.toLowerCase()
      if (!isKind(k)) return 'unreadable'
      if (k === 'once') return { kind: 'once' }
      if (cut.some((raw) => overlong(raw(row)))) return 'unreadable'
      const r = rule(row, k)
      if (r === undefined) return 'unreadable'
      const last = until(row)
      // A bound that holds something unreadable is no bound: nobody can tell where the row ends.
      if (last === undefined && !isBlank(untilRaw(row))) return 'unreadable'
      const text = except(row)
      const skipped = text === undefined ? [] : listOf(text, exceptDate)
      if (skipped === undefined) return 'unreadable'
      if (last !== undefined) r.until = last
      if (skipped.length > 0) r.except = skipped
      return r
    },
    until,
    recursInto (scope, params) {
      const terms = [recurring(kindValue, scope, params, `${at}/kind`), untilValue && isPlainDate(untilValue) ? `(${scope.dialect.or([dateOnOrAfter(untilValue, false, scope, params), dateUnset(untilValue, false, scope, params)])})` : undefined]
        .filter((s): s is string => s !== undefined)
      return terms.length === 0 ? undefined : `(${scope.dialect.and(terms)})`
    }
  }
}

/** What a value can read as, where the mapping says (a `map`'s values, a constant); every one of `allowed` otherwise. */
function possible<T extends string> (v: Value, allowed: readonly T[], path: string): T[] {
  const outs: Array<[string, unknown]> | undefined = v.map ? Object.entries(v.map) : v.value !== undefined ? [['', v.value]] : undefined
  if (outs === undefined) return [...allowed]
  for (const [code, out] of outs) {
    if (!allowed.includes(String(out) as T)) throw new CompileError(v.map ? `${path}/map/${code}` : `${path}/value`, `\`${String(out)}\` is not one of ${allowed.join(', ')}`)
  }
  return [...new Set(outs.map(([, out]) => String(out) as T))]
}

/**
 * SQL holding for rows whose `kind` is not `once`, where the database can tell: a plain column
 * (with a whole-code `map`, or holding the words themselves). undefined otherwise.
 */
function recurring (v: Value, scope: Scope, params: ParamList, path: string): string | undefined {
  if (v.column === undefined || v.extract !== undefined || v.match === 'prefix') return undefined
  const once = v.map ? Object.keys(v.map).filter((code) => String((v.map as Record<string, unknown>)[code]) === 'once') : ['once']
  if (once.length === 0) return undefined
  const numeric = v.type !== undefined && !isTextType(v.type)
  return conditionSql({ column: v.column, notIn: once.map((c) => numeric ? Number(c) : c), ...(v.codes !== undefined ? { codes: v.codes } : {}) }, scope, params, path)
}

const isPlainDate = (v: Value): boolean => v.column !== undefined && v.extract === undefined && ['date', 'datetime', 'text', 'int', 'dmy', 'ymd', undefined].includes(v.format)

const isKind = (s: string | undefined): s is RepeatKind => s !== undefined && (REPEAT_KINDS as readonly string[]).includes(s)
const isUnit = (s: string | undefined): s is RepeatUnit => s !== undefined && (REPEAT_UNITS as readonly string[]).includes(s)

/** 1–4, or 5, -1 or `last` for the last. */
function nthOf (s: string | undefined): number | undefined {
  if (s === undefined) return undefined
  if (/^[1-4]$/.test(s)) return Number(s)
  return ['5', '-1', 'last'].includes(s.toLowerCase()) ? LAST : undefined
}

/** YYYYMMDD or YYYY-MM-DD as YYYY-MM-DD. */
function exceptDate (s: string): string | undefined {
  const m = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(s)
  const iso = m ? `${m[1]}-${m[2]}-${m[3]}` : undefined
  return iso !== undefined && isCalendarDate(iso) ? iso : undefined
}

/** Items separated by commas, semicolons or spaces, each read by `item`; undefined when one cannot be. */
function listOf<T> (text: string | undefined, item: (s: string) => T | undefined): T[] | undefined {
  if (text === undefined) return undefined
  const out: T[] = []
  for (const s of text.split(/[\s,;]+/).filter((x) => x !== '')) {
    const x = item(s)
    if (x === undefined) return undefined
    out.push(x)
  }
  return out
}

function textOf (read: Reader): (row: Row) => string | undefined {
  return (row) => {
    const x = read(row)
    if (x === null || x === undefined) return undefined
    const s = String(x).trim()
    return s === '' ? undefined : s
  }
}

const isBlank = (x: unknown): boolean => x === null || x === undefined || (typeof x === 'string' && x.trim() === '')
