// A lookup the appointment names by its name rather than its key (OSCAR's `appointment.location`
// holding `Main Street Clinic`, a `site.name`; `appointment.type` holding an `appointmentType.name`):
// read through a join on the name, its key the ref, and a booking writing the name of the one sent.
import type { LiveColumn, LiveTable } from '../../db/columns.js'
import { named, type Resource } from './choose.js'
import { namesOf } from './people.js'
import type { Ref } from './refs.js'
import type { Samples } from './sample.js'
import { columns, soleKey } from './tables.js'
import { asText } from './values.js'

export interface NameRef {
  resource: Resource
  /** The appointment's column holding the name. */
  column: LiveColumn
  table: LiveTable
  /** The lookup's name column, its values each one row's. */
  name: LiveColumn
  key: LiveColumn
  alias: string
}

const LOOKUPS = ['location', 'service', 'healthInsurance', 'specialty'] as const

/**
 * For each lookup no key of the appointment's names, a text column of the appointment whose
 * every sampled value is the name of one row of a table named like that lookup.
 */
export function nameRefs (apt: LiveTable, tables: LiveTable[], refs: Ref[], samples: Samples, chosen: Partial<Record<Resource, LiveTable>>, taken: LiveColumn[]): NameRef[] {
  const used = new Set([...refs.filter((r) => r.from === apt).map((r) => r.column), ...taken])
  const found: NameRef[] = []
  for (const resource of LOOKUPS) {
    if (chosen[resource] !== undefined) continue
    for (const u of tables.filter((u) => u !== apt && named(resource, u) && !Object.values(chosen).includes(u))) {
      const key = soleKey(u)
      const label = namesOf(u, samples, true)
      const name = label?.name ?? label?.first
      const names = name === undefined ? [] : (samples.values(u, name.name) ?? []).map(asText)
      if (key === undefined || name === undefined || names.length === 0 || new Set(names).size !== names.length) continue
      const own = new Set(names)
      const column = columns(apt).find((c) => c.kind === 'text' && !used.has(c) && !found.some((f) => f.column === c) && (() => {
        const values = (samples.values(apt, c.name) ?? []).map(asText).filter((v) => v !== '')
        return values.length > 0 && values.every((v) => own.has(v))
      })())
      if (column === undefined) continue
      found.push({ resource, column, table: u, name, key, alias: u.name.toLowerCase().replace(/[^a-z0-9_]/g, '') })
      break
    }
  }
  return found
}
