// SQL Server's declared columns, from INFORMATION_SCHEMA.COLUMNS: for text, DATA_TYPE names the
// type (varchar, char and the old text hold one byte per character in the collation's code
// page; nvarchar, nchar, ntext hold Unicode) and CHARACTER_MAXIMUM_LENGTH its length in
// characters (-1 for MAX). Not run on our machines: the statement is checked by the T-SQL
// grammar and the reading of its rows by unit tests.
import type { Statement } from '../statement.js'
import type { Querier, Row } from '../../db/database.js'
import { columnKind, referencesFromRows, setIndexes, LiveCatalog, type DeclaredReference, type LiveTable, type TextColumn } from '../../db/columns.js'

const BYTES = new Set(['varchar', 'char', 'text'])
const UNICODE = new Set(['nvarchar', 'nchar', 'ntext'])

/** One row of the catalogue statement below as a text column; undefined for columns that are not text. */
export function mssqlTextColumn (row: Row): TextColumn | undefined {
  const type = String(row.type ?? '').toLowerCase()
  if (!BYTES.has(type) && !UNICODE.has(type)) return undefined
  const length = Number(row.length)
  return { unicode: UNICODE.has(type), length: Number.isInteger(length) && length > 0 ? length : undefined }
}

/** Every table and view of the connection's database, with every column (INFORMATION_SCHEMA). */
export function mssqlCatalogStatement (): Statement {
  const sql = 'SELECT c.TABLE_SCHEMA AS [schema], c.TABLE_NAME AS [tbl], c.COLUMN_NAME AS [name], c.DATA_TYPE AS [type], ' +
    'c.IS_NULLABLE AS [nullable], CASE WHEN c.COLUMN_DEFAULT IS NULL THEN 0 ELSE 1 END AS [dflt], c.COLUMN_DEFAULT AS [dfltSql], ' +
    "COLUMNPROPERTY(OBJECT_ID(QUOTENAME(c.TABLE_SCHEMA) + '.' + QUOTENAME(c.TABLE_NAME)), c.COLUMN_NAME, 'IsIdentity') AS [identity], " +
    "COLUMNPROPERTY(OBJECT_ID(QUOTENAME(c.TABLE_SCHEMA) + '.' + QUOTENAME(c.TABLE_NAME)), c.COLUMN_NAME, 'IsComputed') AS [computed], " +
    'CASE WHEN EXISTS (SELECT 1 FROM INFORMATION_SCHEMA.TABLE_CONSTRAINTS AS tc JOIN INFORMATION_SCHEMA.KEY_COLUMN_USAGE AS k ' +
    'ON k.CONSTRAINT_NAME = tc.CONSTRAINT_NAME AND k.TABLE_SCHEMA = tc.TABLE_SCHEMA ' +
    "WHERE tc.CONSTRAINT_TYPE = 'PRIMARY KEY' AND k.TABLE_SCHEMA = c.TABLE_SCHEMA AND k.TABLE_NAME = c.TABLE_NAME AND k.COLUMN_NAME = c.COLUMN_NAME) THEN 1 ELSE 0 END AS [pk] " +
    'FROM INFORMATION_SCHEMA.COLUMNS AS c'
  return { name: 'schema.catalog', sql, params: [] }
}

/**
 * Every key column of every enabled index of every base table, in order (included columns
 * left out: a lookup cannot seek on them), a computed column's definition with it (an index on
 * an expression). A table without an index appears once with NULLs,
 * so "no index" is told from a view (whose base tables' indexes are not its own).
 */
export function mssqlIndexStatement (): Statement {
  const sql = 'SELECT s.name AS [schema], t.name AS [tbl], i.name AS [idx], ic.key_ordinal AS [pos], c.name AS [col], cc.definition AS [expr] ' +
    'FROM sys.tables AS t JOIN sys.schemas AS s ON s.schema_id = t.schema_id ' +
    'LEFT JOIN sys.indexes AS i ON i.object_id = t.object_id AND i.type > 0 AND i.is_disabled = 0 AND i.is_hypothetical = 0 ' +
    'LEFT JOIN sys.index_columns AS ic ON ic.object_id = i.object_id AND ic.index_id = i.index_id AND ic.key_ordinal > 0 ' +
    'LEFT JOIN sys.columns AS c ON c.object_id = ic.object_id AND c.column_id = ic.column_id ' +
    'LEFT JOIN sys.computed_columns AS cc ON cc.object_id = c.object_id AND cc.column_id = c.column_id ' +
    'ORDER BY s.name, t.name, i.index_id, ic.key_ordinal'
  return { name: 'schema.indexes', sql, params: [] }
}

