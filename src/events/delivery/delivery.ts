// Webhook delivery for every configured subscriber over one events file: started after the
// server listens, stopped at shutdown, its subscribers replaced on a reload (SIGHUP), and what
// operators see (/ready, metrics) per subscriber.
import { randomUUID } from 'node:crypto'
import { setTimeout as delay } from 'node:timers/promises'
import type { BaseLogger } from 'pino'
import { safeError } from '../../logging.js'
import { EventStoreUnavailableError } from '../../errors.js'
import type { EventLog, SqliteEventLog } from '../log.js'
import type { PonteMetrics } from '../../metrics/registry.js'
import type { WebhookSettings } from '../../config.js'
import { SubscriberDispatcher, type DispatchSettings } from './dispatcher.js'
import { DeliveryStore, type DeliveryState, type Forgotten } from './store.js'
import type { Subscriber } from './subscribers.js'

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

export type DeliverySettings = WebhookSettings & Omit<DispatchSettings, keyof WebhookSettings>

/** What a reload changed, by subscriber name. */
export interface SubscriberChanges { added: string[], removed: string[], changed: string[], forgotten: Forgotten[] }

/** What the store keeps apart from the dispatchers: forgetting removed subscribers, and (Redis) renewing the ones served. */
export interface SubscriberUpkeep {
  /** On a reload, after the removed ones' dispatchers stopped: forgets those `keep` does not name (the file's rule). */
  forget?: (keep: string[]) => Promise<Forgotten[]>
  /** Every third of the lease, on every replica, whether it delivers or not (Redis's rule). */
  tend?: (names: string[]) => Promise<void>
}

interface Running { subscriber: Subscriber, dispatcher: SubscriberDispatcher }

export class WebhookDelivery {
  /** Only the process holding the file's lease delivers: two servers on one file send each event once. */
  private readonly lease = { held: false }
  private heldUntil = 0
  private readonly owner = `${process.pid}-${randomUUID()}`
  private readonly stopping = new AbortController()
  private leaseLoop: Promise<void> | undefined
  private running: Running[] = []
  private started = false
  private readonly leaseMs: number
  private readonly now: () => number
  /** What the store does beside sending (set by whoever opened it on its store). */
  upkeep: SubscriberUpkeep = {}

  private constructor (
    private readonly store: DeliveryState,
    private readonly log: EventLog,
    private readonly settings: DeliverySettings,
    private readonly logger: BaseLogger,
    private readonly metrics: PonteMetrics | undefined
  ) {
    this.leaseMs = settings.leaseMs ?? LEASE_MS
    this.now = settings.now ?? Date.now
  }

  /** Prepares delivery to `settings.subscribers` over `log`'s file; nothing is sent before start(). */
  static async open (log: SqliteEventLog, settings: DeliverySettings, logger: BaseLogger, metrics?: PonteMetrics): Promise<WebhookDelivery> {
    const store = await DeliveryStore.open(log.db)
    const delivery = await WebhookDelivery.openOn(store, log, settings, logger, metrics)
    delivery.upkeep = { forget: async (keep) => await store.forgetAllBut(keep) }
    return delivery
  }

  /** The same over another store: Redis's, shared by replicas (events/replicas/). */
  static async openOn (store: DeliveryState, log: EventLog, settings: DeliverySettings, logger: BaseLogger, metrics?: PonteMetrics): Promise<WebhookDelivery> {
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
    const delivery = new WebhookDelivery(store, log, settings, logger, metrics)
    delivery.running = settings.subscribers.map((s) => delivery.dispatch(s))
    metrics?.observeWebhooks(async () => await delivery.status())
    return delivery
  }

  /** The subscribers delivered to now (a reload may have changed them). */
  get names (): string[] {
    return this.running.map((r) => r.subscriber.name)
  }

  /**
   * Delivers to `subscribers` from now on (a reloaded WEBHOOKS). An unchanged subscriber's
   * loop goes on untouched; a changed one's (URL, secret, types) is stopped — a request in
   * flight is aborted and stays owed — and started again with the new settings, over the same
   * owed deliveries and cursor; an added one starts at the log's end, as at start; a removed
   * one stops and, over the events file, is forgotten (replicas: once no replica serves it).
   */
  async replace (subscribers: Subscriber[]): Promise<SubscriberChanges> {
    const before = new Map(this.running.map((r) => [r.subscriber.name, r]))
    const next = new Set(subscribers.map((s) => s.name))
    const removed = [...before.keys()].filter((name) => !next.has(name))
    const added = subscribers.filter((s) => !before.has(s.name)).map((s) => s.name)
    const changed = subscribers.filter((s) => before.has(s.name) && !sameSubscriber(before.get(s.name)!.subscriber, s)).map((s) => s.name)
    // Registered before any loop changes: a store that cannot be written now fails the reload whole.
    const head = await this.log.head()
    for (const name of added) await this.store.cursor(name, head)
    // Stopped before their successors start, so no two loops send for one subscriber.
    await Promise.all([...removed, ...changed].map(async (name) => { await before.get(name)!.dispatcher.stop() }))
    this.running = subscribers.map((s) => added.includes(s.name) || changed.includes(s.name) ? this.dispatch(s) : before.get(s.name)!)
    // Not after stop(): a reload that ends during shutdown starts nothing.
    if (this.started && !this.stopping.signal.aborted) for (const r of this.running) r.dispatcher.start()
    return { added, removed, changed, forgotten: removed.length > 0 ? await this.forgetRemoved() : [] }
  }

  /** The list is replaced whatever happens here: a busy file is tried again at the next start. */
  private async forgetRemoved (): Promise<Forgotten[]> {
    try {
      return await this.upkeep.forget?.(this.names) ?? []
    } catch (err) {
      this.logger.warn({ err: safeError(err) }, 'webhook subscribers no longer in WEBHOOKS could not be forgotten now (the events file is busy); tried again at the next start')
      return []
    }
  }

  private dispatch (subscriber: Subscriber): Running {
    return { subscriber, dispatcher: new SubscriberDispatcher(subscriber, this.log, this.store, this.settings, this.logger, this.lease, this.metrics) }
  }

  /** Whether this process holds the delivery lease (delivers) right now; /ready shows it. */
  holdsLease (): boolean {
    return this.lease.held
  }

  start (): void {
    this.started = true
    this.leaseLoop ??= this.keepLease()
    for (const r of this.running) r.dispatcher.start()
  }

  /** Aborts requests in flight (they stay owed), waits for every loop to record that, and gives the lease up. */
  async stop (): Promise<void> {
    this.stopping.abort()
    await this.leaseLoop
    await Promise.all(this.running.map(async (r) => { await r.dispatcher.stop() }))
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
      // Every replica renews the subscribers it serves, whether it delivers or not.
      await this.upkeep.tend?.(this.names).catch((err: unknown) => { this.logger.warn({ err: safeError(err) }, 'webhook subscribers could not be renewed in the shared store; tried again soon') })
      await delay(Math.max(10, Math.floor(this.leaseMs / 3)), undefined, { signal: this.stopping.signal }).catch(() => {})
    }
  }

  async status (): Promise<SubscriberStatus[]> {
    return await Promise.all(this.names.map(async (name) => ({ name, ...await this.store.counts(name) })))
  }
}

function sameSubscriber (a: Subscriber, b: Subscriber): boolean {
  return a.url === b.url && a.secret === b.secret && a.events.size === b.events.size && [...a.events].every((t) => b.events.has(t))
}
