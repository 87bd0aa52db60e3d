import type { SqlTypeName } from '../mapping/schema.js'
import type { Dialect } from './dialect.js'

/** Where a parameter's value comes from: fixed by the mapping, or an input of the call. */
export type ParamSource = { value: unknown } | { input: string }

export interface Param {
  type: SqlTypeName
  source: ParamSource
}

/** A compiled statement: text with placeholders, and what to bind to each, in order. */
export interface Statement {
  /** What the statement is for, shown by `ponte explain` and in golden files. */
  name: string
  sql: string
  params: Param[]
  /**
   * The table it writes (every INSERT, UPDATE and DELETE names one): its `col:<name>` inputs are
   * fitted to that table's live columns (db/column-values.ts), and it is refused before it runs
   * where that table cannot roll back (db/non-transactional.ts).
   */
  writes?: string
  /** Lengths the mapping declares for some of those columns (`length:`): they win over the live column's. */
  lengths?: Record<string, number>
  /**
   * Its best plan depends on the values bound (a search's `LIKE` prefixes, which a B-tree
   * seeks only when the pattern is known): planned at every run, never kept under a name,
   * where PostgreSQL may switch to one generic plan for all values after five runs.
   */
  planEachRun?: true
}

/**
 * Collects parameters while a statement is built. Every occurrence gets its own
 * placeholder, so positional dialects (`?`, `$1`) work as well as named ones.
 */
export class ParamList {
  readonly params: Param[] = []
  constructor (private readonly dialect: Dialect) {}

  constant (value: unknown, type: SqlTypeName): string {
    return this.add({ type, source: { value } })
  }

  input (name: string, type: SqlTypeName): string {
    return this.add({ type, source: { input: name } })
  }

  private add (param: Param): string {
    this.params.push(param)
    return this.dialect.placeholder(this.params.length)
  }
}

/** Values to bind, in order, for one call of a statement. */
export function bindValues (statement: Statement, args: Record<string, unknown>): unknown[] {
  return statement.params.map((p) => 'value' in p.source ? p.source.value : args[p.source.input])
}

/** The type an input of a statement binds with (ids are checked against it before a query). */
export function inputType (statement: Statement, input: string): SqlTypeName | undefined {
  return statement.params.find((p) => 'input' in p.source && p.source.input === input)?.type
}
