// DATABASE_URL → a driver. Add a scheme here and a dialect in sql/ to support a new server.
import type { Database } from './database.js'
import { openSqlite } from './sqlite.js'
import { openMssql } from './mssql.js'

export async function connect (url: string): Promise<Database> {
  if (url.startsWith('sqlite:')) return openSqlite(url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, ''))
  if (url.startsWith('mssql:') || url.startsWith('sqlserver:')) return await openMssql(url.replace(/^sqlserver:/, 'mssql:'))
  throw new Error(`DATABASE_URL: unsupported scheme in "${url.split(':')[0]}:…" (use sqlite: or mssql:)`)
}
