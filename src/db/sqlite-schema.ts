// SQLite keeps each column's declared type as written. The fixture loader writes SQL
// Server's (VARCHAR(100), NCHAR(2)), so a SQLite copy of a legacy database knows its lengths
// and which columns hold Unicode, as the server does. SQLite's own TEXT (or CLOB) holds any
// Unicode at any length.
import { sqlite } from '../sql/sqlite.js'
import { ParamList, type Statement } from '../sql/statement.js'
import type { Querier } from './database.js'
import type { TextColumn, TextColumns } from './columns.js'

export function sqliteColumnsStatement (table: string): { statement: Statement, args: Record<string, unknown> } {
  const params = new ParamList(sqlite)
  // The table-valued form of PRAGMA table_xinfo takes the name as a parameter.
  const sql = `SELECT name, type FROM pragma_table_xinfo(${params.input('table', 'text')})`
  return { statement: { name: 'schema.columns', sql, params: params.params }, args: { table: table.split('.').pop() } }
}

const DECLARED = /^(NATIONAL\s+)?(N?VARCHAR|N?CHAR|CHARACTER(?:\s+VARYING)?|VARYING\s+CHARACTER|NATIVE\s+CHARACTER|N?TEXT|CLOB)\s*(?:\(\s*(\d+|MAX)\s*\))?$/i

/** A declared type as SQL Server would read it; undefined for columns that are not text. */
export function sqliteTextColumn (declared: string): TextColumn | undefined {
  const m = DECLARED.exec(declared.trim())
  if (!m) return undefined
  const base = m[2].toUpperCase().replace(/\s+/g, ' ')
  const unicode = m[1] !== undefined || base.startsWith('N') || base === 'TEXT' || base === 'CLOB'
  const length = m[3] === undefined || m[3].toUpperCase() === 'MAX' ? undefined : Number(m[3])
  return { unicode, length }
}

export async function sqliteTextColumns (db: Querier, table: string): Promise<TextColumns> {
  const { statement, args } = sqliteColumnsStatement(table)
  const rows = await db.query(statement, args)
  const out = new Map<string, TextColumn>()
  for (const row of rows) {
    const text = sqliteTextColumn(String(row.type ?? ''))
    if (text) out.set(String(row.name).toLowerCase(), text)
  }
  return out
}
