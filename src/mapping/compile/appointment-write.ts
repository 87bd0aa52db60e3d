// Booking, state moves and rescheduling: interface values → the legacy appointment row.
import type { Dialect } from '../../sql/dialect.js'
import type { Querier } from '../../db/database.js'
import { ParamList, type Statement } from '../../sql/statement.js'
import { endDatetimeOf, toStoredDate, toStoredHour, type DateFormat, type HourFormat } from '../../normalise/datetime.js'
import type { EntityName, MappingModel, Value } from '../model.js'
import type { SqlTypeName } from '../schema.js'
import { CompileError } from './scope.js'
import { reference, segment } from './references.js'
import { idType, keyArgs } from './key.js'
import { bindId } from './ids.js'
import { fieldWriter, insertPlan, recordWrites, updatePlan, uniqueColumns, writeValues, type FieldWriter, type InsertPlan } from './write-columns.js'
import type { NowParts } from '../../normalise/datetime.js'
import { withSelfKey, type WriteContext } from './derived.js'
import { compileSlotRowBooking, type SlotRowBooking, type SlotRowRef } from './slot-rows.js'
import { compileHistory, compileLogRows, type LeftRow, type StatusHistory } from './history.js'
import { storedClock, toStoredTime, type StoredClock } from './stored-clock.js'
import { lastMinuteDatetimeOf, lastMinuteOf } from './inclusive.js'
import { patternMinutes, storedPattern } from './length-pattern.js'
import { NotWritableError } from '../../errors.js'
import { compileOpenSlots, type OpenSlotWrites } from './open-slots.js'
import { compileClientNameRead, type Booked, type BookedLookup, type ClientNameRead } from './booked-values.js'
import { compileLookup, type LookupById } from './lookup.js'
import { compileClientDefault, type ClientDefault } from './client-default.js'
import { onColumns } from './join-on.js'
import type { CoveringHours } from './hours-copy.js'
import { refWrittenAs } from '../written-ref.js'

export const BOOKING_REFS = ['client', 'professional', 'service', 'healthInsurance', 'plan', 'location'] as const
export type BookingRef = typeof BOOKING_REFS[number]

/** The refs a mapping can name a default for (`write.refs.<ref>.otherwise`): every one but the client. */
export type DefaultedRef = Exclude<BookingRef, 'client'>

/** `covering`: the copied columns of the working-hours row covering the start (`{ hours: … }`, hours-copy.ts), where read. */
export interface BookedTime { date: string, hour: string, endHour?: string, minutes?: number, covering?: CoveringHours }

type Columned = { column: string, type: SqlTypeName }
type Encoded = Record<string, unknown>

/** A ref held in a joined table's column: write the join's local column, found by lookup. */
export interface JoinedRef {
  /** The first joined row holding the id (`value`), and with an owner only the booked client's (`client`). */
  lookup: Statement
  column: Columned
  /** The joined table's column holding the client's id (`firstOf: { owner }`). */
  owner?: string
  /** The join's table, and the join's alias and place (where `check` names a missing owner). */
  table: string
  alias: string
  path: string
  /** Reads one column of the joined row a stored appointment points at (`id`: the appointment's id). */
  pointedRow: (column: string) => { statement: Statement, bind: (id: string) => Record<string, unknown> | undefined }
  /** The lowest id a client's own rows hold (`client`), by the joined table's column holding the client's id. */
  heldBy: (ownerColumn: string) => Statement
}

/**
 * A reschedule between open slots, inside the caller's transaction: the free row takes the
 * appointment's time, then the appointment (still in `state`) the free row's, with a
 * reschedule's columns. `taken`: the row was no longer free; `changed`: the appointment was
 * no longer booked in that state (the caller rolls back).
 */
export type OpenSlotSwap = (tx: Querier, appointment: { id: string, state: string, time: BookedTime }, free: { id: string, time: BookedTime }, now: NowParts) => Promise<'swapped' | 'taken' | 'changed'>

