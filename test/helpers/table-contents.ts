// Every table of a database, every row, read through the installation's own connection and
// sorted: two readings are equal exactly when no row was added, removed or changed.
import type { Database } from '../../src/db/database.js'

export async function tableContents (db: Database): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {}
  for (const t of (await db.introspect.catalog()).tables) {
    if (t.name.startsWith('sqlite_')) continue
    const name = t.schema !== undefined && !['main'].includes(t.schema) ? `${t.schema}.${t.name}` : t.name
    const rows = await db.query({ name: 'test.contents', sql: `SELECT * FROM ${db.dialect.table(name)}`, params: [] })
    out[name] = rows.map((r) => JSON.stringify(r, (_k, v: unknown) => typeof v === 'bigint' ? String(v) : v)).sort()
  }
  return out
}
