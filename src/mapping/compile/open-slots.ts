// Open slots kept as rows of the appointment table (`openSlots`, GNU Health's `free`
// appointments): a booking claims a free row instead of inserting one, and a cancellation
// releases, reopens or keeps it as the mapping says. The claim is one UPDATE that holds the
// free condition in its WHERE and says how many rows it changed, so a row claimed meanwhile
// (by another booking or the clinic's own program) is never claimed twice. A reschedule swaps
// times with a free row, in two UPDATEs conditioned the same way, so the appointment keeps its id.
import type { Querier } from '../../db/database.js'
import type { Dialect } from '../../sql/dialect.js'
import { ParamList, type Statement } from '../../sql/statement.js'
import type { NowParts } from '../../normalise/datetime.js'
import type { SqlTypeName } from '../schema.js'
import { leaves, type MappingModel, type OpenSlotsModel } from '../model.js'
import { columnInputs } from './bind.js'
import { conditionSql } from './condition.js'
import { valueSql } from './value.js'
import { decided, requiredValues } from './row-conditions.js'
import type { WrittenValue } from './derived.js'
import type { Booked } from './booked-values.js'
import { keyArgs, keyMatch } from './key.js'
import { CompileError, Scope } from './scope.js'
import { uniqueColumns, writeValues, writesTo, type ColumnValues, type FieldWriter } from './write-columns.js'

/** The refs a claim may write besides the client: the row's own professional, location and time stay. */
export const CLAIMED_REFS = ['service', 'healthInsurance', 'plan'] as const
export type ClaimedRef = typeof CLAIMED_REFS[number]
/**
 * The patient's own refs besides the client: a claim always writes them (NULL when not sent)
 * and a release clears them, so a row never carries one patient's cover into the next
 * booking. The service may be the slot's own (a row made for one kind of visit): it is
 * written when sent and otherwise left as the row has it.
 */
const PATIENT_REFS: readonly ClaimedRef[] = ['healthInsurance', 'plan']

export interface OpenSlotWrites {
  onCancel: OpenSlotsModel['onCancel']
  /**
   * Claims the free row `id` for the client (and the refs given) in `state`, inside the
   * caller's transaction: false when the row was no longer free (nothing written).
   */
  claim: (tx: Querier, id: string, state: string, now: NowParts, refs: { client: string } & Partial<Record<ClaimedRef, string>>, booked?: Booked) => Promise<boolean>
  /**
   * A reschedule's half on the free row `id`: it takes the columns given (the appointment's
   * old time), only while it is still free. false when it no longer was (nothing written).
   */
  vacate: (tx: Querier, id: string, values: ColumnValues) => Promise<boolean>
  /**
   * The other half, on the appointment `id`: it takes the columns given (the free row's time),
   * only while it is still no free row and, where its state is read from its own columns, still
   * in `state`. false when it no longer was (nothing written).
   */
  take: (tx: Querier, id: string, state: string, values: ColumnValues) => Promise<boolean>
  /** The UPDATE writing the row `id` free again (client cleared, the `release` columns). */
  release: (tx: Querier, id: string, now: NowParts) => Promise<void>
  /** The columns and values of a new free row (`reopen`), besides its time, professional and location. */
  freeColumns: { column: string, type: SqlTypeName }[]
  freeValues: (now: NowParts) => ColumnValues
  statements: () => Statement[]
}

/** What the rest of the appointment's writes give this file (appointment-write.ts). */
export interface OpenSlotParts {
  refs: Partial<Record<'client' | ClaimedRef, FieldWriter>>
  /** The columns writing each state. */
  state: (state: string) => WrittenValue[]
  /** What a swap writes: the free row (its new time and what follows it), the appointment (a reschedule's columns and its new length). */
  swap: { vacated: Array<{ column: string, type: SqlTypeName }>, moved: Array<{ column: string, type: SqlTypeName }> }
}

