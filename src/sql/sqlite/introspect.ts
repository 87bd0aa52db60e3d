// SQLite keeps each column's declared type as written. The fixture loader writes SQL
// Server's (VARCHAR(100), NCHAR(2)), so a SQLite copy of a legacy database knows its lengths
// and which columns hold Unicode, as the server does. SQLite's own TEXT (or CLOB) holds any
// Unicode at any length.
import { sqlite } from './dialect.js'
import { ParamList, type Statement } from '../statement.js'
import type { Querier } from '../../db/database.js'
import { columnKind, LiveCatalog, type LiveTable, type TextColumn, type TextColumns } from '../../db/columns.js'

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

/** Every table and view with every column; hidden columns of virtual tables left out. */
export function sqliteCatalogStatement (): Statement {
  const sql = 'SELECT m.name AS tbl, p.name AS name, p.type AS type, p."notnull" AS nn, p.dflt_value AS dflt, p.pk AS pk, ' +
    "(SELECT COUNT(*) FROM pragma_table_info(m.name) AS q WHERE q.pk > 0) AS pks FROM sqlite_master AS m JOIN pragma_table_xinfo(m.name) AS p WHERE m.type IN ('table', 'view') AND p.hidden IN (0, 2, 3)"
  return { name: 'schema.catalog', sql, params: [] }
}

export async function sqliteCatalog (db: Querier): Promise<LiveCatalog> {
  const tables = new Map<string, LiveTable>()
  for (const row of await db.query(sqliteCatalogStatement())) {
    const name = String(row.tbl)
    let table = tables.get(name)
    if (!table) tables.set(name, table = { name, columns: new Map() })
    const declared = String(row.type ?? '')
    // INTEGER PRIMARY KEY is the rowid: SQLite fills it when an insert leaves it out.
    const generated = Number(row.pk) === 1 && Number(row.pks) === 1 && declared.toUpperCase() === 'INTEGER'
    table.columns.set(String(row.name).toLowerCase(), {
      name: String(row.name), declared, kind: columnKind(declared), notNull: Number(row.nn) === 1, hasDefault: row.dflt !== null, generated, key: Number(row.pk) > 0, length: sqliteTextColumn(declared)?.length,
      defaultSql: row.dflt === null || row.dflt === undefined ? undefined : String(row.dflt)
    })
  }
  return new LiveCatalog([...tables.values()])
}
