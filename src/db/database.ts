// The one small interface every driver implements. Statements come only from the compiler;
// drivers bind values with the types the mapping declares.
import type { Dialect } from '../sql/dialect.js'
import type { Statement } from '../sql/statement.js'

export type Row = Record<string, unknown>

export interface Database {
  readonly dialect: Dialect
  query: (statement: Statement, args?: Record<string, unknown>) => Promise<Row[]>
  /** Cheap round trip for readiness checks. */
  ping: () => Promise<void>
  close: () => Promise<void>
  /** Statements run so far; tests use it to prove a request costs a bounded number. */
  readonly stats: { statements: number }
}
