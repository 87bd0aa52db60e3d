// What both event logs (the file's and the replicas' Redis one) do alike around their appends:
// a long-poll woken by this process's appends or, for another process's, by a look at the head
// now and then; and the hourly purge of what is past retention.
import { EventEmitter, on } from 'node:events'

export class Appends {
  private readonly appended = new EventEmitter()

  /** `head`: the log's last sequence number; `pollMs`: how often a waiter looks at it. */
  constructor (private readonly head: () => Promise<number>, private readonly pollMs: number) {
    this.appended.setMaxListeners(0)
  }

  /** Tells waiters this process appended up to `seq`. */
  emit (seq: number): void {
    this.appended.emit('append', seq)
  }

  /** Resolves once the log holds an event past `cursor`, after `ms`, or when `signal` aborts. */
  async waitAfter (cursor: number, ms: number, signal?: AbortSignal): Promise<void> {
    if (await this.head() > cursor || ms <= 0 || signal?.aborted === true) return
    const stop = new AbortController()
    const timer = setTimeout(() => { stop.abort() }, ms)
    const aborted = (): void => { stop.abort() }
    signal?.addEventListener('abort', aborted, { once: true })
    // Another process's appends are seen by looking at the head now and then.
    const poll = setInterval(() => {
      this.head().then((seq) => { if (seq > cursor) this.emit(seq) }, () => {})
    }, this.pollMs)
    try {
      for await (const [seq] of on(this.appended, 'append', { signal: stop.signal })) if ((seq as number) > cursor) return
    } catch (err) {
      if ((err as Error).name !== 'AbortError') throw err
    } finally {
      clearTimeout(timer)
      clearInterval(poll)
      signal?.removeEventListener('abort', aborted)
    }
  }
}

/** Purges what is older than `retentionMs` now and every `everyMs` (unref'd: it never holds the process); returns the stop. */
export function purgeEvery (purge: (cutoffMs: number) => Promise<unknown>, now: () => number, retentionMs: number, everyMs: number): () => void {
  const round = (): void => { purge(now() - retentionMs).catch(() => {}) }
  round()
  const timer = setInterval(round, everyMs)
  timer.unref()
  return () => { clearInterval(timer) }
}
