// A long read through a protocol-level portal (issue 29): Parse, Bind, Describe and an Execute
// of at most `readRows` rows go out in one write, and each further Execute asks for the next
// rows of the same portal. A list that ends within the first Execute costs one round trip, as
// a plain query does; before, a server-side cursor cost BEGIN, DECLARE, a FETCH per 1,000 rows
// and ROLLBACK. The portal lives in the implicit transaction the first message opened, so
// every row comes from one snapshot; Sync ends it (and the portal) when the rows are read, the
// caller leaves or the server reports an error.
//
// It is a pg Submittable (the interface pg-cursor is built on): pg hands over the connection
// and passes the server's answers to the handle* methods, and the client runs nothing else on
// that connection until ReadyForQuery. The server's statement_timeout runs from the first
// message to the read's end, the caller's pauses included (a suspended Execute does not
// restart it), as max_statement_time does on MariaDB; `timeoutMs` bounds each Execute here,
// for a server that no longer answers (pg's query_timeout would count the caller's pauses).
import type pg from 'pg'
import type { Row } from '../../db/database.js'

/** pg's Result as a row parser (pg.Result's addFields and parseRow, not in its typings). */
interface RowParser {
  addFields: (fields: unknown[]) => void
  parseRow: (fields: unknown[]) => Row
}

export interface Batch {
  rows: Row[]
  /** Whether the portal has more rows (the Execute stopped at its limit). */
  more: boolean
}

/** Values as text for Bind; the driver has already turned them into text, numbers or null. */
const asText = (value: unknown): string | Buffer | null =>
  value === null || value === undefined ? null : Buffer.isBuffer(value) ? value : String(value)

/** The longest timer Node keeps: pg's own whole-query timer is kept out of the way. */
const NEVER_MS = 2_147_483_647

export class PortalRead implements pg.Submittable {
  /** Read by pg's client.query: the client-side bound is per Execute here, not on the whole read there. */
  readonly query_timeout = NEVER_MS
  /** Set by pg's client.query to clear its timer; called once when the read is over. */
  callback?: (err: Error | null) => void

  private connection: pg.Connection | undefined
  private rows: Row[] = []
  private settle: { resolve: (b: Batch) => void, reject: (err: unknown) => void } | undefined
  private batch: Promise<Batch>
  private timer: NodeJS.Timeout | undefined
  private state: 'reading' | 'suspended' | 'syncing' | 'done' | 'failed' = 'reading'
  private failure: unknown
  private whenReady: () => void = () => undefined
  /** Settles when the connection can take another statement (ReadyForQuery, or after a failure). */
  readonly ready: Promise<void>

  constructor (
    private readonly text: string,
    private readonly values: unknown[],
    private readonly parser: RowParser,
    private readonly readRows: number,
    private readonly timeoutMs: number
  ) {
    this.batch = this.expect()
    this.ready = new Promise((resolve) => { this.whenReady = resolve })
  }

  /** The rows of the first Execute, then of one more Execute per call while `more` was true. */
  async next (first: boolean): Promise<Batch> {
    if (!first) {
      if (this.state === 'failed') throw this.failure
      if (this.state !== 'suspended') throw new Error('the portal has no more rows to read')
      this.batch = this.expect()
      this.execute()
    }
    return await this.batch
  }

  /** Ends the read: Sync (closing a portal left unread), then its ReadyForQuery; the read's failure, if any. */
  async end (): Promise<unknown> {
    if (this.state === 'suspended') {
      this.state = 'syncing'
      this.connection?.sync()
    }
    await this.ready
    return this.failure
  }

  submit (connection: pg.Connection): void {
    this.connection = connection
    connection.parse({ name: '', text: this.text, types: [] }, true)
    connection.bind({ portal: '', statement: '', values: this.values as never, valueMapper: asText }, true)
    connection.describe({ type: 'P', name: '' }, true)
    this.execute()
  }

  handleRowDescription (msg: { fields: unknown[] }): void { this.parser.addFields(msg.fields) }

  handleDataRow (msg: { fields: unknown[] }): void {
    if (this.state === 'reading') this.rows.push(this.parser.parseRow(msg.fields))
  }

  handlePortalSuspended (): void {
    if (this.state !== 'reading') return
    this.state = 'suspended'
    this.deliver(true)
  }

  handleCommandComplete (): void {
    if (this.state !== 'reading') return
    this.state = 'syncing'
    this.connection?.sync()
    this.deliver(false)
  }

  handleEmptyQuery (): void { this.handleCommandComplete() }

  handleReadyForQuery (): void {
    if (this.state === 'failed') return
    this.state = 'done'
    this.finish(null)
  }

  /**
   * The server's error (pg forgets the query first, so no ReadyForQuery reaches here), the
   * connection's, or this read's own timeout. The server discards messages until Sync.
   */
  handleError (err: unknown): void {
    if (this.state === 'done' || this.state === 'failed') return
    const synced = this.state === 'syncing'
    this.state = 'failed'
    this.failure = err
    clearTimeout(this.timer)
    if (!synced) this.connection?.sync()
    this.settle?.reject(err)
    this.settle = undefined
    this.finish(err instanceof Error ? err : new Error(String(err)))
  }

  handleCopyInResponse (): void { /* a SELECT never copies */ }
  handleCopyData (): void { /* a SELECT never copies */ }

  private expect (): Promise<Batch> {
    const batch = new Promise<Batch>((resolve, reject) => { this.settle = { resolve, reject } })
    batch.catch(() => undefined) // a failure nobody waits for is still seen by end()
    return batch
  }

  private execute (): void {
    this.state = 'reading'
    this.rows = []
    this.connection?.execute({ portal: '', rows: String(this.readRows) }, true)
    this.connection?.flush()
    this.timer = setTimeout(() => { this.handleError(new Error('Query read timeout')) }, this.timeoutMs)
  }

  private deliver (more: boolean): void {
    clearTimeout(this.timer)
    const rows = this.rows
    this.rows = []
    this.settle?.resolve({ rows, more })
    this.settle = undefined
  }

  private finish (err: Error | null): void {
    const cb = this.callback
    this.callback = undefined
    cb?.(err)
    this.whenReady()
  }
}
