// What differs between databases, and nothing else. The compiler builds statements from
// these pieces; a dialect never sees user input, only placeholders (`@p3`).
import type { DialectName } from './databases.js'

export interface Join {
  table: string
  alias: string
  /** Already rendered condition (uses dialect-quoted columns and placeholders). */
  on: string
}

export interface SelectSpec {
  distinct?: boolean
  columns: { expr: string, alias: string }[]
  from: { table: string, alias: string }
  joins: Join[]
  where: string[]
  /** Rendered after WHERE: the rows are grouped by these expressions. */
  groupBy?: string[]
  /** Conditions on the groups, all of which must hold. */
  having?: string[]
  orderBy: string[]
  /** Placeholders of the limit and offset parameters (the limit may be a number the compiler fixes: constantLimit). */
  page?: { limit: string, offset: string }
  /** Only the first row by `orderBy` (a scalar subquery choosing one child row). */
  first?: boolean
  /** Lock the rows read (and, where the database does, the gaps between them) until the transaction ends. */
  lock?: boolean
}

export interface Dialect {
  readonly name: DialectName
  /** Every text column holds UTF-8 whatever type it declares (SQLite): a declared VARCHAR is only what the clinic's program assumes. */
  readonly utf8InAnyText?: boolean
  /** `dbo.AGENDA` → the dialect's reference to that table. */
  table(name: string): string
  ident(name: string): string
  column(alias: string, column: string): string
  placeholder(index: number): string
  select(spec: SelectSpec): string
  trim(expr: string): string
  rtrim(expr: string): string
  lower(expr: string): string
  /** The expression as text, for comparing ids held as text on one side and numbers on the other. */
  asText(expr: string): string
  /** Parts concatenated, NULL parts as empty text. */
  concat(parts: string[]): string
  /** Case- and accent-insensitive LIKE against a pattern already folded by the caller. */
  foldedLike(expr: string, pattern: string): string
  /**
   * A scalar subquery: the text of `expr` over the rows of `from` that match `where`, in
   * `orderBy` order, joined by `LIST_SEPARATOR` (NULL when there are none).
   */
  textList(expr: string, from: { table: string, alias: string }, where: string[], orderBy: string[]): string
  /** Whole minutes from one datetime expression to another. */
  minutesBetween(from: string, to: string): string
  /** 'DD/MM/YYYY' text as 'YYYY-MM-DD' text, so it compares as a date. */
  dmyAsIso(expr: string): string
  /** Table hint that holds update locks on what a select reads ('' where the transaction already does). */
  readonly lockHint: string
  /**
   * Booking's claims (Database.transaction), where the database takes them as application
   * locks: `take` waits for the exclusive lock named by the placeholder `name` and yields one
   * row whose `claimed` is the server's answer (each driver reads its own); `release` gives
   * it back, where the lock outlives the transaction. Undefined where transactions already
   * keep two bookings of one day apart.
   */
  readonly claim?: {
    take: (name: string) => string
    release?: (name: string) => string
    /**
     * Every name of a transaction's claims in one statement, taken in the order given (one
     * column `claimed<i>` a name) and given back (`released<i>`): one round trip for all, where
     * the locks outlive the transaction.
     */
    all?: { take: (names: string[]) => string, release: (names: string[]) => string }
  }
  /** INSERT; with `returning`, the statement yields one row whose `id` is that column's new value. */
  insert(table: string, columns: string[], values: string[], returning?: string): string
  /** INSERT of the rows a SELECT yields (rendered by `select`), column for column. */
  insertSelect(table: string, columns: string[], select: string): string
  /** UPDATE of the table under an alias, so conditions written for selects apply unchanged. */
  update(table: string, alias: string, sets: { column: string, value: string }[], where: string[]): string
  /** DELETE of the table's rows under an alias, as `update`: the conditions written for selects apply unchanged. */
  delete(table: string, alias: string, where: string[]): string
  /**
   * An UPDATE (as `update`) that also yields one row whose `id` is `returning`'s new value, so a
   * key table is bumped and read in one statement; undefined where the database cannot (MySQL:
   * no UPDATE … RETURNING), which then reads it back with a second statement.
   */
  updateReturning?(table: string, alias: string, sets: { column: string, value: string }[], where: string[], returning: string): string
  /**
   * Where `updateReturning` is undefined: an UPDATE adding one to a key table's `column` that
   * also says the new value, as the driver answers an insert (one row whose `id` is it), so
   * the key is bumped and read in one round trip while its row is locked; undefined where the
   * database cannot.
   */
  bumpSaying?(table: string, alias: string, column: string, where: string[]): string
  /**
   * Where `updateReturning` is undefined: a statement yielding `n`, how many rows the
   * connection's last UPDATE changed (a claim of an open slot checks it was the one).
   */
  readonly changedRows?: string
  /** A statement yielding `id`: the next value of a database sequence. */
  nextSequenceValue(sequence: string): string
  // Operators and functions every supported database writes alike (ansi.ts); they live here
  // so no SQL text is written outside src/sql/. Each returns its operands unparenthesised
  // unless noted: callers add parentheses where precedence needs them.
  and(parts: string[]): string
  or(parts: string[]): string
  /** `NOT (e)`. */
  not(e: string): string
  isNull(e: string): string
  isNotNull(e: string): string
  /** `e NOT IN (items)`. */
  notIn(e: string, items: string[]): string
  like(e: string, pattern: string): string
  /**
   * `e` starts with a prefix the caller binds, written so an index on `e` can seek (client
   * search probes). `input` gives the placeholder of one of the prefix's forms (prefixArgs):
   * `like` ('(11) 3333-4444%'), `low` (the prefix itself), `high` (just past every text that
   * starts with it). A dialect asks only for the ones it uses.
   */
  startsWith(e: string, input: (part: PrefixPart) => string): string
  /**
   * `e` equals one of the bound values, trailing spaces aside where the database's `=` ignores
   * them (padsEquality), written so an index on `e` can seek. Each item gives the placeholder of
   * a value (`value`) or of just past it and its padding (`padded`: the value and '!').
   */
  equalsAny(e: string, items: ((part: 'value' | 'padded') => string)[]): string
  /**
   * Where a dialect has a cheaper form for a column some index leads: `e` (the column `column`
   * of `table`) finds what `equalsAny` of the `exact` values' placeholders and `startsWith` of
   * each prefix's `low` and `high` placeholders would find together.
   */
  inRanges?(e: string, table: string, column: string, exact: string[], prefixes: [string, string][]): string
  /**
   * An ORDER BY item that sorts the rows found rather than reading an index in that order:
   * a search's probes seek other indexes, and a planner walking the key to fill the page
   * early (SQLite does, LIMIT or not) would read the whole table instead.
   */
  sortOnly(e: string): string
  /**
   * Whether a page whose size the compiler fixes (a search's block of candidates) is written
   * into the statement rather than bound: SQLite's statement costs more with a bound LIMIT.
   */
  readonly constantLimit?: boolean
  /** Whether `equalsAny` ignores trailing spaces (SQL Server; SQLite by its ranges: a padded CHAR equals the bare text). */
  readonly padsEquality: boolean
  /**
   * The operator class an index on a column of this declared type needs for `startsWith` to
   * seek it (PostgreSQL: `text_pattern_ops`); undefined where a plain index serves.
   */
  prefixIndexClass(declared: string): string | undefined
  /** A change marker's value as text the driver hands back alike on every database (src/events/detector.ts keeps it). */
  markerText(expr: string, type: MarkerType): string
  /** The rows whose marker is at or past the text `input` holds (the column compared in its own type, so its index seeks it). */
  markerFrom(column: string, input: string, type: MarkerType): string
  /** The index `ponte check` advises, as clinic IT runs it on this database (an operator class after the column where given). */
  createIndex(name: string, table: string, column: string, opclass?: string): string
  /**
   * The index `ponte check` advises for the e-mail search, which compares `lower(trim(column))`:
   * on that very expression, so the planner matches it; undefined where the database indexes no
   * expression (MariaDB).
   */
  foldedIndex?(name: string, table: string, column: string): string
  /** `EXISTS (select)`. */
  exists(select: string): string
  /** A searched CASE: `CASE WHEN c THEN v … [ELSE otherwise] END`. */
  caseWhen(branches: { when: string, then: string }[], otherwise?: string): string
  /** A simple CASE: `CASE subject WHEN k THEN v … END`. */
  caseOf(subject: string, branches: { when: string, then: string }[]): string
  /** `e IN (items)`. */
  inList(e: string, items: string[]): string
  /** A condition that always holds. */
  readonly always: string
  /** A condition that never holds. */
  readonly never: string
  coalesce(items: string[]): string
  nullIf(e: string, value: string): string
  upper(e: string): string
  /**
   * Text `e` compared character for character, case included, whatever the collation of the
   * column it comes from (a MariaDB `_ci` column, a SQLite `NOCASE` one, SQL Server's default
   * `_CI_` collations): for codes a mapping says are `exact`.
   */
  exact(e: string): string
  /** The first `length` characters of text `e` (`length` a placeholder or a number). */
  leading(e: string, length: string): string
  /**
   * Text `e` without its first `head` and last `tail` characters (counts, written in the
   * statement): the value a join's `prefix`/`suffix` wraps. Meaningful only where `e` is that
   * long; shorter, it is some text or '', never an error.
   */
  strip(e: string, head: number, tail: number): string
  /**
   * Holds when condition `c` does not hold, NULL included: `NOT (c)` is unknown, so false, for
   * a NULL compared with a literal, where the mapping's reader (and a person) says true.
   */
  notTrue(c: string): string
  /** `COUNT(*)`. */
  count(): string
  countDistinct(e: string): string
  max(e: string): string
  /** Characters in a text value (for ordering text keys by their length). */
  charLength(e: string): string
  min(e: string): string
  /** An ORDER BY item in descending order. */
  descending(e: string): string
  /** NULL as a value. */
  readonly null: string
}

