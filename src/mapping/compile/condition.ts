// Conditions of the mapping language, in SQL (filters, CASE) and in JS (reading rows).
// Both sides must agree exactly: a row the SQL filter keeps for state X must also read as X.
//  - text literals compare with the stored value's trailing spaces removed (char columns),
//    and without regard to case (SQL Server's usual collations ignore it: 'x' is 'X');
//  - number and boolean literals compare numerically;
//  - a NULL never equals anything, and `ne`/`notIn` hold for NULL.
import type { ParamList } from '../../sql/statement.js'
import type { ConditionDoc, ConditionLeafDoc, LiteralValue, SqlTypeName } from '../schema.js'
import { leaves } from '../model.js'
import type { Scope } from './scope.js'
import { memoText } from './memo.js'
import { columnGetter } from './entity.js'

export function literalType (v: LiteralValue): SqlTypeName {
  if (typeof v === 'string') return 'text'
  if (typeof v === 'boolean') return 'bit'
  return Number.isInteger(v) ? 'int' : 'decimal'
}

export function bindLiteral (v: LiteralValue, params: ParamList): string {
  return params.constant(typeof v === 'boolean' ? (v ? 1 : 0) : v, literalType(v))
}

/** A literal a stored value is compared with: text upper-cased, as `compared` puts the column. */
function bindCompared (v: LiteralValue, params: ParamList): string {
  return bindLiteral(typeof v === 'string' ? v.toUpperCase() : v, params)
}

function compared (col: string, sample: LiteralValue, scope: Scope): string {
  return typeof sample === 'string' ? scope.dialect.upper(scope.dialect.rtrim(col)) : col
}

function leafSql (c: ConditionLeafDoc, scope: Scope, params: ParamList, path: string): string {
  const col = scope.ref(c.column, `${path}/column`, 'filter', { condition: c })
  const d = scope.dialect
  const parts: string[] = []
  if (c.eq !== undefined) parts.push(`${compared(col, c.eq, scope)} = ${bindCompared(c.eq, params)}`)
  if (c.ne !== undefined) parts.push(`(${d.or([d.isNull(col), `${compared(col, c.ne, scope)} <> ${bindCompared(c.ne, params)}`])})`)
  if (c.in) parts.push(d.inList(compared(col, c.in[0], scope), c.in.map((v) => bindCompared(v, params))))
  if (c.notIn) parts.push(`(${d.or([d.isNull(col), d.notIn(compared(col, c.notIn[0], scope), c.notIn.map((v) => bindCompared(v, params)))])})`)
  if (c.isNull !== undefined) parts.push(c.isNull ? d.isNull(col) : d.isNotNull(col))
  if (c.blank !== undefined) {
    const empty = `${d.trim(d.asText(col))} = ''`
    parts.push(c.blank ? `(${d.or([d.isNull(col), empty])})` : `(${d.and([d.isNotNull(col), d.not(empty)])})`)
  }
  if (parts.length === 0) parts.push(d.always)
  return parts.length === 1 ? parts[0] : `(${d.and(parts)})`
}

export function conditionSql (c: ConditionDoc, scope: Scope, params: ParamList, path: string): string {
  const list = leaves(c).map((leaf, i) => leafSql(leaf, scope, params, leafPath(c, path, i)))
  if (list.length === 1) return list[0]
  return `(${'any' in c ? scope.dialect.or(list) : scope.dialect.and(list)})`
}

/** The mapping place of a condition's `i`th leaf. */
function leafPath (c: ConditionDoc, path: string, i: number): string {
  return 'all' in c || 'any' in c ? `${path}/${'all' in c ? 'all' : 'any'}/${i}` : path
}

// ---- JS side ----

export type RowTest = (row: Record<string, unknown>) => boolean

/** `column` gives the row key under which a referenced column (at `path` in the mapping) was selected. */
export function conditionTest (c: ConditionDoc, path: string, column: (leaf: ConditionLeafDoc, path: string) => string): RowTest {
  const tests = leaves(c).map((leaf, i) => leafTest(leaf, column(leaf, `${leafPath(c, path, i)}/column`)))
  if (tests.length === 1) return tests[0]
  if ('any' in c) return (row) => { for (const t of tests) if (t(row)) return true; return false }
  return (row) => { for (const t of tests) if (!t(row)) return false; return true }
}

function same (stored: unknown, lit: LiteralValue): boolean {
  if (stored === null || stored === undefined) return false
  if (typeof lit === 'string') return String(stored).trimEnd().toUpperCase() === lit.toUpperCase()
  const n = typeof stored === 'boolean' ? (stored ? 1 : 0) : Number(stored)
  return n === (typeof lit === 'boolean' ? (lit ? 1 : 0) : lit)
}

function leafTest (c: ConditionLeafDoc, key: string): RowTest {
  const checks: ((v: unknown) => boolean)[] = []
  if (c.eq !== undefined) { const lit = c.eq; checks.push((v) => same(v, lit)) }
  if (c.ne !== undefined) { const lit = c.ne; checks.push((v) => !same(v, lit)) }
  if (c.in) { const lits = c.in; checks.push((v) => lits.some((l) => same(v, l))) }
  if (c.notIn) { const lits = c.notIn; checks.push((v) => !lits.some((l) => same(v, l))) }
  if (c.isNull !== undefined) { const want = c.isNull; checks.push((v) => (v === null || v === undefined) === want) }
  if (c.blank !== undefined) {
    const want = c.blank
    checks.push((v) => (v === null || v === undefined || String(v).trim() === '') === want)
  }
  const all = checks.length === 1 ? checks[0] : (v: unknown) => checks.every((check) => check(v))
  // Its answer depends on the stored value alone: text codes ('X', 'C ', 's') are normalised
  // once per distinct value, not once per row.
  const test = memoText(all)
  const stored = columnGetter(key)
  return (row) => test(stored(row))
}
