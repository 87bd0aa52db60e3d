// Long work on the main thread is done in pieces, so that other requests (and /health) are
// answered in between: a few hundred rows read, nested or encoded, then a turn of the event loop.
import { setImmediate as nextTurn } from 'node:timers/promises'

/**
 * Rows read, nested or turned into JSON between two turns of the event loop: eight long lists
 * at once, each taking a block of 1,000 rows in one piece, kept /health waiting (log.md).
 */
export const TURN_ROWS = 250

/** Resolves after the event loop's next turn (after the pending I/O is served), as the change detector yields. */
export { nextTurn }

/** Calls `each` on every item, with a turn of the event loop after every TURN_ROWS of them. */
export async function inTurns<T> (items: readonly T[], each: (item: T, i: number) => void): Promise<void> {
  for (let i = 0; i < items.length; i++) {
    if (i > 0 && i % TURN_ROWS === 0) await nextTurn()
    each(items[i], i)
  }
}
