// A status-history table beside the appointment's own row: every state change opens a history
// row for the new state (closing the current one first where the table keeps one open), in the
// state change's transaction; a booking opens the first one. The state rules may read the
// latest row back (history-read.ts says whether what is written reads as the state entered).
import type { Dialect } from '../../sql/dialect.js'
import { ParamList, type Statement } from '../../sql/statement.js'
import type { MappingModel } from '../model.js'
import { whereList } from '../model.js'
import type { NowParts } from '../../normalise/datetime.js'
import { Scope } from './scope.js'
import { uniqueColumns, writeValues } from './write-columns.js'

export interface StatusHistory {
  /** UPDATE of the appointment's current rows; inputs `key` and `col:<column>`. None where rows are only added. */
  close?: Statement
  /** INSERT of the new row; inputs `col:<column>` (the appointment's key among them). */
  open: Statement
  /** The inputs of each statement for an appointment entering `state` at `now`. */
  values: (key: unknown, state: string, now: NowParts) => { close: Record<string, unknown>, open: Record<string, unknown> }
}

export function compileHistory (model: MappingModel, dialect: Dialect): StatusHistory | undefined {
  const a = model.appointment
  const h = a.write?.history
  if (!h) return undefined
  const path = `${a.path}/write/history`
  const keyType = a.key.type
  const open = writeValues(model, h.table, h.open, `${path}/open`)
  const close = writeValues(model, h.table, h.close, `${path}/close`)

  let closeStatement: Statement | undefined
  if (h.current !== undefined && close.length > 0) {
    const scope = new Scope(dialect, { table: h.table, joins: {}, where: whereList(h.current), path, wherePath: `${path}/current` }, 'h')
    const up = new ParamList(dialect)
    const sets = uniqueColumns(close).map((c) => ({ column: c.column, value: up.input(`col:${c.column}`, c.type) }))
    const where = [`${scope.ref(h.key, `${path}/key`, 'key')} = ${up.input('key', keyType)}`, ...scope.where(up)]
    closeStatement = { name: 'appointment.history.close', sql: dialect.update(h.table, 'h', sets, where), params: up.params, writes: h.table }
  }

  const ins = new ParamList(dialect)
  const columns = uniqueColumns([{ column: h.key, type: keyType }, ...open])
  const openStatement = { name: 'appointment.history.open', sql: dialect.insert(h.table, columns.map((c) => c.column), columns.map((c) => ins.input(`col:${c.column}`, c.type))), params: ins.params, writes: h.table }

  return {
    close: closeStatement,
    open: openStatement,
    values (key, state, now) {
      const context = { key, state: storedState(model, state), entering: state }
      const inputs = (list: typeof open) => Object.fromEntries(list.map((w) => [`col:${w.column}`, w.value(now, context)]))
      return { close: { key, ...inputs(close) }, open: { [`col:${h.key}`]: key, ...inputs(open) } }
    }
  }
}

/** `{ state: true }`'s value: the first code the state's `map` gives the state, else its name. */
export function storedState (model: MappingModel, state: string): unknown {
  const entry = Object.entries(model.appointment.state.map ?? {}).find(([, out]) => out === state)
  return entry ? entry[0] : state
}
