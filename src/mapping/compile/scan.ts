// How `ponte check` reads stored data, compiled like every other plan: a whole table in batches
// in key order (the next batch starts after the last key read; a table with a composite key or
// none pages by position), and single statements counting or grouping rows. The plans read
// rows into domain values; judging them is check's.
import type { Dialect } from '../../sql/dialect.js'
import { ParamList, type Statement } from '../../sql/statement.js'
import type { SqlTypeName } from '../schema.js'
import type { Bound } from './bind.js'
import type { Row } from './entity.js'
import { Scope, type ScopeSource } from './scope.js'
import { Columns } from './value.js'

/** One column of the order a scan reads its rows in. */
export interface ScanKey { column: string, type: SqlTypeName }

/** Where a batch starts: after the last key read (undefined: the first batch), `scanned` rows in. */
export interface ScanBatch { after?: unknown, scanned: number, limit: number }

/** A whole table, batch by batch. */
export interface ScanPlan<T> {
  /** Plural, for progress lines: `appointments`. */
  what: string
  /** How many rows the scan will read (`n`). */
  count: Statement
  bind: (batch: ScanBatch) => Bound
  read: (row: Row) => T
  /** The key the next batch starts after; absent where the table is read by position. A NULL key ends the order. */
  key?: (row: Row) => unknown
}

/** One statement and what its rows mean. */
export interface ReadPlan<T> {
  statement: Statement
  read: (row: Row) => T
}

/** Builds the readers of one statement (selecting what they need into `cols`). */
export type RowReader<T> = (scope: Scope, params: ParamList, cols: Columns) => (row: Row) => T

/** `inputs`: what the reader's own inputs (`params.input`) are bound to in every batch. */
export function scanPlan<T> (d: Dialect, what: string, source: ScopeSource, key: ScanKey[], keyPath: string, reader: RowReader<T>, inputs: Record<string, unknown> = {}): ScanPlan<T> {
  const keyed = key.length === 1
  const first = batchOf(d, what, source, key, keyPath, reader, false)
  const next = keyed ? batchOf(d, what, source, key, keyPath, reader, true) : undefined
  const plan: ScanPlan<T> = {
    what,
    count: aggregate(`${what}.count`, d, source, () => ({ columns: [{ expr: d.count(), alias: 'n' }] })),
    bind: ({ after, scanned, limit }) => {
      const args: Record<string, unknown> = { ...inputs, limit, offset: keyed ? 0 : scanned }
      if (after !== undefined) args.after = after
      return { statement: after !== undefined && next ? next.statement : first.statement, args }
    },
    // Both statements select the same columns under the same aliases: one reader reads either.
    read: first.read
  }
  const alias = first.keyAlias
  if (alias !== undefined) plan.key = (row) => row[alias]
  return plan
}

function batchOf<T> (d: Dialect, what: string, source: ScopeSource, key: ScanKey[], keyPath: string, reader: RowReader<T>, afterKey: boolean): { statement: Statement, read: (row: Row) => T, keyAlias?: string } {
  const scope = new Scope(d, source, 't')
  const params = new ParamList(d)
  const cols = new Columns()
  const read = reader(scope, params, cols)
  const keys = key.map((k) => scope.ref(k.column, keyPath))
  const keyAlias = keys.length === 1 ? cols.add(keys[0]) : undefined
  const where = scope.where(params)
  if (afterKey) where.push(`${keys[0]} > ${params.input('after', key[0].type)}`)
  const orderBy = keys.length > 0 ? keys : cols.list.map((c) => c.expr)
  const page = { limit: params.input('limit', 'int'), offset: params.input('offset', 'int') }
  const sql = d.select({ columns: cols.list, from: { table: d.table(source.table), alias: 't' }, joins: scope.joins(params), where, orderBy, page })
  return { statement: { name: `${what}.scan`, sql, params: params.params }, read, keyAlias }
}

/** Counts, groups or extremes over a table's rows (its base filter applied, joins as used). */
export function aggregate (name: string, d: Dialect, source: ScopeSource, build: (scope: Scope, params: ParamList) => { columns: { expr: string, alias: string }[], where?: string[], groupBy?: string[], having?: string[] }): Statement {
  const scope = new Scope(d, source, 't')
  const params = new ParamList(d)
  const { columns, where = [], groupBy, having } = build(scope, params)
  const base = scope.where(params)
  const sql = d.select({ columns, from: { table: d.table(source.table), alias: 't' }, joins: scope.joins(params), where: [...base, ...where], groupBy, having, orderBy: [] })
  return { name, sql, params: params.params }
}
