// Every written value in the kind its live column holds, whatever type the mapping bound it
// with: a number into a text column as its digits (SQLite would store a bound 401 as '401.0'),
// a UUID into a binary column as its 16 bytes, and text longer than the column (or letters
// for a number column) refused, since SQLite would store it anyway and the others refuse it
// with an error that names no field.
import { ValueMisfitError } from '../errors.js'
import type { Arrival, Database, Querier, Row } from './database.js'
import { collidingKey } from './colliding-key.js'
import { literalDefault, type LiveCatalog, type LiveColumn } from './columns.js'
import type { Statement } from '../sql/statement.js'
import { keptWrites, refuseNonTransactional } from './non-transactional.js'

/**
 * Bound for a column that will hold the new row's own identity key (set by an UPDATE right
 * after the INSERT, in its transaction): NULL where the column takes it, else a stand-in of
 * its kind, since a NOT NULL column refuses the INSERT before the key exists.
 */
export const OWN_KEY_TO_COME = Symbol('own key to come')

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const NUMBER = /^\s*-?\d+(\.\d+)?\s*$/

/** Whether a column holds bytes (BINARY(16), VARBINARY, BYTEA, BLOB). */
export function isBinaryColumn (column: Pick<LiveColumn, 'declared'>): boolean {
  return /binary|bytea|blob/i.test(column.declared)
}

/** A binary column's size in bytes, from the catalogue or its declared type (`BINARY(8)`); undefined when unbounded (bytea, BLOB). */
export function binaryBytes (column: Pick<LiveColumn, 'declared' | 'bytes'>): number | undefined {
  const size = column.bytes ?? Number(/\((\d+)\)/.exec(column.declared)?.[1])
  return Number.isInteger(size) && size > 0 ? size : undefined
}

/** The value as the column holds it, or why it cannot hold it; `length`: the mapping's, which wins over the live one. */
export function fitToColumn (value: unknown, live: LiveColumn, length = live.length): { value: unknown } | { problem: string } {
  const column = { ...live, length }
  if (typeof value === 'number' || typeof value === 'bigint') {
    // An integer's digits, never a float's rendering ('401', not '401.0').
    return column.kind === 'text' ? fitText(String(value), column) : { value }
  }
  if (typeof value !== 'string') return { value }
  if (isBinaryColumn(column) && UUID.test(value)) {
    const bytes = Buffer.from(value.replace(/-/g, ''), 'hex')
    const size = binaryBytes(column)
    return size !== undefined && size < 16 ? { problem: `needs 16 bytes, and the column holds ${size}` } : { value: bytes }
  }
  if (column.kind === 'number' && value.trim() !== '' && !NUMBER.test(value)) return { problem: 'is not a number, and the column holds numbers' }
  return column.kind === 'text' ? fitText(value, column) : { value }
}

function fitText (value: string, column: LiveColumn): { value: unknown } | { problem: string } {
  // Characters, as MariaDB, PostgreSQL and SQLite's declared lengths count them.
  const length = [...value].length
  // MariaDB refuses such a character with an error naming no field (or, outside strict mode, stores '?').
  if (column.basicPlaneOnly === true && length !== value.length) return { problem: 'holds a character (such as an emoji) that this installation\'s column cannot store: its character set takes none beyond U+FFFF' }
  return column.length !== undefined && length > column.length ? { problem: `must be at most ${column.length} characters long (as this installation stores it)` } : { value }
}

/** A value of the column's kind, held only until the UPDATE that follows in the same transaction. */
function standIn (column: LiveColumn): unknown {
  return column.kind === 'text' ? '' : 0
}

/** `col:<name>` or `col:<alias>.<name>` (a joined row's column): the column's own name. */
function columnOfInput (input: string): string | undefined {
  if (!input.startsWith('col:')) return undefined
  const name = input.slice(4)
  return name.slice(name.lastIndexOf('.') + 1)
}

