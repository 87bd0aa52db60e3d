// PostgreSQL's declared columns, from information_schema: data_type names the type
// ('character varying', 'character', 'text', 'integer', 'timestamp without time zone') and
// character_maximum_length its length in characters. Every text column of a UTF8 database
// holds Unicode; one in a single-byte encoding (LATIN1, WIN1252) holds that code page only.
import type { Statement } from '../statement.js'
import type { Querier, Row } from '../../db/database.js'
import { columnKind, referencesFromRows, withIndexes, LiveCatalog, type DeclaredReference, type LiveTable, type TextColumn } from '../../db/columns.js'

const TEXT = new Set(['character varying', 'character', 'text'])

/**
 * A column comment starting with this says the column holds one code page (Windows-1252), not
 * Unicode, whatever the database's encoding: a PostgreSQL copy of a SQL Server VARCHAR column
 * (the fixture loader writes it), or a column the clinic's desktop program reads as Latin-1.
 */
export const CODE_PAGE_COMMENT = 'ponte: code page'
const UNICODE_ENCODINGS = new Set(['UTF8', 'UNICODE'])

/** One row of the catalogue statement below as a text column; undefined for columns that are not text. */
export function postgresTextColumn (row: Row): TextColumn | undefined {
  if (!TEXT.has(String(row.type ?? '').toLowerCase())) return undefined
  const length = Number(row.length)
  const unicode = UNICODE_ENCODINGS.has(String(row.encoding ?? 'UTF8').toUpperCase()) && !String(row.comment ?? '').startsWith(CODE_PAGE_COMMENT)
  return { unicode, length: Number.isInteger(length) && length > 0 ? length : undefined }
}

/** Every table and view of the database outside the system schemas, with every column. */
export function postgresCatalogStatement (): Statement {
  const sql = 'SELECT c.table_schema AS "schema", c.table_name AS "tbl", c.column_name AS "name", c.data_type AS "type", ' +
    'c.is_nullable AS "nullable", c.column_default AS "dflt", c.is_identity AS "identity", c.is_generated AS "computed", ' +
    'c.character_maximum_length AS "length", pg_encoding_to_char(d.encoding) AS "encoding", ' +
    // ordinal_position is the column's attnum (information_schema defines it so), what col_description takes.
    'col_description(CAST(quote_ident(c.table_schema) || \'.\' || quote_ident(c.table_name) AS regclass), c.ordinal_position) AS "comment", ' +
    'CASE WHEN EXISTS (SELECT 1 FROM information_schema.table_constraints AS tc JOIN information_schema.key_column_usage AS k ' +
    'ON k.constraint_name = tc.constraint_name AND k.constraint_schema = tc.constraint_schema ' +
    "WHERE tc.constraint_type = 'PRIMARY KEY' AND k.table_schema = c.table_schema AND k.table_name = c.table_name AND k.column_name = c.column_name) THEN 1 ELSE 0 END AS \"pk\" " +
    'FROM information_schema.columns AS c JOIN pg_database AS d ON d.datname = current_database() ' +
    "WHERE c.table_schema NOT IN ('pg_catalog', 'information_schema') AND c.table_schema NOT LIKE 'pg\\_%'"
  return { name: 'schema.catalog', sql, params: [] }
}

export function postgresCatalogFromRows (rows: Row[]): LiveCatalog {
  const tables = new Map<string, LiveTable>()
  for (const row of rows) {
    const key = `${String(row.schema)}.${String(row.tbl)}`
    let table = tables.get(key)
    if (!table) tables.set(key, table = { name: String(row.tbl), schema: String(row.schema), columns: new Map() })
    const declared = String(row.type ?? '')
    const dflt = row.dflt === null || row.dflt === undefined ? undefined : String(row.dflt)
    // serial columns are a default of nextval(): generated like an identity.
    const generated = row.identity === 'YES' || row.computed === 'ALWAYS' || (dflt?.startsWith('nextval(') ?? false)
    table.columns.set(String(row.name).toLowerCase(), {
      name: String(row.name),
      declared,
      kind: columnKind(declared),
      notNull: String(row.nullable).toUpperCase() === 'NO',
      hasDefault: dflt !== undefined || row.identity === 'YES',
      generated,
      key: Number(row.pk) === 1,
      length: Number(row.length) > 0 ? Number(row.length) : undefined,
      unicode: postgresTextColumn(row)?.unicode,
      defaultSql: dflt
    })
  }
  return new LiveCatalog([...tables.values()])
}

