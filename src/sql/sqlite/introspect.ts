// SQLite keeps each column's declared type as written. The fixture loader writes SQL
// Server's (VARCHAR(100), NCHAR(2)), so a SQLite copy of a legacy database knows its lengths
// and which columns hold Unicode, as the server does. SQLite's own TEXT (or CLOB) holds any
// Unicode at any length.
import type { Statement } from '../statement.js'
import type { Querier } from '../../db/database.js'
import { columnKind, referencesFromRows, setIndexes, LiveCatalog, type DeclaredReference, type LiveTable, type TextColumn } from '../../db/columns.js'

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

/** Every table and view with every column; hidden columns of virtual tables left out. */
export function sqliteCatalogStatement (): Statement {
  const sql = 'SELECT m.name AS tbl, p.name AS name, p.type AS type, p."notnull" AS nn, p.dflt_value AS dflt, p.pk AS pk, ' +
    "(SELECT COUNT(*) FROM pragma_table_info(m.name) AS q WHERE q.pk > 0) AS pks FROM sqlite_master AS m JOIN pragma_table_xinfo(m.name) AS p WHERE m.type IN ('table', 'view') AND p.hidden IN (0, 2, 3)"
  return { name: 'schema.catalog', sql, params: [] }
}

/**
 * Every index column of every table, in order (an expression's column has no name: the index's
 * CREATE INDEX text, which SQLite keeps as written, says what it is). Tables
 * without an index appear once with a NULL index, so "no index" is told from "not a table".
 * A partial index is left out: it serves only statements whose WHERE implies its own, and a
 * probe joined to a column it was taken to lead would read the table once per probe.
 */
export function sqliteIndexStatement (): Statement {
  const sql = 'SELECT m.name AS tbl, il.name AS idx, ii.seqno AS pos, ii.name AS col, x.sql AS expr FROM sqlite_master AS m ' +
    'LEFT JOIN pragma_index_list(m.name) AS il ON il.partial = 0 LEFT JOIN pragma_index_info(il.name) AS ii ' +
    "LEFT JOIN sqlite_master AS x ON x.type = 'index' AND x.name = il.name " +
    "WHERE m.type = 'table' ORDER BY m.name, il.name, ii.seqno"
  return { name: 'schema.indexes', sql, params: [] }
}

export async function sqliteCatalog (db: Querier): Promise<LiveCatalog> {
  const tables = new Map<string, LiveTable>()
  const keys = new Map<string, { column: string, pk: number }[]>()
  for (const row of await db.query(sqliteCatalogStatement())) {
    const name = String(row.tbl)
    let table = tables.get(name)
    if (!table) tables.set(name, table = { name, columns: new Map() })
    const declared = String(row.type ?? '')
    // INTEGER PRIMARY KEY is the rowid: SQLite fills it when an insert leaves it out.
    const generated = Number(row.pk) === 1 && Number(row.pks) === 1 && declared.toUpperCase() === 'INTEGER'
    table.columns.set(String(row.name).toLowerCase(), {
      name: String(row.name),
      declared,
      kind: columnKind(declared),
      notNull: Number(row.nn) === 1,
      hasDefault: row.dflt !== null,
      generated,
      key: Number(row.pk) > 0,
      length: sqliteTextColumn(declared)?.length,
      unicode: sqliteTextColumn(declared)?.unicode,
      defaultSql: row.dflt === null || row.dflt === undefined ? undefined : String(row.dflt)
    })
    if (Number(row.pk) > 0) keys.set(name, [...keys.get(name) ?? [], { column: String(row.name), pk: Number(row.pk) }])
  }
  const indexes = new Map<string, Map<string, string[]>>()
  for (const row of await db.query(sqliteIndexStatement())) {
    const byName = indexes.get(String(row.tbl)) ?? new Map<string, string[]>()
    indexes.set(String(row.tbl), byName)
    if (row.idx === null || row.idx === undefined) continue
    const expression = Number(row.pos) === 0 && (row.col === null || row.col === undefined) && typeof row.expr === 'string'
    const table = tables.get(String(row.tbl))
    if (expression && table) table.expressions = [...table.expressions ?? [], String(row.expr)]
    byName.set(String(row.idx), [...byName.get(String(row.idx)) ?? [], row.col === null || row.col === undefined ? '' : String(row.col)])
  }
  for (const [name, byName] of indexes) {
    const table = tables.get(name)
    if (!table) continue
    // An INTEGER PRIMARY KEY is the rowid: indexed, though index_list does not show it.
    const key = (keys.get(name) ?? []).sort((a, b) => a.pk - b.pk).map((k) => k.column)
    setIndexes(table, byName, key.length > 0 ? [key] : [])
  }
  return new LiveCatalog([...tables.values()])
}

/** Every declared foreign key, its columns in order (`ref_col` NULL: the parent's primary key). */
export function sqliteReferencesStatement (): Statement {
  const sql = 'SELECT m.name AS tbl, f.id AS fk, f.seq AS pos, f."from" AS col, f."table" AS ref_tbl, f."to" AS ref_col ' +
    "FROM sqlite_master AS m JOIN pragma_foreign_key_list(m.name) AS f WHERE m.type = 'table' ORDER BY m.name, f.id, f.seq"
  return { name: 'schema.references', sql, params: [] }
}

export async function sqliteReferences (db: Querier): Promise<DeclaredReference[]> {
  return referencesFromRows(await db.query(sqliteReferencesStatement()))
}
