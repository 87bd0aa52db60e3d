// The one small interface every driver implements. Statements come only from the compiler;
// drivers bind values with the types the mapping declares.
import type { Dialect } from '../sql/dialect.js'
import type { Statement } from '../sql/statement.js'
import type { DeclaredReference, LiveCatalog } from './columns.js'

export type Row = Record<string, unknown>

/**
 * When the HTTP request being served arrived (performance.now()), passed down from the route
 * to every call a request makes. A driver that waits for a lock (SQLite's one connection, a
 * PostgreSQL retry) bounds the request's whole wait from this instant, not each statement's,
 * so a request of several statements answers within the bound however many it runs. Absent
 * outside a request (the CLI, start-up, a catalogue refresh of its own): each call is bounded
 * on its own. (An AsyncLocalStorage did this implicitly, at 8 % of a by-id request's CPU: it
 * makes every promise of the process pay a hook.)
 */
export type Arrival = number | undefined

/** Runs statements: the database itself, or one open transaction (whose statements share its deadline: `at` is the transaction's). */
export interface Querier {
  query: (statement: Statement, args?: Record<string, unknown>, at?: Arrival) => Promise<Row[]>
}

/** `db` for a helper that takes the database or a transaction alike: its statements bounded from `at`. */
export function servedFrom (db: Querier, at: Arrival): Querier {
  return at === undefined ? db : { query: async (statement, args) => await db.query(statement, args, at) }
}

export interface Database extends Querier {
  readonly dialect: Dialect
  /**
   * Runs `fn` in one short transaction, committing when it resolves and rolling back when it
   * throws. `claims` name what it books (a professional's day, a client's day): two
   * transactions claiming one name run one after the other, so a check-then-write reads the
   * day without locking its rows. Where an application lock does it (MariaDB/MySQL GET_LOCK,
   * SQL Server sp_getapplock: `Dialect.claim`), a booking waits for bookings of its own day
   * only; a locking read whose predicate no index serves (a professional decided by a rule)
   * would lock every row of the day it scans. SQLite (BEGIN IMMEDIATE: one writer) already
   * keeps such transactions apart and ignores them; PostgreSQL (SERIALIZABLE, which alone keeps
   * them apart) takes them as advisory locks before BEGIN, so they wait instead of failing.
   */
  transaction: <T>(fn: (tx: Querier) => Promise<T>, at?: Arrival, claims?: readonly string[]) => Promise<T>
  /** Cheap round trip for readiness checks. */
  ping: () => Promise<void>
  close: () => Promise<void>
  /** Statements run so far; tests use it to prove a request costs a bounded number. */
  readonly stats: { statements: number }
  /** What the live schema declares (each dialect's `sql/<dialect>/introspect.ts`): `ponte check`, column kinds and lengths. */
  readonly introspect: {
    catalog: (at?: Arrival) => Promise<LiveCatalog>
    /** The foreign keys the schema declares (what `ponte init` links tables by first); not read at start. */
    references: () => Promise<DeclaredReference[]>
  }
  /**
   * A long read delivered in blocks of rows as they are read, so a caller need not hold them
   * all (SQLite: stepped in its worker thread). Optional: `query` returns the same rows at once.
   * The connection may be the stream's until it is read to its end or the loop is left.
   */
  stream?: (statement: Statement, args?: Record<string, unknown>, at?: Arrival) => AsyncIterable<Row[]>
  /**
   * Makes every connection forget the statements it prepared by name, before its next one
   * (a reload: the schema may have changed under them). Absent where nothing is kept prepared
   * across requests by name, or where the database replans by itself.
   */
  forgetPrepared?: () => void
  /** Connections in use and callers waiting for one (metrics): a pool's, or SQLite's one connection and its queue. */
  pool?: () => { inUse: number, waiting: number }
}
