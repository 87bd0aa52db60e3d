// SQL Server's declared text columns, from INFORMATION_SCHEMA.COLUMNS: DATA_TYPE names the
// type (varchar, char and the old text hold one byte per character in the collation's code
// page; nvarchar, nchar, ntext hold Unicode) and CHARACTER_MAXIMUM_LENGTH its length in
// characters (-1 for MAX). Not run on our machines: the statement is checked by the T-SQL
// grammar and the reading of its rows by unit tests.
import { mssql } from '../sql/mssql.js'
import { ParamList, type Statement } from '../sql/statement.js'
import type { Querier, Row } from './database.js'
import type { TextColumn, TextColumns } from './columns.js'

/**
 * `PACIENTE`, `dbo.PACIENTE` or `Clinica.dbo.PACIENTE`. An unqualified table is looked up
 * in the connection's default schema, as the statements Ponte runs on it resolve it.
 */
export function mssqlColumnsStatement (table: string): { statement: Statement, args: Record<string, unknown> } {
  const parts = table.split('.')
  const name = parts[parts.length - 1]
  const schema = parts.length > 1 ? parts[parts.length - 2] : undefined
  const catalog = parts.length > 2 ? `${mssql.ident(parts[0])}.` : ''
  const params = new ParamList(mssql)
  const where = [`c.TABLE_NAME = ${params.input('table', 'ntext')}`,
    `c.TABLE_SCHEMA = ${schema === undefined ? 'SCHEMA_NAME()' : params.input('schema', 'ntext')}`]
  const sql = 'SELECT c.COLUMN_NAME AS [name], c.DATA_TYPE AS [type], c.CHARACTER_MAXIMUM_LENGTH AS [length] ' +
    `FROM ${catalog}INFORMATION_SCHEMA.COLUMNS AS c WHERE ${where.join(' AND ')}`
  return { statement: { name: 'schema.columns', sql, params: params.params }, args: { table: name, schema } }
}

const BYTES = new Set(['varchar', 'char', 'text'])
const UNICODE = new Set(['nvarchar', 'nchar', 'ntext'])

/** One row of the statement above; undefined for columns that are not text. */
export function mssqlTextColumn (row: Row): TextColumn | undefined {
  const type = String(row.type ?? '').toLowerCase()
  if (!BYTES.has(type) && !UNICODE.has(type)) return undefined
  const length = Number(row.length)
  return { unicode: UNICODE.has(type), length: Number.isInteger(length) && length > 0 ? length : undefined }
}

export async function mssqlTextColumns (db: Querier, table: string): Promise<TextColumns> {
  const { statement, args } = mssqlColumnsStatement(table)
  const out = new Map<string, TextColumn>()
  for (const row of await db.query(statement, args)) {
    const text = mssqlTextColumn(row)
    if (text) out.set(String(row.name).toLowerCase(), text)
  }
  return out
}
