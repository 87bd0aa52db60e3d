// A driver's row stream (mysql2's and mssql's object-mode Readables) as the blocks
// Database.stream gives. The Readable's buffer is one block, so the driver pauses its socket
// while a block waits to be sent: the server's rows stay on the server, not in our memory.
import { finished, type Readable } from 'node:stream'
import type { Row } from '../db/database.js'

/**
 * Rows per block of a streamed read, on every database. On SQLite each block is a round trip to
 * the worker and a chunk written: 1,000 cost a 31-day minimal list ~15 % less CPU than 500, and
 * one block is still what list-stream.ts reads before deciding its headers (WHOLE_ROWS).
 */
export const STREAM_BLOCK_ROWS = 1000

/**
 * The rows in blocks of `size`, taken from the Readable's buffer as they arrive: what Node's
 * own async iterator does, less its await per row (a 1,000-row block cost ~1,000 promises).
 * Leaving the loop early (the caller's break or throw) destroys the Readable, as it does.
 */
export async function * inBlocks (rows: Readable, size = STREAM_BLOCK_ROWS): AsyncGenerator<Row[]> {
  let wake = (): void => undefined
  const onReadable = (): void => { const w = wake; wake = () => undefined; w() }
  rows.on('readable', onReadable)
  // undefined: not finished; null: ended; an error: failed or destroyed before its end.
  let outcome: Error | null | undefined
  const stopWatching = finished(rows, { writable: false }, (err) => {
    outcome = err ?? null
    onReadable()
  })
  let block: Row[] = []
  try {
    for (;;) {
      const row: unknown = rows.destroyed ? null : rows.read()
      if (row !== null) {
        block.push(row as Row)
        if (block.length >= size) {
          yield block
          block = []
        }
      } else if (outcome instanceof Error) {
        throw outcome
      } else if (outcome === null) {
        break
      } else {
        await new Promise<void>((resolve) => { wake = resolve })
      }
    }
    if (block.length > 0) yield block
  } finally {
    rows.off('readable', onReadable)
    stopWatching()
    if (outcome !== null) rows.destroy()
  }
}
