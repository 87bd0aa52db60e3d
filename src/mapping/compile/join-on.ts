// The column pairs of a join's `on` (and a `collect`'s): the parent's column, the joined
// table's, and the fixed text the parent's may hold around the joined value (OSCAR names the
// shared template `FullDay` as `P:FullDay`).
import type { Dialect } from '../../sql/dialect.js'
import type { ParamList } from '../../sql/statement.js'
import type { JoinColumnDoc, JoinOnDoc } from '../schema.js'

export interface OnPair {
  /** The parent's column (`from`'s, or the resource's; `alias.COL` in a `collect`). */
  local: string
  /** The joined table's column. */
  remote: string
  /** What `local` holds before and after `remote`'s value ('' for none). */
  prefix: string
  suffix: string
}

/** The joined table's column of one pair. */
export const onColumn = (c: JoinColumnDoc): string => typeof c === 'string' ? c : c.column

export function onPairs (on: JoinOnDoc): OnPair[] {
  return Object.entries(on).map(([local, c]) => typeof c === 'string'
    ? { local, remote: c, prefix: '', suffix: '' }
    : { local, remote: c.column, prefix: c.prefix ?? '', suffix: c.suffix ?? '' })
}

export const isAffixed = (p: OnPair): boolean => p.prefix !== '' || p.suffix !== ''

/**
 * The SQL of one pair between the parent's `local` and the joined `remote` expressions. An
 * affixed pair holds when `local = prefix || remote || suffix` (the texts bound), compared by
 * the database's own `=`; the joined column is also compared, bare, with `local` stripped of
 * the texts, which that implies: so the joined table's index on it still finds the row from
 * the parent's, as for a plain pair.
 */
export function onMatch (d: Dialect, pair: OnPair, local: string, remote: string, params: ParamList): string {
  if (!isAffixed(pair)) return `${local} = ${remote}`
  const text = (s: string): string[] => s === '' ? [] : [params.constant(s, 'text')]
  const stripped = d.strip(local, characters(pair.prefix), characters(pair.suffix))
  return d.and([`${remote} = ${stripped}`, `${local} = ${d.concat([...text(pair.prefix), remote, ...text(pair.suffix)])}`])
}

/** Characters as the databases count them (code points), not UTF-16 units. */
const characters = (s: string): number => [...s].length

/**
 * The pairs as plain columns (parent's → joined), for a join a write goes through: model.ts
 * refuses a prefix or suffix there, a row to create or point at being known only by its column.
 */
export function onColumns (on: JoinOnDoc): Record<string, string> {
  return Object.fromEntries(Object.entries(on).map(([local, c]) => [local, onColumn(c)]))
}
