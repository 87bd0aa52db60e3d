// When the HTTP request being served arrived. A request may ask the database several times
// (a booking reads, then opens a transaction); a driver that waits for a lock bounds the
// request's whole wait from this instant, not each statement's, so no request waits longer
// than the bound however many statements it runs. Outside a request (the CLI, start-up) there
// is no arrival and each call is bounded on its own.
import { AsyncLocalStorage } from 'node:async_hooks'

const arrival = new AsyncLocalStorage<number>()

/** Runs `fn` (and everything it starts) as the handling of a request that arrived at `at` (performance.now()). */
export function servingRequest<T> (at: number, fn: () => T): T {
  return arrival.run(at, fn)
}

/** The arrival of the request being served, or `fallback` outside one. */
export function arrivedAt (fallback: number): number {
  return arrival.getStore() ?? fallback
}
