// Slot-based booking (`write.slot`): the appointment row holds no time, only a pointer to a
// row of the clinic's slot table, a "slot row" (which may itself hang from a block holding
// the professional and location). Booking is then *finding* the slot row — by its start and
// by the refs the appointment reads through it — and writing the pointer; rescheduling finds
// another slot row the same way. A slot row may take several appointments (its capacity)
// and, where blocks say so, only some services. Here "slot" alone is always a slot row.
import type { Dialect } from '../../sql/dialect.js'
import { inputType, ParamList, type Statement } from '../../sql/statement.js'
import { bindId, matchesType } from './ids.js'
import type { Bound, DateRange } from './bind.js'
import type { ColumnValues } from './write-columns.js'
import { readDate, readHour } from '../../normalise/datetime.js'
import type { AppointmentModel, MappingModel, Value } from '../model.js'
import { whereList } from '../model.js'
import type { JoinDoc, SqlTypeName } from '../schema.js'
import { aggregate, scanPlan, type ReadPlan, type ScanPlan } from './scan.js'
import { CompileError, Scope, type ScopeSource } from './scope.js'
import { valueSql } from './value.js'
import { idType } from './key.js'
import { conditionSql } from './condition.js'
import { segment } from './references.js'
import { dateRange, EVERY_DATE, rangeArgs } from './date-range.js'
import type { Row } from './entity.js'
import { onClinicClock, storedClock, toStoredTime, type StoredClock } from './stored-clock.js'
import { onColumns } from './join-on.js'

/** Refs a slot row can decide (they are read through the slot row's joins). */
export const SLOT_ROW_REFS = ['professional', 'location'] as const
export type SlotRowRef = typeof SLOT_ROW_REFS[number]

/** A slot row as the lookup finds it. */
export interface FoundSlotRow {
  id: unknown
  /** How many appointments it takes. */
  capacity: number
  /** Whether its block accepts the service asked for (true when none was asked, or blocks name no services). */
  accepts: boolean
}

/** A slot row starting within a range, as /availability reads them. */
export interface SlotRow {
  date: string
  hour: string
  professional?: string
  location?: string
  capacity: number
}

export interface SlotRowBooking {
  /** The appointment's column pointing at the slot, and its type. */
  column: { column: string, type: SqlTypeName }
  /** Refs the slot decides: never written to the appointment row. */
  refs: SlotRowRef[]
  /** Whether blocks declare the services they accept (`write.slot.services`). */
  services: boolean
  /** `capacity: minutes`: a slot's appointments share its length by their services' durations (its `capacity` is then 1). */
  byMinutes: boolean
  /** The type a service id binds with. */
  serviceType: SqlTypeName
  /**
   * The first slot starting at `start` (and held by the given refs). With `service`, the
   * statement also says whether the slot's block accepts the `service` input, and prefers
   * a slot that does. Built per set of refs.
   */
  lookup: (refs: SlotRowRef[], service?: boolean) => Statement
  read: (row: Row) => FoundSlotRow | undefined
  /** Every slot starting within a closed range (inputs from `rangeArgs`); with `service`, only those accepting it. */
  rows: (service: boolean) => Statement
  readRow: (row: Row) => SlotRow | undefined
  /** The `start` input as the slot's column holds it. */
  start: (date: string, hour: string) => string
  /**
   * The lookup of the slot starting at `date hour`, held by the given refs (those the slot
   * decides) and, with `service`, saying whether it accepts it. undefined: the service id
   * is one its column cannot hold, so no block accepts it.
   */
  bindLookup: (date: string, hour: string, refs: Partial<Record<string, string>>, service?: string) => Bound | undefined
  /** The slots starting within a range (accepting `service`, where blocks name services); undefined when none can. */
  bindRows: (range: DateRange, service?: string) => Bound | undefined
  /** The appointment column values pointing at a found slot. */
  pointer: (slot: FoundSlotRow) => ColumnValues
  statements: () => Statement[]
}

type SlotDoc = NonNullable<NonNullable<AppointmentModel['write']>['slot']>

