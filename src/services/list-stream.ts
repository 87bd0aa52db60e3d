// A long appointment list sent as it is read (issue 13): eight concurrent 31-day lists of
// 112,344 items took the process past 1 GB when each was built whole before it was sent.
// Blocks of rows come from Database.stream; each becomes JSON text with exactly the bytes the
// buffered path writes (the same item text, `[`, `,`, `]`), and the next block is read only
// when the socket has taken the last one (a Readable with no buffer of its own, piped by
// fastify, which pauses while the response does not drain). Memory is a few blocks, and one
// day's appointments, per request.
//
// Order. The buffered path sorts the whole list by normalised date and hour (stable). The SQL
// orders by the stored date, then hour, then key, so a day's rows come together and only a
// day needs sorting: items are held until a later date shows, then that day is sorted and
// sent. A date earlier than the day held (stored dates whose order is not the calendar's,
// `DD/MM/YYYY` text) cannot be streamed in order: found in the blocks read before the first
// byte, the list is answered whole instead; found later, the response is cut (the socket
// destroyed, never a shorter body that parses) and logged.
//
// Headers are decided before the first byte: the first 1,000 rows (one block on SQLite) are
// read first, so an error before any row is still a problem with its status, and a list that
// ends within them (most lists; the busiest day) is answered whole, with its Content-Length,
// as before.
import { Readable } from 'node:stream'
import type { Row } from '../db/database.js'
import type { AppointmentRow } from '../mapping/compile/index.js'
import { byDateAndHour } from './appointments.js'

/** How long a client may leave a sent block unread before the stream is cut: the stream holds a database connection meanwhile. */
export const STREAM_STALL_MS = 10_000
/** Rows read before the answer's headers are decided: a list that ends within them is answered whole. */
export const WHOLE_ROWS = 1000

export class StreamOrderError extends Error {
  constructor () {
    super('the stored dates of the list are not in calendar order; the list cannot be streamed')
    this.name = 'StreamOrderError'
  }
}

export class StreamStalledError extends Error {
  constructor (ms: number) {
    super(`the client read nothing for ${ms} ms; the list stream was cut`)
    this.name = 'StreamStalledError'
  }
}

/** Items of the day being read, held until a later day shows; then sorted and written. */
class DayOrder {
  private day: AppointmentRow[] = []
  private date: string | undefined
  private first = true

  constructor (private readonly text: (items: AppointmentRow[]) => string) {}

  /** Adds an item; the text of the days it completes ('' for none). Throws StreamOrderError on an earlier date. */
  add (a: AppointmentRow): string {
    if (this.date === undefined || a.date === this.date) {
      this.date = a.date
      this.day.push(a)
      return ''
    }
    if (a.date < this.date) throw new StreamOrderError()
    const out = this.flush()
    this.date = a.date
    this.day.push(a)
    return out
  }

  /** The day held, sorted by hour, as JSON items (the opening `[` before the first). */
  flush (): string {
    if (this.day.length === 0) return ''
    this.day.sort(byDateAndHour)
    const out = (this.first ? '[' : ',') + this.text(this.day)
    this.first = false
    this.day = []
    return out
  }

  /** The rest of the list and its closing `]`. */
  end (): string {
    const out = this.flush()
    return this.first ? '[]' : `${out}]`
  }
}

/**
 * The list from `blocks`: the items (`whole`, the buffered answer) when it ends within the
 * first blocks or is not in calendar order there, else a Readable of its JSON text.
 */
export async function streamList<T> (
  blocks: AsyncIterable<Row[]>,
  read: (row: Row) => AppointmentRow | undefined,
  keep: (a: AppointmentRow) => boolean,
  /** The items' JSON texts joined by commas (a day at a time: one call, not one per item). */
  text: (items: AppointmentRow[]) => string,
  whole: (found: AppointmentRow[]) => Promise<T>,
  stallMs = STREAM_STALL_MS
): Promise<T | Readable> {
  const it = blocks[Symbol.asyncIterator]()
  const found: AppointmentRow[] = []
  const take = (rows: Row[]): void => {
    for (const row of rows) {
      const a = read(row)
      if (a !== undefined && keep(a)) found.push(a)
    }
  }
  let handedOver = false
  try {
    for (let rows = 0; rows < WHOLE_ROWS;) {
      const r = await it.next()
      if (r.done === true) return await whole(found)
      take(r.value)
      rows += r.value.length
    }
    const order = new DayOrder(text)
    let first = ''
    try {
      for (const a of found) first += order.add(a)
    } catch (err) {
      if (!(err instanceof StreamOrderError)) throw err
      // Not streamable in order: the rest read, the whole list sorted, as before.
      for (;;) {
        const r = await it.next()
        if (r.done === true) break
        take(r.value)
      }
      return await whole(found)
    }
    found.length = 0
    handedOver = true
    return new ListStream(it, (rows) => {
      let out = ''
      for (const row of rows) {
        const a = read(row)
        if (a !== undefined && keep(a)) out += order.add(a)
      }
      return out
    }, () => order.end(), first, stallMs)
  } finally {
    // Anything but a stream handed over: the connection is released now (a throw included).
    if (!handedOver) await it.return?.()
  }
}

/**
 * JSON text pulled block by block. No buffer of its own (highWaterMark 0): a block is read
 * only when the response asked for more, i.e. after the socket took the last one.
 */
class ListStream extends Readable {
  private busy = false
  private stall: NodeJS.Timeout | undefined
  private pending: string

  constructor (
    private readonly it: AsyncIterator<Row[]>,
    private readonly block: (rows: Row[]) => string,
    private readonly end: () => string,
    first: string,
    private readonly stallMs: number
  ) {
    super({ highWaterMark: 0 })
    this.pending = first
  }

  override _read (): void {
    if (this.stall) { clearTimeout(this.stall); this.stall = undefined }
    if (this.busy) return
    this.busy = true
    void this.pump()
  }

  private async pump (): Promise<void> {
    try {
      for (;;) {
        if (this.pending !== '') {
          const out = this.pending
          this.pending = ''
          this.busy = false
          this.watch()
          this.push(out)
          return
        }
        const r = await this.it.next()
        if (this.destroyed) return
        if (r.done === true) {
          this.busy = false
          this.push(this.end())
          this.push(null)
          return
        }
        this.pending = this.block(r.value)
      }
    } catch (err) {
      this.busy = false
      this.destroy(err as Error)
    }
  }

  /** A client that stops reading would hold the database connection: cut it after STREAM_STALL_MS. */
  private watch (): void {
    if (this.stall) clearTimeout(this.stall)
    this.stall = setTimeout(() => { this.destroy(new StreamStalledError(this.stallMs)) }, this.stallMs)
    this.stall.unref()
  }

  override _destroy (err: Error | null, callback: (error?: Error | null) => void): void {
    if (this.stall) { clearTimeout(this.stall); this.stall = undefined }
    // Leaves the database's read loop (after a block being read, if any): the connection is free again.
    this.it.return?.().catch(() => {})
    callback(err)
  }
}
