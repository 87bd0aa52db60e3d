// The write side of the compiled installation, built once at start-up with the reads. What a
// mapping cannot write comes back as a value (`{ unsupported: { path, reason } }`) in the
// place a plan would be, so the server, `check` and `explain` read one object and nobody
// catches compile errors at request time. Plans take domain values and bind their own inputs.
import type { Querier } from '../../db/database.js'
import type { Dialect } from '../../sql/dialect.js'
import { inputType, type Statement } from '../../sql/statement.js'
import type { SqlTypeName } from '../schema.js'
import type { NowParts } from '../../normalise/datetime.js'
import type { MappingModel } from '../model.js'
import { CompileError } from './scope.js'
import { NotWritableError } from '../../errors.js'
import { keyArgs } from './key.js'
import { columnInputs, isUnsupported, type Bound, type Supported } from './bind.js'
import { compileClientWrites, PATCHABLE, type ClientField, type CompiledClientWrites } from './client-write.js'
import { compileAppointmentWrites, type OpenSlotSwap, type BookingRef, type DefaultedRef, type CompiledAppointmentWrites, type JoinedRef, type BookedTime } from './appointment-write.js'
import { compileSlotRowBooking, type SlotRowBooking } from './slot-rows.js'
import type { OpenSlotWrites } from './open-slots.js'
import type { ColumnValues, FieldWriter, InsertPlan, KeyPlan } from './write-columns.js'
import { OWN_ROW, ownColumnsRead, type RowPlan, type RowsPlan } from './rows.js'
import { insertJoinedRow, runInsert, runInsertWithRows, type KeyedBound } from './insert-run.js'
import { bindId } from './ids.js'
import { compileStateRows, type StateRows } from './state-rows.js'
import { checkHistoryRead } from './history-read.js'
import type { Copy, LeftRow } from './history.js'
import type { HistoryEvent } from './derived.js'
import type { Booked, BookedLookup, ClientNameRead } from './booked-values.js'
import type { LookupById } from './lookup.js'
import type { ClientDefault } from './client-default.js'

export type { Booked, BookingRef, ClientField, ClientNameRead, FieldWriter, BookedTime }
export { BOOKING_REFS } from './appointment-write.js'
export { PATCHABLE }

/** Field values as the clinic's columns hold them, by interface field. */
export type ClientValues = Partial<Record<ClientField, string>>

export interface ClientInsert {
  plan: InsertPlan
  /** The rows written before and after the client's own (rows.ts). */
  rows?: RowsPlan
  /** Every statement, in the order a registration runs them (for `explain`). */
  statements: Statement[]
  /** Writes a new client inside the caller's transaction; returns its id. */
  run: (tx: Querier, values: ClientValues, now: NowParts) => Promise<string>
}

export interface ClientPatch {
  statements: Statement[]
  /** The joined rows the correction stamps (`update` of their entry): each read as the reads show it (check compares the stamps). */
  stamped: Array<{ alias: string, read: (id: string) => Bound | undefined, columns: string[], touched: (now: NowParts) => ColumnValues }>
  /**
   * Corrects one client inside the caller's transaction: its own row, and each joined row
   * holding a field (inserted when the client has none yet and the mapping writes such rows
   * with new clients). false when no row can have that id.
   */
  run: (tx: Querier, id: string, values: ClientValues, now: NowParts) => Promise<boolean>
}

export interface ClientWritePlans {
  /** Request fields the mapping declares accepted and not stored (`write.ignore`). */
  ignored: ReadonlySet<string>
  /** Fields in the client's own table: written on insert and PATCH. */
  writers: Partial<Record<ClientField, FieldWriter>>
  /** Fields in rows written with the client's (columns `alias.column`). */
  rowWriters: Partial<Record<ClientField, FieldWriter>>
  insert: Supported<ClientInsert>
  /** The correction of exactly these fields (each has a writer or a row writer). */
  patch: (fields: ClientField[]) => Supported<ClientPatch>
  /** The `write.set` columns of a new client's own row, at `now` (check compares them with the stored row). */
  constants: (now: NowParts) => ColumnValues
}