export function compileSlotRowBooking (model: MappingModel, dialect: Dialect): SlotRowBooking | undefined {
  const a = model.appointment
  const doc = a.write?.slot
  if (doc === undefined) return undefined
  const alias = doc.join
  const path = `${a.path}/write/slot`
  const join = a.joins[alias]
  if (!join) throw new CompileError(`${path}/join`, `no join called \`${alias}\` in ${a.path}/joins`)
  const pairs = Object.entries(onColumns(join.on))
  if (join.from !== undefined || pairs.length !== 1 || pairs[0][0].includes('.')) {
    throw new CompileError(`${path}/join`, 'the slot join must hang from the appointment table by one column (the pointer to the slot)')
  }
  const [pointer, slotRowKey] = pairs[0]
  const { source, through } = slotRowRoot(a, alias)
  const mustBeThrough = (col: string, at: string): string => {
    const c = through(col)
    if (c === undefined) throw new CompileError(at, `\`${col}\` must be a column of the slot (\`${alias}.…\`) or of a join below it`)
    return c
  }
  const startValue = a.start.datetime
  const startColumn = through(startValue?.column)
  if (!startValue || startColumn === undefined) throw new CompileError(`${a.path}/start`, `with slot-based booking the start is a \`datetime\` column of the slot (\`${alias}.…\`)`)
  const textStart = startValue.format === 'text'
  const clock = storedClock(model)
  const refs = SLOT_ROW_REFS.filter((r) => through(a.refs[r]?.column) !== undefined)
  const capacity = capacityOf(doc, path, mustBeThrough)
  // Minutes come from each appointment's service: without one, every appointment fills its slot.
  if (capacity.minutes && !a.refs.service) throw new CompileError(`${path}/capacity`, 'capacity in `minutes` needs the appointment\'s `refs.service` (each appointment uses its service\'s `duration`)')
  if (capacity.minutes && model.lookups.service?.fields.duration === undefined) throw new CompileError(`${path}/capacity`, 'capacity in `minutes` needs the service\'s `duration` field (`resources.service.fields.duration`): it is how many minutes each appointment uses')
  const serviceType: SqlTypeName = a.refs.service?.type ?? (model.lookups.service ? idType(model.lookups.service.key) : 'int')
  const services = servicesOf(doc, path, serviceType, mustBeThrough)
  if (services && !a.refs.service) throw new CompileError(`${path}/services`, 'blocks can accept services only where the appointment has `refs.service`')

  /** A statement over the slot table and its joins, selecting `id`, `capacity` (a column) and `accepts` (asked for) by name. */
  const statement = (name: string, wanted: SlotRowRef[], service: boolean, build: (s: { scope: Scope, params: ParamList, columns: { expr: string, alias: string }[], where: string[] }) => { orderBy: string[], first: boolean }): Statement => {
    const scope = new Scope(dialect, source, 's')
    const params = new ParamList(dialect)
    const columns: { expr: string, alias: string }[] = []
    if (capacity.column !== undefined) columns.push({ expr: scope.ref(capacity.column, `${path}/capacity/column`), alias: 'capacity' })
    // A column, not a filter, in the lookup: booking tells "no slot then" from "not this service".
    const accepts = service && services ? scope.dialect.caseWhen([{ when: services(scope, params), then: '1' }], '0') : undefined
    if (accepts !== undefined) columns.push({ expr: accepts, alias: 'accepts' })
    const where: string[] = []
    const { orderBy, first } = build({ scope, params, columns, where })
    for (const r of wanted.filter((x) => refs.includes(x))) {
      const v = a.refs[r] as Value
      where.push(`${scope.ref(through(v.column) as string, `${v.path}/column`, 'filter')} = ${params.input(r, v.type ?? refType(model, r))}`)
    }
    where.push(...scope.where(params))
    return {
      name,
      sql: dialect.select({ columns, from: { table: dialect.table(join.table), alias: 's' }, joins: scope.joins(params), where, orderBy: accepts !== undefined ? [dialect.descending(dialect.ident('accepts')), ...orderBy] : orderBy, first }),
      params: params.params
    }
  }
  const capacityIn = (row: Row): number => capacity.column === undefined ? capacity.fixed : seats(row.capacity)
  const slotRowStart = (scope: Scope): string => scope.ref(startColumn, `${startValue.path}/column`)
  const lookups = new Map<string, Statement>()
  const rowStatements = new Map<boolean, Statement>()

  const booking: SlotRowBooking = {
    column: { column: pointer, type: 'int' },
    refs,
    services: services !== undefined,
    byMinutes: capacity.minutes === true,
    serviceType,
    start: (date, hour) => toStoredTime(`${date} ${hour}:00`, clock),
    bindLookup (date, hour, given, service) {
      const wanted = refs.filter((r) => given[r] !== undefined)
      const lookup = booking.lookup(wanted, service !== undefined)
      const args: Record<string, unknown> = { start: booking.start(date, hour) }
      for (const r of wanted) args[r] = bindId(given[r] as string, inputType(lookup, r) ?? 'text')
      if (service !== undefined) {
        if (!matchesType(service, serviceType)) return undefined
        args.service = bindId(service, serviceType)
      }
      return { statement: lookup, args }
    },
    bindRows (range, service) {
      const filtered = services !== undefined && service !== undefined
      if (filtered && !matchesType(service, serviceType)) return undefined
      return { statement: booking.rows(filtered), args: { ...rangeArgs(range.from, range.to, clock), ...(filtered ? { service: bindId(service, serviceType) } : {}) } }
    },
    pointer: (slot) => ({ [pointer]: slot.id }),
    lookup (wanted, service = false) {
      const key = `${wanted.filter((r) => refs.includes(r)).sort().join(',')}${service && services ? '+service' : ''}`
      let s = lookups.get(key)
      if (!s) {
        s = statement(`appointment.write.slot[${key}]`, wanted, service, ({ scope, params, columns, where }) => {
          const keyRef = scope.ref(slotRowKey, `${path}/join`)
          columns.unshift({ expr: keyRef, alias: 'id' })
          where.push(`${slotRowStart(scope)} = ${params.input('start', textStart ? 'text' : 'datetime')}`)
          return { orderBy: [keyRef], first: true }
        })
        lookups.set(key, s)
      }
      return s
    },
    read (row) {
      if (row.id === undefined || row.id === null) return undefined
      return { id: row.id, capacity: capacityIn(row), accepts: row.accepts === undefined || row.accepts === null ? true : Number(row.accepts) === 1 }
    },
    rows (service) {
      const filtered = service && services !== undefined
      let s = rowStatements.get(filtered)
      if (!s) {
        s = statement(`appointment.write.slot.rows${filtered ? '[service]' : ''}`, [], false, ({ scope, params, columns, where }) => {
          columns.unshift({ expr: slotRowStart(scope), alias: 'start' })
          for (const r of refs) columns.push({ expr: scope.ref(through(a.refs[r]?.column) as string, a.refs[r]?.path ?? path), alias: r })
          where.push(...slotRowRange(startValue, startColumn, scope, params))
          if (filtered) where.push(services(scope, params))
          return { orderBy: [scope.ref(slotRowKey, `${path}/join`)], first: false }
        })
        rowStatements.set(filtered, s)
      }
      return s
    },
    readRow (row) {
      const start = readSlotRowStart(row.start, textStart, clock)
      if (start === undefined) return undefined
      const out: SlotRow = { ...start, capacity: capacityIn(row) }
      for (const r of refs) {
        const id = row[r]
        if (id !== undefined && id !== null && String(id).trim() !== '') out[r] = String(id).trim()
      }
      return out
    },
    statements: () => [booking.lookup([...refs]), ...(services ? [booking.lookup([...refs], true)] : []), booking.rows(false), ...(services ? [booking.rows(true)] : [])]
  }
  return booking
}

