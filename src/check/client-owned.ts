// `ponte check` of refs a booking takes from the booked client (`write.refs.<ref>.fromClient`):
// the write probe reads the client's own value beforehand and compares the stored row with it
// (here: that read); and a ref written through a join whose value the mapping reads from the
// client's rows is per client, so a sent one not kept to the client's own (`owned`) may point
// at another patient's row: a problem at the `fromClient` line.
import type { Querier } from '../db/database.js'
import { isUnsupported, type AppointmentWritePlans, type CompiledMapping, type DefaultedRef } from '../mapping/compile/index.js'
import type { Findings } from './findings.js'

type ClientDefaults = AppointmentWritePlans['clientDefaults']

/** Per ref, the client's own value as its column stores it and the id it reads back as, with its mapping place; absent where the client has none. */
export type ClientOwn = Partial<Record<DefaultedRef, { stored: unknown, id: string, path: string, owned: boolean }>>

export async function clientOwn (defaults: ClientDefaults, q: Querier, client: string): Promise<ClientOwn> {
  const out: ClientOwn = {}
  for (const [name, own] of Object.entries(defaults) as [DefaultedRef, NonNullable<ClientDefaults[DefaultedRef]>][]) {
    const bound = own.bindRead(client)
    const found = own.value(bound ? (await q.query(bound.statement, bound.args))[0] : undefined)
    if (found) out[name] = { ...found, path: own.path, owned: own.owned }
  }
  return out
}

/** A problem at each `fromClient` of a ref written through a join (`firstOf` without `owner`) whose sent value is not kept to the client's own. */
export function checkClientOwned (compiled: CompiledMapping, out: Findings): void {
  const plans = compiled.writes.appointment
  if (isUnsupported(plans)) return
  for (const [name, own] of Object.entries(plans.clientDefaults) as [DefaultedRef, NonNullable<ClientDefaults[DefaultedRef]>][]) {
    const joined = plans.joinedRefs[name]
    if (!joined || joined.owner !== undefined || own.owned) continue
    out.problem(own.path, `the client's own ${name} is read through the client's rows (\`${own.column}\`), so \`${joined.alias}\` rows (table \`${joined.table}\`) are per client; but a ${name} sent is stored as the first \`${joined.alias}\` row holding it, which may be another patient's: say \`owned: true\` to keep a sent one to the client's own (409 otherwise)`)
  }
}
