// Reading a whole table for `ponte check` without holding it: the compiler's scan plan gives
// the batches (in key order, or by position), each batch is looked at and dropped, the event
// loop gets a turn between batches, and the scan stops where the time given runs out and says
// how far it got.
import type { Database, Row } from '../db/database.js'
import type { ScanPlan } from '../mapping/compile/index.js'

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

/** Reads every row of the plan's table into `visit`, batch by batch, until done or out of time. */
export async function scanTable<T> (db: Database, plan: ScanPlan<T>, visit: (row: T) => void, clock: ScanClock): Promise<ScanResult> {
  const total = Number((await db.query(plan.count))[0]?.n ?? 0)
  const started = clock.now()
  let said = started
  let scanned = 0
  let after: unknown
  for (;;) {
    if (clock.now() > clock.deadline) return { scanned, total, complete: false }
    const { statement, args } = plan.bind({ after, scanned, limit: clock.batchRows })
    const rows: Row[] = await db.query(statement, args)
    for (const row of rows) visit(plan.read(row))
    scanned += rows.length
    if (rows.length < clock.batchRows) return { scanned, total, complete: true }
    if (plan.key) {
      after = plan.key(rows[rows.length - 1])
      // A NULL key ends the order a keyset can follow: what is left has no id to read anyway.
      if (after === null || after === undefined) return { scanned, total, complete: true }
    }
    const now = clock.now()
    if (clock.progress && now - said >= clock.progressEveryMs) {
      said = now
      clock.progress(`scanning ${plan.what}: ${count(scanned)} of ${count(total)} rows`)
    }
    // better-sqlite3 answers synchronously: without this turn a long scan would hold the loop.
    await new Promise((resolve) => setImmediate(resolve))
  }
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