/** The slots starting within a closed range (inputs from `rangeArgs`), by the start column of the slot's table. */
function slotRowRange (start: Value, column: string, scope: Scope, params: ParamList): string[] {
  return dateRange({ ...start, column }, true, scope, params)
}

/** A slot's stored start as its date and hour; undefined when either cannot be read. */
function readSlotRowStart (raw: unknown, text: boolean, clock: StoredClock | undefined): { date: string, hour: string } | undefined {
  const stored = onClinicClock(raw, clock)
  const date = readDate(stored, text ? 'text' : 'datetime')
  const hour = readHour(stored, text ? 'text' : 'datetime')
  return date === undefined || hour === undefined ? undefined : { date, hour }
}

// A slot's capacity as stored: a NULL (or unreadable) one is the default single place; zero
// or less closes the slot.
function seats (x: unknown): number {
  if (isBlank(x)) return 1
  const n = Number(x)
  return Number.isFinite(n) ? Math.max(0, Math.floor(n)) : 1
}

/** What `ponte check` says of a stored capacity that is not a plain number of places (see seats). */
export type CapacityFault = 'empty' | 'unreadable' | 'closed'

/**
 * Why a slot's start offers nothing: it cannot be read, or it reads but the statement
 * /availability reads slots with never returns it.
 */
