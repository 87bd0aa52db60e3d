// Conditions of the mapping language, in SQL (filters, CASE) and in JS (reading rows).
// Both sides must agree exactly: a row the SQL filter keeps for state X must also read as X.
//  - text literals compare with the stored value's trailing spaces removed (char columns),
//    and without regard to case (SQL Server's usual collations ignore it: 'x' is 'X') unless
//    the condition says `codes: exact` (codes.ts);
//  - number and boolean literals compare numerically;
//  - a NULL never equals anything, and `ne`/`notIn` hold for NULL; `not` of a condition that
//    does not hold for a NULL holds.
//  - `all`/`any`/`not` nest, up to MAX_CONDITION_DEPTH groups deep.
import type { ParamList } from '../../sql/statement.js'
import { MAX_CONDITION_DEPTH, type ConditionDoc, type ConditionLeafDoc, type LiteralValue, type SqlTypeName } from '../schema.js'
import { CompileError, type Scope } from './scope.js'
import { memoText } from './memo.js'
import { columnGetter } from './entity.js'
import { mappingCode, storedCode, storedCodeSql } from './codes.js'

export function literalType (v: LiteralValue): SqlTypeName {
  if (typeof v === 'string') return 'text'
  if (typeof v === 'boolean') return 'bit'
  return Number.isInteger(v) ? 'int' : 'decimal'
}

export function bindLiteral (v: LiteralValue, params: ParamList): string {
  return params.constant(typeof v === 'boolean' ? (v ? 1 : 0) : v, literalType(v))
}

/** A literal a stored value is compared with: text as `compared` puts the column. */
function bindCompared (v: LiteralValue, exact: boolean, params: ParamList): string {
  return bindLiteral(typeof v === 'string' ? mappingCode(v, exact) : v, params)
}

function compared (col: string, sample: LiteralValue, exact: boolean, scope: Scope): string {
  return typeof sample === 'string' ? storedCodeSql(scope.dialect, col, exact) : col
}

function leafSql (c: ConditionLeafDoc, scope: Scope, params: ParamList, path: string): string {
  const col = scope.ref(c.column, `${path}/column`, 'filter', { condition: c })
  const d = scope.dialect
  const exact = c.codes === 'exact'
  const parts: string[] = []
  if (c.eq !== undefined) parts.push(`${compared(col, c.eq, exact, scope)} = ${bindCompared(c.eq, exact, params)}`)
  if (c.ne !== undefined) parts.push(`(${d.or([d.isNull(col), `${compared(col, c.ne, exact, scope)} <> ${bindCompared(c.ne, exact, params)}`])})`)
  if (c.in) parts.push(d.inList(compared(col, c.in[0], exact, scope), c.in.map((v) => bindCompared(v, exact, params))))
  if (c.notIn) parts.push(`(${d.or([d.isNull(col), d.notIn(compared(col, c.notIn[0], exact, scope), c.notIn.map((v) => bindCompared(v, exact, params)))])})`)
  if (c.isNull !== undefined) parts.push(c.isNull ? d.isNull(col) : d.isNotNull(col))
  if (c.blank !== undefined) {
    const empty = `${d.trim(d.asText(col))} = ''`
    parts.push(c.blank ? `(${d.or([d.isNull(col), empty])})` : `(${d.and([d.isNotNull(col), d.not(empty)])})`)
  }
  if (parts.length === 0) parts.push(d.always)
  return parts.length === 1 ? parts[0] : `(${d.and(parts)})`
}

/** How a condition tree is folded: its leaves, and what `all`, `any` and `not` make of their parts. */
interface Fold<T> {
  leaf: (c: ConditionLeafDoc, path: string) => T
  all: (parts: T[]) => T
  any: (parts: T[]) => T
  not: (part: T) => T
}

/** Walks a condition, its groups at most MAX_CONDITION_DEPTH deep (the place and the reason otherwise). */
function fold<T> (c: ConditionDoc, path: string, f: Fold<T>, depth = 0): T {
  if (!('all' in c) && !('any' in c) && !('not' in c)) return f.leaf(c, path)
  if (depth >= MAX_CONDITION_DEPTH) {
    throw new CompileError(path, `conditions nest more than ${MAX_CONDITION_DEPTH} groups deep here (all, any, not inside each other): write the inner test once more simply, or split it into a second condition`)
  }
  if ('not' in c) return f.not(fold(c.not, `${path}/not`, f, depth + 1))
  const [key, items] = 'all' in c ? ['all', c.all] as const : ['any', c.any] as const
  const parts = items.map((item, i) => fold(item, `${path}/${key}/${i}`, f, depth + 1))
  return parts.length === 1 ? parts[0] : f[key](parts)
}

export function conditionSql (c: ConditionDoc, scope: Scope, params: ParamList, path: string): string {
  const d = scope.dialect
  return fold<string>(c, path, {
    leaf: (leaf, at) => leafSql(leaf, scope, params, at),
    all: (parts) => `(${d.and(parts)})`,
    any: (parts) => `(${d.or(parts)})`,
    not: (part) => `(${d.notTrue(part)})`
  })
}

// ---- JS side ----

export type RowTest = (row: Record<string, unknown>) => boolean

/** `column` gives the row key under which a referenced column (at `path` in the mapping) was selected. */
export function conditionTest (c: ConditionDoc, path: string, column: (leaf: ConditionLeafDoc, path: string) => string): RowTest {
  return fold<RowTest>(c, path, {
    leaf: (leaf, at) => leafTest(leaf, column(leaf, `${at}/column`)),
    all: (tests) => (row) => { for (const t of tests) if (!t(row)) return false; return true },
    any: (tests) => (row) => { for (const t of tests) if (t(row)) return true; return false },
    not: (test) => (row) => !test(row)
  })
}

function same (stored: unknown, lit: LiteralValue, exact: boolean): boolean {
  if (stored === null || stored === undefined) return false
  if (typeof lit === 'string') return storedCode(stored, exact) === mappingCode(lit, exact)
  const n = typeof stored === 'boolean' ? (stored ? 1 : 0) : Number(stored)
  return n === (typeof lit === 'boolean' ? (lit ? 1 : 0) : lit)
}

function leafTest (c: ConditionLeafDoc, key: string): RowTest {
  const checks: ((v: unknown) => boolean)[] = []
  const exact = c.codes === 'exact'
  if (c.eq !== undefined) { const lit = c.eq; checks.push((v) => same(v, lit, exact)) }
  if (c.ne !== undefined) { const lit = c.ne; checks.push((v) => !same(v, lit, exact)) }
  if (c.in) { const lits = c.in; checks.push((v) => lits.some((l) => same(v, l, exact))) }
  if (c.notIn) { const lits = c.notIn; checks.push((v) => !lits.some((l) => same(v, l, exact))) }
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

/**
 * Whether a row holding `value` in `column` can meet the condition, whatever its other
 * columns hold: false only when the tests on `column` alone rule it out (a written code the
 * row's own filter would drop); undefined when other columns decide.
 */
export function admits (c: ConditionDoc, path: string, column: string, value: LiteralValue): boolean | undefined {
  const row = { v: value }
  return fold<boolean | undefined>(c, path, {
    leaf: (leaf) => leaf.column === column ? leafTest(leaf, 'v')(row) : undefined,
    all: (parts) => parts.includes(false) ? false : parts.every((p) => p === true) ? true : undefined,
    any: (parts) => parts.includes(true) ? true : parts.every((p) => p === false) ? false : undefined,
    not: (part) => part === undefined ? undefined : !part
  })
}
