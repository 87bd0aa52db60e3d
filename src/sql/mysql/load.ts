// Loads a fixture (SQL Server types, `dbo.` names) into MariaDB/MySQL, as faithfully as the
// server allows: SQL Server's VARCHAR/CHAR hold one byte per character in the Latin1 code
// page, so they become latin1 (MySQL's latin1 is cp1252) and NVARCHAR/NCHAR utf8mb4; text
// compares case-insensitively and accent-sensitively, as SQL Server's default collation does;
// IDENTITY is AUTO_INCREMENT (moved past the loaded ids by the inserts themselves); bit is
// TINYINT(1). The schema qualifier is dropped: the database is the namespace (dialect.ts).
import mysql, { type Connection } from 'mysql2/promise'
import type { Fixture, FixtureColumn, FixtureTable } from '../../fixtures/format.js'
import { quoteBacktick as quote } from './dialect.js'

const BATCH = 1000

/** Into an existing, empty database at `url`. */
export async function loadFixture (fixture: Fixture, url: string): Promise<void> {
  const conn = await connectTo(url)
  try {
    await conn.query("SET SESSION sql_mode = 'STRICT_ALL_TABLES,NO_ENGINE_SUBSTITUTION'")
    await conn.query('SET SESSION foreign_key_checks = 0, unique_checks = 0')
    const collation = await unicodeCollation(conn)
    for (const table of fixture.tables) await conn.query(createTableSql(table, collation))
    for (const table of fixture.tables) await insertRows(conn, table)
  } finally {
    await conn.end()
  }
}

export async function connectTo (url: string): Promise<Connection> {
  const u = new URL(url)
  return await mysql.createConnection({
    host: u.hostname || '127.0.0.1',
    port: u.port ? Number(u.port) : 3306,
    user: decodeURIComponent(u.username) || 'root',
    password: decodeURIComponent(u.password),
    database: decodeURIComponent(u.pathname.replace(/^\//, '')) || undefined,
    charset: 'utf8mb4_unicode_ci',
    dateStrings: true
  })
}

/**
 * The case-insensitive, accent-sensitive Unicode collation of this server, as SQL Server's
 * default (…_CI_AS): MariaDB 10.10+ uca1400 (PAD SPACE: trailing spaces ignored by `=`, as
 * SQL Server does), MySQL 8 0900 (NO PAD: trailing spaces count), else unicode_ci (older
 * servers: accent-insensitive too).
 */
export async function unicodeCollation (conn: Connection): Promise<string> {
  for (const candidate of ['utf8mb4_uca1400_as_ci', 'utf8mb4_0900_as_ci']) {
    try {
      await conn.query(`SELECT _utf8mb4'a' COLLATE ${candidate}`)
      return candidate
    } catch { /* not on this server */ }
  }
  return 'utf8mb4_unicode_ci'
}

const LATIN1 = 'CHARACTER SET latin1 COLLATE latin1_general_ci'

function columnType (c: FixtureColumn): string {
  switch (c.type) {
    case 'int': return 'INT'
    case 'bigint': return 'BIGINT'
    case 'smallint': return 'SMALLINT'
    case 'bit': return 'TINYINT(1)'
    case 'decimal': return `DECIMAL(${c.precision ?? 18}, ${c.scale ?? 0})`
    case 'date': return 'DATE'
    case 'datetime': return 'DATETIME'
    case 'time': return 'TIME'
    case 'text': return c.length === undefined ? `MEDIUMTEXT ${LATIN1}` : `VARCHAR(${c.length}) ${LATIN1}`
    case 'char': return `CHAR(${c.length ?? 1}) ${LATIN1}`
    case 'ntext': return c.length === undefined ? 'MEDIUMTEXT' : `VARCHAR(${c.length})`
    case 'nchar': return `CHAR(${c.length ?? 1})`
  }
}

export function tableName (name: string): string {
  return name.slice(name.lastIndexOf('.') + 1)
}

export function createTableSql (table: FixtureTable, collation: string): string {
  const name = tableName(table.name)
  const pk = table.primaryKey ?? []
  const defs = table.columns.map((c) => {
    let sql = `${quote(c.name)} ${columnType(c)}`
    if (c.nullable === false || pk.includes(c.name) || c.identity === true) sql += ' NOT NULL'
    if (c.identity === true) sql += ' AUTO_INCREMENT'
    if (c.default !== undefined) sql += ` DEFAULT ${mysql.escape(c.default)}`
    return sql
  })
  if (pk.length > 0) defs.push(`PRIMARY KEY (${pk.map(quote).join(', ')})`)
  // AUTO_INCREMENT must lead an index; an identity outside the key gets its own.
  for (const c of table.columns) {
    if (c.identity === true && pk[0] !== c.name) defs.push(`UNIQUE KEY ${quote(`ux_${name}_${c.name}`)} (${quote(c.name)})`)
  }
  for (const cols of table.indexes ?? []) defs.push(`KEY ${quote(`ix_${name}_${cols.join('_')}`.slice(0, 64))} (${cols.map(quote).join(', ')})`)
  return `CREATE TABLE ${quote(name)} (\n  ${defs.join(',\n  ')}\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=${collation}`
}

async function insertRows (conn: Connection, table: FixtureTable): Promise<void> {
  const width = table.columns.length
  const head = `INSERT INTO ${quote(tableName(table.name))} (${table.columns.map((c) => quote(c.name)).join(', ')}) VALUES ?`
  for (let start = 0; start < table.rows.length; start += BATCH) {
    const batch = table.rows.slice(start, start + BATCH).map((row, i) => {
      if (!Array.isArray(row) || row.length !== width) throw new TypeError(`${table.name} row ${start + i}: expected ${width} values`)
      return row.map((v) => bindable(v, table.name, start + i))
    })
    // Client-side escaping of a whole batch: one round trip per thousand rows.
    await conn.query(head, [batch])
  }
}

function bindable (v: unknown, table: string, row: number): string | number | null {
  if (v === null || typeof v === 'string' || typeof v === 'number') return v
  if (typeof v === 'boolean') return v ? 1 : 0
  throw new TypeError(`${table} row ${row}: values must be JSON primitives, got ${typeof v}`)
}
