// Whether SQLite's plan for a read finds at most one row in every table it touches: each loop
// a lookup of a whole unique key by equality (the rowid, the primary key, a UNIQUE index), no
// scan, no range, no subquery. Such a read (an appointment or a client by id, with the rows
// its joins point at) ends in microseconds whatever the size of the tables, so the driver may
// run it on the event loop instead of paying the worker thread's round trip (local-reads.ts).
// Anything the plan says that is not recognised here counts as unbounded: a misjudged read
// would hold /health for as long as it ran.
import type BetterSqlite3 from 'better-sqlite3'

// "SEARCH t USING INTEGER PRIMARY KEY (rowid=?)", "SEARCH c USING INDEX sqlite_autoindex_X_1
// (ID=?) LEFT-JOIN". A WITHOUT ROWID table's "USING PRIMARY KEY" names the table by its alias
// only, so its key cannot be looked up: such a read stays on the worker.
const SEARCH = /^SEARCH \S+ USING (?:(INTEGER PRIMARY KEY)|(?:COVERING )?INDEX (\S+)) \(([^()]*)\)(?: LEFT-JOIN)?$/
/** Sorting a handful of rows found by key costs nothing worth a thread. */
const HARMLESS = /^USE TEMP B-TREE FOR (?:ORDER BY|DISTINCT|GROUP BY)$/

export function findsOneRowPerTable (db: BetterSqlite3.Database, sql: string, values: Record<string, unknown>): boolean {
  const plan = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(values) as { detail: string }[]
  if (plan.length === 0) return false
  const testedWithIs = columnsTestedWithIs(sql)
  return plan.every(({ detail }) => HARMLESS.test(detail) || isKeyLookup(db, detail, testedWithIs))
}

function isKeyLookup (db: BetterSqlite3.Database, detail: string, testedWithIs: Set<string>): boolean {
  const m = SEARCH.exec(detail)
  if (!m) return false
  const [, rowid, index, constraints] = m
  if (rowid !== undefined) return constraints === 'rowid=?'
  const equal = constraints!.split(' AND ')
  if (!equal.every((c) => /^[^<>=!]+=\?$/.test(c))) return false
  return uniqueIndexCovered(db, index!, equal.map((c) => c.slice(0, -2)), testedWithIs)
}

/** An identifier as SQLite reads it: "quoted", `quoted`, [quoted] or bare. */
const IDENT = /(?:"((?:[^"]|"")+)"|`([^`]+)`|\[([^\]]+)\]|([A-Za-z_][\w$]*))/.source
// `IS`, `ISNULL`, `IS NOT DISTINCT FROM` (all match NULL), not `IS NOT` / `IS DISTINCT FROM`.
const IS_OP = /(?:\s+IS(?:NULL\b|\s+(?:NOT\s+DISTINCT\s+FROM\s+)?(?!NOT\b|DISTINCT\b)))/.source
const IS_LEFT = new RegExp(IDENT + IS_OP, 'gi')
const IS_RIGHT = new RegExp(/\bIS\s+(?:NOT\s+DISTINCT\s+FROM\s+)?/.source + IDENT, 'gi')

/**
 * The names of the columns the statement compares with `IS` on either side (`col IS NULL`,
 * `col IS ?`, `? IS col`), lower case, wherever they are: the plan writes those as `col=?`
 * too, and unlike `=` and `IN` they match NULL. String literals are left out, so their text
 * cannot name a column; a word that is not a column (NULL, a function) only makes this stricter.
 */
function columnsTestedWithIs (sql: string): Set<string> {
  const text = sql.replace(/'(?:[^']|'')*'/g, "''")
  const out = new Set<string>()
  for (const re of [IS_LEFT, IS_RIGHT]) {
    for (const m of text.matchAll(re)) out.add((m[1]?.replace(/""/g, '"') ?? m[2] ?? m[3] ?? m[4]!).toLowerCase())
  }
  return out
}

/**
 * The index is unique and every one of its columns is constrained by equality, in a way that
 * cannot match NULL: a UNIQUE index (and a rowid table's non-integer PRIMARY KEY, which
 * legacy schemas often declare without NOT NULL) admits any number of NULLs, which `=` never
 * matches but `IS NULL` does.
 */
function uniqueIndexCovered (db: BetterSqlite3.Database, index: string, columns: string[], testedWithIs: Set<string>): boolean {
  const owner = db.prepare("SELECT tbl_name AS t FROM sqlite_schema WHERE type = 'index' AND name = ?").get(index) as { t: string } | undefined
  if (!owner) return false
  // A partial UNIQUE index holds only rows its predicate admits; a plan using it implies that predicate.
  const listed = db.prepare('SELECT "unique" AS u FROM pragma_index_list(?) WHERE name = ?').get(owner.t, index) as { u: number } | undefined
  if (listed?.u !== 1) return false
  const keyColumns = (db.prepare('SELECT name FROM pragma_index_info(?)').all(index) as { name: string | null }[]).map((r) => r.name)
  const notNull = new Set((db.prepare('SELECT name FROM pragma_table_info(?) WHERE "notnull" = 1').all(owner.t) as { name: string }[]).map((r) => r.name))
  // An index on an expression has a NULL name: not a column the plan's constraint names.
  return keyColumns.length > 0 && keyColumns.every((c) => c !== null && columns.includes(c) && (notNull.has(c) || !testedWithIs.has(c.toLowerCase())))
}