export interface CompiledAppointmentWrites {
  /** Compiled on first use: a table whose key Ponte cannot generate still takes state moves. */
  insert: () => InsertPlan
  /** Slot-based booking (slot-rows.ts), where the mapping declares it. */
  slotRowBooking?: SlotRowBooking
  /** The status-history rows written with each state change (history.ts). */
  history?: StatusHistory
  /** The rows each change adds after its own write (`write.log`). */
  log?: LeftRow[]
  /** Open slots as rows of the table (open-slots.ts): claims, releases, and the insert of a reopened slot (compiled on first use). */
  openSlots?: OpenSlotWrites & { reopen: () => InsertPlan, reopenValues: (now: NowParts, time: BookedTime, refs: Partial<Record<BookingRef, string>>) => Encoded, swap: OpenSlotSwap }
  refs: Partial<Record<BookingRef, FieldWriter>>
  joinedRefs: Partial<Record<BookingRef, JoinedRef>>
  /** The id a booking takes for a ref the caller leaves out (`write.refs.<ref>.otherwise`). */
  defaults: Partial<Record<DefaultedRef, string>>
  /** The booked client's own value a booking takes for a ref the caller leaves out (`write.refs.<ref>.fromClient`), or, `held`, the only one it accepts. */
  clientDefaults: Partial<Record<DefaultedRef, ClientDefault>>
  /** Refs the mapping reads but cannot write, with the reason (a booking sending one is refused unless `write.ignore` lists it). */
  readOnlyRefs: Partial<Record<BookingRef, string>>
  /** Columns for a booked time (start, and end where the mapping stores one). */
  time: (time: BookedTime) => Encoded
  /** `set` columns (those derived from the booked time, from `time`; copies, from `booked`) and the initial state's columns, at `now`. */
  constants: (now: NowParts, time?: BookedTime, booked?: Booked) => Encoded
  /** The booked service's own pattern, over `time`'s, in the length column where the mapping copies it there and it stands for the booked length. */
  lengthCopy: (now: NowParts, time: BookedTime, booked?: Booked) => Encoded
  /** Reads the booked client's name, where `write.set` copies it (booked-values.ts). */
  clientName?: ClientNameRead
  /** Reads by id, inside the booking's transaction, each lookup whose name a write copies. */
  copiedLookups: Partial<Record<BookedLookup, LookupById>>
  /** Reads the service by id inside a reschedule's transaction, where services have a duration (the appointment's length). */
  serviceById?: LookupById
  /** Columns written to put an appointment in a state. */
  state: (state: string, now: NowParts) => Encoded
  stateUpdate: (state: string) => Statement
  reschedule: Statement
  /** The reschedule leaving the working hours' copies as stored: a move no row's hours cover (no professional). Where the row copies some. */
  rescheduleKeepingHours?: Statement
  /** `reschedule` columns, the state after it, and the `set` columns that follow the booked time (without the hours' copies when `time.covering` is absent). */
  rescheduleValues: (now: NowParts, time?: BookedTime) => Encoded
}

