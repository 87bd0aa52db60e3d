// Every table of a scratch installation read directly, and what a write changed in it: the
// rows it removed and added (a changed row is both), each with the record it belongs to.
import type { ServerScratch } from '../scratch-servers.js'

export type Snapshot = Record<string, string[]>

export async function snapshot (s: ServerScratch, tables: string[]): Promise<Snapshot> {
  const out: Snapshot = {}
  // Rows as JSON, sorted: rows with equal first columns (child rows) compare whatever order the database gives.
  for (const table of tables) out[table] = (await s.rows(`SELECT * FROM ${table} ORDER BY 1`)).map((row) => JSON.stringify(row)).sort()
  return out
}

export interface TableChange { removed: Array<Record<string, unknown>>, added: Array<Record<string, unknown>> }

/** What differs between two snapshots, by table (tables without a difference left out). */
export function changes (before: Snapshot, after: Snapshot): Record<string, TableChange> {
  const out: Record<string, TableChange> = {}
  for (const table of Object.keys(before)) {
    const removed = minus(before[table], after[table])
    const added = minus(after[table], before[table])
    if (removed.length > 0 || added.length > 0) out[table] = { removed: removed.map((x) => JSON.parse(x)), added: added.map((x) => JSON.parse(x)) }
  }
  return out
}

function minus (xs: string[], ys: string[]): string[] {
  const left = new Map<string, number>()
  for (const y of ys) left.set(y, (left.get(y) ?? 0) + 1)
  return xs.filter((x) => {
    const n = left.get(x) ?? 0
    if (n === 0) return true
    left.set(x, n - 1)
    return false
  })
}

/** A column's value as an id: text keys come back padded from CHAR columns, numbers as numbers. */
export const idIn = (v: unknown): string => String(v).trim()
