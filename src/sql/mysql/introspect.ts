// What a MariaDB/MySQL database declares, from information_schema.COLUMNS of the connection's
// database (MySQL's "schema" is the database, so a mapping's `dbo.` is not looked for).
// Text columns hold Unicode when their character set does (utf8mb4, utf8mb3, ucs2, utf16,
// utf32); latin1 is SQL Server's Latin1 VARCHAR code page (cp1252). CHARACTER_MAXIMUM_LENGTH
// counts characters for CHAR/VARCHAR; the TEXT types are bounded in bytes, so no length.
import { mysql } from './dialect.js'
import { ParamList, type Statement } from '../statement.js'
import type { Querier, Row } from '../../db/database.js'
import { columnKind, textColumnsOf, withIndexes, LiveCatalog, type LiveTable, type TextColumn, type TextColumns } from '../../db/columns.js'

const COLUMNS = 'SELECT c.`TABLE_NAME` AS `tbl`, c.`COLUMN_NAME` AS `name`, c.`DATA_TYPE` AS `type`, c.`IS_NULLABLE` AS `nullable`, ' +
  'c.`COLUMN_DEFAULT` AS `dflt`, c.`EXTRA` AS `extra`, c.`COLUMN_KEY` AS `colKey`, c.`CHARACTER_MAXIMUM_LENGTH` AS `length`, ' +
  'c.`CHARACTER_SET_NAME` AS `charset` FROM information_schema.`COLUMNS` c WHERE c.`TABLE_SCHEMA` = DATABASE()'

export function mysqlColumnsStatement (table: string): { statement: Statement, args: Record<string, unknown> } {
  const params = new ParamList(mysql)
  const sql = `${COLUMNS} AND c.\`TABLE_NAME\` = ${params.input('table', 'ntext')} ORDER BY c.\`ORDINAL_POSITION\``
  return { statement: { name: 'schema.columns', sql, params: params.params }, args: { table: table.split('.').pop() } }
}

export function mysqlCatalogStatement (): Statement {
  return { name: 'schema.catalog', sql: `${COLUMNS} ORDER BY c.\`TABLE_NAME\`, c.\`ORDINAL_POSITION\``, params: [] }
}

const SIZED = new Set(['char', 'varchar'])
const TEXT = new Set(['char', 'varchar', 'tinytext', 'text', 'mediumtext', 'longtext'])

/** One row of the statements above; undefined for columns that are not text. */
export function mysqlTextColumn (row: Row): TextColumn | undefined {
  const type = String(row.type ?? '').toLowerCase()
  if (!TEXT.has(type)) return undefined
  const length = Number(row.length)
  return {
    unicode: /^(utf|ucs)/i.test(String(row.charset ?? '')),
    length: SIZED.has(type) && Number.isInteger(length) && length > 0 ? length : undefined
  }
}

export async function mysqlTextColumns (db: Querier, table: string): Promise<TextColumns> {
  const { statement, args } = mysqlColumnsStatement(table)
  return textColumnsOf(await db.query(statement, args), mysqlTextColumn)
}

/**
 * MariaDB 10.2.7+ writes COLUMN_DEFAULT as SQL ('N' quoted, NULL as the word NULL); MySQL
 * writes the bare value and SQL NULL for none. Both read here as "has a default or not".
 */
function defaultOf (row: Row): string | undefined {
  const d = row.dflt
  if (d === null || d === undefined || d === 'NULL') return undefined
  return String(d)
}

export function mysqlCatalogFromRows (rows: Row[]): LiveCatalog {
  const tables = new Map<string, LiveTable>()
  for (const row of rows) {
    const name = String(row.tbl)
    let table = tables.get(name)
    if (!table) tables.set(name, table = { name, columns: new Map() })
    const declared = String(row.type ?? '')
    const extra = String(row.extra ?? '').toLowerCase()
    const defaultSql = defaultOf(row)
    table.columns.set(String(row.name).toLowerCase(), {
      name: String(row.name),
      declared,
      kind: columnKind(declared),
      notNull: String(row.nullable).toUpperCase() === 'NO',
      hasDefault: defaultSql !== undefined,
      generated: extra.includes('auto_increment') || extra.includes('generated'),
      key: String(row.colKey).toUpperCase() === 'PRI',
      length: mysqlTextColumn(row)?.length,
      defaultSql
    })
  }
  return new LiveCatalog([...tables.values()])
}

/** Every index's key columns in order (PRIMARY included), and which tables are base tables (views have none). */
export function mysqlIndexStatements (): { indexes: Statement, tables: Statement } {
  return {
    indexes: {
      name: 'schema.indexes',
      sql: 'SELECT s.`TABLE_NAME` AS `tbl`, s.`INDEX_NAME` AS `idx`, s.`COLUMN_NAME` AS `col` FROM information_schema.`STATISTICS` AS s ' +
        'WHERE s.`TABLE_SCHEMA` = DATABASE() ORDER BY s.`TABLE_NAME`, s.`INDEX_NAME`, s.`SEQ_IN_INDEX`',
      params: []
    },
    tables: {
      name: 'schema.tables',
      sql: "SELECT t.`TABLE_NAME` AS `tbl` FROM information_schema.`TABLES` AS t WHERE t.`TABLE_SCHEMA` = DATABASE() AND t.`TABLE_TYPE` = 'BASE TABLE'",
      params: []
    }
  }
}

export async function mysqlCatalog (db: Querier): Promise<LiveCatalog> {
  const catalog = mysqlCatalogFromRows(await db.query(mysqlCatalogStatement()))
  const { indexes, tables } = mysqlIndexStatements()
  return withIndexes(catalog, await db.query(tables), await db.query(indexes))
}
