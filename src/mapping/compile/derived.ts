// `write.set` columns derived from the write itself rather than constants: from the booked
// time (its start, end or length, in the column's stored form, or a length as a pattern
// string such as 'XXXXXXXXX' for 45 minutes at 5 a character), and from the new row's own key
// (a patient who is their own guarantor). Values are computed in JS and bound as parameters,
// so every dialect writes them alike, inside the insert's transaction.
import type { Dialect } from '../../sql/dialect.js'
import { ParamList, type Statement } from '../../sql/statement.js'
import { endDatetimeOf, toStoredDate, toStoredHour, type NowParts } from '../../normalise/datetime.js'
import type { SqlTypeName, WriteSpecDoc } from '../schema.js'
import type { TableModel } from '../model.js'
import { CompileError, Scope } from './scope.js'
import { toStoredTime, type StoredClock } from './stored-clock.js'
import { keyMatch } from './key.js'
import type { Booked, BookedLookup } from './booked-values.js'
import type { CoveringHours } from './hours-copy.js'

type WriteValueDoc = NonNullable<WriteSpecDoc['set']>[string]
type TimePartDoc = Extract<WriteValueDoc, { slot: unknown }>

/** What a derived value is computed from. */
export interface WriteContext {
  /** `covering`: the copied columns of the working-hours row covering the start (hours-copy.ts); absent when none does. */
  time?: { date: string, hour: string, endHour?: string, minutes?: number, covering?: CoveringHours }
  /** The key of the record being written (for identifiers made from it). */
  key?: unknown
  /** The state being entered, as stored. */
  state?: unknown
  /** The state being entered, in the interface's words (a code per state: `{ state: { CONFIRMED: Confirmed } }`). */
  entering?: string
  /** The state a change leaves, as stored (`{ state: left }`), and in the interface's words (its `codes`). */
  left?: unknown
  leaving?: string
  /** The records a booking names, for the columns copying them (booked-values.ts). */
  booked?: Booked
  /** Which change a history row records (`{ event: { create: 0, state: 1 } }`). */
  event?: HistoryEvent
}

/** The changes a history row may record: the booking, a state change, a reschedule. */
export type HistoryEvent = 'create' | 'state' | 'reschedule'

export interface WrittenValue {
  column: string
  type: SqlTypeName
  value: (now: NowParts, context?: WriteContext) => unknown
  /** Holds the key of the row being inserted (filled by insertRow). */
  newKey?: boolean
  /** Follows the booked time: rewritten when the appointment moves. */
  followsTime?: boolean
  /** Copies the booked client's name or a booked lookup (booked-values.ts). */
  copies?: 'client' | BookedLookup
  /** Copies a column of the working-hours row covering the start (hours-copy.ts). */
  fromHours?: boolean
}

/** A `write.set` value holding the new row's own key (`newKey: true`). */
export const isNewKey = (w: unknown): w is { newKey: true } => typeof w === 'object' && w !== null && 'newKey' in w

export const isDerived = (w: WriteValueDoc): w is TimePartDoc | { newKey: true } => 'slot' in w || isNewKey(w)

const PER_MINUTE = { minutes: 1, seconds: 60, hours: 1 / 60 }

