// Appointments: one statement per request shape (which filters, minimal or not), with the
// client joined in, so a list costs one round trip however many rows it returns.
import type { Dialect } from '../../sql/dialect.js'
import { ParamList, type Statement } from '../../sql/statement.js'
import type { ClientT } from '../../schemas/resources.js'
import { addDays, endHourAfter } from '../../normalise/datetime.js'
import type { EntityName, MappingModel, Value } from '../model.js'
import type { SqlTypeName } from '../schema.js'
import { clientReader } from './client.js'
import { throughMatch } from './joined-key.js'
import { idType, keyArgs, keyMatch, keyReader, keyRefs, keyText } from './key.js'
import { bindId, matchesType } from './ids.js'
import type { Bound, DateRange } from './bind.js'
import { dateOf, hourOf, idOf, minutesOf, textOf, type Decoder } from './decode.js'
import type { Row } from './entity.js'
import { CompileError, Scope } from './scope.js'
import { MEMO_LIMIT } from './memo.js'
import { conditionSql, conditionTest } from './condition.js'
import { dateRange, rangeArgs } from './date-range.js'
import { freeFlag } from './open-slots.js'
import { Columns, isTextType, valueReader, valueSql } from './value.js'
import { inClinicTime, storedClock, type StoredClock } from './stored-clock.js'

export const APPOINTMENT_FILTERS = ['location', 'service', 'professional', 'client', 'state'] as const
export type AppointmentFilter = typeof APPOINTMENT_FILTERS[number]
export const NESTED_REFS = ['location', 'specialty', 'healthInsurance', 'professional', 'service'] as const
const OCCUPANCY_REFS = ['professional', 'client', 'service', 'location'] as const

export interface AppointmentShape {
  filters: AppointmentFilter[]
  minimal: boolean
  /** By id instead of by date range. */
  byId?: boolean
  /** For free-slot computations: only id, date, hour, end, state and the professional ref (no client join, no other refs). */
  occupancy?: boolean
  /** Only the open slots (`openSlots.free` rows), which every other shape leaves out. */
  open?: boolean
  /** Read under update locks (booking's check-then-write, inside a transaction). */
  lock?: boolean
  /**
   * The id filters are alternatives (a row matching any of them), not all at once; each row
   * says which it matches (`matches`), by the same conditions. Booking reads the professional's
   * and the client's day in one statement.
   */
  either?: boolean
  /** COUNT(*) of the rows the shape reads, nothing else (`ponte check`'s cost of a change-detection poll). */
  count?: boolean
  /** By change marker instead of by date range: rows whose marker is at or past `after`, in marker order. */
  marked?: boolean
}

export interface AppointmentRow {
  id: string
  date: string
  hour: string
  endHour?: string
  state: string
  classification?: string
  /** Ids of related records: every ref in full shapes, only the filtered ones in minimal shapes. */
  refs: Partial<Record<EntityName, string>>
  client?: ClientT
  /** A slot-holding row, not an appointment (occupancy shapes only: other shapes leave them out). */
  holding?: boolean
  /** `either` shapes: the filters this row matches. */
  matches?: AppointmentFilter[]
  /** `marked` shapes: the row's change marker, as text. */
  marker?: string
}

/** What a shape is asked: an id (byId shapes), or a range with the shape's filters' values. */
export type AppointmentInput = { id: string } | { after: string } | (DateRange & { state?: string } & Partial<Record<Exclude<AppointmentFilter, 'state'>, string>>)

export interface CompiledAppointments {
  statement: Statement
  read: (row: Row) => AppointmentRow | undefined
  /** The SQL type each filter input binds with (ids whose input is not a number match nothing). */
  inputTypes: Record<string, SqlTypeName>
  /** undefined when no row can match (an id its column cannot hold). */
  bind: (input: AppointmentInput) => Bound | undefined
}

export function shapeName (shape: AppointmentShape): string {
  // Every flag that changes the statement is in its name: the name is the cache key.
  const what = `${shape.count ? 'count' : ''}${shape.marked ? 'marked' : ''}${shape.open ? 'open' : ''}${shape.occupancy ? 'occupancy' : ''}${shape.byId ? 'byId' : ''}` || 'list'
  return `appointment.${what}[${shape.filters.join(shape.either ? '|' : ',')}]${shape.minimal ? '.minimal' : ''}${shape.lock ? '.locked' : ''}`
}

