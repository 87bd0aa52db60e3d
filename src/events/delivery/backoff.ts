// When a failed delivery is tried again: exponential backoff with "equal jitter", so retries
// from many events spread out yet each wait still grows with the attempts.

export interface Backoff {
  /** The first retry's delay (ms). */
  baseMs: number
  /** No wait is longer than this (ms). */
  maxMs: number
  /** A number in [0, 1): Math.random, or a fixed one in tests. */
  random?: () => number
}

/** The wait after the `attempt`th failed attempt (1, 2, …): half the capped doubling, plus up to as much again. */
export function retryDelay (attempt: number, { baseMs, maxMs, random = Math.random }: Backoff): number {
  const cap = Math.min(maxMs, baseMs * 2 ** Math.min(attempt - 1, 40))
  return Math.round(cap / 2 + random() * cap / 2)
}