/** A ref kept in a joined table: its local column, found by looking the id up. */
export interface JoinedRefPlan {
  column: JoinedRef['column']
  lookup: Statement
  /** The type the looked-up value binds with. */
  type?: SqlTypeName
  /** `client`: the booked client, whose own row an owned join takes (`firstOf: { owner }`). */
  bind: (id: string, client?: string) => Bound
  /** The joined table's column holding the client's id, where the mapping declares it. */
  owner?: string
  table: string
  alias: string
  /** The mapping place of `firstOf`. */
  path: string
  /** One column (`value`) of the joined row the stored appointment `id` points at. */
  pointedRow: (column: string, id: string) => Bound | undefined
  /** The lowest id (`id`) the client's own rows hold, by the column holding the client's id. */
  heldBy: (ownerColumn: string, client: string) => Bound
}

export interface AppointmentInsert {
  plan: InsertPlan
  run: (tx: Querier, columns: ColumnValues) => Promise<string>
}

export interface StateMove {
  statement: Statement
  /** undefined when no row can have that id. */
  bind: (id: string, now: NowParts) => Bound | undefined
}

export interface Reschedule {
  statement: Statement
  /** The move leaving the working hours' copies as stored, where the row copies some (`{ hours: … }`). */
  keepingHours?: Statement
  /** `pointer`: the found slot's column values, where booking is slot-based. */
  bind: (id: string, now: NowParts, time: BookedTime, pointer?: ColumnValues) => Bound | undefined
}

export interface HistoryPlan {
  /** None where history rows are only added (no `current`). */
  close?: Statement
  /** None where only `left` rows are written. */
  open?: Statement
  /** Close the current rows (when `closing`) and open one for `state` (its key made first where `key` says: insert-run's runKeyed). */
  bind: (id: string, state: string, now: NowParts, closing: boolean) => KeyedBound[] | undefined
  /** The row a change leaves behind (`write.history.left`), added before the change's own UPDATE. */
  left?: LeftRowPlan
  /** The row as a change left it (`write.history.after`), added after the change's own write, the booking's insert included. */
  after?: LeftRowPlan
  /** How each row's own key is made first (`rowKey`), where Ponte makes it. */
  rowKey?: KeyPlan
}

export interface LeftRowPlan {
  statement: Statement
  /** Which changes add the row: every state change, every reschedule. */
  on: LeftRow['on']
  /** A log row's own key, made before its INSERT (`rowKey`). */
  rowKey?: KeyPlan
  /** The appointment `id` leaving state `left` for `entered` at `now`, by `event` (its own key made first where `rowKey` says). */
  bind: (id: string, left: string, entered: string, now: NowParts, event?: HistoryEvent) => KeyedBound | undefined
  /** What check compares: the columns copied from the appointment row, and the bound ones' values. */
  copies: Copy[]
  values: (id: string, left: string, entered: string, now: NowParts, event?: HistoryEvent) => ColumnValues | undefined
  /** Every history row of the appointment `id`, by column (the `left` columns); none for a log row. */
  rows: (id: string) => { bound: Bound, read: (row: Record<string, unknown>) => ColumnValues } | undefined
}

export interface StateRowsPlan {
  statements: Statement[]
  /** Clear the rows of an appointment entering `state`, and write those recording it. */
  bind: (id: string, state: string, now: NowParts) => Bound[] | undefined
}

