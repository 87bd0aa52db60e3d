// A streamed read may hold its connection only so long (issue 13). The stream reads the next
// block when the client has taken the last one, so a slow client would keep the read open at
// its own pace: on SQLite that is the one connection every other request waits for, and an
// open read's lock (rollback-journal files) keeps the clinic's desktop system from writing; on
// SQL Server a paused reader holds locks on what it reads. Past `holdMs` from its first block,
// the rest is read at the database's pace into memory (what a list cost before it was
// streamed) and the connection is let go; the client gets the same blocks, in order.
const DEFAULT_HOLD_MS = 2000

/** `blocks`, read ahead to its end once it has held its source for `holdMs` after the first block. */
export function holdingAtMost<T> (blocks: AsyncIterable<T>, holdMs = DEFAULT_HOLD_MS): AsyncIterable<T> {
  return {
    [Symbol.asyncIterator] () {
      const it = blocks[Symbol.asyncIterator]()
      let timer: NodeJS.Timeout | undefined
      let ahead: T[] | undefined // blocks read ahead, once the hold ran out
      let reading: Promise<void> | undefined
      let finished = false // the read ahead reached the source's end or error
      let stopped = false // the consumer left: read no further
      let failure: { err: unknown } | undefined
      let wake: (() => void) | undefined
      const readRest = (): void => {
        timer = undefined
        ahead = []
        // Queued behind any next() in flight: an async iterator answers in call order.
        reading = (async () => {
          try {
            while (!stopped) {
              const r = await it.next()
              if (r.done === true) return
              ahead!.push(r.value)
              wake?.() // a consumer keeping up gets each block as it is read
            }
          } catch (err) {
            failure = { err }
          } finally {
            finished = true
            wake?.()
          }
        })()
      }
      return {
        async next (): Promise<IteratorResult<T>> {
          if (ahead === undefined) {
            const r = await it.next()
            if (r.done === true) { clearTimeout(timer); timer = undefined; return r }
            if (timer === undefined && ahead === undefined) timer = setTimeout(readRest, holdMs).unref()
            return r
          }
          // Read ahead: what was read first, then the source's end or its error.
          while (ahead.length === 0 && !finished) await new Promise<void>((resolve) => { wake = resolve })
          wake = undefined
          if (ahead.length > 0) return { value: ahead.shift()!, done: false }
          if (failure) throw failure.err
          return { value: undefined, done: true }
        },
        async return (): Promise<IteratorResult<T>> {
          clearTimeout(timer)
          timer = undefined
          stopped = true
          ahead = []
          // The source is left where it is (queued behind the read in flight, if any).
          const left = await (it.return?.() ?? Promise.resolve({ value: undefined, done: true as const }))
          await reading
          return left
        }
      }
    }
  }
}
