// The plan behind `ponte check`'s test of a lookup named through a client's own row: a lookup
// whose `name` is read through a join to the table the client's name is read from (GNU Health's
// `party_party`, where patients, providers and insurers alike keep their names), counted by how
// many of its rows reach that table by a value some client holds. An insurance named through
// the member's `name` column reads the patients' names, not the insurers'.
import type { Dialect } from '../../sql/dialect.js'
import type { JoinDoc } from '../schema.js'
import type { LookupName, MappingModel, Value } from '../model.js'
import { aggregate, type ReadPlan } from './scan.js'

export interface ClientNamedPlan {
  lookup: LookupName
  /** The lookup's `name` field, where check reports. */
  path: string
  alias: string
  table: string
  plan: () => ReadPlan<{ rows: number, clients: number }>
}

const bare = (name: string): string => name.slice(name.lastIndexOf('.') + 1).toLowerCase()

/** The join aliases a value reads through: `person.name`, `{person.name} {person.lastname}`, a coalesce of them. */
function aliasesOf (v: Value | string | undefined): string[] {
  if (v === undefined) return []
  if (typeof v === 'string') return v.includes('.') ? [v.slice(0, v.indexOf('.'))] : []
  const own = [...aliasesOf(v.column), ...[...(v.template ?? '').matchAll(/\{(\w+)\./g)].map((m) => m[1])]
  return [...new Set([...own, ...(v.coalesce ?? []).flatMap((c) => aliasesOf(c as Value | string))])]
}

/** A join on one column of the resource's own table: its local column and the joined table's. */
function simple (j: JoinDoc | undefined): { local: string, joined: string } | undefined {
  const on = Object.entries(j?.on ?? {})
  if (j === undefined || j.from !== undefined || on.length !== 1 || on[0][0].includes('.')) return undefined
  return { local: on[0][0], joined: String(on[0][1]) }
}

export function clientNamedPlans (model: MappingModel, d: Dialect): ClientNamedPlan[] {
  const c = model.client
  const theirs = aliasesOf(c.fields.name).flatMap((a) => {
    const on = simple(c.joins[a])
    return on === undefined ? [] : [{ table: bare(c.joins[a].table), ...on }]
  })
  const plans: ClientNamedPlan[] = []
  for (const l of Object.values(model.lookups)) {
    if (l === undefined || l.valuesOf !== undefined || l.fields.name === undefined) continue
    for (const alias of aliasesOf(l.fields.name)) {
      const mine = simple(l.joins[alias])
      const client = mine && theirs.find((k) => k.table === bare(l.joins[alias].table) && k.joined.toLowerCase() === mine.joined.toLowerCase())
      if (mine === undefined || client === undefined) continue
      plans.push({
        lookup: l.name,
        path: l.fields.name.path,
        alias,
        table: l.joins[alias].table,
        plan: () => ({
          statement: aggregate(`${l.name}.clientNamed`, d, l, (scope) => {
            const held = scope.ref(mine.local, `${l.path}/joins/${alias}`)
            const key = scope.ref(l.key.column, `${l.path}/key`)
            // A lookup row is a client's when some client row holds its join value.
            const clients = d.select({ columns: [{ expr: '1', alias: 'x' }], from: { table: d.table(c.table), alias: 'c' }, joins: [], where: [`${d.column('c', client.local)} = ${held}`], orderBy: [] })
            return { columns: [{ expr: d.count(), alias: 'n' }, { expr: d.countDistinct(d.caseWhen([{ when: d.exists(clients), then: key }])), alias: 'k' }] }
          }),
          read: (row) => ({ rows: Number(row.n), clients: Number(row.k) })
        })
      })
    }
  }
  return plans
}