export interface AppointmentWritePlans {
  refs: Partial<Record<BookingRef, FieldWriter>>
  joinedRefs: Partial<Record<BookingRef, JoinedRefPlan>>
  /** The id a booking takes for a ref the caller leaves out (`write.refs.<ref>.otherwise`). */
  defaults: Partial<Record<DefaultedRef, string>>
  /** The booked client's own value a ref the caller leaves out takes (`write.refs.<ref>.fromClient`: client-default.ts). */
  clientDefaults: Partial<Record<DefaultedRef, ClientDefault>>
  /** Refs read but not writable, with the reason. */
  readOnlyRefs: Partial<Record<BookingRef, string>>
  /** Request fields the mapping declares accepted and not stored (`write.ignore`). */
  ignored: ReadonlySet<string>
  /** A new row's column values: constants at `now`, the booked time, the refs the request gives (ids as strings) and copies of what it names (`booked`). */
  columns: (now: NowParts, time: BookedTime, refs: Partial<Record<BookingRef, string>>, booked?: Booked) => ColumnValues
  /** Reads the booked client's name, where the mapping copies it into the appointment (booked-values.ts). */
  clientName?: ClientNameRead
  /** Reads by id, inside the booking's transaction, each lookup whose name a write copies. */
  copiedLookups: Partial<Record<BookedLookup, LookupById>>
  /** Reads the service by id inside a reschedule's transaction, where services have a duration. */
  serviceById?: LookupById
  insert: Supported<AppointmentInsert>
  /** One per state of the vocabulary. */
  stateMoves: Record<string, Supported<StateMove>>
  reschedule: Reschedule
  slotRowBooking?: SlotRowBooking
  /** Open slots as rows of the appointment table, booked by claiming them (open-slots.ts). */
  openSlots?: OpenSlotPlans
  history?: HistoryPlan
  /** Other rows each change adds after its own write (`write.log`: Open Dental's securitylog), in order. */
  log?: LeftRowPlan[]
  /** Rows recording a state the status column cannot hold (state-rows.ts). */
  stateRows?: StateRowsPlan
  /** What each write leaves in the row's own columns (check compares them with the stored row). */
  written: {
    time: (time: BookedTime) => ColumnValues
    state: (state: string, now: NowParts) => ColumnValues
    reschedule: (now: NowParts, time: BookedTime) => ColumnValues
  }
}

export interface OpenSlotPlans extends Omit<OpenSlotWrites, 'freeColumns' | 'freeValues' | 'vacate' | 'take'> {
  /** A reschedule between open slots: the appointment and the free row swap times (appointment-write.ts). */
  swap: OpenSlotSwap
  /** `onCancel: reopen`: inserts a new free row at `time` for the professional and location given; returns its id. */
  reopen: Supported<{ plan: InsertPlan, run: (tx: Querier, now: NowParts, time: BookedTime, refs: Partial<Record<BookingRef, string>>) => Promise<string> }>
}

export interface CompiledWrites {
  client: Supported<ClientWritePlans>
  appointment: Supported<AppointmentWritePlans>
  /**
   * Slot-based booking on its own, for /availability: which slot rows exist does not depend on
   * the rest of the appointment's writes being expressible.
   */
  slotRows: Supported<SlotRowBooking | undefined>
  /** Every write statement the mapping has, for `explain`, `check` and the golden tests. */
  statements: () => Statement[]
}

/** Any instant: only which columns a stamp writes is asked of it. */
const SAMPLE_NOW: NowParts = { date: '2000-01-01', time: '00:00:00', datetime: '2000-01-01 00:00:00', at: new Date(Date.UTC(2000, 0, 1)) }

/** "The mapping cannot express this" as a value, at the place it says so. */
function supported<T> (fn: () => T): Supported<T> {
  try {
    return fn()
  } catch (err) {
    if (err instanceof CompileError) return { unsupported: { path: err.path, reason: err.message } }
    throw err
  }
}

