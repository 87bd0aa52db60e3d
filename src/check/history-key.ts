// The status history's own key (`write.history.rowKey`): a history table whose key column the
// database does not make, or whose rows the desk numbers from a counter row Ponte does not
// bump (a Delphi `CONTADORES('AGENDA_LOG')`), would take keys the desk's next row collides with.
import type { Database } from '../db/database.js'
import type { LiveCatalog } from '../db/columns.js'
import type { MappingModel } from '../mapping/model.js'
import { counterRows } from '../mapping/compile/index.js'
import type { Findings } from './findings.js'

type KeyDoc = { generate: string, table?: string, nameColumn?: string, name?: string, valueColumn?: string }
type Counter = { table: string, nameColumn: string, valueColumn: string }

/** Every `keyTable` the mapping names (the resources' keys, their extra rows'). */
function counters (model: MappingModel): Counter[] {
  const keys: (KeyDoc | undefined)[] = []
  for (const w of [model.appointment.write, model.client.write]) {
    keys.push(w?.key, ...(w?.before ?? []).map((r) => r.key), ...(w?.after ?? []).map((r) => r.key))
  }
  const out = new Map<string, Counter>()
  for (const k of keys) {
    if (k?.generate !== 'keyTable' || k.table === undefined || k.nameColumn === undefined || k.valueColumn === undefined) continue
    out.set(`${k.table}|${k.nameColumn}|${k.valueColumn}`.toLowerCase(), { table: k.table, nameColumn: k.nameColumn, valueColumn: k.valueColumn })
  }
  return [...out.values()]
}

export async function checkHistoryKey (model: MappingModel, db: Database, catalog: LiveCatalog, out: Findings): Promise<void> {
  const a = model.appointment
  const h = a.write?.history
  if (h === undefined) return
  const path = `${a.path}/write/history`
  const bare = (h.table.split('.').pop() ?? h.table).trim().toUpperCase()
  const bumped = h.rowKey?.generate === 'keyTable' ? h.rowKey.name.trim().toUpperCase() : undefined
  for (const c of counters(model)) {
    if (bumped === bare) break
    const rows = await db.query(counterRows(c, db.dialect), { name: bare }).catch(() => []) // a counter table that cannot be read is the probes' to report
    if (rows.length === 0) continue
    out.warning(h.rowKey === undefined ? path : `${path}/rowKey`, `\`${c.table}\` keeps a counter row \`${bare}\` (last ${String(rows[0].value)}): the clinic's program numbers \`${h.table}\` rows from it, but Ponte's history rows ${bumped === undefined ? 'take the database\'s key' : `bump \`${h.rowKey?.generate === 'keyTable' ? h.rowKey.name : ''}\``}, so the program's next row would collide with one of them; give \`rowKey: { column: <key column>, generate: keyTable, table: ${c.table}, nameColumn: ${c.nameColumn}, name: ${bare}, valueColumn: ${c.valueColumn} }\``)
  }
  if (h.rowKey !== undefined) return
  const live = catalog.table(h.table)
  if (!live) return
  const written = new Set([h.key, ...Object.keys(h.open ?? {}), ...Object.keys(h.left ?? {})].map((c) => c.toLowerCase()))
  for (const col of live.columns.values()) {
    if (!col.key || col.generated || col.hasDefault || written.has(col.name.toLowerCase())) continue
    out.warning(path, `the key column \`${col.name}\` of \`${h.table}\` has no default and the database does not make it, and the mapping gives no \`rowKey\`: a history row would be written without a key; give \`rowKey: { column: ${col.name}, generate: … }\` as the clinic's program makes it (keyTable, max, sequence)`)
  }
}
