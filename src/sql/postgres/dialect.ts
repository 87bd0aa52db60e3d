import { LIST_SEPARATOR, type Dialect, type SelectSpec } from '../dialect.js'
import { renderSelectBody } from '../render.js'
import { ansi, quoteDouble as quote } from '../ansi.js'
import { foldName } from '../../normalise/text.js'

// PostgreSQL keeps a schema qualifier (`dbo.AGENDA` → "dbo"."AGENDA"): the loader creates
// schema dbo, so one mapping serves a SQL Server database and its PostgreSQL copy. Quoted
// identifiers keep the mapping's case.
export const postgres: Dialect = {
  ...ansi,
  name: 'postgres',
  placeholder: (i) => `$${i}`,
  select (spec: SelectSpec) {
    // No FOR UPDATE under `spec.lock`: row locks do not cover the empty slot a booking is
    // about to fill (no gap locks in PostgreSQL). The driver runs every transaction
    // SERIALIZABLE and retries serialization failures instead (driver.ts).
    const body = renderSelectBody(this, spec)
    const order = spec.orderBy.length > 0 ? ` ORDER BY ${spec.orderBy.join(', ')}` : ''
    const page = spec.page ? ` LIMIT ${spec.page.limit} OFFSET ${spec.page.offset}` : spec.first ? ' LIMIT 1' : ''
    return body + order + page
  },
  // TEXT, not VARCHAR(n): no silent truncation. A CHAR(n) value loses its padding here, which
  // every caller trims anyway.
  asText: (e) => `CAST(${e} AS TEXT)`,
  // Cast before COALESCE: COALESCE(<int column>, '') would read '' as an integer.
  concat: (parts) => parts.map((p) => `COALESCE(CAST(${p} AS TEXT), '')`).join(' || '),
  // The same folding as SQLite's ponte_fold (normalise/text.ts foldName), written in core SQL
  // so no extension (unaccent) is needed: accented letters and combining marks through one
  // TRANSLATE with a fixed map, then whitespace runs as one space, trimmed, lower case. ESCAPE ''
  // because the caller's pattern has no escapes (SQLite's LIKE has none either).
  foldedLike: (e, pattern) => `${foldSql(e)} LIKE ${pattern} ESCAPE ''`,
  minutesBetween: (from, to) => `CAST(ROUND(EXTRACT(EPOCH FROM (${to} - ${from})) / 60) AS INTEGER)`,
  textList (expr, from, where, orderBy) {
    const w = where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''
    const o = orderBy.length > 0 ? ` ORDER BY ${orderBy.join(', ')}` : ''
    return `(SELECT STRING_AGG(CAST(${expr} AS TEXT), '${LIST_SEPARATOR}'${o}) FROM ${from.table} ${quote(from.alias)}${w})`
  },
  // Every transaction is SERIALIZABLE (driver.ts): no hint needed.
  lockHint: '',
  nextSequenceValue (sequence) {
    // nextval takes the sequence's name as text; the name comes from the mapping, not from a request.
    const name = sequence.split('.').map(quote).join('.').replace(/'/g, "''")
    return `SELECT nextval('${name}') AS ${quote('id')}`
  }
}

/**
 * TRANSLATE's two arguments: every Latin letter with a diacritic (U+00C0–U+024F, U+1E00–U+1EFF)
 * mapped to what foldName makes of it when that is one character, A–Z to a–z, and the
 * combining marks (U+0300–U+036F) at the end with no counterpart, which TRANSLATE deletes.
 */
function foldMap (): { from: string, to: string } {
  let from = ''
  let to = ''
  const ranges: [number, number][] = [[0x41, 0x5a], [0xc0, 0x24f], [0x1e00, 0x1eff]]
  for (const [lo, hi] of ranges) {
    for (let cp = lo; cp <= hi; cp++) {
      const ch = String.fromCodePoint(cp)
      const folded = foldName(ch)
      if (folded !== ch && [...folded].length === 1) {
        from += ch
        to += folded
      }
    }
  }
  for (let cp = 0x300; cp <= 0x36f; cp++) from += String.fromCodePoint(cp)
  return { from, to }
}

const FOLD = foldMap()

/** foldName in SQL: the expression's text folded for a name search. */
export function foldSql (e: string): string {
  const unmarked = `TRANSLATE(CAST(${e} AS TEXT), '${FOLD.from}', '${FOLD.to}')`
  return `LOWER(TRIM(REGEXP_REPLACE(${unmarked}, '\\s+', ' ', 'g')))`
}