/**
 * The database with every write statement's `col:` inputs fitted to the live catalogue
 * (`catalog`: the served mapping's, db/known-catalog.ts), and a duplicate key it refuses told
 * by its columns (db/colliding-key.ts). Statements that do not say which table they write
 * (`Statement.writes`) pass through as they are. The catalogue is had before a transaction
 * begins (SQLite's one connection would wait on the transaction itself); unreadable, the write
 * fails as the database does (503/504) rather than going in unfitted. A write to a table that
 * cannot roll back is refused before it runs (db/non-transactional.ts) unless
 * `acceptNonTransactional`: the mapping's `write.nonTransactional: accept`; never in `ponte check`.
 */
export function fittingWrites (db: Database, catalog: (at: Arrival) => Promise<LiveCatalog>, acceptNonTransactional = false): Database {
  const fit = (q: Querier, known: LiveCatalog | undefined, kept?: Map<string, string>): Querier['query'] => async (statement, args, at) => {
    refuseNonTransactional(statement, known, acceptNonTransactional, kept)
    return await q.query(statement, fitArgs(statement, args, known), at).catch((err: unknown) => { throw collidingKey(err, statement, known) })
  }
  return {
    get dialect () { return db.dialect },
    get stats () { return db.stats },
    get introspect () { return db.introspect },
    // A read (no `writes`, no key to come) passes straight through: nothing to fit or refuse,
    // and every request's reads are spared two async frames and a copy of their values.
    query: (statement, args, at) => statement.writes === undefined && !holdsKeyToCome(args)
      ? passed(db, statement, args, at)
      : (async () => await fit(db, statement.writes === undefined ? undefined : await catalog(at))(statement, args, at))(),
    transaction: async (fn, at, claims) => {
      const known = await catalog(at)
      const kept = new Map<string, string>()
      try {
        return await db.transaction(async (tx) => await fn({ query: fit(tx, known, kept) }), at, claims)
      } catch (err) {
        throw keptWrites(err, kept)
      }
    },
    ...(db.stream ? { stream: db.stream.bind(db) } : {}),
    ...(db.pool ? { pool: db.pool.bind(db) } : {}),
    ping: async () => { await db.ping() },
    close: async () => { await db.close() }
  }
}

/** `db.query` as the async path would give it: a throw is a rejection. */
function passed (db: Querier, statement: Statement, args: Record<string, unknown> | undefined, at: Arrival | undefined): Promise<Row[]> {
  try {
    return db.query(statement, args, at)
  } catch (err) {
    return Promise.reject(err)
  }
}

/** Whether some value is the stand-in for a key the row will have (fitArgs turns it into NULL even for a read). */
function holdsKeyToCome (args: Record<string, unknown> | undefined): boolean {
  if (args === undefined) return false
  for (const input in args) if (args[input] === OWN_KEY_TO_COME) return true
  return false
}

function fitArgs (statement: Statement, args: Record<string, unknown> | undefined, catalog: LiveCatalog | undefined): Record<string, unknown> | undefined {
  if (args === undefined) return args
  const table = statement.writes === undefined ? undefined : catalog?.table(statement.writes)
  // Callers pass one set of values to several statements: an input this one does not bind
  // (a joined row's `col:person.name` beside the client's own UPDATE) is not its table's column.
  const bound = new Set(statement.params.flatMap((p) => 'input' in p.source ? [p.source.input] : []))
  const out: Record<string, unknown> = {}
  for (const [input, value] of Object.entries(args)) {
    const name = bound.has(input) ? columnOfInput(input) : undefined
    const column = name === undefined ? undefined : table?.columns.get(name.toLowerCase())
    if (value === OWN_KEY_TO_COME) {
      out[input] = column?.notNull === true ? standIn(column) : null
      continue
    }
    if (table === undefined) {
      out[input] = value
      continue
    }
    const absent = value === null || value === undefined
    // Nothing to write into a NOT NULL column with a plain default: its default, as leaving the column out would give.
    const fit = column === undefined ? { value } : absent ? { value: column.notNull ? literalDefault(column.defaultSql) ?? value : value } : fitToColumn(value, column, statement.lengths?.[name as string] ?? column.length)
    if ('problem' in fit) throw new ValueMisfitError((column as LiveColumn).name, fit.problem)
    out[input] = fit.value
  }
  return out
}
