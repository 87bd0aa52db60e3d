// One subscriber's delivery loop: it copies new events of its types from the log into its owed
// deliveries (moving its cursor in the same transaction), sends the due ones — at most
// `concurrency` at once, one per appointment at a time so an appointment's events arrive in
// order — and sleeps until an event is appended, a retry falls due or an attempt ends.
import { setTimeout as delay } from 'node:timers/promises'
import type { BaseLogger } from 'pino'
import type { EventLog } from '../log.js'
import type { PonteMetrics } from '../../metrics/registry.js'
import { safeError } from '../../logging.js'
import type { WebhookSettings } from '../../config.js'
import { retryDelay } from './backoff.js'
import { Sender } from './sender.js'
import type { DeliveryState, Owed } from './store.js'
import type { Subscriber } from './subscribers.js'

export type DispatchSettings = Omit<WebhookSettings, 'subscribers'> & {
  /** The longest sleep: how soon a replay made by the CLI (another process) is noticed (ms). */
  pollMs?: number
  /** Events read from the log at a time. */
  batch?: number
  now?: () => number
  random?: () => number
  /** How long the delivery lease lasts unrenewed (ms): a process gone is taken over after it. */
  leaseMs?: number
}

/** Whether this process holds the file's delivery lease (delivery.ts keeps it renewed). */
export interface LeaseView { readonly held: boolean }

// A shortest sleep, so a retry falling due as the loop looks cannot make it spin.
const MIN_SLEEP_MS = 5

export class SubscriberDispatcher {
  private readonly inFlight = new Map<number, Promise<void>>()
  private readonly stopping = new AbortController()
  private readonly sender: Sender
  private readonly now: () => number
  private readonly pollMs: number
  private loop: Promise<void> | undefined
  private woken = false
  private wakeSleeper: (() => void) | undefined

  constructor (
    private readonly subscriber: Subscriber,
    private readonly log: EventLog,
    private readonly store: DeliveryState,
    private readonly settings: DispatchSettings,
    private readonly logger: BaseLogger,
    private readonly lease: LeaseView,
    private readonly metrics?: PonteMetrics
  ) {
    this.now = settings.now ?? Date.now
    this.pollMs = settings.pollMs ?? 1000
    this.sender = new Sender(subscriber, settings.timeoutMs, this.now)
  }

  start (): void {
    this.loop ??= this.run()
  }

  /** Ends the loop; requests in flight are aborted and stay owed (sent again, same webhook-id, on the next start). */
  async stop (): Promise<void> {
    this.stopping.abort()
    this.wake()
    await this.loop
    await Promise.allSettled([...this.inFlight.values()])
  }

  private async run (): Promise<void> {
    const name = this.subscriber.name
    let cursor: number | undefined
    while (!this.stopping.signal.aborted) {
      try {
        if (!this.lease.held) {
          // Another process delivers from this file; its cursor moves on meanwhile, read again on taking over.
          cursor = undefined
          await delay(this.pollMs, undefined, { signal: this.stopping.signal }).catch(() => {})
          continue
        }
        cursor ??= await this.store.cursor(name, await this.log.head())
        cursor = await this.enqueueNew(cursor)
        await this.launchDue()
        await this.sleep(cursor)
      } catch (err) {
        // The events file locked by another process for long: looked at again after a pause.
        this.logger.error({ subscriber: name, err: safeError(err) }, 'webhook delivery could not read its state')
        await delay(this.pollMs, undefined, { signal: this.stopping.signal }).catch(() => {})
      }
    }
  }

  /** Copies events after `cursor` into the owed deliveries (those of the subscriber's types) and returns the new cursor. */
  private async enqueueNew (cursor: number): Promise<number> {
    const batch = this.settings.batch ?? 500
    for (;;) {
      const events = await this.log.after(cursor, batch)
      if (events.length === 0) return cursor
      cursor = await this.store.enqueue(this.subscriber.name, events.filter((e) => this.subscriber.events.has(e.type)), events[events.length - 1].seq, this.now())
      if (events.length < batch) return cursor
    }
  }