export function compileAppointments (mapping: MappingModel, dialect: Dialect, shape: AppointmentShape): CompiledAppointments {
  const m = mapping.appointment
  const scope = new Scope(dialect, m, 't')
  const params = new ParamList(dialect)
  const cols = new Columns()
  const inputTypes: Record<string, SqlTypeName> = {}

  const id = keyReader(m.key, scope, cols, `${m.path}/key`)
  const startDate = (m.start.datetime ?? m.start.date) as Value
  const dateFallback = m.start.datetime ? 'datetime' : 'date'
  // One value holding date and time reads as a datetime, whether the column is one or text.
  const startRead = m.start.datetime ? { ...startDate, format: 'datetime' as const } : startDate
  // On another clock (`storedIn`), the start is one datetime (stored-clock.ts) read on the clinic's.
  const clock = storedClock(mapping)
  const date = dateOf(startRead, inClinicTime(valueReader(startDate, scope, cols), clock), dateFallback)
  const hourValue = (m.start.datetime ?? m.start.hour) as Value
  const hour = hourOf(m.start.datetime ? startRead : hourValue, inClinicTime(valueReader(hourValue, scope, cols), clock), m.start.datetime ? 'datetime' : 'text')
  const endHour = endReader(m.end, scope, cols, clock)
  const state = textOf(valueReader(m.state, scope, cols, params))
  const classification = m.classification && !shape.occupancy ? textOf(valueReader(m.classification, scope, cols, params)) : () => undefined

  // Occupancy: who and where a slot is held for, enough to check a move against the same rules
  // as a booking. Minimal lists: only the refs they are filtered by, which the service checks
  // against the requested ids (services/ids.ts carryingId): one more column, no join.
  const idFilters = shape.filters.filter((f): f is Exclude<AppointmentFilter, 'state'> => f !== 'state')
  const refNames = new Set<EntityName>([
    ...(shape.occupancy ? OCCUPANCY_REFS : shape.minimal ? [] : [...NESTED_REFS, 'client', 'plan'] as const),
    ...idFilters
  ])
  const refReaders: [EntityName, Decoder<string>][] = []
  for (const name of refNames) {
    const v = m.refs[name]
    if (v) refReaders.push([name, idOf(valueReader(v, scope, cols, params))])
  }

  // The client comes in the same statement: a LEFT JOIN on the client's key.
  const joins = []
  let client: ((row: Row) => ClientT | undefined) | undefined
  const clientRef = m.refs.client
  const where: string[] = []
  if (!shape.minimal && !shape.occupancy && clientRef) {
    const c = mapping.client
    const cScope = new Scope(dialect, c, 'c')
    const reader = clientReader(c, cScope, cols, mapping.phone, params)
    const refType = clientRef.type ?? idType(c.key)
    const left = valueSql(clientRef, scope, params)
    // A key kept in a joined row is found through the join's link (joined-key.ts).
    const plain = c.key.parts.length === 1 && isTextType(refType) === isTextType(c.key.type)
      ? `${cScope.ref(c.key.column, `${c.path}/key`)} = ${left}`
      : `${keyText(c.key, cScope, params, `${c.path}/key`)} = ${dialect.trim(dialect.asText(left))}`
    const on = c.key.through ? throughMatch(c.key.through, cScope, left) : plain
    const cWhere = cScope.whereByReach(params)
    // Conditions on the client's joins are selected as a flag (every join exists by then):
    // an appointment whose client fails them is still listed, without a client.
    const visible = cWhere.joined.length === 0 ? undefined : cols.add(dialect.caseWhen([{ when: dialect.and(cWhere.joined), then: '1' }], '0'))
    client = visible === undefined ? reader : (row) => Number(row[visible]) === 1 ? reader(row) : undefined
    joins.push({ table: dialect.table(c.table), alias: 'c', on: dialect.and([on, ...cWhere.own]) }, ...cScope.joins(params))
  }

  where.push(...scope.where(params))
  // Slot-holding rows are occupancy, never appointments: read (and flagged) only to know what is taken.
  const flagsHolding = shape.occupancy === true && !shape.byId && m.slotHolding.length > 0
  const holdingTests = flagsHolding ? m.slotHolding.map((c, i) => conditionTest(c, `${m.path}/slotHolding/${i}`, (leaf, at) => cols.add(scope.ref(leaf.column, at, 'filter', { condition: leaf })))) : []
  const holding = flagsHolding ? (row: Row) => holdingTests.every((test) => test(row)) : undefined
  if (m.slotHolding.length > 0 && !flagsHolding) {
    const all = dialect.and(m.slotHolding.map((c, i) => conditionSql(c, scope, params, `${m.path}/slotHolding/${i}`)))
    // CASE keeps rows whose columns are NULL (NOT of a NULL comparison would drop them).
    where.push(`${dialect.caseWhen([{ when: all, then: '1' }], '0')} = 0`)
  }
  // Free rows are slots, not appointments.
  if (m.openSlots) where.push(`${freeFlag(m.openSlots, scope, params)} = ${shape.open === true ? '1' : '0'}`)
  const marker = shape.marked ? m.changes?.marker : undefined
  let markerCol: string | undefined
  let markerAlias: string | undefined
  if (shape.marked && !marker) throw new CompileError(`${m.path}/changes`, 'a marked read needs `changes.marker`')
  if (shape.byId) {
    where.push(keyMatch(m.key, scope, params, `${m.path}/key`))
  } else if (marker) {
    markerCol = scope.ref(marker.column, `${marker.path}/column`, 'filter', { lookup: 'range' })
    where.push(dialect.markerFrom(markerCol, params.input('after', MARKER_INPUT[marker.type]), marker.type))
    markerAlias = cols.add(dialect.markerText(markerCol, marker.type))
  } else {
    where.push(...dateRange(startDate, !!m.start.datetime, scope, params))
  }
  const alternatives: string[] = []
  const matchFlags: [AppointmentFilter, string][] = []
  for (const f of shape.filters) {
    if (f === 'state') {
      where.push(`${valueSql(m.state, scope, params)} = ${params.input('state', 'text')}`)
      continue
    }
    const ref = m.refs[f] as Value
    const target = f === 'client' ? mapping.client : mapping.lookups[f]
    const type = ref.type ?? (target ? idType(target.key) : 'int')
    inputTypes[f] = type
    // A booking reads the professional's and the client's day (compile/index.ts bookingReads): those two are sought.
    const condition = (): string => `${valueSql(ref, scope, params, false, f === 'professional' || f === 'client' ? 'equal' : undefined)} = ${params.input(f, type)}`
    if (!shape.either) {
      where.push(condition())
      continue
    }
    alternatives.push(condition())
    matchFlags.push([f, cols.add(dialect.caseWhen([{ when: condition(), then: '1' }], '0'))])
  }
  if (alternatives.length > 0) where.push(`(${dialect.or(alternatives)})`)

  const hourExpr = m.start.hour && m.start.hour.column !== undefined ? scope.ref(m.start.hour.column, `${m.start.hour.path}/column`, 'filter', { value: m.start.hour }) : undefined
  const startExpr = scope.ref(startDate.column as string, `${startDate.path}/column`, 'filter', { value: startDate, lookup: 'range' })
  const orderBy = markerCol !== undefined ? [markerCol, ...keyRefs(m.key, scope, `${m.path}/key`)] : [startExpr, ...(hourExpr ? [hourExpr] : []), ...keyRefs(m.key, scope, `${m.path}/key`)]
  const rows = dialect.select({
    columns: cols.list,
    from: { table: dialect.table(m.table), alias: 't' },
    joins: [...scope.joins(params), ...joins],
    where,
    orderBy: shape.count ? [] : orderBy,
    lock: shape.lock
  })
  // Counted around the very read (its parameters in the same order), so the count is of what a read returns.
  const sql = shape.count ? dialect.select({ columns: [{ expr: dialect.count(), alias: 'n' }], from: { table: `(${rows})`, alias: 'w' }, joins: [], where: [], orderBy: [] }) : rows
  const statement: Statement = { name: shapeName(shape), sql, params: params.params }

  const bind = (input: AppointmentInput): Bound | undefined => {
    if ('id' in input) {
      const args = keyArgs(m.key, input.id)
      return args && { statement, args }
    }
    if ('after' in input) return { statement, args: { after: marker?.type === 'int' ? Number(input.after) : input.after } }
    const args = rangeArgs(input.from, input.to, clock)
    for (const f of shape.filters) {
      const value = input[f]
      if (value === undefined) continue
      if (f === 'state') { args.state = value; continue }
      if (!matchesType(value, inputTypes[f])) return undefined
      args[f] = bindId(value, inputTypes[f])
    }
    return { statement, args }
  }

  return {
    statement,
    inputTypes,
    bind,
    read (row) {
      const rowId = id(row)
      const d = date(row)
      const h = hour(row)
      // Without a readable date and hour there is no appointment to show (`ponte check` lists such rows).
      if (rowId === undefined || d === undefined || h === undefined) return undefined
      // Shapes that read no ref (minimal lists) share one empty, frozen refs object.
      const out: AppointmentRow = { id: rowId, date: d, hour: h, state: state(row) ?? 'UNKNOWN', refs: refReaders.length === 0 ? NO_REFS : {} }
      const end = endHour(row, h, d)
      if (end !== undefined) out.endHour = end
      if (holding?.(row)) out.holding = true
      if (matchFlags.length > 0) out.matches = matchFlags.filter(([, flag]) => Number(row[flag]) === 1).map(([f]) => f)
      if (markerAlias !== undefined && row[markerAlias] != null) out.marker = String(row[markerAlias])
      const cls = classification(row)
      if (cls !== undefined) out.classification = cls
      for (const [name, read] of refReaders) {
        const ref = read(row)
        if (ref !== undefined) out.refs[name] = ref
      }
      if (client) {
        const c = client(row)
        if (c) out.client = c
      }
      return out
    }
  }
}

