// The one change-detection loop of a process: polls the served mapping's window every
// `pollSeconds` (measured from the end of the previous poll, so polls never overlap), on
// timers (the event loop is never held: the work is the database's and the store's), starts
// over at once when a reload swaps the mapping, and stops on close. Its state is what /ready
// shows.
import type { FastifyBaseLogger } from 'fastify'
import type { Ponte } from '../ponte.js'
import { safeError } from '../logging.js'
import { errorKind, type ChangeDetector } from './detector.js'

export interface PollerState {
  /** When the last poll ended, and whether it failed (its kind: `database-unavailable`…). */
  lastPollAt: string | null
  lastError: string | null
  /** When the last successful poll began (ms since the epoch): the detection lag's origin. */
  lastGoodStart: number | undefined
  polls: number
}

export class ChangePoller {
  private timer: NodeJS.Timeout | undefined
  private running: Promise<void> | undefined
  private stopped = true
  private again = false
  private abort = new AbortController()
  readonly state: PollerState = { lastPollAt: null, lastError: null, lastGoodStart: undefined, polls: 0 }
  /** Replicas (events/replicas/open.ts): whether this process may poll now (holds the poller lease); unset: always. */
  gate: (() => Promise<boolean>) | undefined
  /** Replicas: whether this replica polls now (holds the lease), for /ready; unset: one process, it always does. */
  polling: (() => boolean) | undefined

  constructor (private readonly detector: ChangeDetector, private readonly ponte: () => Ponte, private readonly logger: FastifyBaseLogger) {}

  /** Whether the served mapping declares change detection. */
  get mapped (): boolean { return this.ponte().compiled.model.appointment.changes !== undefined }

  start (): void {
    if (!this.stopped) return
    this.stopped = false
    this.abort = new AbortController()
    this.schedule(0)
  }

  /**
   * Before the server listens: a store not yet primed for the served mapping is primed now, so
   * the first writes through Ponte are emitted (an unprimed store records them silently). A
   * failed poll is logged and the start goes on; the poller tries again once started.
   */
  async prime (): Promise<void> {
    if (this.detector.unprimed(this.ponte())) await this.tick()
  }

  /** A reload: the next poll at once, with the new mapping's window and interval. */
  restart (): void {
    if (this.stopped) return
    if (this.running) { this.again = true; return }
    this.schedule(0)
  }

  /** Stops polling; resolves once a poll under way has ended. */
  async stop (): Promise<void> {
    this.stopped = true
    clearTimeout(this.timer)
    // A poll under way stops at its next slice: it records nothing, the next start resumes.
    this.abort.abort()
    await this.running
  }

  private schedule (ms: number): void {
    clearTimeout(this.timer)
    if (this.stopped || !this.mapped) return
    this.timer = setTimeout(() => { this.running = this.tick().finally(() => { this.running = undefined; this.next() }) }, ms)
    this.timer.unref()
  }

  private next (): void {
    const changes = this.ponte().compiled.model.appointment.changes
    if (changes === undefined) return
    const again = this.again
    this.again = false
    this.schedule(again ? 0 : changes.pollMs)
  }

  private async tick (): Promise<void> {
    // Another replica polls: nothing read here (its events reach this one's feed through Redis).
    if (this.gate !== undefined && !await this.gate().catch(() => false)) return
    const ponte = this.ponte()
    const began = Date.now()
    const end = ponte.metrics.changesPollDuration.startTimer()
    try {
      const out = await this.detector.poll(ponte, this.abort.signal)
      end({ outcome: 'ok' })
      this.state.lastGoodStart = began
      this.state.lastError = null
      if (out.events.length > 0 || !out.primed) this.logger.info({ rows: out.rows, events: out.events.length, first: !out.primed }, out.primed ? 'changes detected' : 'first change-detection poll: the window is recorded, nothing emitted')
    } catch (err) {
      end({ outcome: 'failed' })
      if (this.stopped) return
      this.state.lastError = errorKind(err)
      this.logger.warn({ err: safeError(err), kind: this.state.lastError }, 'change-detection poll failed; nothing was recorded, the next poll resumes')
    } finally {
      this.state.polls++
      this.state.lastPollAt = new Date().toISOString()
    }
  }
}