export type PrefixPart = 'like' | 'low' | 'high'

/**
 * The bound forms of one prefix. Probes are digits and `()+-. ` only, never a LIKE wildcard
 * (`%`, `_`, `[`), so `like` needs no escape; `high` is the prefix with its last character
 * moved one code point on: every text starting with the prefix sorts in [low, high) byte-wise.
 */
export function prefixArgs (prefix: string): Record<PrefixPart, string> {
  if (/[%_[\\\]*?]/.test(prefix) || prefix === '') throw new TypeError('a probe prefix holds a pattern character')
  const last = prefix.codePointAt(prefix.length - 1) as number
  return { like: `${prefix}%`, low: prefix, high: prefix.slice(0, -1) + String.fromCodePoint(last + 1) }
}

/** Characters legacy systems put around phone and CPF digits; stripped in SQL for prefilters. */
export const DIGIT_NOISE = [' ', '-', '(', ')', '.', '+', '/']

export function digitsOnly (d: Dialect, expr: string): string {
  return DIGIT_NOISE.reduce((acc, ch) => `REPLACE(${acc}, '${ch}', '')`, d.asText(expr))
}

/** Between the values of a `textList`: printable (SQL Server's FOR XML refuses control characters). */
export const LIST_SEPARATOR = '|'

/** What a change marker column holds (mapping `changes.marker.type`). */
export type MarkerType = 'datetime' | 'int' | 'rowversion'