/** The type a marker's last value binds with: a rowversion's is its '0x…' text, converted in the statement. */
const MARKER_INPUT = { datetime: 'datetime', int: 'bigint', rowversion: 'text' } as const

const NO_REFS: AppointmentRow['refs'] = Object.freeze({})

function endReader (end: MappingModel['appointment']['end'], scope: Scope, cols: Columns, clock: StoredClock | undefined): (row: Row, start: string, date: string) => string | undefined {
  if (!end) return () => undefined
  if (end.duration) {
    const minutes = minutesOf(end.duration, valueReader(end.duration, scope, cols))
    // Few distinct (start, length) pairs in a list: each end worked out once (bounded).
    const ends = new Map<string, Map<number, string | undefined>>()
    return (row, start) => {
      const n = minutes(row)
      if (n === undefined) return undefined
      let byLength = ends.get(start)
      if (byLength === undefined) {
        if (ends.size >= MEMO_LIMIT) return endHourAfter(start, n)
        ends.set(start, byLength = new Map())
      }
      if (byLength.has(n)) return byLength.get(n)
      const end = endHourAfter(start, n)
      if (byLength.size < MEMO_LIMIT) byLength.set(n, end)
      return end
    }
  }
  const v = (end.hour ?? end.datetime) as Value
  const raw = inClinicTime(valueReader(v, scope, cols), clock)
  const read = hourOf(v, raw, end.datetime ? 'datetime' : 'text')
  if (!end.datetime) return (row) => read(row)
  // An end with its own date says which day it is on: the start's, or the next one's for an
  // appointment past midnight (endMinutesOf then reads its earlier hour as the next day's).
  // Any other date (before the start, a day or more after it) is no end that can be told.
  const endDate = dateOf(v, raw, 'datetime')
  return (row, start, date) => {
    const hour = read(row)
    const day = endDate(row)
    if (hour === undefined || day === undefined || day === date) return hour !== undefined && hour < start ? undefined : hour
    return day === addDays(date, 1) && hour < start ? hour : undefined
  }
}
