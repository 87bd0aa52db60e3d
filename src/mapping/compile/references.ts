// Every table and column the compiler resolves, with its use and mapping place: `check`, its
// index advice and `fixtures dump` read this record instead of walking the mapping again, so
// a construct the compiler learns is checked by construction.
import type { Static } from 'typebox'
import type { ConditionLeafDoc, WriteValue } from '../schema.js'
import type { Value } from '../model.js'

export type Use = 'read' | 'filter' | 'join' | 'write' | 'key'

/**
 * How a statement seeks rows by a column, so an index leading with it (or, for `folded`, with
 * its expression) lets the database seek them instead of reading the table: `equal` and
 * `range` compare it with a request's value, `join` with another row's column, `prefix` with a
 * search probe's spellings (equality and prefixes), `folded` as LOWER(TRIM(column)) with a
 * search term.
 */
export type Lookup = 'equal' | 'range' | 'join' | 'prefix' | 'folded'

export interface Reference {
  table: string
  /** Absent: the table itself. */
  column?: string
  use: Use
  /** JSON pointer of the mapping place (Findings turns it into file:line). */
  path: string
  /** The value read from the column: its converters must fit the column's type. */
  value?: Value
  /** The value written to the column: a generated identifier or a format must fit it. */
  written?: Static<typeof WriteValue>
  /** The column a client search looks up by its stored spellings (compile/client.ts probes). */
  probe?: 'phone' | 'cpf'
  /** The condition comparing the column with literals. */
  condition?: ConditionLeafDoc
  /** Rows are sought by this column (check's index advice reads it). */
  lookup?: Lookup
}

export class References {
  readonly list: Reference[] = []
  private readonly seen = new Map<string, Reference>()

  add (r: Reference): void {
    const key = `${r.table}|${r.column ?? ''}|${r.use}|${r.path}|${r.probe ?? ''}`
    const known = this.seen.get(key)
    // The same place met by another statement: what it adds about the column is kept.
    if (known) Object.assign(known, { ...r, ...known })
    else {
      this.seen.set(key, r)
      this.list.push(r)
    }
  }

  /** Every table named, in the order first met. */
  tables (): string[] {
    return [...new Set(this.list.map((r) => r.table))]
  }
}

// Compilation is synchronous: the record being filled is the one of the compile in progress,
// so no signature of the compiler has to carry it.
let current: References | undefined

export function recording<T> (refs: References, fn: () => T): T {
  const outer = current
  current = refs
  try {
    return fn()
  } finally {
    current = outer
  }
}

/** Records a reference of the compile in progress (none outside compileMapping). */
export function reference (r: Reference): void {
  current?.add(r)
}

/** A column name as one JSON pointer segment. */
export function segment (s: string): string {
  return s.replace(/~/g, '~0').replace(/\//g, '~1')
}
