// DATABASE_URL → a driver, by the database its scheme names (sql/databases.ts).
import type { Database } from './database.js'
import { databaseOf, schemeList } from '../sql/databases.js'

export async function connect (url: string): Promise<Database> {
  const database = databaseOf(url)
  if (database === undefined) throw new Error(`DATABASE_URL: unsupported scheme in "${url.split(':')[0]}:…" (use ${schemeList()})`)
  return await database.kind.open(url)
}