  private async launchDue (): Promise<void> {
    const room = this.settings.concurrency - this.inFlight.size
    if (room <= 0) return
    const { owed: due, lost } = await this.store.due(this.subscriber.name, this.now(), room + this.inFlight.size)
    for (const gone of lost) {
      // Evicted from the log by something other than Ponte: nothing to send. The store has
      // dead-lettered it, so the appointment's later events go on. Ids and seq, never a payload.
      this.metrics?.webhookDeadLettered.inc({ subscriber: this.subscriber.name })
      this.metrics?.webhookEventsMissing.inc({ subscriber: this.subscriber.name })
      this.logger.error({ subscriber: this.subscriber.name, eventId: gone.eventId, seq: gone.seq, reason: 'event-missing' }, 'webhook dead-lettered: its event is no longer in the log (evicted or trimmed outside Ponte); the appointment\'s later events go on')
    }
    for (const owed of due.filter((o) => !this.inFlight.has(o.event.seq)).slice(0, room)) {
      const seq = owed.event.seq
      this.inFlight.set(seq, this.attempt(owed).finally(() => {
        this.inFlight.delete(seq)
        this.wake()
      }))
    }
  }

  private async attempt (owed: Owed): Promise<void> {
    const { event } = owed
    const name = this.subscriber.name
    const attempt = owed.attempts + 1
    try {
      const startedAt = this.now()
      // Not due again before this attempt could have ended: a process killed now re-sends it then.
      // Not ours when another process claimed it since `due` (or delivered it): not sent.
      if (!await this.store.claim(name, event.seq, startedAt, startedAt + this.settings.timeoutMs + 1000)) return
      const result = await this.sender.send(event, this.stopping.signal)
      const at = this.now()
      if (result.ok) {
        await this.store.delivered(name, event.seq)
        this.metrics?.webhookDelivered.inc({ subscriber: name })
        this.metrics?.webhookLatency.observe({ subscriber: name }, Math.max(0, at - Date.parse(event.seenAt)) / 1000)
        this.logger.debug({ subscriber: name, eventId: event.id, seq: event.seq, attempt, status: result.status }, 'webhook delivered')
        return
      }
      if (result.stopped) {
        await this.store.interrupted(name, event.seq, at)
        return
      }
      this.metrics?.webhookFailedAttempts.inc({ subscriber: name, kind: result.kind })
      const horizon = (owed.firstAttemptAt ?? startedAt) + this.settings.retryForMs
      if (at >= horizon) {
        await this.store.failed(name, event.seq, result.kind, at, undefined)
        this.metrics?.webhookDeadLettered.inc({ subscriber: name })
        this.logger.error({ subscriber: name, eventId: event.id, seq: event.seq, attempt, kind: result.kind }, 'webhook dead-lettered: retried past WEBHOOK_RETRY_SECONDS (ponte webhooks replay sends it again)')
        return
      }
      // The last retry falls at the horizon, not past it.
      const retryAt = Math.min(horizon, at + retryDelay(attempt, { baseMs: this.settings.backoffMs, maxMs: this.settings.backoffMaxMs, random: this.settings.random }))
      await this.store.failed(name, event.seq, result.kind, at, retryAt)
      this.logger.warn({ subscriber: name, eventId: event.id, seq: event.seq, attempt, kind: result.kind, retryInMs: retryAt - at }, 'webhook attempt failed; will retry')
    } catch (err) {
      // Its state could not be written: the row stays owed and is tried again when due.
      this.logger.error({ subscriber: name, eventId: event.id, err: safeError(err) }, 'webhook delivery could not record an attempt')
    }
  }

  /** Sleeps until an event after `cursor` is appended, an attempt ends, the next retry is due, or stop. */
  private async sleep (cursor: number): Promise<void> {
    if (this.woken || this.stopping.signal.aborted) {
      this.woken = false
      return
    }
    let wait = this.pollMs
    if (this.inFlight.size < this.settings.concurrency) {
      const next = await this.store.nextDue(this.subscriber.name)
      if (next !== undefined) wait = Math.min(wait, Math.max(MIN_SLEEP_MS, next - this.now()))
    }
    if (this.woken) {
      this.woken = false
      return
    }
    const woken = new AbortController()
    this.wakeSleeper = () => { woken.abort() }
    try {
      await this.log.waitAfter(cursor, wait, AbortSignal.any([woken.signal, this.stopping.signal]))
    } finally {
      this.wakeSleeper = undefined
      this.woken = false
    }
  }

  private wake (): void {
    this.woken = true
    this.wakeSleeper?.()
  }
}
