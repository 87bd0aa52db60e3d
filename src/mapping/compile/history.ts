// A status-history table beside the appointment's own row: every state change opens a history
// row for the new state (closing the current one first where the table keeps one open), in the
// state change's transaction; a booking opens the first one. The state rules may read the
// latest row back (history-read.ts says whether what is written reads as the state entered).
// A change may also add a row for what it leaves behind (`left`): the state left, the row as
// it was (OpenMRS's status history, OSCAR's appointmentArchive), written before the change;
// or for what it made (`after`: Open Dental's histappointment), the booking included; and
// other rows copying the appointment as the change left it (`write.log`: its securitylog).
import type { Dialect } from '../../sql/dialect.js'
import { ParamList, type Statement } from '../../sql/statement.js'
import type { MappingModel } from '../model.js'
import { whereList } from '../model.js'
import type { NowParts } from '../../normalise/datetime.js'
import type { SqlTypeName, WriteSpecDoc } from '../schema.js'
import type { TableModel } from '../model.js'
import { CompileError, Scope } from './scope.js'
import { keyMatch } from './key.js'
import { reference, segment } from './references.js'
import { keyPlan, uniqueColumns, writeValues, type ColumnValues, type KeyPlan } from './write-columns.js'
import type { HistoryEvent, WrittenValue } from './derived.js'

export interface StatusHistory {
  /** UPDATE of the appointment's current rows; inputs `key` and `col:<column>`. None where rows are only added. */
  close?: Statement
  /** INSERT of the new row; inputs `col:<column>` (the appointment's key among them). None where only `left` rows are written. */
  open?: Statement
  /** The inputs of each statement for an appointment entering `state` at `now`. */
  values: (key: unknown, state: string, now: NowParts) => { close: Record<string, unknown>, open: Record<string, unknown> }
  /** The row a change leaves behind, where the mapping writes one. */
  left?: LeftRow
  /** The row as a change (the booking too) left it, where the mapping writes one (`after`). */
  after?: LeftRow
  /** How each history row's own key is made before its INSERT (`rowKey`); none where the database makes it. */
  rowKey?: KeyPlan
}

/** A column of the `left` row copied from the appointment row as the change found it (`after`: as it left it). */
export interface Copy { column: string, before: string, otherwise?: string, path: string }

export interface LeftRow {
  /**
   * INSERT … SELECT from the appointment row by key, run before the change's own UPDATE (an
   * `after` row: after it): inputs `id` (keyArgs of the appointment) and `col:<column>` (the
   * key column and the values bound).
   */
  statement: Statement
  /** Which changes add the row: the booking (`after` rows only), every state change, every reschedule. */
  on: { create: boolean, state: boolean, reschedule: boolean }
  /** Columns the statement copies from the appointment row. */
  copies: Copy[]
  /** The bound columns' values (history column → value) for an appointment `key` leaving `left` for `entered` at `now` by `event`. */
  values: (key: unknown, left: string, entered: string, now: NowParts, event?: HistoryEvent) => ColumnValues
  /** Every history row of an appointment (input `key`), the row's columns as `c<i>` in `columns`' order (check compares the one a change adds); none for a log row, which holds no appointment key of its own. */
  rows?: { statement: Statement, columns: string[] }
  /** A log row's own key, made before its INSERT (`rowKey`); a history's is the history's. */
  rowKey?: KeyPlan
}

export function compileHistory (model: MappingModel, dialect: Dialect): StatusHistory | undefined {
  const a = model.appointment
  const h = a.write?.history
  if (!h) return undefined
  const path = `${a.path}/write/history`
  const keyType = a.key.type
  const open = h.open === undefined ? undefined : writeValues(model, h.table, h.open, `${path}/open`)
  const close = writeValues(model, h.table, h.close, `${path}/close`)
  const rowKey = historyRowKey(model, dialect)

  let closeStatement: Statement | undefined
  if (h.current !== undefined && close.length > 0) {
    const scope = new Scope(dialect, { table: h.table, joins: {}, where: whereList(h.current), path, wherePath: `${path}/current` }, 'h')
    const up = new ParamList(dialect)
    const sets = uniqueColumns(close).map((c) => ({ column: c.column, value: up.input(`col:${c.column}`, c.type) }))
    const where = [`${scope.ref(h.key, `${path}/key`, 'key')} = ${up.input('key', keyType)}`, ...scope.where(up)]
    closeStatement = { name: 'appointment.history.close', sql: dialect.update(h.table, 'h', sets, where), params: up.params, writes: h.table }
  }

  let openStatement: Statement | undefined
  if (open) {
    const ins = new ParamList(dialect)
    const columns = uniqueColumns([...madeKey(rowKey), { column: h.key, type: keyType }, ...open])
    openStatement = { name: 'appointment.history.open', sql: dialect.insert(h.table, columns.map((c) => c.column), columns.map((c) => ins.input(`col:${c.column}`, c.type))), params: ins.params, writes: h.table }
  }

  return {
    close: closeStatement,
    open: openStatement,
    values (key, state, now) {
      const context = { key, state: storedState(model, state), entering: state }
      const inputs = (list: WrittenValue[]) => Object.fromEntries(list.map((w) => [`col:${w.column}`, w.value(now, context)]))
      return { close: { key, ...inputs(close) }, open: { [`col:${h.key}`]: key, ...inputs(open ?? []) } }
    },
    left: h.left === undefined ? undefined : compileCopyRow(model, dialect, historyRow(model, 'left'), rowKey),
    after: h.after === undefined ? undefined : compileCopyRow(model, dialect, historyRow(model, 'after'), rowKey),
    ...rowKey && madeKey(rowKey).length > 0 ? { rowKey } : {}
  }
}