export function compileOpenSlots (model: MappingModel, dialect: Dialect, parts: OpenSlotParts): OpenSlotWrites | undefined {
  const a = model.appointment
  const open = a.openSlots
  if (!open) return undefined
  if (a.write?.slot) throw new CompileError(`${open.path}`, 'open slots as rows of the appointment table and `write.slot` (a pointer to a slot table) cannot go together: say one of them')
  const client = parts.refs.client
  if (!client) throw new CompileError(`${a.path}/refs/client`, 'claiming an open slot writes the client into its row: the client must be a plain column of the appointment table')
  for (const [i, c] of open.free.entries()) {
    for (const leaf of leaves(c)) if (leaf.column.includes('.')) throw new CompileError(`${open.path}/free/${i}`, `\`${leaf.column}\` is not a column of ${a.table}: a claim tests the free condition on the row itself`)
  }
  const claimSet = writeValues(model, a.table, open.claim, `${open.path}/claim`)
  // Later entries win: the client's own column type over a NULL read from `free`, an explicit `release` over both.
  const cleared = [client, ...PATIENT_REFS.map((r) => parts.refs[r])].flatMap((w) => w?.columns ?? [])
  const freeSet = [
    ...requiredValues(open.free),
    ...cleared.map((c): WrittenValue => ({ column: c.column, type: c.type, value: () => null })),
    // A claim's copies of the client's name (booked-values.ts) leave with the client.
    ...claimSet.filter((w) => w.copies !== undefined).map((w): WrittenValue => ({ column: w.column, type: w.type, value: () => null })),
    ...writeValues(model, a.table, open.release, `${open.path}/release`)
  ]
  const sample: NowParts = { date: '2000-01-01', time: '00:00:00', datetime: '2000-01-01 00:00:00', at: new Date(Date.UTC(2000, 0, 1)) }
  const valuesOf = (list: WrittenValue[], now: NowParts, state?: string, booked?: Booked): ColumnValues => Object.fromEntries(list.map((w) => [w.column, w.value(now, { state, booked })]))
  const freeValues = (now: NowParts): ColumnValues => valuesOf(freeSet, now)
  const released = freeValues(sample)
  open.free.forEach((c, i) => {
    if (decided(c, released) !== true) throw new CompileError(`${open.path}/release`, `a released row would not read as free: \`free[${i}]\` tests columns that \`release\` does not write so that it holds (say them under release)`)
  })

  // `only`: the row's condition (free, or an appointment), whose UPDATE says how many rows it changed.
  const update = (name: string, columns: { column: string, type: SqlTypeName }[], only?: (scope: Scope, params: ParamList) => string[]): Statement => {
    const scope = new Scope(dialect, { ...a, joins: {} }, 't')
    const params = new ParamList(dialect)
    const sets = columns.map((c) => ({ column: c.column, value: params.input(`col:${c.column}`, c.type) }))
    const where = [keyMatch(a.key, scope, params, `${a.path}/key`), ...scope.ownWhere(params), ...only?.(scope, params) ?? []]
    const sql = only && dialect.updateReturning
      ? dialect.updateReturning(a.table, 't', sets, where, a.key.column)
      : dialect.update(a.table, 't', sets, where)
    return { name, sql, params: params.params, ...writesTo(a.table, columns) }
  }
  const whileFree = (scope: Scope, params: ParamList): string[] => [dialect.and(open.free.map((c, i) => conditionSql(c, scope, params, `${open.path}/free/${i}`)))]
  const whileBooked = (scope: Scope, params: ParamList): string[] => [`${freeFlag(open, scope, params)} = 0`, ...stillIn(scope, params)]
  // A state read through a joined row cannot be tested in the UPDATE: the transaction's own read of it stands.
  const stillIn = (scope: Scope, params: ParamList): string[] => {
    try {
      return [`${valueSql(a.state, scope, params)} = ${params.input('state', 'text')}`]
    } catch (err) {
      if (err instanceof CompileError) return []
      throw err
    }
  }

  const claimStatements = new Map<string, Statement>()
  const claimColumns = (state: string, refs: ClaimedRef[]): WrittenValue[] => uniqueColumns([
    ...client.columns.map((c): WrittenValue => ({ ...c, value: () => null })),
    ...refs.flatMap((r) => (parts.refs[r]?.columns ?? []).map((c): WrittenValue => ({ ...c, value: () => null }))),
    ...parts.state(state),
    ...claimSet
  ])
  const claimStatement = (state: string, refs: ClaimedRef[]): Statement => {
    const key = [state, ...refs].join('|')
    let s = claimStatements.get(key)
    if (!s) {
      const columns = claimColumns(state, refs)
      // A claimed row must no longer read as free, or it would be offered and claimed again.
      const written = { ...valuesOf(columns, sample, state), ...client.encode(1) }
      if (!open.free.some((c) => decided(c, written) === false)) {
        throw new CompileError(`${open.path}/free`, `a claimed row would still read as free: a booking in ${state} writes ${columns.map((c) => c.column).join(', ')}, and none of them makes \`free\` fail (test the client's column or the state's)`)
      }
      s = update(`appointment.openSlot.claim[${key}]`, columns, whileFree)
      claimStatements.set(key, s)
    }
    return s
  }
  const releaseStatement = update('appointment.openSlot.release', uniqueColumns([...freeSet].reverse()))
  const vacateStatement = update('appointment.openSlot.vacate', parts.swap.vacated, whileFree)
  const takeStatement = update('appointment.openSlot.take', parts.swap.moved, whileBooked)
  const changed = dialect.updateReturning ? undefined : changedRows(dialect)
  const one = async (tx: Querier, statement: Statement, args: Record<string, unknown>): Promise<boolean> => {
    const rows = await tx.query(statement, args)
    const n = changed ? Number((await tx.query(changed))[0]?.n ?? 0) : rows.length
    return n === 1
  }

  const keyOf = (id: string): Record<string, unknown> => {
    const k = keyArgs(a.key, id)
    if (!k) throw new Error(`no appointment row can have the id ${id}`)
    return k
  }

  return {
    onCancel: open.onCancel,
    async claim (tx, id, state, now, given, booked) {
      const refs = CLAIMED_REFS.filter((r) => (given[r] !== undefined || PATIENT_REFS.includes(r)) && parts.refs[r] !== undefined)
      const statement = claimStatement(state, refs)
      const values: ColumnValues = { ...valuesOf(claimColumns(state, refs), now, state, booked), ...client.encode(given.client) }
      for (const r of refs) if (given[r] !== undefined) Object.assign(values, parts.refs[r]?.encode(given[r]))
      return await one(tx, statement, { ...keyOf(id), ...columnInputs(values) })
    },
    async vacate (tx, id, values) {
      return await one(tx, vacateStatement, { ...keyOf(id), ...columnInputs(values) })
    },
    async take (tx, id, state, values) {
      return await one(tx, takeStatement, { ...keyOf(id), ...columnInputs(values), state })
    },
    async release (tx, id, now) {
      await tx.query(releaseStatement, { ...keyOf(id), ...columnInputs(freeValues(now)) })
    },
    freeColumns: uniqueColumns([...freeSet].reverse()),
    freeValues,
    statements: () => [claimStatement(model.states.initial, [...CLAIMED_REFS].filter((r) => parts.refs[r])), ...changed ? [changed] : [], releaseStatement, vacateStatement, takeStatement]
  }
}

/** `1` for a free row and `0` for any other (NULLs included: a CASE, never NOT of a comparison), in a statement over the appointment table. */
export function freeFlag (open: OpenSlotsModel, scope: Scope, params: ParamList): string {
  const free = scope.dialect.and(open.free.map((c, i) => conditionSql(c, scope, params, `${open.path}/free/${i}`)))
  return scope.dialect.caseWhen([{ when: free, then: '1' }], '0')
}

function changedRows (dialect: Dialect): Statement {
  if (!dialect.changedRows) throw new Error(`${dialect.name}: cannot say how many rows a claim changed`)
  return { name: 'appointment.openSlot.claimed', sql: dialect.changedRows, params: [] }
}
