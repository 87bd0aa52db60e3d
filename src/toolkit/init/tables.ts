// How `ponte init` names a table and its columns in the draft, shared by its recognisers.
import type { LiveColumn, LiveTable } from '../../db/columns.js'

export const qualified = (t: LiveTable): string => t.schema && !['dbo', 'main', 'public'].includes(t.schema.toLowerCase()) ? `${t.schema}.${t.name}` : t.name
export const columns = (t: LiveTable): LiveColumn[] => [...t.columns.values()]
export const ident = (name: string): string => /^[A-Za-z_#@][A-Za-z0-9_$#@]*$/.test(name) ? name : JSON.stringify(name)
/** The one column of a single-column primary key. */
export const soleKey = (t: LiveTable): LiveColumn | undefined => {
  const keys = columns(t).filter((c) => c.key)
  return keys.length === 1 ? keys[0] : undefined
}