export function compileWrites (model: MappingModel, dialect: Dialect): CompiledWrites {
  const client = supported(() => clientPlans(model, compileClientWrites(model, dialect), dialect))
  // A state row or read history the mapping gets wrong refuses the mapping at its line: it is how a state is read.
  const stateRows = compileStateRows(model, dialect)
  checkHistoryRead(model)
  const appointment = supported(() => appointmentPlans(model, compileAppointmentWrites(model, dialect), stateRows))
  const slotRows = isUnsupported(appointment) ? supported(() => compileSlotRowBooking(model, dialect)) : appointment.slotRowBooking
  return { client, appointment, slotRows, statements: () => writeStatements(client, appointment, model) }
}

// A column `write.set` names keeps that value when the request gives its field nothing (an
// empty string where the desk program never stores NULL): the field's value wins otherwise.
function withField (own: ColumnValues, encoded: ColumnValues, absent: boolean): void {
  for (const [column, value] of Object.entries(encoded)) {
    if (column in own && (absent || value === null || value === undefined)) continue
    own[column] = value
  }
}

function clientPlans (model: MappingModel, c: CompiledClientWrites, dialect: Dialect): ClientWritePlans {
  const { writers, rowWriters, rows } = c
  const rowStatements = (list: RowsPlan['before']) => list.flatMap((r) => r.keyed ? [...r.keyed.plan.key.before, r.keyed.plan.statement] : r.statement ? [r.statement] : [])
  const insert = supported((): ClientInsert => {
    const plan = c.insert()
    return {
      plan,
      rows,
      statements: [...rowStatements(rows?.before ?? []), ...plan.key.before, plan.statement, ...(plan.selfKey?.update ? [plan.selfKey.update] : []), ...rowStatements(rows?.after ?? [])],
      async run (tx, values, now) {
        const own: ColumnValues = { ...c.constants(now) }
        for (const [field, writer] of Object.entries(writers)) if (writer) withField(own, writer.encode(values[field as ClientField]), values[field as ClientField] === undefined)
        // Fields kept in the rows written with the client's (a name row, a phone attribute).
        const fields: Record<string, unknown> = {}
        // Only fields given: a row holding nothing but absent fields is not inserted (rows.ts).
        for (const [field, writer] of Object.entries(rowWriters)) if (values[field as ClientField] !== undefined) Object.assign(fields, writer?.encode(values[field as ClientField]))
        return rows ? await runInsertWithRows(tx, rows, plan, own, fields, now) : await runInsert(tx, plan, own)
      }
    }
  })
  const patches = new Map<string, Supported<ClientPatch>>()
  const patch = (fields: ClientField[]): Supported<ClientPatch> => {
    const cacheKey = [...fields].sort().join(',')
    let p = patches.get(cacheKey)
    if (!p) {
      p = supported((): ClientPatch => {
        const own = fields.filter((f) => writers[f])
        const inRows = fields.filter((f) => !writers[f] && rowWriters[f])
        // A stamp (`write.update`) marks the client's row changed even when only joined rows hold the fields.
        const stamps = Object.keys(c.touched(SAMPLE_NOW)).length > 0
        const update = own.length > 0 || (stamps && fields.length > 0) ? c.update(own) : undefined
        const joined = inRows.length > 0 ? c.rowUpdates(inRows) : []
        // A joined row a client may not have yet (an e-mail attribute) is inserted as a
        // registration would insert it, where it hangs from the client's own row: its key, or
        // another of its columns (a party id) read by key in the transaction.
        const insertable = (alias: string): RowPlan | undefined => {
          const row = c.rows?.after.find((r) => r.name === alias)
          return row !== undefined && row.links.length > 0 && row.links.every((l) => l.from === OWN_ROW) ? row : undefined
        }
        const keyColumn = model.client.key.column
        const linked = (row: RowPlan): string[] => [...new Set(row.links.map((l) => l.fromColumn))].filter((col) => col !== keyColumn)
        const reads = new Map(joined.flatMap((j) => {
          const row = insertable(j.alias)
          const cols = row ? linked(row) : []
          return row && cols.length > 0 ? [[j.alias, { columns: cols, statement: ownColumnsRead(model.client, cols, dialect) }] as const] : []
        }))
        return {
          stamped: joined.flatMap((j) => {
            const stamped = j.stamped
            if (!stamped) return []
            const prefix = `${j.alias}.`
            return [{
              alias: j.alias,
              columns: stamped.columns,
              read: (id: string) => { const k = keyArgs(model.client.key, id); return k && { statement: stamped.statement, args: k } },
              touched: (now: NowParts) => Object.fromEntries(Object.entries(j.touched(now)).map(([c, v]) => [c.slice(prefix.length), v]))
            }]
          }),
          statements: [...update ? [update] : [], ...joined.flatMap((j) => insertable(j.alias) ? [j.exists, ...reads.has(j.alias) ? [reads.get(j.alias)?.statement as Statement] : [], j.update] : [j.update])],
          async run (tx, id, values, now) {
            const key = keyArgs(model.client.key, id)
            if (!key) return false
            const columns: ColumnValues = {}
            for (const f of [...own, ...inRows]) Object.assign(columns, (writers[f] ?? rowWriters[f])?.encode(values[f]))
            const args = { ...key, ...columnInputs(columns) }
            if (update) await tx.query(update, { ...key, ...columnInputs({ ...c.touched(now), ...columns }) })
            for (const j of joined) {
              const row = insertable(j.alias)
              if (row && (await tx.query(j.exists, key)).length === 0) {
                const own: Record<string, unknown> = { [keyColumn]: id }
                const read = reads.get(j.alias)
                if (read) {
                  const parent = (await tx.query(read.statement, key))[0]
                  // No row by that key: the read-back finds no client (404).
                  if (parent === undefined) continue
                  read.columns.forEach((col, i) => { own[col] = parent[`v${i}`] ?? null })
                  const empty = read.columns.filter((col) => own[col] === null)
                  if (empty.length > 0) throw noParentValue(inRows.filter((f) => rowWriters[f]?.columns.some((x) => x.column.startsWith(`${j.alias}.`))), j.alias, empty)
                }
                await insertJoinedRow(tx, row, columns, own, now)
              } else await tx.query(j.update, { ...columnInputs(j.touched(now)), ...args })
            }
            return true
          }
        }
      })
      patches.set(cacheKey, p)
    }
    return p
  }
  return { ignored: new Set(model.client.write?.ignore ?? []), writers, rowWriters, insert, patch, constants: c.constants }
}

