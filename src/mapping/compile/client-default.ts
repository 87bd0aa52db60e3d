// The statements of a ref defaulting to the booked client's own (`write.refs.<ref>.fromClient`):
// the client's value read by the client's key through the client's own joins, and where the
// ref is written through a join (`firstOf`), the ref id the joined row it names holds (the
// carrier of the plan), so the booking checks and reads back the id, and stores the value.
import type { Dialect, Join } from '../../sql/dialect.js'
import { ParamList, type Statement } from '../../sql/statement.js'
import type { MappingModel } from '../model.js'
import type { SqlTypeName } from '../schema.js'
import { fromClientOf, type FromClient } from '../from-client.js'
import { refWrittenAs } from '../written-ref.js'
import { joinMatch, Scope } from './scope.js'
import { keyArgs, keyMatch } from './key.js'
import type { Row } from './value.js'
import type { Bound } from './bind.js'
import { bindId } from './ids.js'

export interface ClientDefault extends FromClient {
  /** The client's own value (`v`) and the ref id it stands for (`id`): one row, none when the client has none. */
  read: Statement
  /** With `owned`: the lowest of the client's own values (`v`) standing for the id sent (`value`); NULL when none does. */
  own?: Statement
  /** The client's own value as the appointment's column stores it and the ref id it stands for; undefined when the client has none. */
  value: (row: Row | undefined) => { stored: unknown, id: string } | undefined
  bindRead: (client: string) => Bound | undefined
  bindOwn: (client: string, id: string) => Bound | undefined
}

/** `held`: the ref is read through a join the booking does not write, so the client's own is the appointment's (no `firstOf` to hang from it). */
export function compileClientDefault (model: MappingModel, name: string, type: SqlTypeName, dialect: Dialect, held: boolean): ClientDefault | undefined {
  const a = model.appointment
  const entry = a.write?.refs?.[name as 'healthInsurance']
  const f = fromClientOf(entry, `${a.path}/write/refs/${name}/fromClient`)
  if (!f) return undefined
  const refRead = a.refs[name as 'healthInsurance']
  const refColumn = held || refRead === undefined ? '' : refWrittenAs(refRead)?.column ?? ''
  const dot = refColumn.indexOf('.')
  // Through `firstOf`: the appointment's join, hung from the client's value instead of the appointment's column.
  const through = dot < 0 ? undefined : { join: a.joins[refColumn.slice(0, dot)], column: refColumn.slice(dot + 1), alias: refColumn.slice(0, dot) }
  const statement = (statementName: string, all: boolean, params: ParamList, extra: (ptr: string, id: string) => { columns: { expr: string, alias: string }[], where: string[], orderBy: string[], first: boolean }): Statement => {
    const c = model.client
    // Owned values are any row the client's joins reach: `first` picks the default only.
    const joins = all ? Object.fromEntries(Object.entries(c.joins).map(([k, { first: _first, ...j }]) => [k, j])) : c.joins
    const scope = new Scope(dialect, { ...c, joins }, 't')
    const ptr = scope.ref(f.column, `${f.path}${typeof entry?.fromClient === 'string' ? '' : '/column'}`)
    const more: Join[] = []
    let id = ptr
    if (through?.join) {
      const path = `${a.path}/joins/${through.alias}`
      more.push({ table: dialect.table(through.join.table), alias: 'j', on: joinMatch(dialect, through.join, 'j', () => ptr, params, path) })
      id = dialect.column('j', through.column)
    }
    const shape = extra(ptr, id)
    const where = [...scope.where(params), keyMatch(c.key, scope, params, `${c.path}/key`, 'client'), ...shape.where]
    return {
      name: statementName,
      sql: dialect.select({ columns: shape.columns, from: { table: dialect.table(c.table), alias: 't' }, joins: [...scope.joins(params), ...more], where, orderBy: shape.orderBy, first: shape.first }),
      params: params.params
    }
  }
  const readParams = new ParamList(dialect)
  const read = statement(`appointment.write.${name}.fromClient`, false, readParams, (ptr, id) => ({
    columns: [{ expr: ptr, alias: 'v' }, { expr: id, alias: 'id' }],
    where: [dialect.isNotNull(ptr)],
    orderBy: [ptr],
    first: true
  }))
  let own: Statement | undefined
  if (f.owned) {
    const ownParams = new ParamList(dialect)
    own = statement(`appointment.write.${name}.fromClient.own`, true, ownParams, (ptr, id) => ({
      columns: [{ expr: dialect.min(ptr), alias: 'v' }],
      where: [`${id} = ${ownParams.input('value', type)}`],
      orderBy: [],
      first: false
    }))
  }
  const text = (x: unknown): string | undefined => x === undefined || x === null || (typeof x === 'string' && x.trim() === '') ? undefined : String(x).trim()
  const sentinel = (x: unknown): boolean => f.nullIf.some((s) => typeof s === 'string' ? text(x) === s.trim() : Number(x) === Number(s))
  return {
    ...f,
    ...held ? { held } : {},
    read,
    own,
    value (row) {
      if (row === undefined || text(row.v) === undefined || sentinel(row.v)) return undefined
      const id = text(row.id)
      return id === undefined ? undefined : { stored: row.v, id }
    },
    bindRead (client) {
      const args = keyArgs(model.client.key, client, 'client')
      return args && { statement: read, args }
    },
    bindOwn (client, id) {
      const args = keyArgs(model.client.key, client, 'client')
      return args && own && { statement: own, args: { ...args, value: bindId(id, type) } }
    }
  }
}