export type StartFault = 'unreadable' | 'unreached'

/** A slot as `ponte check` scans it: its id, and what is wrong with its capacity (where a column holds it) and its start. */
export interface SlotRowScan { id: string, capacity?: CapacityFault, start?: StartFault }

function capacityFault (x: unknown): CapacityFault | undefined {
  if (isBlank(x)) return 'empty'
  const n = Number(x)
  if (!Number.isFinite(n) || !Number.isInteger(n)) return 'unreadable'
  return n <= 0 ? 'closed' : undefined
}

const isBlank = (x: unknown): boolean => x === null || x === undefined || (typeof x === 'string' && x.trim() === '')

/** The slot's table as the root of its own statements: the joins below it keep their names. */
function slotRowRoot (a: AppointmentModel, alias: string): { source: ScopeSource, through: (col: string | undefined) => string | undefined } {
  const join = a.joins[alias]
  const below = descendants(a.joins, alias)
  const rerooted: Record<string, JoinDoc> = Object.fromEntries(below.map((name) => {
    const j = a.joins[name]
    return [name, { ...j, from: j.from === alias ? undefined : j.from }]
  }))
  return {
    source: { table: join.table, joins: rerooted, where: whereList(join.where), path: `${a.path}/joins/${alias}` },
    /** A column the appointment reads through the slot (`slot.X`, `block.X`), as the slot's statement names it. */
    through (col) {
      if (col === undefined || !col.includes('.')) return undefined
      const [head, rest] = [col.slice(0, col.indexOf('.')), col.slice(col.indexOf('.') + 1)]
      if (head === alias) return rest
      return below.includes(head) ? col : undefined
    }
  }
}

/** The stored data against slot-based booking, for `ponte check` (counts and ids, never a value from a row). */
export interface SlotRowChecks {
  /** `…/write/slot`, and the slot join's place. */
  path: string
  joinPath: string
  /** The slot table and its key column (a capacity scan is ordered by it). */
  table: string
  key: string
  /** Where a column holds capacities: its place in the mapping. */
  capacityPath?: string
  /** Where the start is a column of the slot: its place in the mapping. */
  startPath?: string
  /** Every slot, its stored capacity and start as booking and /availability read them; `keyType`: how the key column binds. */
  scan?: (keyType: SqlTypeName) => ScanPlan<SlotRowScan>
  /** Slots holding more appointments (in states that hold a slot) than they take: `taken` > `seats` (others may come back too). */
  over?: () => ReadPlan<{ slot: string, taken: number, seats: number }>
  /** Where blocks name the services they take and appointments have a service. */
  services?: {
    /** How many blocks (slots, without a services table) there are, how many accept no service, and one of them. */
    none?: () => ReadPlan<{ blocks: number, none: number, example: string }>
    /** Appointments whose block does not accept their service: how many, and one id. */
    refused: () => ReadPlan<{ n: number, example: string }>
  }
}

/**
 * Slot checks need less than booking does (the slot join from the appointment by one column):
 * where booking cannot be compiled, the stored slots are still worth checking.
 */