/** A joined row a PATCH would add hangs from a column this client's row leaves empty: nothing to link it to. */
function noParentValue (fields: ClientField[], alias: string, columns: string[]): NotWritableError {
  const message = `this client has no \`${alias}\` row, and the one a PATCH would add hangs from ${columns.map((c) => `\`${c}\``).join(', ')} (the join's \`on\`), which this client's row leaves empty`
  return new NotWritableError(`This installation cannot store ${fields.join(', ')} for this client: ${message}. Nothing was written.`, fields.map((f) => ({ path: `/body/${f}`, message })))
}

function appointmentPlans (model: MappingModel, a: CompiledAppointmentWrites, rows: StateRows | undefined): AppointmentWritePlans {
  const key = (id: string) => keyArgs(model.appointment.key, id)
  const joinedRefs: Partial<Record<BookingRef, JoinedRefPlan>> = {}
  for (const [name, j] of Object.entries(a.joinedRefs) as [BookingRef, JoinedRef][]) {
    joinedRefs[name] = {
      column: j.column,
      lookup: j.lookup,
      type: inputType(j.lookup, 'value'),
      bind: (id, client) => ({ statement: j.lookup, args: j.owner === undefined ? { value: id } : { value: id, client } }),
      owner: j.owner,
      table: j.table,
      alias: j.alias,
      path: j.path,
      pointedRow: (column, id) => {
        const { statement, bind } = j.pointedRow(column)
        const args = bind(id)
        return args && { statement, args }
      },
      heldBy: (column, client) => ({ statement: j.heldBy(column), args: { client } })
    }
  }
  const columns = (now: NowParts, time: BookedTime, given: Partial<Record<BookingRef, string>>, booked?: Booked): ColumnValues => {
    const columns: ColumnValues = { ...a.constants(now, time, booked), ...a.time(time), ...a.lengthCopy(now, time, booked) }
    for (const [name, writer] of Object.entries(a.refs) as [BookingRef, FieldWriter][]) {
      const id = given[name]
      // A ref the request leaves out keeps the mapping's `write.set` value for its column, if any (a default appointment type).
      if (id === undefined && writer.columns.every((c) => columns[c.column] !== undefined && columns[c.column] !== null)) continue
      Object.assign(columns, writer.encode(id === undefined ? undefined : bindId(id, writer.columns[0].type)))
    }
    return columns
  }
  const insert = supported((): AppointmentInsert => {
    const plan = a.insert()
    return {
      plan,
      run: async (tx, columns) => await runInsert(tx, plan, columns)
    }
  })
  const stateMoves: Record<string, Supported<StateMove>> = {}
  for (const state of model.states.values) {
    stateMoves[state] = supported((): StateMove => {
      const statement = a.stateUpdate(state)
      return {
        statement,
        bind (id, now) {
          const k = key(id)
          return k && { statement, args: { ...k, ...columnInputs(a.state(state, now)) } }
        }
      }
    })
  }
  const history = a.history
  const open = a.openSlots
  const openSlots: OpenSlotPlans | undefined = open && {
    onCancel: open.onCancel,
    claim: open.claim,
    release: open.release,
    swap: open.swap,
    statements: open.statements,
    reopen: open.onCancel !== 'reopen'
      ? { unsupported: { path: `${model.appointment.path}/openSlots/onCancel`, reason: 'slots are reopened only with `onCancel: reopen`' } }
      : supported(() => {
        const plan = open.reopen()
        return { plan, run: async (tx, now, time, refs) => await runInsert(tx, plan, open.reopenValues(now, time, refs)) }
      })
  }
  return {
    openSlots,
    refs: a.refs,
    joinedRefs,
    defaults: a.defaults,
    clientDefaults: a.clientDefaults,
    readOnlyRefs: a.readOnlyRefs,
    ignored: new Set(model.appointment.write?.ignore ?? []),
    columns,
    clientName: a.clientName,
    copiedLookups: a.copiedLookups,
    serviceById: a.serviceById,
    insert,
    stateMoves,
    slotRowBooking: a.slotRowBooking,
    written: { time: a.time, state: a.state, reschedule: (now, time) => ({ ...a.rescheduleValues(now, time), ...a.time(time) }) },
    reschedule: {
      statement: a.reschedule,
      keepingHours: a.rescheduleKeepingHours,
      bind (id, now, time, pointer = {}) {
        const k = key(id)
        // No row's hours cover the new start (no professional): the copies stay as the clinic stored them.
        const statement = time.covering === undefined ? a.rescheduleKeepingHours ?? a.reschedule : a.reschedule
        return k && { statement, args: { ...k, ...columnInputs({ ...pointer, ...a.rescheduleValues(now, time), ...a.time(time) }) } }
      }
    },
    stateRows: rows && {
      statements: rows.statements,
      bind (id, state, now) {
        const k = key(id)
        return k && rows.values(Object.values(k)[0], state, now)
      }
    },
    history: history && {
      close: history.close,
      open: history.open,
      rowKey: history.rowKey,
      bind (id, state, now, closing) {
        const k = key(id)
        if (!k) return undefined
        const values = history.values(Object.values(k)[0], state, now)
        const close = closing ? history.close : undefined
        const open = history.open
        const made = history.rowKey ? { key: history.rowKey } : {}
        return [...close ? [{ statement: close, args: values.close }] : [], ...open ? [{ statement: open, args: values.open, ...made }] : []]
      },
      left: history.left && leftRowPlan(history.left, key, history.rowKey),
      after: history.after && leftRowPlan(history.after, key, history.rowKey)
    },
    log: a.log?.map((row) => leftRowPlan(row, key, row.rowKey))
  }
}

function leftRowPlan (left: LeftRow, key: (id: string) => Record<string, unknown> | undefined, rowKey: KeyPlan | undefined): LeftRowPlan {
  const values = (id: string, from: string, to: string, now: NowParts, event?: HistoryEvent): ColumnValues | undefined => {
    const k = key(id)
    return k && left.values(Object.values(k)[0], from, to, now, event)
  }
  return {
    statement: left.statement,
    ...left.rowKey ? { rowKey: left.rowKey } : {},
    on: left.on,
    copies: left.copies,
    values,
    bind (id, from, to, now, event) {
      const k = key(id)
      const v = values(id, from, to, now, event)
      return k && v && { statement: left.statement, args: { ...k, ...columnInputs(v) }, ...rowKey ? { key: rowKey } : {} }
    },
    rows (id) {
      const k = key(id)
      if (!left.rows) return undefined
      const { statement, columns } = left.rows
      return k && { bound: { statement, args: { key: Object.values(k)[0] } }, read: (row) => Object.fromEntries(columns.map((c, i) => [c, row[`c${i}`]])) }
    }
  }
}

// In the order `explain` has always listed them: client corrections, registration, then
// booking, slots, history, state moves and rescheduling.
function writeStatements (client: Supported<ClientWritePlans>, appointment: Supported<AppointmentWritePlans>, model: MappingModel): Statement[] {
  const out: Statement[] = []
  const add = (p: Supported<{ statements: Statement[] }>) => { if (!isUnsupported(p)) out.push(...p.statements) }
  if (!isUnsupported(client)) {
    const plain = PATCHABLE.filter((f) => client.writers[f])
    if (plain.length > 0) add(client.patch(plain))
    add(client.patch(PATCHABLE.filter((f) => !client.writers[f] && client.rowWriters[f])))
    add(client.insert)
  }
  if (!isUnsupported(appointment)) {
    const { insert } = appointment
    if (appointment.clientName) out.push(appointment.clientName.statement)
    const lookupReads = [...Object.values(appointment.copiedLookups), ...appointment.serviceById ? [appointment.serviceById] : []]
    out.push(...[...new Map(lookupReads.map((r) => [r.statement.name, r.statement])).values()])
    out.push(...Object.values(appointment.clientDefaults).flatMap((c) => [c.read, ...c.own ? [c.own] : []]))
    if (!isUnsupported(insert)) out.push(...insert.plan.key.before, ...Object.values(appointment.joinedRefs).map((j) => j.lookup), insert.plan.statement)
    if (appointment.slotRowBooking) out.push(...appointment.slotRowBooking.statements())
    const open = appointment.openSlots
    if (open) out.push(...open.statements(), ...isUnsupported(open.reopen) ? [] : [...open.reopen.plan.key.before, open.reopen.plan.statement])
    const history = appointment.history
    if (history) out.push(...history.rowKey?.before ?? [], ...[history.left?.statement, history.close, history.open, history.after?.statement].filter((x): x is Statement => x !== undefined))
    for (const row of appointment.log ?? []) out.push(...row.rowKey?.before ?? [], row.statement)
    if (appointment.stateRows) out.push(...appointment.stateRows.statements)
    for (const state of model.states.values) {
      const move = appointment.stateMoves[state]
      if (!isUnsupported(move)) out.push(move.statement)
    }
    out.push(appointment.reschedule.statement)
    if (appointment.reschedule.keepingHours) out.push(appointment.reschedule.keepingHours)
  }
  return out
}
