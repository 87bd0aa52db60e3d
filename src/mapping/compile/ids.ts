// Ids from callers: one canonical form per record, the same on every resource, filter and
// dialect. '01' is not 1 and 'cln-01 ' is not CLN-01: a caller who sends either gets
// nothing, never another record (and never a different answer on SQL Server than on SQLite).
import type { SqlTypeName } from '../schema.js'

const INTEGER_RANGES: Partial<Record<SqlTypeName, readonly [bigint, bigint]>> = {
  int: [-2147483648n, 2147483647n],
  bigint: [-9223372036854775808n, 9223372036854775807n],
  smallint: [-32768n, 32767n],
  bit: [0n, 1n]
}

/** An integer as the database writes it: no sign on zero, no leading zeros, no '+'. */
const CANONICAL_INTEGER = /^(0|-?[1-9][0-9]{0,19})$/

/**
 * Whether an id from the caller can be the canonical id of a value of that column type.
 * Integer columns: a canonical integer within the type's range ("abc" against INT is
 * answered without asking the database, which would fail converting it). Other columns: the
 * exact string; an id with surrounding spaces cannot be one, since ids are read trimmed.
 */
export function matchesType (id: string, type: SqlTypeName): boolean {
  const range = INTEGER_RANGES[type]
  if (range === undefined) return id.length > 0 && id.length <= 4000 && id.trim() === id
  if (!CANONICAL_INTEGER.test(id)) return false
  // Up to 15 digits a Number is exact (and a BigInt per request is not free); comparing a
  // Number with a BigInt is exact in JavaScript.
  const n = id.length <= 15 ? Number(id) : BigInt(id)
  return n >= range[0] && n <= range[1]
}

/** Whether ids of this column type are integers (compared by their canonical digits). */
export function isIntegerType (type: SqlTypeName): boolean {
  return INTEGER_RANGES[type] !== undefined
}

/** The value to bind for an id: integers as numbers (or strings past 2^53, for bigint). */
export function bindId (id: string, type: SqlTypeName): string | number {
  if (INTEGER_RANGES[type] === undefined) return id
  const n = Number(id)
  return Number.isSafeInteger(n) ? n : id
}
