// What a MariaDB/MySQL database declares, from information_schema.COLUMNS of the connection's
// database (MySQL's "schema" is the database, so a mapping's `dbo.` is not looked for).
// Text columns hold Unicode when their character set does (utf8mb4, utf8mb3, ucs2, utf16,
// utf32), utf8mb3 and ucs2 only up to U+FFFF (no emoji); latin1 is SQL Server's Latin1
// VARCHAR code page (cp1252). CHARACTER_MAXIMUM_LENGTH counts characters for CHAR/VARCHAR;
// the TEXT types are bounded in bytes, so no length.
import type { Statement } from '../statement.js'
import type { Querier, Row } from '../../db/database.js'
import { columnKind, withIndexes, referencesFromRows, LiveCatalog, type DeclaredReference, type LiveTable, type TextColumn } from '../../db/columns.js'

const COLUMNS = 'SELECT c.`TABLE_NAME` AS `tbl`, c.`COLUMN_NAME` AS `name`, c.`DATA_TYPE` AS `type`, c.`IS_NULLABLE` AS `nullable`, ' +
  'c.`COLUMN_DEFAULT` AS `dflt`, c.`EXTRA` AS `extra`, c.`COLUMN_KEY` AS `colKey`, c.`CHARACTER_MAXIMUM_LENGTH` AS `length`, ' +
  'c.`CHARACTER_SET_NAME` AS `charset` FROM information_schema.`COLUMNS` c WHERE c.`TABLE_SCHEMA` = DATABASE()'

export function mysqlCatalogStatement (): Statement {
  return { name: 'schema.catalog', sql: `${COLUMNS} ORDER BY c.\`TABLE_NAME\`, c.\`ORDINAL_POSITION\``, params: [] }
}

const SIZED = new Set(['char', 'varchar'])
const TEXT = new Set(['char', 'varchar', 'tinytext', 'text', 'mediumtext', 'longtext'])

/** One row of the statement above as a text column; undefined for columns that are not text. */
export function mysqlTextColumn (row: Row): TextColumn | undefined {
  const type = String(row.type ?? '').toLowerCase()
  if (!TEXT.has(type)) return undefined
  const length = Number(row.length)
  return {
    unicode: /^(utf|ucs)/i.test(String(row.charset ?? '')),
    length: SIZED.has(type) && Number.isInteger(length) && length > 0 ? length : undefined
  }
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
      // DATA_TYPE is `binary` without its size; CHARACTER_MAXIMUM_LENGTH counts a binary column's bytes.
      bytes: /^(var)?binary$/i.test(declared) && Number(row.length) > 0 ? Number(row.length) : undefined,
      unicode: mysqlTextColumn(row)?.unicode,
      basicPlaneOnly: mysqlTextColumn(row) !== undefined && /^(utf8|utf8mb3|ucs2)$/i.test(String(row.charset ?? '')),
      defaultSql
    })
  }
  return new LiveCatalog([...tables.values()])
}

/**
 * Every index's key columns in order (PRIMARY included), and which tables are base tables
 * (views have none), each with its engine and whether the server says that engine takes part
 * in transactions (ENGINES.TRANSACTIONS: InnoDB YES; MyISAM, Aria, MEMORY, CSV NO; an engine
 * the server does not list, NULL: not taken to).
 */
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
      sql: 'SELECT t.`TABLE_NAME` AS `tbl`, t.`ENGINE` AS `engine`, e.`TRANSACTIONS` AS `tx` FROM information_schema.`TABLES` AS t ' +
        'LEFT JOIN information_schema.`ENGINES` AS e ON e.`ENGINE` = t.`ENGINE` ' +
        "WHERE t.`TABLE_SCHEMA` = DATABASE() AND t.`TABLE_TYPE` = 'BASE TABLE'",
      params: []
    }
  }
}

export async function mysqlCatalog (db: Querier): Promise<LiveCatalog> {
  const catalog = mysqlCatalogFromRows(await db.query(mysqlCatalogStatement()))
  const { indexes, tables } = mysqlIndexStatements()
  const baseTables = await db.query(tables)
  return withEngines(withIndexes(catalog, baseTables, await db.query(indexes)), baseTables)
}

/** Each base table's engine from the rows of the tables statement above. */
export function withEngines (catalog: LiveCatalog, baseTables: Row[]): LiveCatalog {
  const byName = new Map(baseTables.map((row) => [String(row.tbl), row]))
  for (const table of catalog.tables) {
    const row = byName.get(table.name)
    if (row?.engine === null || row?.engine === undefined) continue
    table.engine = { name: String(row.engine), transactional: String(row.tx ?? '').toUpperCase() === 'YES' }
  }
  return catalog
}

/** Every declared foreign key of the connection's database, its columns in order. */
export function mysqlReferencesStatement (): Statement {
  const sql = 'SELECT k.`TABLE_NAME` AS `tbl`, k.`CONSTRAINT_NAME` AS `fk`, k.`COLUMN_NAME` AS `col`, ' +
    'k.`REFERENCED_TABLE_NAME` AS `ref_tbl`, k.`REFERENCED_COLUMN_NAME` AS `ref_col` FROM information_schema.`KEY_COLUMN_USAGE` AS k ' +
    'WHERE k.`TABLE_SCHEMA` = DATABASE() AND k.`REFERENCED_TABLE_NAME` IS NOT NULL ORDER BY k.`TABLE_NAME`, k.`CONSTRAINT_NAME`, k.`ORDINAL_POSITION`'
  return { name: 'schema.references', sql, params: [] }
}

export async function mysqlReferences (db: Querier): Promise<DeclaredReference[]> {
  return referencesFromRows(await db.query(mysqlReferencesStatement()))
}