export function derivedValue (w: TimePartDoc | { newKey: true }, column: string, path: string, keyType: SqlTypeName, clock?: StoredClock): WrittenValue {
  // Bound NULL in the INSERT when the key comes back from it (identity), then set by an UPDATE.
  if (isNewKey(w)) return { column, type: keyType, value: () => null, newKey: true }
  if (w.slot === 'length') {
    if (w.repeat !== undefined) {
      const per = w.per ?? 5
      const { repeat, edges = '' } = w
      return { column, type: 'text', followsTime: true, value: (_now, c) => c?.time?.minutes === undefined ? null : lengthPattern(c.time.minutes, per, repeat, edges) }
    }
    if (w.format !== undefined || w.per !== undefined || w.edges !== undefined) throw new CompileError(path, 'a length takes `unit`, or `repeat` (with `per` and `edges`)')
    const factor = PER_MINUTE[w.unit ?? 'minutes']
    return { column, type: 'int', followsTime: true, value: (_now, c) => c?.time?.minutes === undefined ? null : Math.round(c.time.minutes * factor) }
  }
  if (w.repeat !== undefined || w.per !== undefined || w.unit !== undefined || w.edges !== undefined) throw new CompileError(path, '`repeat`, `per`, `edges` and `unit` go with `slot: length`')
  const end = w.slot === 'end'
  const format = w.format ?? 'datetime'
  if (w.separator !== undefined && format !== 'dmy') throw new CompileError(path, '`separator` goes with `format: dmy`')
  const type: SqlTypeName = format === 'date'
    ? 'date'
    : format === 'datetime'
      ? 'datetime'
      : format === 'time'
        ? 'time'
        : format === 'int' || format === 'hhmm' || format === 'minutes' ? 'int' : 'text'
  return {
    column,
    type,
    followsTime: true,
    value: (_now, c) => {
      const s = c?.time
      const hour = end ? s?.endHour : s?.hour
      if (!s || hour === undefined) return null
      // The instant on the clock the database stores (`storedIn`): its date and hour both may change.
      const stored = toStoredTime(end ? endDatetimeOf(s.date, s.hour, hour) : `${s.date} ${hour}:00`, clock)
      const [date, time] = [stored.slice(0, 10), stored.slice(11, 16)]
      switch (format) {
        case 'datetime': return stored
        case 'date': return toStoredDate(date, 'date')
        case 'int': return toStoredDate(date, 'int')
        case 'dmy': return toStoredDate(date, 'text', 'dmy', w.separator)
        case 'ymd': return toStoredDate(date, 'text', 'ymd')
        default: return toStoredHour(time, format)
      }
    }
  }
}

/** The new row's own key, for columns that hold it: bound with the insert, or (identity) set right after it. */
export interface SelfKey {
  columns: string[]
  /** Identity keys only: UPDATE … SET those columns = `col:<column>` inputs WHERE key = the new id. */
  update?: Statement
}

/** The insert plan, told which columns hold the new row's own key. */
export function withSelfKey<P extends { key: { returning?: string }, selfKey?: SelfKey }> (plan: P, table: TableModel, values: WrittenValue[], dialect: Dialect): P {
  const own = selfKey(table, values, plan.key.returning !== undefined, dialect)
  return own ? { ...plan, selfKey: own } : plan
}

function selfKey (table: TableModel, values: WrittenValue[], identity: boolean, dialect: Dialect): SelfKey | undefined {
  const columns = values.filter((v) => v.newKey).map((v) => v.column)
  if (columns.length === 0) return undefined
  if (!identity) return { columns }
  const scope = new Scope(dialect, { ...table, joins: {}, where: [] }, 't')
  const params = new ParamList(dialect)
  const sets = columns.map((column) => ({ column, value: params.input(`col:${column}`, table.key.type) }))
  const where = [keyMatch(table.key, scope, params, `${table.path}/key`)]
  return { columns, update: { name: `${table.path.split('/').pop() ?? 'row'}.ownKey`, sql: dialect.update(table.table, 't', sets, where), params: params.params, writes: table.table } }
}

/**
 * A length as the pattern legacy agendas store: one character per `per` minutes, the `edges`
 * (when the pattern is long enough to have them) at both ends and `repeat` between: with edges
 * '//' a 30-minute booking is '//XX//', 45 minutes '//XXXXX//'.
 */
export function lengthPattern (minutes: number, per: number, repeat: string, edges: string): string {
  const units = Math.max(1, Math.ceil(minutes / per))
  const inner = units - 2 * edges.length
  if (edges === '' || inner < 1) return repeat.repeat(units)
  return edges + repeat.repeat(inner) + edges
}
