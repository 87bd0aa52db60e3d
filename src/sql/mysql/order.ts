// Which parameter each `?` of a statement takes: the number the dialect wrote beside it
// (`?/*p3*/`), read once per statement.
import type { Statement } from '../statement.js'

const MARK = /\?\/\*p(\d+)\*\//g
const orders = new WeakMap<Statement, number[]>()

/** The statement's bound values (in parameter order) rearranged into the order of its `?`s. */
export function inTextOrder (statement: Statement, values: unknown[]): unknown[] {
  let order = orders.get(statement)
  if (order === undefined) {
    order = [...statement.sql.matchAll(MARK)].map((m) => Number(m[1]) - 1)
    // Statements written by hand (introspection) with plain `?`s bind in order.
    if (order.length === 0) order = values.map((_, i) => i)
    orders.set(statement, order)
  }
  return order.map((i) => values[i])
}
