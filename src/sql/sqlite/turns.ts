// Who may use the one SQLite connection when (driver.ts). A transaction spans awaits and a
// stream keeps a cursor open between blocks: each has the connection alone, so no request
// reads another's uncommitted rows. Plain reads may share it: they are sent to the worker
// without waiting for each other's answers, and it runs them in the order they came.
//
// Why share: a read sent only after the previous one's answer wakes the worker thread and then
// the main thread once each, ~55 µs of CPU per statement on this machine's 2 cores; with eight
// requests' reads queued, the worker runs them back to back and one wake-up of the main thread
// takes several answers (~12 µs each). Measured with the by-id statement: 122 µs of CPU per
// statement one at a time.
//
// Order is kept: a read asked for after a transaction or stream waits for it, and one of those
// waits for every read asked for before it, so nothing starves the other.

/** Reads given the connection together; sealed once something exclusive is asked for after them. */
interface ReadGroup {
  /** Settles when the group may start (what came before it has ended). */
  start: Promise<void>
  started: boolean
  pending: number
  sealed: boolean
  /** Settles once the group is sealed and its last read has ended. */
  ended: Promise<void>
  end: () => void
}

export class Turns {
  /** Settles when everything given a turn so far has ended. */
  private tail: Promise<unknown> = Promise.resolve()
  /** The reads now accepting company, at the tail. */
  private group: ReadGroup | undefined
  /** Calls holding the connection or waiting for it (the pool gauge of a one-connection database). */
  private calls = 0

  get busy (): number { return this.calls }

  /** Runs `fn` beside the other reads of its group, after whatever exclusive came before it. */
  shared<T> (fn: () => Promise<T>): Promise<T> {
    let g = this.group
    if (g === undefined) {
      g = this.newGroup(this.calls === 0 ? undefined : this.tail)
      this.group = g
      this.tail = g.ended
    }
    const group = g
    group.pending++
    this.calls++
    let run: Promise<T>
    try {
      run = group.started ? fn() : group.start.then(fn)
    } catch (err) {
      // Thrown before its first await: still counted out below, or the group would never end.
      run = Promise.reject(err)
    }
    const done = (): void => {
      this.calls--
      if (--group.pending === 0 && group.sealed) group.end()
    }
    run.then(done, done)
    return run
  }

  /** Runs `fn` with the connection alone, after everything asked for before it. */
  exclusive<T> (fn: () => Promise<T>): Promise<T> {
    const g = this.group
    if (g !== undefined) {
      g.sealed = true
      this.group = undefined
      if (g.pending === 0) g.end()
    }
    // Started from the tail even when nothing holds the connection: the tail is this call's
    // before `fn` runs, so a read `fn` asks for before its first await waits for it.
    this.calls++
    const next = this.tail.then(fn, fn)
    this.tail = next.then(() => { this.calls-- }, () => { this.calls-- })
    return next
  }

  private newGroup (after: Promise<unknown> | undefined): ReadGroup {
    let end!: () => void
    const ended = new Promise<void>((resolve) => { end = resolve })
    const g: ReadGroup = { start: Promise.resolve(), started: after === undefined, pending: 0, sealed: false, ended, end }
    // Whatever came before settles either way: a failed transaction still hands the connection on.
    if (after !== undefined) g.start = after.then(() => { g.started = true }, () => { g.started = true })
    return g
  }
}
