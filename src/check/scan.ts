// Reading a whole table for `ponte check` without holding it: rows come in batches in key
// order (the next batch starts after the last key seen; tables with a composite key or none
// page by position), each batch is looked at and dropped, the event loop gets a turn between
// batches, and the scan stops where the time given runs out and says how far it got.
import type { Database, Row } from '../db/database.js'
import type { Dialect } from '../sql/dialect.js'
import { ParamList, type Statement } from '../sql/statement.js'
import type { SqlTypeName } from '../mapping/schema.js'
import { Scope, type ScopeSource } from '../mapping/compile/scope.js'
import { Columns } from '../mapping/compile/value.js'

/** One column of the order the rows come in, as the scope names it. */
export interface ScanKey { column: string, type: SqlTypeName, path: string }

/** Builds the readers of one statement (selecting what they need) and returns what to do with each row. */
export type RowVisitor = (scope: Scope, params: ParamList, cols: Columns) => (row: Row) => void

export interface ScanSpec {
  /** Plural, for the progress line: `appointments`. */
  what: string
  source: ScopeSource
  /** The table's key; empty: rows page by position, ordered by every column read. */
  key: ScanKey[]
  visit: RowVisitor
}

/** When the scans must stop, how often to say how far they are, how many rows a batch holds. */
export interface ScanClock {
  deadline: number
  now: () => number
  batchRows: number
  progressEveryMs: number
  progress?: (line: string) => void
}

export interface ScanResult { scanned: number, total: number, complete: boolean }

export const count = (n: number): string => n.toLocaleString('en-US')

export async function scanTable (db: Database, spec: ScanSpec, clock: ScanClock): Promise<ScanResult> {
  const d = db.dialect
  const total = Number((await db.query(countOf(d, spec)))[0]?.n ?? 0)
  const keyset = spec.key.length === 1
  const first = batchOf(d, spec, false)
  const next = keyset ? batchOf(d, spec, true) : undefined
  const started = clock.now()
  let said = started
  let scanned = 0
  let after: unknown
  for (;;) {
    if (clock.now() > clock.deadline) return { scanned, total, complete: false }
    const args: Record<string, unknown> = { limit: clock.batchRows, offset: keyset ? 0 : scanned }
    if (after !== undefined) args.after = after
    const plan = after !== undefined && next ? next : first
    const rows = await db.query(plan.statement, args)
    for (const row of rows) plan.visit(row)
    scanned += rows.length
    if (rows.length < clock.batchRows) return { scanned, total, complete: true }
    if (keyset) {
      after = rows[rows.length - 1][plan.keyAlias ?? '']
      // A NULL key ends the order a keyset can follow: what is left has no id to read anyway.
      if (after === null || after === undefined) return { scanned, total, complete: true }
    }
    const now = clock.now()
    if (clock.progress && now - said >= clock.progressEveryMs) {
      said = now
      clock.progress(`scanning ${spec.what}: ${count(scanned)} of ${count(total)} rows`)
    }
    // better-sqlite3 answers synchronously: without this turn a long scan would hold the loop.
    await new Promise((resolve) => setImmediate(resolve))
  }
}

function countOf (d: Dialect, spec: ScanSpec): Statement {
  const scope = new Scope(d, spec.source, 't')
  const params = new ParamList(d)
  const where = scope.where(params)
  const sql = d.select({ columns: [{ expr: d.count(), alias: 'n' }], from: { table: d.table(spec.source.table), alias: 't' }, joins: scope.joins(params), where, orderBy: [] })
  return { name: `${spec.what}.count`, sql, params: params.params }
}

function batchOf (d: Dialect, spec: ScanSpec, afterKey: boolean): { statement: Statement, visit: (row: Row) => void, keyAlias?: string } {
  const scope = new Scope(d, spec.source, 't')
  const params = new ParamList(d)
  const cols = new Columns()
  const visit = spec.visit(scope, params, cols)
  const keys = spec.key.map((k) => scope.ref(k.column, k.path))
  const keyAlias = keys.length === 1 ? cols.add(keys[0]) : undefined
  const where = scope.where(params)
  if (afterKey) where.push(`${keys[0]} > ${params.input('after', spec.key[0].type)}`)
  const orderBy = keys.length > 0 ? keys : cols.list.map((c) => c.expr)
  const page = { limit: params.input('limit', 'int'), offset: params.input('offset', 'int') }
  const sql = d.select({ columns: cols.list, from: { table: d.table(spec.source.table), alias: 't' }, joins: scope.joins(params), where, orderBy, page })
  return { statement: { name: `${spec.what}.scan`, sql, params: params.params }, visit, keyAlias }
}

/** Rows of one kind of trouble: how many, and the first one's id (never a value from the row). */
export class Tally {
  n = 0
  example: string | undefined

  add (id: string | undefined): void {
    this.n++
    if (this.example === undefined && id !== undefined) this.example = id
  }

  /** `132 rows, e.g. id 5521` */
  get text (): string {
    return `${count(this.n)} row${this.n === 1 ? '' : 's'}${this.eg}`
  }

  /** `, e.g. id 5521`, or nothing when no row had an id. */
  get eg (): string {
    return this.example !== undefined ? `, e.g. ${this.example}` : ''
  }
}
