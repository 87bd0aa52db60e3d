// A ref written through a join (`write.refs.<ref>.firstOf`) whose table belongs to patients (a
// coverage card, an insurance link row): without `owner` the booking points at the first row
// holding the id sent, whoever owns it, and the id still reads back as sent. The owner column
// is the declared one, else a foreign key from the joined table to the client table (read from
// the catalogue), else (a warning: a guess) a column named like the appointment's client column.
import type { Database } from '../db/database.js'
import type { DeclaredReference, LiveCatalog } from '../db/columns.js'
import { isUnsupported, onColumns, type AppointmentWritePlans, type BookingRef, type CompiledMapping } from '../mapping/compile/index.js'
import type { Findings } from './findings.js'

const bare = (name: string): string => name.slice(name.lastIndexOf('.') + 1).toLowerCase()

/**
 * The joined table's column holding the client's id: declared (`owner`), a foreign key to the
 * client table, or (`byName`, a guess) a column named like the appointment's client column that
 * is neither the joined table's own key nor the join's `on` column; undefined when none.
 */
export function ownerColumn (compiled: Pick<CompiledMapping, 'model'>, joined: { owner?: string, table: string, alias: string }, catalog: LiveCatalog, references: readonly DeclaredReference[]): { column: string, declared: boolean, byName?: true } | undefined {
  if (joined.owner !== undefined) return { column: joined.owner, declared: true }
  const { model } = compiled
  const clientTable = bare(model.client.table)
  const declared = references.find((r) => bare(r.table) === bare(joined.table) && bare(r.toTable) === clientTable && r.columns.length === 1)
  if (declared) return { column: declared.columns[0], declared: false }
  const name = model.appointment.refs.client?.column
  if (name === undefined || name.includes('.')) return undefined
  const live = catalog.table(joined.table)?.columns.get(name.toLowerCase())
  const on = new Set(Object.values(onColumns(model.appointment.joins[joined.alias]?.on ?? {})).map((c) => bare(c)))
  return live && !live.key && !on.has(live.name.toLowerCase()) ? { column: live.name, declared: false, byName: true } : undefined
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
    const says = `a booking takes the first row holding the ${name} sent, whoever it belongs to, so it may point at another patient's row: say \`firstOf: { join: ${joined.alias}, owner: ${owner.column} }\``
    // A foreign key to the client table says the rows are patients'; a name alone may mislead.
    if (owner.byName === true) out.warning(joined.path, `\`${joined.alias}\` (table \`${joined.table}\`) has column \`${owner.column}\`, named like the appointment's client column: if it holds the client's id, ${says}`)
    else out.problem(joined.path, `\`${joined.alias}\` (table \`${joined.table}\`) has column \`${owner.column}\` referring to the client: ${says}`)
  }
}
