// MariaDB and MySQL: one dialect, written to the subset both servers share (MariaDB 10.5+,
// MySQL 8), so a clinic on either is served by the same statements.
import { LIST_SEPARATOR, type Dialect, type SelectSpec } from '../dialect.js'
import { renderSelectBody } from '../render.js'
import { ansi } from '../ansi.js'

export const quoteBacktick = (name: string): string => `\`${name.replace(/`/g, '``')}\``

/**
 * The collation name search compares under: case- and accent-insensitive, and present on
 * MariaDB and MySQL alike (uca1400 is MariaDB 10.10+, 0900 MySQL 8 only). It agrees with
 * ponte_fold (NFD, marks stripped, lower case) on Latin text; the service then keeps only
 * exact folded matches, so this prefilter only has to find at least what ponte_fold finds.
 */
export const SEARCH_COLLATION = 'utf8mb4_unicode_ci'

export const mysql: Dialect = {
  ...ansi,
  name: 'mysql',
  // A MySQL "schema" is a database: the installation's database is its one namespace, so a
  // qualifier (`dbo.AGENDA`) is dropped, as SQLite does, and one mapping serves both.
  table: (name) => quoteBacktick(name.split('.').pop() as string),
  ident: quoteBacktick,
  // PAD SPACE collations ignore trailing spaces in =, MySQL 8's _0900 ones do not: check
  // assumes they count (it may then report a padded value the server would find, never the reverse).
  padsEquality: false,
  // MariaDB indexes no expression (nor a virtual column the optimizer would match to the
  // search's): check says the e-mail search reads the whole table instead.
  foldedIndex: undefined,
  // The protocol's parameters are positional (`?`), but the compiler numbers them in the
  // order it builds a statement, not always the order the text uses them (a CASE writes its
  // WHEN before its THEN). The comment carries the number; the driver binds by it (order.ts).
  placeholder: (i) => `?/*p${i}*/`,
  select (spec: SelectSpec) {
    const body = renderSelectBody(this, spec)
    const order = spec.orderBy.length > 0 ? ` ORDER BY ${spec.orderBy.join(', ')}` : ''
    const page = spec.page ? ` LIMIT ${spec.page.limit} OFFSET ${spec.page.offset}` : spec.first ? ' LIMIT 1' : ''
    // InnoDB, REPEATABLE READ: FOR UPDATE takes next-key locks on every index record it reads
    // and the gaps between them: on reads by key (the appointment being changed, a max + 1
    // key). Booking's reads of a day are not locked: its claims are (`claim`).
    return body + order + page + (spec.lock ? ' FOR UPDATE' : '')
  },
  // Text in Unicode whatever the column's character set, so parts from a latin1 column and a
  // utf8mb4 one (or a parameter) concatenate and compare without a collation clash.
  asText: (e) => `CONVERT(${e} USING utf8mb4)`,
  // `||` is OR unless the server runs with PIPES_AS_CONCAT: CONCAT() means the same everywhere.
  concat: (parts) => `CONCAT(${parts.map((p) => `COALESCE(${p}, '')`).join(', ')})`,
  // ESCAPE '': a backslash in a name is a character, as in SQLite and SQL Server, not MySQL's
  // default LIKE escape. TRIM: CHAR columns of a legacy server may come padded.
  foldedLike: (e, pattern) => `TRIM(CONVERT(${e} USING utf8mb4)) COLLATE ${SEARCH_COLLATION} LIKE ${pattern} ESCAPE ''`,
  // Whole minutes, truncated: the datetimes Ponte compares are whole minutes.
  minutesBetween: (from, to) => `TIMESTAMPDIFF(MINUTE, ${from}, ${to})`,
  // Converted first: COLLATE utf8mb4_bin is refused on a latin1 column; BINARY alone would
  // compare a latin1 column's bytes with the parameter's UTF-8 ones.
  exact: (e) => `CONVERT(${e} USING utf8mb4) COLLATE utf8mb4_bin`,
  leading: (e, length) => `SUBSTRING(${e}, 1, ${length})`,
  strip: (e, head, tail) => tail === 0 ? `SUBSTRING(${e}, ${head + 1})` : `SUBSTRING(${e}, ${head + 1}, GREATEST(CHAR_LENGTH(${e}) - ${head + tail}, 0))`,
  textList (expr, from, where, orderBy) {
    const w = where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''
    const o = orderBy.length > 0 ? ` ORDER BY ${orderBy.join(', ')}` : ''
    // The driver raises group_concat_max_len for its sessions (MySQL's default is 1024 bytes).
    return `(SELECT GROUP_CONCAT(${this.asText(expr)}${o} SEPARATOR '${LIST_SEPARATOR}') FROM ${from.table} ${quoteBacktick(from.alias)}${w})`
  },
  dmyAsIso: (e) => `CONCAT(SUBSTRING(${e}, 7, 4), '-', SUBSTRING(${e}, 4, 2), '-', SUBSTRING(${e}, 1, 2))`,
  lockHint: '',
  // A named lock, held by the session until released (a COMMIT does not end it): 1 once it
  // is held, 0 when the wait outlasts a row lock's, NULL on an error. Server-wide, hence
  // names that carry the database (claims.ts).
  claim: {
    take: (name) => `SELECT GET_LOCK(${name}, @@innodb_lock_wait_timeout) AS ${quoteBacktick('claimed')}`,
    release: (name) => `SELECT RELEASE_LOCK(${name}) AS ${quoteBacktick('released')}`,
    // Several names in one statement; in whatever order the server takes them, two sessions
    // meeting crosswise get a deadlock error, which the driver retries.
    all: {
      take: (names) => `SELECT ${names.map((n, i) => `GET_LOCK(${n}, @@innodb_lock_wait_timeout) AS ${quoteBacktick(`claimed${i}`)}`).join(', ')}`,
      release: (names) => `SELECT ${names.map((n, i) => `RELEASE_LOCK(${n}) AS ${quoteBacktick(`released${i}`)}`).join(', ')}`
    }
  },
  // MySQL has no INSERT … RETURNING (MariaDB 10.5+ has): the driver answers an insert with
  // the connection's LAST_INSERT_ID() as `id`, which works on both.
  insert (table, columns, values) {
    return `INSERT INTO ${this.table(table)} (${columns.map(quoteBacktick).join(', ')}) VALUES (${values.join(', ')})`
  },
  // MariaDB takes an alias in DELETE only in its multi-table form.
  delete (table, alias, where) {
    return `DELETE ${quoteBacktick(alias)} FROM ${this.table(table)} AS ${quoteBacktick(alias)} WHERE ${where.join(' AND ')}`
  },
  // No UPDATE … RETURNING on MySQL or MariaDB. A key table's bump says its value through
  // LAST_INSERT_ID(expr), which the server answers in the UPDATE's OK packet as an insert's key
  // (the driver's `id`); a row not found, or a NULL value, answers 0: no key, as a read would.
  updateReturning: undefined,
  bumpSaying (table, alias, column, where) {
    const col = `${quoteBacktick(alias)}.${quoteBacktick(column)}`
    return this.update(table, alias, [{ column, value: `LAST_INSERT_ID(${col} + 1)` }], where)
  },
  // The same connection's last statement: inside the claim's transaction, the claim itself.
  changedRows: `SELECT ROW_COUNT() AS ${quoteBacktick('n')}`,
  // MariaDB 10.3+ sequences (MySQL has none: there, use identity, max or keyTable keys).
  nextSequenceValue (sequence) {
    return `SELECT NEXT VALUE FOR ${this.table(sequence)} AS ${quoteBacktick('id')}`
  }
}