export function slotRowChecks (model: MappingModel, dialect: Dialect): SlotRowChecks | undefined {
  const a = model.appointment
  const doc = a.write?.slot
  const join = doc ? a.joins[doc.join] : undefined
  if (!doc || !join) return undefined
  const pair = Object.entries(onColumns(join.on))
  if (pair.length !== 1 || join.from !== undefined) return undefined // compileSlotRowBooking says why
  const [pointer, slotRowKey] = pair[0]
  const path = `${a.path}/write/slot`
  const { source, through } = slotRowRoot(a, doc.join)
  const d = dialect
  const capacity = doc.capacity
  const capacityColumn = typeof capacity === 'object' ? through(capacity.column) : undefined
  const fixed = typeof capacity === 'number' ? capacity : capacity === undefined ? 1 : undefined
  const checks: SlotRowChecks = {
    path,
    joinPath: source.path,
    table: source.table,
    key: slotRowKey,
    over: () => ({
      statement: aggregate('slot.over', d, a, (scope, params) => {
        const slot = scope.ref(pointer, `${path}/join`)
        const state = valueSql(a.state, scope, params)
        const free = model.states.free.map((s) => params.constant(s, 'text'))
        const column = typeof capacity === 'object' ? scope.ref(capacity.column, `${path}/capacity/column`) : undefined
        return {
          columns: [{ expr: slot, alias: 'slot' }, ...(column ? [{ expr: column, alias: 'seats' }] : []), { expr: d.count(), alias: 'n' }],
          where: free.length > 0 ? [`(${d.or([d.isNull(state), d.notIn(state, free)])})`] : [],
          groupBy: column ? [slot, column] : [slot],
          having: [`${d.count()} > ${params.constant(fixed ?? 1, 'int')}`]
        }
      }),
      read: (row) => ({ slot: String(row.slot).trim(), taken: Number(row.n), seats: fixed ?? seats(row.seats) })
    })
  }
  // By minutes a slot's fill is its services' durations, not a count: no count to exceed.
  if (capacity === 'minutes') delete checks.over
  const startValue = a.start.datetime
  const startColumn = through(startValue?.column)
  if (capacityColumn !== undefined) checks.capacityPath = `${path}/capacity/column`
  if (startValue && startColumn !== undefined) checks.startPath = startValue.path
  if (capacityColumn !== undefined || checks.startPath !== undefined) {
    checks.scan = (keyType) => scanPlan(d, 'slots', source, [{ column: slotRowKey, type: keyType }], `${path}/join`, (scope, params, cols) => {
      const id = cols.add(scope.ref(slotRowKey, `${path}/join`))
      const stored = capacityColumn === undefined ? undefined : cols.add(scope.ref(capacityColumn, `${path}/capacity/column`))
      const start = startValue && startColumn !== undefined ? cols.add(scope.ref(startColumn, `${startValue.path}/column`)) : undefined
      // The statement /availability reads slots with, asked about every date a reader reads.
      const reached = startValue && startColumn !== undefined ? cols.add(d.caseWhen([{ when: d.and(slotRowRange(startValue, startColumn, scope, params)), then: '1' }], '0')) : undefined
      return (row) => {
        const out: SlotRowScan = { id: String(row[id]).trim() }
        const capacity = stored === undefined ? undefined : capacityFault(row[stored])
        if (capacity) out.capacity = capacity
        if (start !== undefined && startValue) {
          if (readSlotRowStart(row[start], startValue.format === 'text', storedClock(model)) === undefined) out.start = 'unreadable'
          else if (reached !== undefined && Number(row[reached]) !== 1) out.start = 'unreached'
        }
        return out
      }
    }, rangeArgs(EVERY_DATE.from, EVERY_DATE.to, storedClock(model)))
  }
  const services = doc.services
  if (!services || !a.refs.service) return checks
  const at = `${path}/services`
  const serviceRef = a.refs.service
  // Blocks are told apart by the first column the services table hangs from (without one, by the slot's key).
  const firstLocal = services.table !== undefined ? Object.keys(services.on ?? {})[0] : services.column
  const blockColumn = firstLocal === undefined ? undefined : through(firstLocal)
  checks.services = {
    refused: () => ({
      statement: aggregate('slot.services.refused', d, a, (scope, params) => {
        const service = valueSql(serviceRef, scope, params)
        const accepts = acceptsSql(services, at, (col, p) => scope.ref(col, p), scope, params, () => service)
        const key = scope.ref(a.key.parts[0].column, `${a.path}/key`)
        return { columns: [{ expr: d.count(), alias: 'n' }, { expr: d.min(key), alias: 'example' }], where: [d.isNotNull(service), d.not(accepts)] }
      }),
      read: (row) => ({ n: Number(row.n), example: String(row.example).trim() })
    })
  }
  if (blockColumn !== undefined) {
    checks.services.none = () => ({
      statement: aggregate('slot.services.none', d, source, (scope, params) => {
        const block = services.table !== undefined ? scope.ref(blockColumn, at) : scope.ref(slotRowKey, at)
        const none = d.caseWhen([{ when: acceptsSql(services, at, (col, p) => scope.ref(through(col) ?? col, p), scope, params), then: d.null }], block)
        return { columns: [{ expr: d.countDistinct(block), alias: 'blocks' }, { expr: d.countDistinct(none), alias: 'none' }, { expr: d.min(none), alias: 'example' }] }
      }),
      read: (row) => ({ blocks: Number(row.blocks), none: Number(row.none), example: String(row.example).trim() })
    })
  }
  return checks
}

