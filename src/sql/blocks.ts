// A driver's row stream (mysql2's and mssql's object-mode Readables) as the blocks
// Database.stream gives. The Readable's buffer is one block, so the driver pauses its socket
// while a block waits to be sent: the server's rows stay on the server, not in our memory.
import type { Readable } from 'node:stream'
import type { Row } from '../db/database.js'

/**
 * Rows per block of a streamed read, on every database. On SQLite each block is a round trip to
 * the worker and a chunk written: 1,000 cost a 31-day minimal list ~15 % less CPU than 500, and
 * one block is still what list-stream.ts reads before deciding its headers (WHOLE_ROWS).
 */
export const STREAM_BLOCK_ROWS = 1000

export async function * inBlocks (rows: Readable, size = STREAM_BLOCK_ROWS): AsyncGenerator<Row[]> {
  let block: Row[] = []
  // Leaving this loop early (the caller's break or throw) destroys the Readable.
  for await (const row of rows) {
    block.push(row as Row)
    if (block.length >= size) {
      yield block
      block = []
    }
  }
  if (block.length > 0) yield block
}
