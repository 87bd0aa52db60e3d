import { LIST_SEPARATOR, type Dialect, type SelectSpec } from '../dialect.js'
import { renderSelectBody } from '../render.js'
import { ansi, quoteDouble as quote } from '../ansi.js'

// PostgreSQL keeps a schema qualifier (`dbo.AGENDA` → "dbo"."AGENDA"): the loader creates
// schema dbo, so one mapping serves a SQL Server database and its PostgreSQL copy. Quoted
// identifiers keep the mapping's case.
export const postgres: Dialect = {
  ...ansi,
  name: 'postgres',
  placeholder: (i) => `$${i}`,
  // LIKE 'p%' seeks a B-tree only when it compares bytes: the C collation, or these operator
  // classes (which serve = too). A default index under any other collation — C.UTF-8
  // included — is read whole for the prefix probes.
  prefixIndexClass: (declared) => /^(bpchar|char|character)(\(|$| (?!varying))/i.test(declared.trim()) ? 'bpchar_pattern_ops' : 'text_pattern_ops',
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
  // so no extension (unaccent, whose rules differ) is needed (foldSql below). ESCAPE ''
  // because the caller's pattern has no escapes (SQLite's LIKE has none either).
  foldedLike: (e, pattern) => `TRANSLATE(${foldSql(e)}, 'ς', 'σ') LIKE TRANSLATE(${pattern}, 'ς', 'σ') ESCAPE ''`,
  // As text (a citext column compares in any case) under the C collation (a nondeterministic
  // one may too): bytes compared.
  exact: (e) => `CAST(${e} AS TEXT) COLLATE "C"`,
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

// The combining marks foldName strips (\p{M}) after NFD, in the scripts clinics write names in:
// the general blocks (Latin, Greek, Cyrillic accents), Cyrillic, Hebrew and Arabic points.
// PostgreSQL's regular expressions read \uXXXX themselves.
const MARKS = '[\\u0300-\\u036f\\u0483-\\u0489\\u0591-\\u05bd\\u05bf\\u05c1\\u05c2\\u05c4\\u05c5\\u05c7\\u0610-\\u061a' +
  '\\u064b-\\u065f\\u0670\\u1ab0-\\u1aff\\u1dc0-\\u1dff\\u20d0-\\u20ff\\ufe20-\\ufe2f]'

/**
 * foldName in SQL: NFD (NORMALIZE, PostgreSQL 13+ in a UTF8 database), marks removed,
 * whitespace runs as one space, trimmed, lower case. JavaScript lower-cases a word-final Σ to ς
 * and PostgreSQL to σ: foldedLike makes both σ on both sides.
 */
export function foldSql (e: string): string {
  const unmarked = `REGEXP_REPLACE(NORMALIZE(CAST(${e} AS TEXT), NFD), '${MARKS}', '', 'g')`
  return `LOWER(TRIM(REGEXP_REPLACE(${unmarked}, '\\s+', ' ', 'g')))`
}
