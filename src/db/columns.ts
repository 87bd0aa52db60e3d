// What the live database declares for the text columns Ponte writes: how long they may be
// and whether they hold Unicode. Each dialect reads it its own way (sqlite-schema.ts,
// mssql-schema.ts); the mapping's own `type`/`length` win over what is read here.
import type { Database } from './database.js'
import { sqliteTextColumns } from './sqlite-schema.js'
import { mssqlTextColumns } from './mssql-schema.js'

export interface TextColumn {
  /** false: one byte per character in the column's code page (VARCHAR, CHAR). */
  unicode: boolean
  /** Declared maximum, as the database counts it; undefined when it has none (MAX, TEXT). */
  length?: number
}

/** A table's text columns by lower-cased name (SQL Server and SQLite names ignore case); others are absent. */
export type TextColumns = ReadonlyMap<string, TextColumn>

/**
 * Read on the first write that needs a table, not before listening: a database that is down
 * at start-up must not keep Ponte from starting (the write would fail then anyway). Kept once
 * read — a legacy schema does not change under a running service — and read again after a
 * failure.
 */
export class LiveSchema {
  private readonly tables = new Map<string, Promise<TextColumns>>()

  constructor (private readonly db: Database) {}

  async textColumns (table: string): Promise<TextColumns> {
    let read = this.tables.get(table)
    if (read === undefined) {
      read = readTextColumns(this.db, table)
      this.tables.set(table, read)
      read.catch(() => this.tables.delete(table))
    }
    return await read
  }
}

async function readTextColumns (db: Database, table: string): Promise<TextColumns> {
  switch (db.dialect.name) {
    case 'sqlite': return await sqliteTextColumns(db, table)
    case 'mssql': return await mssqlTextColumns(db, table)
    // No introspector yet: only what the mapping declares is enforced.
    default: return new Map()
  }
}