export function compileAppointmentWrites (model: MappingModel, dialect: Dialect): CompiledAppointmentWrites {
  const a = model.appointment
  const path = `${a.path}/write`
  const slotRowBooking = compileSlotRowBooking(model, dialect)
  // Booking into a slot row writes only the pointer to it: the time is the row's.
  const timeWriter: TimeWriter = slotRowBooking ? { columns: [slotRowBooking.column], durationColumns: [], encode: () => ({}) } : compileTime(model, storedClock(model))
  const refs: Partial<Record<BookingRef, FieldWriter>> = {}
  const joinedRefs: Partial<Record<BookingRef, JoinedRef>> = {}
  const readOnlyRefs: Partial<Record<BookingRef, string>> = {}
  const defaults: Partial<Record<DefaultedRef, string>> = {}
  const clientDefaults: Partial<Record<DefaultedRef, ClientDefault>> = {}
  for (const name of BOOKING_REFS) {
    const v = a.refs[name]
    if (!v || slotRowBooking?.refs.includes(name as SlotRowRef)) continue
    const type = v.type ?? keyType(model, name)
    const writer = fieldWriter(defaultColumn(v), type)
    const declared = a.write?.refs?.[name]
    recordWrites(writer, () => a.table)
    if (writer) refs[name] = writer
    else if (declared?.firstOf !== undefined) joinedRefs[name] = joinedRef(model, defaultColumn(v), type, declared.firstOf, `${path}/refs/${name}`, dialect)
    else if (declared?.fromClient !== undefined && v.column?.includes('.') === true) clientDefaults[name as DefaultedRef] = compileClientDefault(model, name, type, dialect, true)
    else readOnlyRefs[name] = readOnlyReason(defaultColumn(v), name)
    if (declared?.otherwise !== undefined) defaults[name as DefaultedRef] = bookingDefault(declared.otherwise, refs[name] !== undefined || joinedRefs[name] !== undefined, `${path}/refs/${name}/otherwise`)
    const own = name === 'client' || (refs[name] === undefined && joinedRefs[name] === undefined) ? undefined : compileClientDefault(model, name, type, dialect, false)
    if (own) clientDefaults[name as DefaultedRef] = own
  }
  for (const name of Object.keys(a.write?.refs ?? {})) {
    if (!a.refs[name as BookingRef]) throw new CompileError(`${path}/refs/${name}`, `the appointment has no ${name} (refs.${name}) to write`)
  }
  refuseSharedColumns(timeWriter, refs, joinedRefs, path)
  const stateWrites = (state: string) => {
    const entries = a.write?.states?.[state]
    if (entries) return writeValues(model, a.table, entries, `${path}/states/${state}`)
    const w = fieldWriter(a.state.map ? a.state : undefined, a.state.type ?? 'text')
    recordWrites(w, () => a.table)
    if (!w) throw new CompileError(`${path}/states`, `say which columns put an appointment in state ${state} (write.states.${state})`)
    const encoded = w.encode(state)
    return w.columns.map((c) => ({ ...c, value: () => encoded[c.column] }))
  }
  // Every change of an existing row also writes `update` (a last-change stamp); a state's own columns win.
  const update = writeValues(model, a.table, a.write?.update, `${path}/update`)
  const changeWrites = (state: string) => uniqueColumns([...stateWrites(state), ...update])
  const states = new Map(model.states.values.flatMap((s) => {
    try { return [[s, changeWrites(s)] as const] } catch { return [] }
  }))
  const initial = stateWrites(model.states.initial)
  const set = writeValues(model, a.table, a.write?.set, `${path}/set`)
  refuseOverwrittenSet(set, (column) => 'value' in (a.write?.set?.[column] ?? {}), refs, joinedRefs, path)
  const reschedule = writeValues(model, a.table, a.write?.reschedule, `${path}/reschedule`)
  refuseRescheduleCode(model, path)
  const after = model.states.onReschedule === 'keep' ? [] : stateWrites(model.states.onReschedule)

  const columns = uniqueColumns([
    ...timeWriter.columns,
    ...Object.values(refs).flatMap((w) => w?.columns ?? []),
    ...Object.values(joinedRefs).map((j) => j?.column as Columned),
    ...set, ...initial
  ])
  const followsTime = set.filter((w) => w.followsTime)
  // A move to a time no working-hours row covers keeps the copies of the hours it had.
  const followsTimeKeepingHours = followsTime.filter((w) => w.fromHours !== true)
  const rescheduled = (follows: typeof followsTime) => uniqueColumns([...timeWriter.columns.filter((c) => !timeWriter.durationColumns.includes(c.column)), ...reschedule, ...after, ...follows, ...update])
  // A swap between open slots: each row takes the other's time whole (its length too), and what follows it.
  const vacated = uniqueColumns([...timeWriter.columns, ...followsTime, ...update])
  const moved = uniqueColumns([...timeWriter.columns, ...reschedule, ...after, ...followsTime, ...update])
  const open = compileOpenSlots(model, dialect, { refs, state: (s) => states.get(s) ?? changeWrites(s), swap: { vacated, moved } })
  // A reopened slot is a new row as a booking writes one, free: its time, professional and location.
  const heldBySlot = [refs.professional, refs.location].flatMap((w) => w?.columns ?? [])
  const reopenColumns = uniqueColumns([...timeWriter.columns, ...heldBySlot, ...set, ...(open?.freeColumns ?? [])])
  let reopenCompiled: InsertPlan | undefined
  let insertCompiled: InsertPlan | undefined
  const insert = () => (insertCompiled ??= withSelfKey(insertPlan('appointment.insert', a, a.write, columns, dialect), a, set, dialect))
  const updates = new Map<string, Statement>()
  const values = (list: { column: string, value: (now: NowParts, context?: WriteContext) => unknown }[], now: NowParts, time?: BookedTime, booked?: Booked) =>
    Object.fromEntries(list.map((w) => [w.column, w.value(now, { time, booked })]))
  // What a booking copies into the row: the client's name or phone, a lookup's name or id.
  const copied = Object.values({ ...a.write?.set, ...a.openSlots?.claim })
  const lookups = copiedLookups(model, dialect)

  // The statement keeps the first of a repeated column (`uniqueColumns`); its value must be that one's too,
  // so an explicit `write.reschedule` code wins over the code of the state a reschedule moves to.
  const rescheduleValues = (now: NowParts, time?: BookedTime): Encoded => ({ ...values(update, now), ...values(time?.covering === undefined ? followsTimeKeepingHours : followsTime, now, time), ...values(after, now), ...values(reschedule, now) })

  return {
    insert,
    slotRowBooking,
    history: compileHistory(model, dialect),
    log: compileLogRows(model, dialect),
    openSlots: open && {
      ...open,
      reopen: () => (reopenCompiled ??= insertPlan('appointment.openSlot.reopen', a, a.write, reopenColumns, dialect)),
      reopenValues (now, time, given) {
        const out: Encoded = { ...values(set, now, time), ...timeWriter.encode(time) }
        for (const r of ['professional', 'location'] as const) if (refs[r]) Object.assign(out, refs[r]?.encode(given[r] === undefined ? undefined : bindId(given[r] as string, refs[r]?.columns[0].type ?? 'int')))
        return { ...out, ...open.freeValues(now) }
      },
      async swap (tx, appointment, free, now) {
        // Values in the statements' column order, the first of a repeated column winning (as rescheduleValues).
        const at = (time: BookedTime): Encoded => ({ ...values(update, now), ...values(followsTime, now, time), ...timeWriter.encode(time) })
        if (!await open.vacate(tx, free.id, at(appointment.time))) return 'taken'
        if (await open.take(tx, appointment.id, appointment.state, { ...rescheduleValues(now, free.time), ...timeWriter.encode(free.time) })) return 'swapped'
        // Put back where a rollback cannot (`nonTransactional: accept`); rolled back with the rest elsewhere.
        await open.vacate(tx, free.id, at(free.time))
        return 'changed'
      }
    },
    refs,
    joinedRefs,
    defaults,
    clientDefaults,
    readOnlyRefs,
    time: timeWriter.encode,
    constants: (now, time, booked) => ({ ...values(set, now, time, booked), ...values(initial, now) }),
    lengthCopy (now, time, booked) {
      const pattern = a.end?.duration?.pattern
      const copy = pattern && set.find((w) => w.copies === 'service' && w.column === a.end?.duration?.column)
      if (!copy || time.minutes === undefined) return {}
      // Load made sure the service's length is read from the same column at the same `per`.
      const stored = copy.value(now, { booked })
      return patternMinutes(stored, pattern.per) === time.minutes ? { [copy.column]: stored } : {}
    },
    clientName: copied.some((w) => 'client' in w) ? compileClientNameRead(model, dialect, copied.some((w) => 'client' in w && w.client === 'phone')) : undefined,
    copiedLookups: lookups,
    // The service's row copied from is the one its length is read from: one statement for both.
    serviceById: model.lookups.service?.fields.duration ? lookups.service ?? compileLookup(model.lookups.service, dialect).byId : undefined,
    state: (state, now) => values(states.get(state) ?? changeWrites(state), now),
    stateUpdate (state) {
      let s = updates.get(state)
      if (!s) {
        s = updatePlan(`appointment.state[${state}]`, a, states.get(state) ?? changeWrites(state), dialect)
        updates.set(state, s)
      }
      return s
    },
    reschedule: updatePlan('appointment.reschedule', a, rescheduled(followsTime), dialect),
    rescheduleKeepingHours: followsTimeKeepingHours.length === followsTime.length ? undefined : updatePlan('appointment.reschedule.keepingHours', a, rescheduled(followsTimeKeepingHours), dialect),
    rescheduleValues
  }
}

