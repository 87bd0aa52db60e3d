// Values in and out of MariaDB/MySQL, in the shapes the SQLite driver gives the readers:
// dates and times as text, numbers as numbers.
import mysql, { type TypeCast } from 'mysql2/promise'
import type { SqlTypeName } from '../../mapping/schema.js'

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
    if (typeof value === 'number' && Number.isSafeInteger(value)) return mysql.TypedParameter.LONGLONG(value)
    if (typeof value === 'string' && /^-?\d{1,18}$/.test(value)) return mysql.TypedParameter.LONGLONG(value)
    return typeof value === 'number' ? value : String(value)
  }
  if (TEXT.has(type)) return String(value)
  if (type === 'decimal' && (typeof value === 'number' || typeof value === 'string')) return mysql.TypedParameter.DECIMAL(String(value))
  return value
}

/**
 * Row values as the readers expect them: DECIMAL as a number when a double holds it exactly
 * (a price, a coordinate), else its text; BIT(1) as 0/1 rather than a Buffer. Dates stay
 * text (dateStrings); BIGINT is a number when safe (supportBigNumbers).
 */
export const typeCast: TypeCast = (field, next) => {
  if (field.type === 'NEWDECIMAL' || field.type === 'DECIMAL') {
    const text = field.string()
    if (text === null) return null
    const digits = text.replace(/^-|\.|^0+/g, '').replace(/^0+/, '')
    return digits.length <= 15 ? Number(text) : text
  }
  if (field.type === 'BIT' && field.length === 1) {
    const bytes = field.buffer()
    return bytes === null ? null : bytes[0]
  }
  return next()
}

const pad = (n: number): string => String(n).padStart(2, '0')

function wallClock (v: Date): string {
  return `${v.getFullYear()}-${pad(v.getMonth() + 1)}-${pad(v.getDate())} ${pad(v.getHours())}:${pad(v.getMinutes())}:${pad(v.getSeconds())}`
}
