import type { Database } from '../../db/database.js'

// Placeholder replaced by the PostgreSQL driver being written now.
export async function openPostgres (url: string): Promise<Database> {
  throw new Error(`DATABASE_URL: the PostgreSQL driver is not built yet (${url.split(':')[0]}:)`)
}