/**
 * Every index's key columns in order (the primary key's included; an expression as '', its text
 * in `expr`), and the base tables. `prefix` (1 or 0) says whether a key seeks `LIKE 'p%'`: a
 * B-tree compares bytes there only under a pattern_ops operator class or the C (POSIX)
 * collation (the docs' "Operator Classes and Operator Families"); a default index under any
 * other collation, C.UTF-8 included, is read whole for a prefix.
 */
export function postgresIndexStatements (): { indexes: Statement, tables: Statement } {
  const system = "NOT IN ('pg_catalog', 'information_schema')"
  const at = 'CAST(k.ord AS INTEGER) - 1'
  return {
    indexes: {
      name: 'schema.indexes',
      sql: 'SELECT n.nspname AS "schema", t.relname AS "tbl", i.relname AS "idx", a.attname AS "col", ' +
        'CASE WHEN k.attnum = 0 THEN pg_get_indexdef(x.indexrelid, CAST(k.ord AS INTEGER), true) END AS "expr", ' +
        "CASE WHEN m.amname = 'btree' AND (oc.opcname IN ('text_pattern_ops', 'varchar_pattern_ops', 'bpchar_pattern_ops') " +
        "OR co.collname IN ('C', 'POSIX') OR (co.collname = 'default' AND d.datcollate IN ('C', 'POSIX'))) THEN 1 ELSE 0 END AS \"prefix\" FROM pg_index AS x " +
        'JOIN pg_class AS t ON t.oid = x.indrelid JOIN pg_class AS i ON i.oid = x.indexrelid JOIN pg_namespace AS n ON n.oid = t.relnamespace ' +
        'JOIN pg_am AS m ON m.oid = i.relam JOIN pg_database AS d ON d.datname = current_database() ' +
        'CROSS JOIN LATERAL unnest(x.indkey) WITH ORDINALITY AS k(attnum, ord) ' +
        'LEFT JOIN pg_attribute AS a ON a.attrelid = t.oid AND a.attnum = k.attnum ' +
        `LEFT JOIN pg_opclass AS oc ON oc.oid = x.indclass[${at}] LEFT JOIN pg_collation AS co ON co.oid = x.indcollation[${at}] ` +
        `WHERE n.nspname ${system} AND n.nspname NOT LIKE 'pg\\_%' ORDER BY n.nspname, t.relname, i.relname, k.ord`,
      params: []
    },
    tables: {
      name: 'schema.tables',
      sql: 'SELECT t.table_schema AS "schema", t.table_name AS "tbl" FROM information_schema.tables AS t ' +
        `WHERE t.table_type = 'BASE TABLE' AND t.table_schema ${system} AND t.table_schema NOT LIKE 'pg\\_%'`,
      params: []
    }
  }
}

export async function postgresCatalog (db: Querier): Promise<LiveCatalog> {
  const catalog = postgresCatalogFromRows(await db.query(postgresCatalogStatement()))
  const { indexes, tables } = postgresIndexStatements()
  return withIndexes(catalog, await db.query(tables), await db.query(indexes), (row) => `${String(row.schema)}.${String(row.tbl)}`)
}

/** Every declared foreign key outside the system schemas, its columns in order (pg_constraint's conkey/confkey pairs). */
export function postgresReferencesStatement (): Statement {
  const sql = 'SELECT n.nspname AS "schema", t.relname AS "tbl", c.oid AS "fk", a.attname AS "col", ' +
    'rn.nspname AS "ref_schema", r.relname AS "ref_tbl", ra.attname AS "ref_col" FROM pg_constraint AS c ' +
    'JOIN pg_class AS t ON t.oid = c.conrelid JOIN pg_namespace AS n ON n.oid = t.relnamespace ' +
    'JOIN pg_class AS r ON r.oid = c.confrelid JOIN pg_namespace AS rn ON rn.oid = r.relnamespace ' +
    'CROSS JOIN LATERAL unnest(c.conkey, c.confkey) WITH ORDINALITY AS k(attnum, refnum, ord) ' +
    'JOIN pg_attribute AS a ON a.attrelid = t.oid AND a.attnum = k.attnum JOIN pg_attribute AS ra ON ra.attrelid = r.oid AND ra.attnum = k.refnum ' +
    "WHERE c.contype = 'f' AND n.nspname NOT IN ('pg_catalog', 'information_schema') ORDER BY n.nspname, t.relname, c.oid, k.ord"
  return { name: 'schema.references', sql, params: [] }
}

export async function postgresReferences (db: Querier): Promise<DeclaredReference[]> {
  return referencesFromRows(await db.query(postgresReferencesStatement()))
}
