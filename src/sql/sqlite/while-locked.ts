// Waiting for another process's lock without holding the event loop: the connection never waits
// inside SQLite (busy_timeout 0), and a statement that meets a lock is tried again on timers
// here. Used by the clinic's driver (driver.ts) and Ponte's own stores (private-store.ts).

const sqliteCode = (err: unknown): string => (err as { code?: unknown }).code as string ?? ''

/** SQLITE_BUSY and its extended codes: another connection holds a lock this one needs. */
export const isBusy = (err: unknown): boolean => sqliteCode(err).startsWith('SQLITE_BUSY')

/**
 * Runs `attempt` until it does not meet another process's lock, waiting on timers (1, 2, 4 …
 * 50 ms) so the event loop stays free; at `deadline` (performance.now()) the last SQLITE_BUSY
 * is thrown, for the caller to say what was locked. Always tries once; the loop is entered only
 * after a lock was met, so a statement without one pays for no more.
 */
export function whileLocked<T> (attempt: () => Promise<T>, deadline: number): Promise<T> {
  return attempt().catch(async (first: unknown) => {
    let err = first
    let wait = 1
    // Every wait lasts at least 1 ms, so the deadline is reached.
    for (;;) {
      if (!isBusy(err)) throw err
      const left = deadline - performance.now()
      if (left <= 0) throw err
      await new Promise((resolve) => setTimeout(resolve, Math.min(wait, left)))
      wait = Math.min(wait * 2, 50)
      try {
        return await attempt()
      } catch (next) {
        err = next
      }
    }
  })
}
