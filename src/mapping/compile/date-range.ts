// Date ranges over stored dates, in SQL: the halves of a closed range (each bound with the
// column's own type, so its index is used), what "no date stored" is in the same terms, and
// the inputs every form binds. Appointments, schedule rows, blocks and slots range alike.
import type { ParamList } from '../../sql/statement.js'
import { addDays, FIRST_READ_DATE } from '../../normalise/datetime.js'
import type { Value } from '../model.js'
import type { LiteralValue, SqlTypeName } from '../schema.js'
import type { DateRange } from './bind.js'
import type { Scope } from './scope.js'
import { storedBound, type StoredClock } from './stored-clock.js'

// Closed range [from, to] on the stored date, written so the date column's index is used.
export function dateRange (v: Value, isDatetime: boolean, scope: Scope, params: ParamList): string[] {
  return [dateOnOrAfter(v, isDatetime, scope, params), dateOnOrBefore(v, isDatetime, scope, params)]
}

// The two halves of `dateRange`, each bound with the column's type (inputs from `rangeArgs`):
// also what an overlap test needs (a period's first day <= to AND its last day >= from).
export function dateOnOrAfter (v: Value, isDatetime: boolean, scope: Scope, params: ParamList): string {
  const s = storedDate(v, isDatetime, scope)
  return `${s.col} >= ${params.input(s.from, s.type)}`
}

export function dateOnOrBefore (v: Value, isDatetime: boolean, scope: Scope, params: ParamList): string {
  const s = storedDate(v, isDatetime, scope)
  return s.until === 'after' ? `${s.col} < ${params.input(s.to, s.type)}` : `${s.col} <= ${params.input(s.to, s.type)}`
}

/**
 * The stored date reads as none (a reader takes it for NULL), so a range over an optional
 * bound keeps the row and lets the reader decide: NULL; anything before the first date a
 * reader reads (blank text, the zero dates '0000-00-00', '0001-01-01', '1899-12-30', 0 and -1,
 * declared in `nullIf` or not), compared in the column's own form as the range is, so no
 * database is handed a date its type cannot hold; and any other `nullIf` sentinel, compared
 * as trimmed text, as the reader compares it.
 */
export function dateUnset (v: Value, isDatetime: boolean, scope: Scope, params: ParamList): string {
  const d = scope.dialect
  const column = scope.ref(v.column as string, `${v.path}/column`, 'filter', { value: v })
  const s = storedDate(v, isDatetime, scope)
  const terms = [d.isNull(column), `${s.col} < ${params.constant(floorOf(s.type), s.type)}`]
  const others = (v.nullIf ?? []).filter((x) => !beforeFloor(x, s.type)).map((x) => String(x).trim())
  if (others.length > 0) terms.push(d.inList(d.trim(d.asText(column)), others.map((x) => params.constant(x, 'text'))))
  return `(${d.or(terms)})`
}

const floorOf = (type: SqlTypeName): string | number =>
  type === 'int' ? Number(FIRST_READ_DATE.replace(/-/g, '')) : type === 'datetime' ? `${FIRST_READ_DATE} 00:00:00` : FIRST_READ_DATE

function beforeFloor (sentinel: LiteralValue, type: SqlTypeName): boolean {
  if (typeof sentinel === 'number' && type === 'int') return sentinel < (floorOf(type) as number)
  return String(sentinel).trim() < FIRST_READ_DATE
}

/**
 * How a stored date compares with a range, by its format. A date and time in one value
 * (a datetime, or 'YYYY-MM-DD HH:MM' text) is compared with [first day, day after last);
 * a plain date with [first day, last day]. 'DD/MM/YYYY' text is rearranged first, which
 * costs its index: the only way to range over it.
 */
function storedDate (v: Value, isDatetime: boolean, scope: Scope): { col: string, type: SqlTypeName, from: string, to: string, until: 'after' | 'last' } {
  const col = scope.ref(v.column as string, `${v.path}/column`, 'filter', { value: v })
  const format = v.format ?? (isDatetime ? 'datetime' : 'date')
  if (format === 'datetime') return { col, type: 'datetime', from: 'fromDatetime', to: 'afterDatetime', until: 'after' }
  if (format === 'int') return { col, type: 'int', from: 'fromInt', to: 'toInt', until: 'last' }
  if (format === 'dmy') return { col: scope.dialect.dmyAsIso(col), type: 'text', from: 'from', to: 'to', until: 'last' }
  // 'YYYYMMDD' text orders as its dates do: compared as stored, its index kept.
  if (format === 'ymd') return { col, type: 'text', from: 'fromCompact', to: 'toCompact', until: 'last' }
  if (format === 'text' && isDatetime) return { col, type: 'text', from: 'from', to: 'after', until: 'after' }
  return { col, type: format === 'text' ? 'text' : 'date', from: 'from', to: 'to', until: 'last' }
}

const LAST_DATE = '9999-12-31'

/** Every date a reader reads: a range no stored date the server uses falls outside of (`ponte check`). */
export const EVERY_DATE: DateRange = { from: FIRST_READ_DATE, to: LAST_DATE }

/**
 * The inputs of a closed date range, in every form `dateRange` may have bound. A range
 * ending on the last date there is (a legacy '9999-12-31' meaning "never") has no day
 * after it: its end is then that day's last second, which every database can hold.
 * With a `clock` (mapping `storedIn`) the date-time bounds are the instants the clinic's
 * days start and end, on the stored clock: the column is compared as stored.
 */
export function rangeArgs (from: string, to: string, clock?: StoredClock): Record<string, unknown> {
  const last = to >= LAST_DATE
  const after = last ? undefined : addDays(to, 1)
  return {
    from,
    to,
    after: after ?? `${LAST_DATE} 23:59:59.999`,
    fromInt: Number(from.replace(/-/g, '')),
    toInt: Number(to.replace(/-/g, '')),
    fromCompact: from.replace(/-/g, ''),
    toCompact: to.replace(/-/g, ''),
    fromDatetime: storedBound(`${from} 00:00:00`, clock),
    afterDatetime: after !== undefined ? storedBound(`${after} 00:00:00`, clock) : `${LAST_DATE} 23:59:59`
  }
}
