// A table the appointment or the client names that holds one row per client (GNU Health's
// `gnuhealth_insurance`: each row's `name` is the patient's own `party_party` row, its
// `company` the insurer): the clients' memberships, not a list of health insurances, services
// or places. Drafted as a lookup, its names would be the patients' own.
import type { LiveTable } from '../../db/columns.js'
import type { Ref } from './refs.js'
import type { Samples } from './sample.js'
import { asText } from './values.js'
import { soleKey } from './tables.js'

/**
 * The reference of `t` whose sampled values are (mostly) the client's own keys, or the keys of
 * the row holding the client's names (`person`: GNU Health's `party_party`, which insurers'
 * and providers' rows share); undefined when none.
 */
export function clientsRows (t: LiveTable, client: LiveTable, person: Ref | undefined, refs: Ref[], samples: Samples): Ref | undefined {
  const own = new Map<LiveTable, Set<string>>()
  const key = soleKey(client)
  if (key) own.set(client, new Set((samples.values(client, key.name) ?? []).map(asText)))
  if (person && person.to !== t) own.set(person.to, new Set((samples.values(client, person.column.name) ?? []).map(asText)))
  return refs.find((r) => {
    if (r.from !== t) return false
    const ids = own.get(r.to)
    const values = (samples.values(t, r.column.name) ?? []).map(asText).filter((v) => v !== '')
    return ids !== undefined && ids.size > 0 && values.length >= 2 && values.filter((v) => ids.has(v)).length >= 0.8 * values.length
  })
}
