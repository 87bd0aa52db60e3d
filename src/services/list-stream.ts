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
import { inTurns, nextTurn, TURN_ROWS } from './turns.js'

/** How long a client may leave a sent block unread before the stream is cut: the stream holds a database connection meanwhile. */
export const STREAM_STALL_MS = 10_000
/** Rows read before the answer's headers are decided: a list that ends within them is answered whole. */
export const WHOLE_ROWS = 1000
const EMPTY = Buffer.alloc(0)

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

/**
 * Items of the day being read, held until a later day shows; then sorted, and their text
 * kept as one more piece of the answer until `take` hands the pieces over.
 */
class DayOrder {
  private day: AppointmentRow[] = []
  private date: string | undefined
  private first = true
  private pieces: string[] = []

  constructor (private readonly text: (items: AppointmentRow[]) => string) {}

  /** Adds an item (the day it completes, if any, becomes text). Throws StreamOrderError on an earlier date. */
  add (a: AppointmentRow): void {
    if (this.date !== undefined && a.date !== this.date) {
      if (a.date < this.date) throw new StreamOrderError()
      this.flush()
    }
    this.date = a.date
    this.day.push(a)
  }

  /** The day held, sorted by hour, as JSON items (the opening `[` before the first). */
  private flush (): void {
    if (this.day.length === 0) return
    this.day.sort(byDateAndHour)
    this.pieces.push(this.first ? '[' : ',', this.text(this.day))
    this.first = false
    this.day = []
  }

  /** The rest of the list and its closing `]`. */
  end (): void {
    this.flush()
    this.pieces.push(this.first ? '[]' : ']')
  }

  /** The text made since the last call, as UTF-8 bytes (empty when no day was completed). */
  take (): Buffer {
    if (this.pieces.length === 0) return EMPTY
    const out = utf8(this.pieces)
    this.pieces = []
    return out
  }
}

/**
 * Pieces of text as one Buffer, each piece encoded straight into it. Joined into one string
 * first, Buffer.from spent ~1.1 ms a block of ~94,000 characters in the bench's 31-day list
 * (the joined string flattened, then measured, then encoded): ~7 ms of a request's ~25 (W2).
 */
function utf8 (pieces: string[]): Buffer {
  let bytes = 0
  for (const p of pieces) bytes += Buffer.byteLength(p, 'utf8')
  const out = Buffer.allocUnsafe(bytes)
  let at = 0
  for (const p of pieces) at += out.write(p, at, 'utf8')
  return out
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
  const take = async (rows: Row[]): Promise<void> => {
    await inTurns(rows, (row) => {
      const a = read(row)
      if (a !== undefined && keep(a)) found.push(a)
    })
  }
  let handedOver = false
  try {
    for (let rows = 0; rows < WHOLE_ROWS;) {
      const r = await it.next()
      if (r.done === true) return await whole(found)
      await take(r.value)
      rows += r.value.length
    }
    const order = new DayOrder(text)
    try {
      for (const a of found) order.add(a)
    } catch (err) {
      if (!(err instanceof StreamOrderError)) throw err
      // Not streamable in order: the rest read, the whole list sorted, as before.
      for (;;) {
        const r = await it.next()
        if (r.done === true) break
        await take(r.value)
      }
      return await whole(found)
    }
    found.length = 0
    handedOver = true
    return new ListStream(it, (row) => {
      const a = read(row)
      if (a !== undefined && keep(a)) order.add(a)
    }, () => order.take(), () => { order.end(); return order.take() }, order.take(), stallMs)
  } finally {
    // Anything but a stream handed over: the connection is released now (a throw included).
    if (!handedOver) await it.return?.()
  }
}

/**
 * JSON text pulled block by block. No buffer of its own (highWaterMark 0): a block is read
 * only when the response asked for more, i.e. after the socket took the last one. A block's
 * rows are taken TURN_ROWS at a time with a turn of the event loop between: eight lists at
 * once, each taking a whole block in one piece, held every other request (and /health) behind
 * them.
 */
class ListStream extends Readable {
  private busy = false
  private stall: NodeJS.Timeout | undefined
  private pending: Buffer

  constructor (
    private readonly it: AsyncIterator<Row[]>,
    /** Takes one row into the answer's text. */
    private readonly row: (row: Row) => void,
    /** The text made since the last call. */
    private readonly taken: () => Buffer,
    private readonly end: () => Buffer,
    first: Buffer,
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
        if (this.pending.length > 0) {
          const out = this.pending
          this.pending = EMPTY
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
        const rows = r.value
        for (let i = 0; i < rows.length; i++) {
          // A turn before each block's first rows too: the last block's end was taken in this one.
          if (i % TURN_ROWS === 0) {
            await nextTurn()
            if (this.destroyed) return
          }
          this.row(rows[i])
        }
        this.pending = this.taken()
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
