// Which columns a duplicate key collided on. Drivers say what their database says: SQLite the
// columns, PostgreSQL, MariaDB and SQL Server the key's name (with its table or not); the
// catalogue turns a name into its columns for the table the statement writes.
import { DuplicateKeyError } from '../errors.js'
import type { LiveCatalog } from './columns.js'
import type { Statement } from '../sql/statement.js'

/** `err` with its table and columns where the catalogue can tell them; anything else as it is. */
export function collidingKey (err: unknown, statement: Statement, catalog: LiveCatalog | undefined): unknown {
  if (!(err instanceof DuplicateKeyError) || err.key.columns !== undefined) return err
  const tableName = err.key.table ?? statement.writes
  const table = tableName === undefined ? undefined : catalog?.table(tableName)
  const name = err.key.name?.toLowerCase()
  if (table?.namedIndexes === undefined || name === undefined) return err
  // MySQL 8 says `table.key`; MariaDB the key alone.
  const columns = table.namedIndexes.get(name) ?? table.namedIndexes.get(name.slice(name.indexOf('.') + 1))
  return columns === undefined ? err : new DuplicateKeyError({ ...err.key, table: table.name, columns })
}
