import type { SqlTypeName } from '../mapping/schema.js'

const INTEGER_TYPES = new Set<SqlTypeName>(['int', 'bigint', 'smallint', 'bit'])
const LIMITS: Partial<Record<SqlTypeName, number>> = { int: 2147483647, smallint: 32767 }

/**
 * Whether an id from the caller can equal a value of that column type at all. An id like
 * "abc" against an INT column matches nothing: answer that without asking the database
 * (which would otherwise fail converting it).
 */
export function matchesType (id: string, type: SqlTypeName): boolean {
  if (!INTEGER_TYPES.has(type)) return id.length > 0 && id.length <= 4000
  if (!/^-?\d{1,19}$/.test(id)) return false
  const limit = LIMITS[type]
  return limit === undefined || Math.abs(Number(id)) <= limit
}

/** The value to bind for an id: integers as numbers (or strings past 2^53, for bigint). */
export function bindId (id: string, type: SqlTypeName): string | number {
  if (!INTEGER_TYPES.has(type)) return id
  const n = Number(id)
  return Number.isSafeInteger(n) ? n : id
}