/**
 * `rowKey`: the history row's own key, made as `write.key` makes the appointment's (a Delphi
 * log numbered from its counter row); a column the rows write besides is refused.
 */
function historyRowKey (model: MappingModel, dialect: Dialect): KeyPlan | undefined {
  const a = model.appointment
  const h = a.write?.history
  if (h?.rowKey === undefined) return undefined
  const at = `${a.path}/write/history`
  return rowKeyPlan(dialect, h.table, h.rowKey, at, { open: h.open, left: h.left, after: h.after, close: h.close }, 'history', h.key)
}

/** A history or log row's own key (`rowKey` at `at`), none of `parts`' columns (nor the appointment's key column `held`). */
function rowKeyPlan (dialect: Dialect, table: string, doc: RowKeyDoc, at: string, parts: Record<string, object | undefined>, what: 'history' | 'log', held?: string): KeyPlan {
  const path = `${at}/rowKey`
  const { column, type, ...generate } = doc
  const keyType = type ?? 'int'
  reference({ table, column, use: 'key', path: `${path}/column` })
  for (const [part, entries] of Object.entries(parts)) {
    const taken = Object.keys(entries ?? {}).find((c) => c.toLowerCase() === column.toLowerCase())
    if (taken !== undefined) throw new CompileError(`${at}/${part}/${segment(taken)}`, `\`${taken}\` is the ${what} row's own key, made by \`rowKey\`: leave it out here`)
  }
  if (held !== undefined && column.toLowerCase() === held.toLowerCase()) throw new CompileError(`${path}/column`, `\`${column}\` holds the appointment's key (\`key\`): the row's own key is another column`)
  const keyed: TableModel = { table, key: { column, type: keyType, parts: [{ column, type: keyType }], separator: '-' }, where: [], joins: {}, path: at }
  return keyPlan(keyed, { key: generate } as WriteSpecDoc, dialect, path)
}

type RowKeyDoc = NonNullable<NonNullable<NonNullable<MappingModel['appointment']['write']>['history']>['rowKey']>

/** `write.log`: each row a change adds after its own write, copying the appointment as it left it. */
export function compileLogRows (model: MappingModel, dialect: Dialect): LeftRow[] | undefined {
  const a = model.appointment
  return a.write?.log?.map((row, i) => {
    const at = `${a.path}/write/log/${i}`
    const name = `appointment.log[${i}]`
    const planned = row.rowKey === undefined ? undefined : rowKeyPlan(dialect, row.table, row.rowKey, at, { set: row.set }, 'log')
    // Named after the row, so check places the key's statements at it.
    const rowKey = planned && { ...planned, before: planned.before.map((s) => ({ ...s, name: s.name.replace(/^[^.]*\.key/, `${name}.key`) })) }
    const made = rowKey && madeKey(rowKey).length > 0 ? rowKey : undefined
    const copy = compileCopyRow(model, dialect, { kind: 'after', table: row.table, entries: row.set, on: row.on ?? ['create'], at: `${at}/set`, name }, made)
    return { ...copy, ...made ? { rowKey: made } : {} }
  })
}

/** The key column a history INSERT binds: none where the database makes the key. */
function madeKey (key: KeyPlan | undefined): Array<{ column: string, type: SqlTypeName }> {
  return key === undefined || key.returning !== undefined ? [] : [{ column: key.keyColumn, type: key.keyType }]
}

/** Where a copied row goes and what it holds: a history's `left` or `after` row, or a log row (no appointment key column). */
interface CopyRowSpec {
  kind: 'left' | 'after'
  table: string
  /** The column holding the appointment's key (the history's `key`). */
  key?: string
  entries: Record<string, WriteValueDoc>
  on: HistoryEvent[]
  at: string
  name: string
}

type WriteValueDoc = NonNullable<WriteSpecDoc['set']>[string]

function historyRow (model: MappingModel, kind: 'left' | 'after'): CopyRowSpec {
  const a = model.appointment
  const h = a.write?.history as NonNullable<NonNullable<MappingModel['appointment']['write']>['history']>
  const on = h.on ?? (kind === 'left' ? ['state'] : ['create', 'state', 'reschedule'])
  return { kind, table: h.table, key: h.key, entries: h[kind] ?? {}, on, at: `${a.path}/write/history/${kind}`, name: `appointment.history.${kind}` }
}

