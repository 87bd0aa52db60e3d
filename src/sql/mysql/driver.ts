import type { Database } from '../../db/database.js'

// Placeholder replaced by the MariaDB/MySQL driver being written now.
export async function openMysql (url: string): Promise<Database> {
  throw new Error(`DATABASE_URL: the MariaDB/MySQL driver is not built yet (${url.split(':')[0]}:)`)
}
