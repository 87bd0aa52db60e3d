// Values in and out of MariaDB/MySQL, in the shapes the SQLite driver gives the readers:
// dates and times as text, numbers as numbers.
import mysql from 'mysql2/promise'
import type { SqlTypeName } from '../../mapping/schema.js'

// Read once: mysql2's `TypedParameter` is a getter that require()s its module at every use.
const TYPED = mysql.TypedParameter

const INTEGER = new Set<SqlTypeName>(['int', 'bigint', 'smallint'])
const TEXT = new Set<SqlTypeName>(['text', 'char', 'ntext', 'nchar'])

/**
 * A parameter bound with the type the mapping declares for its column. A number bound to a
 * VARCHAR id would make MySQL compare as numbers ('01' = 1, and a scan); text binds as text.
 * An id that cannot be a number, behind a column declared int, binds as text and the server
 * compares or refuses it like any literal (as the mssql driver does).
 */
export function toMysqlValue (value: unknown, type: SqlTypeName): unknown {
  if (value === undefined || value === null) return null
  if (typeof value === 'boolean') return value ? 1 : 0
  if (value instanceof Date) return wallClock(value)
  // Bytes for a binary column (a UUID fitted to BINARY(16): db/column-values.ts), whatever the mapping's type.
  if (Buffer.isBuffer(value)) return value
  if (INTEGER.has(type)) {
    if (typeof value === 'number' && Number.isSafeInteger(value)) return TYPED.LONGLONG(value)
    if (typeof value === 'string' && /^-?\d{1,18}$/.test(value)) return TYPED.LONGLONG(value)
    return typeof value === 'number' ? value : String(value)
  }
  if (TEXT.has(type)) return String(value)
  if (type === 'decimal' && (typeof value === 'number' || typeof value === 'string')) return TYPED.DECIMAL(String(value))
  return value
}

/** mysql2's column types (its constants/types) of the values the readers want in another shape. */
const DECIMAL = 0x00
const NEWDECIMAL = 0xf6
const BIT = 0x10

/** What mysql2 tells of a result's column: only what the row fix-up needs. */
export interface ResultField { name: string, columnType?: number, columnLength?: number }

/**
 * Row values as the readers expect them: DECIMAL as a number when a double holds it exactly
 * (a price, a coordinate), else its text; BIT(1) as 0/1 rather than a Buffer. Dates stay
 * text (dateStrings); BIGINT is a number when safe (supportBigNumbers).
 * Applied to a result's rows after mysql2 built them, and only to those columns: a mysql2
 * `typeCast` function runs per value and builds a wrapper object decoding the column's names
 * each time, which cost a 1,000-row list about 60 ms of CPU.
 * Undefined when no column needs it (the common case): the rows are left as mysql2 made them.
 */
export function rowFixer (fields: readonly ResultField[] | undefined): ((rows: Array<Record<string, unknown>>) => void) | undefined {
  if (fields === undefined) return undefined
  const decimals: string[] = []
  const bits: string[] = []
  for (const f of fields) {
    if (f.columnType === NEWDECIMAL || f.columnType === DECIMAL) decimals.push(f.name)
    else if (f.columnType === BIT && f.columnLength === 1) bits.push(f.name)
  }
  if (decimals.length === 0 && bits.length === 0) return undefined
  return (rows) => {
    for (const row of rows) {
      for (const name of decimals) row[name] = decimalValue(row[name] as string | null)
      for (const name of bits) {
        const bytes = row[name] as Buffer | null
        row[name] = bytes === null ? null : bytes[0]
      }
    }
  }
}

function decimalValue (text: string | null): number | string | null {
  if (text === null) return null
  const digits = text.replace(/^-|\.|^0+/g, '').replace(/^0+/, '')
  return digits.length <= 15 ? Number(text) : text
}

const pad = (n: number): string => String(n).padStart(2, '0')

function wallClock (v: Date): string {
  return `${v.getFullYear()}-${pad(v.getMonth() + 1)}-${pad(v.getDate())} ${pad(v.getHours())}:${pad(v.getMinutes())}:${pad(v.getSeconds())}`
}
