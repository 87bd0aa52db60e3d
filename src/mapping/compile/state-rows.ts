// Rows recording a state the status column cannot hold (OpenMRS's `confirmed` attribute of an
// appointment): each is a join of the appointment, cleared on every state change and written
// anew on entering one of its states, in the state change's transaction. The state rules read
// it back through the same join, so the row written is the row read.
import type { Dialect } from '../../sql/dialect.js'
import { ParamList, type Statement } from '../../sql/statement.js'
import type { NowParts } from '../../normalise/datetime.js'
import { whereList, type MappingModel } from '../model.js'
import type { WriteSpecDoc } from '../schema.js'
import { columnInputs } from './bind.js'
import { decided, requiredValues } from './row-conditions.js'
import { reference } from './references.js'
import { storedState } from './history.js'
import { CompileError, joinMatch } from './scope.js'
import { uniqueColumns, writesTo, writeValues, type ColumnValues } from './write-columns.js'
import { onColumns } from './join-on.js'

export interface StateRows {
  statements: Statement[]
  /** What a change of the appointment `key` into `state` at `now` runs, in order. */
  values: (key: unknown, state: string, now: NowParts) => Array<{ statement: Statement, args: Record<string, unknown> }>
}

export function compileStateRows (model: MappingModel, dialect: Dialect): StateRows | undefined {
  const a = model.appointment
  const list = a.write?.stateRows
  if (!list) return undefined
  const rows = list.map((r, i) => {
    const at = `${a.path}/write/stateRows/${i}`
    const j = a.joins[r.join]
    if (!j) throw new CompileError(`${at}/join`, `no join called \`${r.join}\` in ${a.path}/joins`)
    const on = Object.entries(onColumns(j.on))
    if (j.from !== undefined || on.length !== 1 || a.key.parts.length !== 1 || on[0][0] !== a.key.column) {
      throw new CompileError(`${at}/join`, `\`${r.join}\` must join the appointment table on its key alone (on: { ${a.key.column}: … }) to record a state`)
    }
    r.states.forEach((s, k) => { if (!model.states.values.includes(s)) throw new CompileError(`${at}/states/${k}`, `\`${s}\` is not one of the states (${model.states.values.join(', ')})`) })
    reference({ table: j.table, use: 'write', path: `${a.path}/joins/${r.join}/table` })
    const where = whereList(j.where)
    const link = on[0][1]
    // The row written holds what the join's `where` requires unless `set` says otherwise; one
    // the join would not find could never be read back.
    const set = uniqueColumns([
      { column: link, type: a.key.type, value: () => undefined },
      ...writeValues(model, j.table, r.set, `${at}/set`),
      ...requiredValues(where)
    ])
    const sample = { ...constants(r.set), ...Object.fromEntries(requiredValues(where).filter((c) => !(c.column in (r.set ?? {}))).map((c) => [c.column, c.value(NO_CLOCK)])) }
    where.forEach((c, k) => {
      if (decided(c, sample) === false) throw new CompileError(`${at}/set`, `the row written would fail \`${r.join}\`'s where/${k}, so the state it records would never be read back`)
    })
    const clear = r.clear && writeValues(model, j.table, r.clear, `${at}/clear`)
    if (clear) {
      if (!where.some((c) => decided(c, constants(r.clear)) === false)) throw new CompileError(`${at}/clear`, `a cleared row must fail \`${r.join}\`'s where (as \`voided: { value: 1 }\` fails \`voided = 0\`), or it would still record the state`)
    }
    const path = `${a.path}/joins/${r.join}`
    // Every row the join finds, not only the first it reads: none may be left recording the state.
    const matching = (params: ParamList): string => joinMatch(dialect, { ...j, first: undefined }, 'r', () => params.input('key', a.key.type), params, path)
    const cp = new ParamList(dialect)
    const clearSql = clear
      ? dialect.update(j.table, 'r', uniqueColumns(clear).map((c) => ({ column: c.column, value: cp.input(`col:${c.column}`, c.type) })), [matching(cp)])
      : dialect.delete(j.table, 'r', [matching(cp)])
    const clearStatement: Statement = { name: `appointment.stateRow.${r.join}.clear`, sql: clearSql, params: cp.params, writes: j.table }
    const ip = new ParamList(dialect)
    const insert: Statement = {
      name: `appointment.stateRow.${r.join}.insert`,
      sql: dialect.insert(j.table, set.map((c) => c.column), set.map((c) => ip.input(`col:${c.column}`, c.type))),
      params: ip.params,
      ...writesTo(j.table, set)
    }
    const values = (list: typeof set, now: NowParts, state: string): ColumnValues => Object.fromEntries(list.map((c) => [c.column, c.value(now, { state: storedState(model, state), entering: state })]))
    return {
      statements: [clearStatement, insert],
      values (key: unknown, state: string, now: NowParts) {
        const cleared = { statement: clearStatement, args: { key, ...columnInputs(clear ? values(clear, now, state) : {}) } }
        if (!r.states.includes(state)) return [cleared]
        return [cleared, { statement: insert, args: columnInputs({ ...values(set, now, state), [link]: key }) }]
      }
    }
  })
  return {
    statements: rows.flatMap((r) => r.statements),
    values: (key, state, now) => rows.flatMap((r) => r.values(key, state, now))
  }
}

/** The columns written as constants (`{ value: … }`): what decides a join's `where` before anything runs. */
function constants (entries: WriteSpecDoc['set']): ColumnValues {
  return Object.fromEntries(Object.entries(entries ?? {}).flatMap(([c, w]) => 'value' in w ? [[c, w.value]] : []))
}

// `requiredValues` are constants: no clock is read.
const NO_CLOCK: NowParts = { date: '', time: '', datetime: '', at: new Date(0) }
