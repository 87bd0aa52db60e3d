// Webhook delivery for every configured subscriber over one events file: started after the
// server listens, stopped at shutdown, and what operators see (/ready, metrics) per subscriber.
import { randomUUID } from 'node:crypto'
import { setTimeout as delay } from 'node:timers/promises'
import type { BaseLogger } from 'pino'
import { safeError } from '../../logging.js'
import { EventStoreUnavailableError } from '../../errors.js'
import type { EventLog, SqliteEventLog } from '../log.js'
import type { PonteMetrics } from '../../metrics/registry.js'
import type { WebhookSettings } from '../../config.js'
import { SubscriberDispatcher, type DispatchSettings } from './dispatcher.js'
import { DeliveryStore, type DeliveryState } from './store.js'

/** One subscriber as /ready and the metrics show it: never its URL or secret. */
export interface SubscriberStatus {
  name: string
  /** Events owed to it (not yet delivered, not dead-lettered). */
  pending: number
  /** Of those, how many have failed at least once. */
  retrying: number
  deadLettered: number
  /** What the last failed attempt met (`http-503`, `timeout`, `connection`), null if none. */
  lastError: string | null
}

// The lease lasts this long unrenewed; it is renewed three times as often, so a slow renewal
// (the file briefly locked) does not lose it.
const LEASE_MS = 15_000

export class WebhookDelivery {
  /** Only the process holding the file's lease delivers: two servers on one file send each event once. */
  private readonly lease = { held: false }
  private heldUntil = 0
  private readonly owner = `${process.pid}-${randomUUID()}`
  private readonly stopping = new AbortController()
  private leaseLoop: Promise<void> | undefined
  private dispatchers: SubscriberDispatcher[] = []

  private constructor (
    private readonly store: DeliveryState,
    private readonly names: string[],
    private readonly leaseMs: number,
    private readonly now: () => number,
    private readonly logger: BaseLogger
  ) {}

  /** Prepares delivery to `settings.subscribers` over `log`'s file; nothing is sent before start(). */
  static async open (log: SqliteEventLog, settings: WebhookSettings & Omit<DispatchSettings, keyof WebhookSettings>, logger: BaseLogger, metrics?: PonteMetrics): Promise<WebhookDelivery> {
    return await WebhookDelivery.openOn(await DeliveryStore.open(log.db), log, settings, logger, metrics)
  }

  /** The same over another store: Redis's, shared by replicas (events/replicas/). */
  static async openOn (store: DeliveryState, log: EventLog, settings: WebhookSettings & Omit<DispatchSettings, keyof WebhookSettings>, logger: BaseLogger, metrics?: PonteMetrics): Promise<WebhookDelivery> {
    // A new subscriber is owed the events from now on: registered before the server listens,
    // so a write answered right after the start is not behind its starting cursor.
    // A file locked by another process now: each dispatcher registers its subscriber once it can.
    try {
      const head = await log.head()
      for (const s of settings.subscribers) await store.cursor(s.name, head)
    } catch (err) {
      if (!(err instanceof EventStoreUnavailableError)) throw err
      logger.warn({ type: err.type }, 'webhook subscribers not registered yet: the events file is locked by another process')
    }
    const delivery = new WebhookDelivery(store, settings.subscribers.map((s) => s.name), settings.leaseMs ?? LEASE_MS, settings.now ?? Date.now, logger)
    delivery.dispatchers = settings.subscribers.map((s) => new SubscriberDispatcher(s, log, store, settings, logger, delivery.lease, metrics))
    metrics?.observeWebhooks(async () => await delivery.status())
    return delivery
  }

  /** Whether this process holds the delivery lease (delivers) right now; /ready shows it. */
  holdsLease (): boolean {
    return this.lease.held
  }

  start (): void {
    this.leaseLoop ??= this.keepLease()
    for (const d of this.dispatchers) d.start()
  }

  /** Aborts requests in flight (they stay owed), waits for every loop to record that, and gives the lease up. */
  async stop (): Promise<void> {
    this.stopping.abort()
    await this.leaseLoop
    await Promise.all(this.dispatchers.map(async (d) => { await d.stop() }))
    if (this.lease.held) {
      this.lease.held = false
      await this.store.releaseLease(this.owner).catch(() => {})
    }
  }

  private async keepLease (): Promise<void> {
    while (!this.stopping.signal.aborted) {
      try {
        const now = this.now()
        const held = await this.store.lease(this.owner, now, now + this.leaseMs)
        if (held !== this.lease.held) this.logger.info({ delivering: held }, held ? 'webhook delivery lease taken: this process delivers' : 'webhook delivery lease held by another process: not delivering')
        this.lease.held = held
        if (held) this.heldUntil = now + this.leaseMs
      } catch (err) {
        // Not renewed (the file locked): it still counts until it would have expired, and is tried again soon.
        this.logger.warn({ err: safeError(err) }, 'webhook delivery lease could not be renewed')
        if (this.now() >= this.heldUntil) this.lease.held = false
      }
      await delay(Math.max(10, Math.floor(this.leaseMs / 3)), undefined, { signal: this.stopping.signal }).catch(() => {})
    }
  }

  async status (): Promise<SubscriberStatus[]> {
    return await Promise.all(this.names.map(async (name) => ({ name, ...await this.store.counts(name) })))
  }
}
