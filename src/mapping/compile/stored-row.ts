// One row of a mapped table read as stored, by its key and nothing else (no `where`, no joins,
// no converters): `ponte check`'s write probe compares what a write left in each column with
// what the mapping says it writes, independently of the mapping's own reads.
import type { Dialect } from '../../sql/dialect.js'
import { ParamList, type Statement } from '../../sql/statement.js'
import type { TableModel } from '../model.js'
import { keyArgs } from './key.js'
import { throughMatch } from './joined-key.js'
import { Scope } from './scope.js'
import type { Bound } from './bind.js'
import { isAffixed, onColumns, onPairs } from './join-on.js'
import type { JoinOnDoc } from '../schema.js'

export interface StoredRowPlan {
  statement: Statement
  /** undefined when no row can have that id. */
  bind: (id: string) => Bound | undefined
  /** The row's columns by the names asked for. */
  read: (row: Record<string, unknown>) => Record<string, unknown>
}

// By the key's columns, or for a key kept in a joined row through the join's link (joined-key.ts).
function ownKeyMatch (t: TableModel, d: Dialect, params: ParamList): string[] {
  const parts = t.key.parts
  if (t.key.through) return [throughMatch(t.key.through, new Scope(d, { table: t.table, joins: {}, where: [], path: t.path }, 't'), params.input('id', t.key.type))]
  return parts.map((p, i) => `${d.column('t', p.column)} = ${params.input(parts.length === 1 ? 'id' : `id#${i}`, p.type)}`)
}

export function storedRow (t: TableModel, columns: readonly string[], d: Dialect): StoredRowPlan {
  const params = new ParamList(d)
  const where = ownKeyMatch(t, d, params)
  const sql = d.select({
    columns: columns.map((c, i) => ({ expr: d.column('t', c), alias: `c${i}` })),
    from: { table: d.table(t.table), alias: 't' },
    joins: [],
    where,
    orderBy: []
  })
  const statement: Statement = { name: `${t.path.split('/').pop() ?? 'row'}.stored`, sql, params: params.params }
  return {
    statement,
    bind: (id) => { const args = keyArgs(t.key, id); return args && { statement, args } },
    read: (row) => Object.fromEntries(columns.map((c, i) => [c, row[`c${i}`]]))
  }
}

/** The phone row a new client's phone was written to, read as stored (a child table's row). */
export interface StoredPhoneRowPlan {
  statement: Statement
  /** undefined when no row can have that id. */
  bind: (id: string, phone: string) => Bound | undefined
  read: (row: Record<string, unknown>) => Record<string, unknown>
}

/**
 * `columns` of the row of the collect's table holding `phone` for the client `id`, joined on
 * the collect's `on` from the client's own row; undefined when `on` reaches through a join or
 * holds text around a value (no phone row is written through such a `collect`: model.ts).
 */
export function storedPhoneRow (t: TableModel, collect: { table: string, on: JoinOnDoc, column: string }, columns: readonly string[], d: Dialect): StoredPhoneRowPlan | undefined {
  if (onPairs(collect.on).some((p) => p.local.includes('.') || isAffixed(p))) return undefined
  const on = Object.entries(onColumns(collect.on))
  const params = new ParamList(d)
  const where = [
    ...ownKeyMatch(t, d, params),
    `${d.column('p', collect.column)} = ${params.input('phone', 'text')}`
  ]
  const sql = d.select({
    columns: columns.map((c, i) => ({ expr: d.column('p', c), alias: `c${i}` })),
    from: { table: d.table(t.table), alias: 't' },
    joins: [{ table: d.table(collect.table), alias: 'p', on: d.and(on.map(([local, remote]) => `${d.column('p', remote)} = ${d.column('t', local)}`)) }],
    where,
    orderBy: []
  })
  const statement: Statement = { name: `${t.path.split('/').pop() ?? 'row'}.storedPhone`, sql, params: params.params }
  return {
    statement,
    bind: (id, phone) => { const args = keyArgs(t.key, id); return args && { statement, args: { ...args, phone } } },
    read: (row) => Object.fromEntries(columns.map((c, i) => [c, row[`c${i}`]]))
  }
}