function keyType (model: MappingModel, name: EntityName): SqlTypeName {
  if (name === 'client') return idType(model.client.key)
  if (name === 'plan') return 'text'
  const lookup = model.lookups[name]
  return lookup ? idType(lookup.key) : 'int'
}

// The professional decided by rules is written to the rules' fallback column (the regular
// dentist); the mapping's `write.set` puts the deciding flag in the matching state.
function defaultColumn (v: Value): Value {
  if (v.coalesce) return refWrittenAs(v)
  if (!v.rules) return v
  const fallback = v.rules.at(-1)
  return fallback && !fallback.when && fallback.column ? { column: fallback.column, type: v.type, length: v.length, path: v.path } : v
}

// A ref read through a join (`location: sala.ID_UNIDADE`), written as the join's own column
// pointing at the first joined row holding the id: only where the mapping asks for it
// (`write.refs.<ref>.firstOf`), since "some row with this value" is a guess the clinic must own.
function joinedRef (model: MappingModel, v: Value, type: SqlTypeName, firstOf: string | { join: string, owner: string }, path: string, dialect: Dialect): JoinedRef {
  const alias = typeof firstOf === 'string' ? firstOf : firstOf.join
  const owner = typeof firstOf === 'string' ? undefined : firstOf.owner
  if (owner !== undefined && model.client.key.parts.length > 1) throw new CompileError(`${path}/firstOf/owner`, 'the client\'s key has several columns: one owner column cannot hold it')
  const col = v.column
  const [readAlias, remoteCol] = col?.includes('.') === true ? col.split('.') : []
  if (readAlias !== alias) throw new CompileError(`${path}/firstOf`, `the ref is not read through the join \`${alias}\` (it is read from ${col ?? 'rules, a template or an expression'})`)
  const join = model.appointment.joins[alias]
  const pairs = Object.entries(onColumns(join?.on ?? {}))
  if (!join || join.from || pairs.length !== 1) throw new CompileError(`${path}/firstOf`, `\`${alias}\` must be a join of the appointment row itself on one column to be written through`)
  const [local, remote] = pairs[0]
  const params = new ParamList(dialect)
  const j = (c: string) => dialect.column('j', c)
  const sql = dialect.select({
    columns: [{ expr: dialect.min(j(remote)), alias: 'id' }],
    from: { table: dialect.table(join.table), alias: 'j' },
    joins: [],
    where: [`${j(remoteCol)} = ${params.input('value', type)}`, ...(owner === undefined ? [] : [`${j(owner)} = ${params.input('client', keyType(model, 'client'))}`])],
    orderBy: []
  })
  reference({ table: model.appointment.table, column: local, use: 'write', path: `${path}/firstOf` })
  if (owner !== undefined) reference({ table: join.table, column: owner, use: 'read', path: `${path}/firstOf/owner` })
  const a = model.appointment
  const pointedRow = (column: string) => {
    const p = new ParamList(dialect)
    const parts = a.key.parts
    const statement: Statement = {
      name: `appointment.write.${alias}.pointed`,
      sql: dialect.select({
        columns: [{ expr: j(column), alias: 'value' }],
        from: { table: dialect.table(a.table), alias: 't' },
        joins: [{ table: dialect.table(join.table), alias: 'j', on: `${j(remote)} = ${dialect.column('t', local)}` }],
        where: parts.map((k, i) => `${dialect.column('t', k.column)} = ${p.input(parts.length === 1 ? 'id' : `id#${i}`, k.type)}`),
        orderBy: []
      }),
      params: p.params
    }
    return { statement, bind: (id: string) => keyArgs(a.key, id) }
  }
  const heldBy = (column: string): Statement => {
    const p = new ParamList(dialect)
    const sql = dialect.select({
      columns: [{ expr: dialect.min(j(remoteCol)), alias: 'id' }],
      from: { table: dialect.table(join.table), alias: 'j' },
      joins: [],
      where: [`${j(column)} = ${p.input('client', keyType(model, 'client'))}`],
      orderBy: []
    })
    return { name: `appointment.write.${alias}.held`, sql, params: p.params }
  }
  return { lookup: { name: `appointment.write.${alias}.lookup`, sql, params: params.params }, column: { column: local, type: 'int' }, owner, table: join.table, alias, path: `${path}/firstOf`, pointedRow, heldBy }
}

function readOnlyReason (v: Value, name: BookingRef): string {
  const via = v.column?.includes('.') === true ? `through the join \`${v.column.split('.')[0]}\`` : 'from rules, a template or an expression'
  return `this installation reads ${name} ${via} (at ${v.path}) and its mapping does not say how to write it (write.refs.${name}), nor to ignore it (write.ignore)`
}

// Two fields written to one column would store one of them wrongly (a ref looked up through
// the patient's own row overwriting the patient's id): such a mapping cannot book.
function refuseSharedColumns (time: TimeWriter, refs: Partial<Record<BookingRef, FieldWriter>>, joined: Partial<Record<BookingRef, JoinedRef>>, path: string): void {
  const owners = new Map<string, string>()
  const claim = (column: string, owner: string, at: string) => {
    const other = owners.get(column.toLowerCase())
    if (other !== undefined && other !== owner) throw new CompileError(at, `${owner} and ${other} would both be written to column ${column}; one of them must be read-only (remove its write.refs entry) or stored elsewhere`)
    owners.set(column.toLowerCase(), owner)
  }
  for (const c of time.columns) claim(c.column, 'the date and hour', path)
  for (const [name, w] of Object.entries(refs)) for (const c of w?.columns ?? []) claim(c.column, name, path)
  for (const [name, j] of Object.entries(joined)) if (j) claim(j.column.column, name, `${path}/refs/${name}/firstOf`)
}

// A value the mapping derives (a copy, a stamp, the covering hours' column) in a column a ref
// writes would be overwritten whenever the booking names that ref, silently (Open Dental's
// ProvNum copied from the operatory beside a professional read by rules). A constant there
// stands only where the booking names none, as `write.refs.<ref>.otherwise` says better.
function refuseOverwrittenSet (set: Columned[], constant: (column: string) => boolean, refs: Partial<Record<BookingRef, FieldWriter>>, joined: Partial<Record<BookingRef, JoinedRef>>, path: string): void {
  const owners = new Map<string, string>()
  for (const [name, w] of Object.entries(refs)) for (const c of w?.columns ?? []) owners.set(c.column.toLowerCase(), name)
  for (const [name, j] of Object.entries(joined)) if (j) owners.set(j.column.column.toLowerCase(), name)
  for (const c of set) {
    const ref = owners.get(c.column.toLowerCase())
    if (ref !== undefined && !constant(c.column)) throw new CompileError(`${path}/set/${c.column}`, `column ${c.column} is where a booking writes its ${ref} (refs.${ref}; a ref read by rules is written to its last column), which would overwrite this value whenever the booking names one: write it in one place only`)
  }
}

interface TimeWriter {
  columns: Columned[]
  durationColumns: string[]
  encode: (time: BookedTime) => Encoded
}

/** The booked time's columns; a date-time on another clock (`storedIn`, which refuses the split forms) is written on that clock. */
function compileTime (model: MappingModel, clock: StoredClock | undefined): TimeWriter {
  const { start, end } = model.appointment
  const columns: Columned[] = []
  const encoders: ((s: BookedTime) => Encoded)[] = []
  const durationColumns: string[] = []
  const written = (v: Value): void => reference({ table: model.appointment.table, column: v.column, use: 'write', path: `${v.path}/column` })
  const plain = (v: Value | undefined, what: string): string => {
    if (!v || v.column === undefined || v.column.includes('.')) throw new CompileError(v?.path ?? `${model.appointment.path}/start`, `${what} must be a plain column to book appointments`)
    written(v)
    return v.column
  }
  if (start.datetime) {
    const c = plain(start.datetime, 'the start')
    // A datetime column, or text holding 'YYYY-MM-DD HH:MM:SS' (which sorts and compares the same).
    columns.push({ column: c, type: start.datetime?.format === 'text' ? 'text' : 'datetime' })
    encoders.push((s) => ({ [c]: toStoredTime(`${s.date} ${s.hour}:00`, clock) }))
  } else {
    const dc = plain(start.date, 'the date')
    const format = start.date?.format ?? 'date'
    const df = (format === 'dmy' || format === 'ymd' ? 'text' : format) as DateFormat
    columns.push({ column: dc, type: df === 'int' ? 'int' : df === 'text' ? 'text' : df === 'datetime' ? 'datetime' : 'date' })
    encoders.push((s) => ({ [dc]: df === 'datetime' ? `${s.date} 00:00:00` : toStoredDate(s.date, df, format === 'dmy' || format === 'ymd' ? format : 'iso', start.date?.separator) }))
    const hc = plain(start.hour, 'the hour')
    const hf = (start.hour?.format ?? 'text') as HourFormat
    columns.push({ column: hc, type: hourType(hf) })
    encoders.push((s) => ({ [hc]: hf === 'datetime' ? `${s.date} ${s.hour}:00` : toStoredHour(s.hour, hf) }))
  }
  if (end?.duration?.column !== undefined && !end.duration.column.includes('.')) {
    written(end.duration)
    const c = end.duration.column
    const pattern = end.duration.pattern
    durationColumns.push(c)
    if (pattern) {
      columns.push({ column: c, type: 'text' })
      encoders.push((s) => ({ [c]: s.minutes === undefined ? null : patternOf(s.minutes, pattern, `${end.duration?.path ?? ''}/pattern`) }))
    } else {
      const per = { minutes: 1, seconds: 60, hours: 1 / 60 }[end.duration.unit ?? 'minutes']
      columns.push({ column: c, type: 'int' })
      encoders.push((s) => ({ [c]: s.minutes === undefined ? (end.duration?.nullIf?.[0] ?? null) : Math.round(s.minutes * per) }))
    }
  } else if (end?.hour?.column !== undefined && !end.hour.column.includes('.')) {
    written(end.hour)
    const c = end.hour.column
    const f = (end.hour.format ?? 'text') as HourFormat
    // An inclusive end is stored as the booked time's last minute (inclusive.ts).
    const last = end.hour.inclusive === true
    columns.push({ column: c, type: hourType(f) })
    encoders.push((s) => {
      if (s.endHour === undefined) return { [c]: null }
      if (f === 'datetime') return { [c]: toStoredTime(last ? lastMinuteDatetimeOf(s.date, s.hour, s.endHour) : endDatetimeOf(s.date, s.hour, s.endHour), clock) }
      return { [c]: toStoredHour(last ? lastMinuteOf(s.hour, s.endHour) : s.endHour, f) }
    })
  } else if (end?.datetime?.column !== undefined && !end.datetime.column.includes('.')) {
    written(end.datetime)
    const c = end.datetime.column
    const last = end.datetime.inclusive === true
    columns.push({ column: c, type: 'datetime' })
    encoders.push((s) => ({ [c]: s.endHour === undefined ? null : toStoredTime(last ? lastMinuteDatetimeOf(s.date, s.hour, s.endHour) : endDatetimeOf(s.date, s.hour, s.endHour), clock) }))
  }
  return { columns, durationColumns, encode: (s) => Object.assign({}, ...encoders.map((e) => e(s))) }
}

/** A booked length as the pattern the column holds; a length that is not whole characters cannot be stored as booked. */
function patternOf (minutes: number, pattern: { per: number, repeat?: string, edges?: string }, path: string): string {
  const stored = storedPattern(minutes, pattern)
  if (stored === undefined) throw new NotWritableError(`A booking of ${minutes} minutes cannot be stored: this installation keeps lengths as characters of ${pattern.per} minutes (${path}).`, [{ path: '/body/service', message: `lasts ${minutes} minutes, not a whole number of ${pattern.per}-minute characters` }])
  return stored
}

function hourType (f: HourFormat): SqlTypeName {
  return f === 'hhmm' || f === 'minutes' ? 'int' : f === 'time' ? 'time' : f === 'datetime' ? 'datetime' : 'text'
}

/**
 * The lookups whose name or columns a write copies (`{ service: name }`, `{ service: { column:
 * Pattern } }`), each read by id in the booking's transaction, by one statement per lookup.
 */
function copiedLookups (model: MappingModel, dialect: Dialect): Partial<Record<BookedLookup, LookupById>> {
  const out: Partial<Record<BookedLookup, LookupById>> = {}
  for (const name of ['service', 'professional', 'location', 'healthInsurance'] as const) {
    const lookup = model.lookups[name]
    const copies = lookupCopies(model, name)
    if (lookup && copies.length > 0) out[name] = compileLookup(lookup, dialect, copies.flatMap((c) => typeof c.part === 'object' ? [{ column: c.part.column, path: `${c.path}/${name}/column` }] : [])).byId
  }
  return out
}

/** Each copy of a booked lookup under `write.set` and `openSlots.claim`, with its place. */
function lookupCopies (model: MappingModel, name: BookedLookup): { part: 'name' | 'id' | { column: string }, path: string }[] {
  const a = model.appointment
  const places = [{ at: `${a.path}/write/set`, entries: a.write?.set }, { at: `${a.path}/openSlots/claim`, entries: a.openSlots?.claim }]
  return places.flatMap(({ at, entries }) => Object.entries(entries ?? {}).flatMap(([column, w]) => {
    const part = (w as Partial<Record<BookedLookup, 'name' | 'id' | { column: string }>>)[name]
    return part === undefined || part === 'id' ? [] : [{ part, path: `${at}/${segment(column)}` }]
  }))
}

/** A ref's default as the id a request would send, of a ref the booking writes (that its column holds it: model.ts). */
function bookingDefault (otherwise: string | number, written: boolean, path: string): string {
  if (!written) throw new CompileError(path, 'the booking does not write this ref (it is read through a join without `firstOf`, or booked through the slot), so it cannot take a default')
  return String(otherwise)
}

/**
 * A status code `write.reschedule` writes reads as one state; after a move the appointment must
 * read as the state `onReschedule` leaves it in, or every such move is refused at its read-back.
 */
function refuseRescheduleCode (model: MappingModel, path: string): void {
  const a = model.appointment
  const column = a.state.column
  const map = a.state.map
  if (column === undefined || map === undefined) return
  const entry = Object.entries(a.write?.reschedule ?? {}).find(([c]) => c.toLowerCase() === column.toLowerCase())
  const written = entry?.[1]
  if (entry === undefined || written === null || typeof written !== 'object' || !('value' in written)) return
  const code = String(written.value)
  const exact = a.state.codes === 'exact'
  const read = Object.entries(map).find(([k]) => exact ? k === code : k.toLowerCase() === code.toLowerCase())?.[1]
  if (read === undefined) return
  const target = model.states.onReschedule
  if (target !== 'keep' && target === read) return
  const after = target === 'keep' ? 'keeps each appointment\'s state (`states.onReschedule: keep`)' : `moves it to ${target} (\`states.onReschedule\`)`
  throw new CompileError(`${path}/reschedule/${segment(entry[0])}`, `every reschedule writes \`${code}\`, which reads as ${read}, but a reschedule ${after}: a moved appointment would read back as ${read} and the move be refused. Set \`states.onReschedule: ${read}\`, or leave \`${entry[0]}\` out of \`write.reschedule\``)
}
