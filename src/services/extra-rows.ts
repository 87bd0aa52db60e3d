// Runs a multi-table insert (mapping/compile/rows.ts) inside the caller's transaction: the
// `before` rows, the resource's own row, then the `after` rows, each taking the keys and
// columns the rows before it were written with.
import type { Querier } from '../db/database.js'
import type { InsertPlan } from '../mapping/compile/write.js'
import { OWN_ROW, type RowPlan, type RowsPlan } from '../mapping/compile/rows.js'
import type { NowParts } from '../normalise/datetime.js'
import { insertRow } from './client-writes.js'

/** Values by row name ('' = the resource's own row) and column, as written. */
type Known = Map<string, Record<string, unknown>>

/**
 * `own`: the resource row's `col:` inputs; `fields`: the field values of the extra rows,
 * by `alias.column`. Returns the new record's key.
 */
export async function insertWithRows (tx: Querier, rows: RowsPlan, insert: InsertPlan, own: Record<string, unknown>,
  fields: Record<string, unknown>, now: NowParts): Promise<string> {
  const known: Known = new Map()
  for (const row of rows.before) await insertExtra(tx, row, fields, known, now, undefined)
  const args = { ...own }
  for (const l of rows.ownLinks) args[`col:${l.column}`] = known.get(l.from)?.[l.fromColumn] ?? null
  const keyColumn = insert.key.keyColumn
  let id: unknown
  if (insert.key.before.length === 0 && insert.key.returning === undefined) {
    // The key is shared with a `before` row: it is already among the inputs.
    await tx.query(insert.statement, args)
    id = args[`col:${keyColumn}`]
  } else {
    id = await insertRow(tx, insert, args)
  }
  if (id === undefined || id === null) throw new Error(`${insert.statement.name}: no key for the new row`)
  known.set(OWN_ROW, { ...unprefixed(args), [keyColumn]: asKey(id) })
  for (const row of rows.after) await insertExtra(tx, row, fields, known, now, asKey(id))
  return String(id).trim()
}

async function insertExtra (tx: Querier, row: RowPlan, fields: Record<string, unknown>, known: Known, now: NowParts, key: unknown): Promise<void> {
  const args: Record<string, unknown> = {}
  const prefix = `${row.name}.`
  for (const [column, value] of Object.entries(fields)) if (column.startsWith(prefix)) args[`col:${column.slice(prefix.length)}`] = value
  for (const l of row.links) args[`col:${l.column}`] = known.get(l.from)?.[l.fromColumn] ?? null
  for (const w of row.set) args[`col:${w.column}`] = w.value(now, { key })
  const values = unprefixed(args)
  if (row.keyed) values[row.keyed.column] = asKey(await insertRow(tx, row.keyed.plan, args))
  else if (row.statement) await tx.query(row.statement, args)
  known.set(row.name, values)
}

function unprefixed (args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).filter(([k]) => k.startsWith('col:')).map(([k, v]) => [k.slice(4), v]))
}

// Generated keys come back as text (insertRow); integer ones bind as numbers again.
function asKey (id: unknown): unknown {
  return typeof id === 'string' && /^-?\d{1,15}$/.test(id) ? Number(id) : id
}