/** A `left` row (the appointment row before the change) or an `after` row (as the change left it). */
function compileCopyRow (model: MappingModel, dialect: Dialect, spec: CopyRowSpec, rowKey: KeyPlan | undefined): LeftRow {
  const a = model.appointment
  const { kind, table, key, at } = spec
  const entries = Object.entries(spec.entries)
  const copied = (w: object): w is { before: string, otherwise?: string } | { after: string } => kind === 'left' ? 'before' in w : 'after' in w
  const copies: Copy[] = entries.flatMap(([column, w]): Copy[] => {
    if (!copied(w)) return []
    const path = `${at}/${segment(column)}`
    return 'before' in w ? [{ column, before: w.before, otherwise: w.otherwise, path }] : [{ column, before: w.after, path }]
  })
  const bound = writeValues(model, table, Object.fromEntries(entries.filter(([, w]) => !copied(w))), at)
  if (key !== undefined) reference({ table, column: key, use: 'write', path: `${a.path}/write/history/key` })
  for (const c of copies) reference({ table, column: c.column, use: 'write', path: c.path })

  // The appointment's key first (the history's `key` column), then the columns in the mapping's order.
  type Column = { column: string, type?: SqlTypeName, copy?: Copy }
  const held: Column[] = key === undefined ? [] : [{ column: key, type: a.key.type }]
  const columns = uniqueColumns<Column>([...madeKey(rowKey), ...held, ...entries.map(([column]) => ({ column, type: bound.find((b) => b.column === column)?.type, copy: copies.find((c) => c.column === column) }))])
  const scope = new Scope(dialect, { table: a.table, joins: {}, where: [], path: a.path }, 't')
  const params = new ParamList(dialect)
  // Placeholders are numbered as they are made: the select list's before the WHERE's.
  const exprs = columns.map((c) => {
    if (!c.copy) return params.input(`col:${c.column}`, c.type ?? 'text')
    const was = scope.ref(c.copy.before, `${c.copy.path}/${kind === 'left' ? 'before' : 'after'}`)
    return c.copy.otherwise === undefined ? was : dialect.coalesce([was, scope.ref(c.copy.otherwise, `${c.copy.path}/otherwise`)])
  })
  const select = dialect.select({
    columns: exprs.map((expr, i) => ({ expr, alias: `c${i}` })),
    from: { table: dialect.table(a.table), alias: 't' },
    joins: [],
    where: [keyMatch(a.key, scope, params, `${a.path}/key`)],
    orderBy: []
  })
  const statement: Statement = { name: spec.name, sql: dialect.insertSelect(table, columns.map((c) => c.column), select), params: params.params, writes: table }

  const written = columns.map((c) => c.column).filter((c) => c !== rowKey?.keyColumn)
  const rows = key === undefined ? undefined : historyRows(dialect, table, key, a.key.type, written, `${spec.name}Rows`)
  return {
    statement,
    // A booking leaves nothing behind: `create` adds `after` rows alone.
    on: { create: kind === 'after' && spec.on.includes('create'), state: spec.on.includes('state'), reschedule: spec.on.includes('reschedule') },
    copies: columns.flatMap((c) => c.copy ? [c.copy] : []),
    values (appointmentKey, left, entered, now, event) {
      const context = { key: appointmentKey, state: storedState(model, entered), entering: entered, left: storedState(model, left), leaving: left, event }
      return { ...key === undefined ? {} : { [key]: appointmentKey }, ...Object.fromEntries(bound.map((w) => [w.column, w.value(now, context)])) }
    },
    ...rows ? { rows } : {}
  }
}

/** Every row of `table` holding the appointment's key (input `key`) in `key`, `written` as `c<i>`. */
function historyRows (dialect: Dialect, table: string, key: string, keyType: SqlTypeName, written: string[], name: string): { statement: Statement, columns: string[] } {
  const read = new ParamList(dialect)
  const statement: Statement = {
    name,
    sql: dialect.select({
      columns: written.map((c, i) => ({ expr: dialect.column('h', c), alias: `c${i}` })),
      from: { table: dialect.table(table), alias: 'h' },
      joins: [],
      where: [`${dialect.column('h', key)} = ${read.input('key', keyType)}`],
      orderBy: []
    }),
    params: read.params
  }
  return { statement, columns: written }
}

/** `{ state: true }`'s value: the first code the state's `map` gives the state, else its name. */
export function storedState (model: MappingModel, state: string): unknown {
  const entry = Object.entries(model.appointment.state.map ?? {}).find(([, out]) => out === state)
  return entry ? entry[0] : state
}

/**
 * The counter rows of a `keyTable` named `name` (compared trimmed and upper-cased): `ponte check`
 * asks whether the desk numbers a history table from a counter the mapping does not bump.
 */
export function counterRows (gen: { table: string, nameColumn: string, valueColumn: string }, dialect: Dialect): Statement {
  const params = new ParamList(dialect)
  const named = dialect.upper(dialect.trim(dialect.column('k', gen.nameColumn)))
  return {
    name: 'history.counterRow',
    sql: dialect.select({
      columns: [{ expr: dialect.column('k', gen.valueColumn), alias: 'value' }],
      from: { table: dialect.table(gen.table), alias: 'k' },
      joins: [],
      where: [`${named} = ${params.input('name', 'text')}`],
      orderBy: []
    }),
    params: params.params
  }
}
