// A key that lives in a joined row (a patient keyed by `person.uuid`): another statement
// cannot name that row before it is joined (an appointment list's join to the client, an
// UPDATE of the client's table alone), so the row is found through the join's link column,
// by a subquery on the key: `c.patient_id = (SELECT k.person_id FROM person k WHERE k.uuid = ?)`.
import type { KeyModel } from '../model.js'
import { Scope } from './scope.js'

/** The key's join is one hanging from the table by one plain column: `on: { patient_id: person_id }`. */
export interface KeyThrough {
  alias: string
  table: string
  /** The table's column, and the joined table's column it equals. */
  own: string
  linked: string
  /** The key's column in the joined table. */
  column: string
  path: string
}

/** `own = (SELECT linked FROM table WHERE column = right)`, where `right` is the key's value. */
export function throughMatch (through: KeyThrough, scope: Scope, right: string): string {
  const d = scope.dialect
  const alias = `${scope.alias}_k`
  const k = new Scope(d, { table: through.table, joins: {}, where: [], path: through.path }, alias)
  const sql = d.select({
    columns: [{ expr: k.ref(through.linked, `${through.path}/on`, 'key'), alias: 'k' }],
    from: { table: d.table(through.table), alias },
    joins: [],
    where: [`${k.ref(through.column, `${through.path}/key`, 'key', { lookup: 'equal' })} = ${right}`],
    orderBy: [],
    first: true
  })
  return `${scope.ref(through.own, `${through.path}/on`, 'key')} = (${sql})`
}

/** The join a key `alias.column` lives in, when the key can be found through it. */
export function keyThrough (key: Pick<KeyModel, 'column' | 'parts'>, joins: Record<string, { table: string, from?: string, on: Record<string, unknown> }>, path: string): KeyThrough | undefined {
  const dot = key.column.indexOf('.')
  if (key.parts.length > 1 || dot < 0) return undefined
  const alias = key.column.slice(0, dot)
  const join = joins[alias]
  const pairs = join === undefined ? [] : Object.entries(join.on)
  if (join === undefined || join.from !== undefined || pairs.length !== 1 || typeof pairs[0][1] !== 'string') return undefined
  return { alias, table: join.table, own: pairs[0][0], linked: pairs[0][1], column: key.column.slice(dot + 1), path: `${path}/joins/${alias}` }
}