function capacityOf (doc: SlotDoc, path: string, through: (col: string, at: string) => string): { fixed: number, column?: string, minutes?: true } {
  const c = doc.capacity
  if (c === undefined) return { fixed: 1 }
  if (typeof c === 'number') return { fixed: c }
  if (c === 'minutes') return { fixed: 1, minutes: true }
  return { fixed: 1, column: through(c.column, `${path}/capacity/column`) }
}

type AcceptsSql = (scope: Scope, params: ParamList) => string
type ServicesDoc = NonNullable<SlotDoc['services']>

/** The condition "the slot's block accepts the `service` input", from `write.slot.services`. */
function servicesOf (doc: SlotDoc, path: string, type: SqlTypeName, through: (col: string, at: string) => string): AcceptsSql | undefined {
  const s = doc.services
  if (s === undefined) return undefined
  const at = `${path}/services`
  if (s.table === undefined) {
    if (s.on !== undefined || s.where !== undefined) throw new CompileError(at, '`on` and `where` go with `table` (a child table of the block); without it, `column` is a column of the block')
    through(s.column, `${at}/column`)
  } else {
    const on = Object.keys(s.on ?? {})
    on.forEach((local) => through(local, `${at}/on`))
    if (on.length === 0) throw new CompileError(`${at}/on`, 'say how the services table hangs from the block: `on: { block.ID: BLOCK_ID }`')
  }
  return (scope, params) => acceptsSql(s, at, (col, p) => scope.ref(through(col, p), p), scope, params, () => params.input('service', type))
}

/**
 * "The block accepts `service`" (an expression, placed where it is called), or without one,
 * "accepts any service". `local` names the block's columns in the statement's scope.
 */
function acceptsSql (s: ServicesDoc, at: string, local: (col: string, path: string) => string, scope: Scope, params: ParamList, service?: () => string): string {
  const d = scope.dialect
  if (s.table === undefined) {
    const column = local(s.column, `${at}/column`)
    return service === undefined ? d.isNotNull(column) : `${column} = ${service()}`
  }
  const child = scope.child(s.table, at)
  const match = [
    ...Object.entries(s.on ?? {}).map(([l, remote]) => `${child.ref(remote, `${at}/on/${segment(l)}`, 'join')} = ${local(l, `${at}/on/${segment(l)}`)}`),
    ...(service === undefined ? [] : [`${child.ref(s.column, `${at}/column`, 'filter')} = ${service()}`]),
    ...whereList(s.where).map((w, i) => conditionSql(w, child, params, `${at}/where/${i}`))
  ]
  return d.exists(d.select({ columns: [{ expr: '1', alias: 'x' }], from: { table: d.table(s.table), alias: child.alias }, joins: [], where: match, orderBy: [] }))
}

function refType (model: MappingModel, r: SlotRowRef): SqlTypeName {
  const l = model.lookups[r]
  return l ? idType(l.key) : 'int'
}

/** Joins hanging (directly or not) from `alias`. */
function descendants (joins: Record<string, JoinDoc>, alias: string): string[] {
  const out: string[] = []
  let frontier = [alias]
  // Each round adds joins one level further down; a join appears once, so this ends.
  for (let depth = 0; frontier.length > 0 && depth <= Object.keys(joins).length; depth++) {
    frontier = Object.entries(joins).filter(([name, j]) => j.from !== undefined && frontier.includes(j.from) && !out.includes(name)).map(([name]) => name)
    out.push(...frontier)
  }
  return out
}