export function mssqlCatalogFromRows (rows: Row[], indexRows?: Row[]): LiveCatalog {
  const tables = new Map<string, LiveTable>()
  for (const row of rows) {
    const key = `${String(row.schema)}.${String(row.tbl)}`
    let table = tables.get(key)
    if (!table) tables.set(key, table = { name: String(row.tbl), schema: String(row.schema), columns: new Map() })
    const declared = String(row.type ?? '')
    table.columns.set(String(row.name).toLowerCase(), {
      name: String(row.name),
      declared,
      kind: columnKind(declared),
      notNull: String(row.nullable).toUpperCase() === 'NO',
      hasDefault: Number(row.dflt) === 1,
      generated: Number(row.identity) === 1 || Number(row.computed) === 1 || declared.toLowerCase() === 'timestamp' || declared.toLowerCase() === 'rowversion',
      key: Number(row.pk) === 1,
      length: Number(row.length) > 0 ? Number(row.length) : undefined,
      bytes: /^(var)?binary$/i.test(declared) && Number(row.length) > 0 ? Number(row.length) : undefined,
      unicode: mssqlTextColumn(row)?.unicode,
      defaultSql: row.dfltSql === null || row.dfltSql === undefined ? undefined : String(row.dfltSql)
    })
  }
  const indexes = new Map<string, Map<string, string[]>>()
  for (const row of indexRows ?? []) {
    const key = `${String(row.schema)}.${String(row.tbl)}`
    const byName = indexes.get(key) ?? new Map<string, string[]>()
    indexes.set(key, byName)
    if (row.idx === null || row.idx === undefined || row.col === null || row.col === undefined) continue
    const table = tables.get(key)
    if (Number(row.pos) === 1 && typeof row.expr === 'string' && table) table.expressions = [...table.expressions ?? [], row.expr]
    byName.set(String(row.idx), [...byName.get(String(row.idx)) ?? [], String(row.col)])
  }
  for (const [key, byName] of indexes) {
    const table = tables.get(key)
    if (table) setIndexes(table, byName)
  }
  return new LiveCatalog([...tables.values()])
}

export async function mssqlCatalog (db: Querier): Promise<LiveCatalog> {
  return mssqlCatalogFromRows(await db.query(mssqlCatalogStatement()), await db.query(mssqlIndexStatement()))
}

/** Every declared foreign key of the connection's database, its columns in order (sys.foreign_key_columns). */
export function mssqlReferencesStatement (): Statement {
  const sql = 'SELECT s.name AS [schema], t.name AS [tbl], fk.constraint_object_id AS [fk], c.name AS [col], ' +
    'rs.name AS [ref_schema], r.name AS [ref_tbl], rc.name AS [ref_col] FROM sys.foreign_key_columns AS fk ' +
    'JOIN sys.tables AS t ON t.object_id = fk.parent_object_id JOIN sys.schemas AS s ON s.schema_id = t.schema_id ' +
    'JOIN sys.columns AS c ON c.object_id = fk.parent_object_id AND c.column_id = fk.parent_column_id ' +
    'JOIN sys.tables AS r ON r.object_id = fk.referenced_object_id JOIN sys.schemas AS rs ON rs.schema_id = r.schema_id ' +
    'JOIN sys.columns AS rc ON rc.object_id = fk.referenced_object_id AND rc.column_id = fk.referenced_column_id ' +
    'ORDER BY s.name, t.name, fk.constraint_object_id, fk.constraint_column_id'
  return { name: 'schema.references', sql, params: [] }
}

export async function mssqlReferences (db: Querier): Promise<DeclaredReference[]> {
  return referencesFromRows(await db.query(mssqlReferencesStatement()))
}
