// How a compiled plan meets a request: it takes domain input (ids as strings, date ranges,
// column values from the compiler's own encoders) and binds its own statement inputs, so
// services never learn the inputs' names. `undefined` from a bind means no row can match
// (an id its column cannot hold): the caller answers "nothing" without asking the database.
import type { Statement } from '../../sql/statement.js'
import type { ColumnValues } from './write-columns.js'

/** A statement with its inputs, ready for `Querier.query`. */
export interface Bound {
  statement: Statement
  args: Record<string, unknown>
}

/** A closed range of the clinic's dates, 'YYYY-MM-DD'. */
export interface DateRange { from: string, to: string }

/** What a mapping cannot do, as a value: the place in the mapping and why. */
export interface Unsupported { unsupported: { path: string, reason: string } }

/** A plan, or why this installation has none. */
export type Supported<T> = T | Unsupported

export function isUnsupported<T> (x: Supported<T>): x is Unsupported {
  return typeof x === 'object' && x !== null && 'unsupported' in x
}

// Written columns travel as `col:<name>` inputs (write-columns.ts, rows.ts, history.ts): the prefix
// keeps them apart from the key and range inputs sharing a statement.
const COLUMN = 'col:'

export function columnInputs (values: ColumnValues): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).map(([c, v]) => [`${COLUMN}${c}`, v]))
}

export function columnOf (input: string): string | undefined {
  return input.startsWith(COLUMN) ? input.slice(COLUMN.length) : undefined
}
