// The one place SQL statements are timed: a decorator around whichever Database the driver
// opened, so drivers stay unaware of metrics. Statements are labelled by their compiled name
// (`appointment.list`, `client.insert`…): a bounded set, never SQL text or values.
import type { Arrival, Database, Querier, Row } from '../db/database.js'
import type { Statement } from '../sql/statement.js'
import type { PonteMetrics } from './registry.js'

/** Seconds since `start` (performance.now()). */
const since = (start: number): number => (performance.now() - start) / 1000

function timed (q: Querier, metrics: PonteMetrics): Querier['query'] {
  // One `then` rather than an async wrapper: every statement passes here, and each promise is paid for.
  return (statement: Statement, args?: Record<string, unknown>, at?: Arrival) => {
    const start = performance.now()
    const counted = (err: unknown): unknown => {
      metrics.sqlDuration.observe({ statement: statement.name, outcome: 'error' }, since(start))
      return err
    }
    const failed = (err: unknown): never => { throw counted(err) }
    let rows: Promise<Row[]>
    try {
      rows = q.query(statement, args, at)
    } catch (err) {
      return Promise.reject(counted(err))
    }
    return rows.then((found) => {
      metrics.sqlDuration.observe({ statement: statement.name, outcome: 'ok' }, since(start))
      return found
    }, failed)
  }
}

/** A streamed read timed from its start to its last block (or until the caller leaves it). */
function streamed (stream: NonNullable<Database['stream']>, metrics: PonteMetrics): NonNullable<Database['stream']> {
  return async function * (statement: Statement, args?: Record<string, unknown>, at?: Arrival) {
    const start = performance.now()
    // Left early (the client went away) is not a failed statement: only a throw is.
    let outcome = 'ok'
    try {
      yield * stream(statement, args, at)
    } catch (err) {
      outcome = 'error'
      throw err
    } finally {
      metrics.sqlDuration.observe({ statement: statement.name, outcome }, since(start))
    }
  }
}

const instrumented = new WeakSet<Database>()

/** `db` with every statement timed; a database already instrumented (a reload reusing it) is returned as it is. */
export function instrumentDatabase (db: Database, metrics: PonteMetrics): Database {
  if (instrumented.has(db)) return db
  const out: Database = {
    get dialect () { return db.dialect },
    get stats () { return db.stats },
    get introspect () { return db.introspect },
    query: timed(db, metrics),
    transaction: async (fn, at, claims) => await db.transaction(async (tx) => await fn({ query: timed(tx, metrics) }), at, claims),
    ...(db.stream ? { stream: streamed(db.stream.bind(db), metrics) } : {}),
    ping: async () => { await db.ping() },
    close: async () => { await db.close() }
  }
  instrumented.add(out)
  return out
}
