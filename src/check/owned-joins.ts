// A ref written through a join (`write.refs.<ref>.firstOf`) whose table belongs to patients (a
// coverage card, an insurance link row): without `owner` the booking points at the first row
// holding the id sent, whoever owns it, and the id still reads back as sent. The owner column
// is the declared one, else a foreign key from the joined table to the client table (read from
// the catalogue), else a column named like the appointment's client column or the client key.
import type { Database } from '../db/database.js'
import type { DeclaredReference, LiveCatalog } from '../db/columns.js'
import { isUnsupported, type AppointmentWritePlans, type BookingRef, type CompiledMapping } from '../mapping/compile/index.js'
import type { Findings } from './findings.js'

const bare = (name: string): string => name.slice(name.lastIndexOf('.') + 1).toLowerCase()

/** The joined table's column holding the client's id: declared (`owner`), or found; undefined when none. */
export function ownerColumn (compiled: Pick<CompiledMapping, 'model'>, joined: { owner?: string, table: string }, catalog: LiveCatalog, references: readonly DeclaredReference[]): { column: string, declared: boolean } | undefined {
  if (joined.owner !== undefined) return { column: joined.owner, declared: true }
  const { model } = compiled
  const clientTable = bare(model.client.table)
  const declared = references.find((r) => bare(r.table) === bare(joined.table) && bare(r.toTable) === clientTable && r.columns.length === 1)
  if (declared) return { column: declared.columns[0], declared: false }
  const live = catalog.table(joined.table)
  const names = [model.appointment.refs.client?.column, ...model.client.key.parts.map((p) => p.column)]
    .filter((c): c is string => c !== undefined && !c.includes('.'))
  const named = names.map((n) => live?.columns.get(n.toLowerCase())).find((c) => c !== undefined)
  return named ? { column: named.name, declared: false } : undefined
}

/** The foreign keys the database declares; none where the introspector cannot read them. */
export async function declaredReferences (db: Database): Promise<DeclaredReference[]> {
  try {
    return await db.introspect.references()
  } catch {
    return []
  }
}

/** A problem at each `firstOf` without `owner` on a table with a column referring to the client. */
export function checkOwnedJoins (compiled: CompiledMapping, catalog: LiveCatalog, references: readonly DeclaredReference[], out: Findings): void {
  const plans = compiled.writes.appointment
  if (isUnsupported(plans)) return
  for (const [name, joined] of Object.entries(plans.joinedRefs) as [BookingRef, NonNullable<AppointmentWritePlans['joinedRefs'][BookingRef]>][]) {
    const owner = ownerColumn(compiled, joined, catalog, references)
    if (owner === undefined || owner.declared) continue
    out.problem(joined.path, `\`${joined.alias}\` (table \`${joined.table}\`) has column \`${owner.column}\` referring to the client: a booking takes the first row holding the ${name} sent, whoever it belongs to, so it may point at another patient's row: say \`firstOf: { join: ${joined.alias}, owner: ${owner.column} }\``)
  }
}
