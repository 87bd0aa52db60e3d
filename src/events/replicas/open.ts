// Events for replicas (REDIS_URL): one shared log and detector memory in Redis, one poller at a
// time (the poller lease), one webhook deliverer at a time (the delivery lease, delivery.ts's
// own, kept in Redis), and writes through a replica that does not poll handed to the one that
// does, which emits them at once. Why Redis and not a queue library: docs/decisions/replica-events.md.
import pino from 'pino'
import type { Redis } from 'ioredis'
import type { FastifyInstance } from 'fastify'
import type { Config } from '../../config.js'
import type { Ponte } from '../../ponte.js'
import { loggerOptions, safeError } from '../../logging.js'
import { connectRedis } from '../../redis.js'
import type { ChangeDetector } from '../detector.js'
import type { ChangePoller } from '../poller.js'
import { RedisLease } from './lease.js'
import { eventKeys, RedisEventLog } from './redis-log.js'
import { RedisDeliveryStore } from './redis-delivery-store.js'

// How often the poller looks for writes handed to it by other replicas (ms).
const HANDED_EVERY_MS = 100
// Appointment ids taken from the hand-off list at a time.
const HANDED_BATCH = 100

export class ReplicaEvents {
  private draining: NodeJS.Timeout | undefined
  private drain: Promise<void> | undefined

  private constructor (
    private readonly redis: Redis,
    readonly log: RedisEventLog,
    readonly lease: RedisLease,
    readonly deliveryStore: RedisDeliveryStore,
    private readonly logger: pino.Logger
  ) {}

  static async open (config: Config & { redisUrl: string }): Promise<ReplicaEvents> {
    const logger = pino(loggerOptions(config.logLevel)).child({ component: 'replicas' })
    // A connection of its own: the app's (Idempotency-Key, rate limit) closes with the app.
    const redis = await connectRedis(config.redisUrl, logger)
    const keys = eventKeys(config.redisEventsPrefix)
    const log = await RedisEventLog.open(redis, keys)
    const lease = new RedisLease(redis, keys.pollerLease, config.eventsLeaseMs, async () => { await log.load() }, (held) => {
      logger.info({ polling: held }, held ? 'poller lease taken: this replica detects changes' : 'poller lease held by another replica: not polling')
    })
    log.lease = lease
    return new ReplicaEvents(redis, log, lease, new RedisDeliveryStore(redis, log), logger)
  }

  /**
   * Joins `app`'s detection to the replicas: it polls only while holding the lease, and a
   * write through it while another replica polls is handed to that one.
   */
  attach (app: FastifyInstance, changes: ChangeDetector, poller: ChangePoller, ponte: () => Ponte): void {
    poller.gate = async () => this.lease.held || await this.lease.hold()
    poller.polling = () => this.lease.held
    changes.handOff = async (ids) => {
      if (this.lease.held) return false
      await this.redis.rpush(this.log.keys.written, ...ids)
      return true
    }
    app.addHook('onListen', async () => {
      this.lease.start()
      this.draining = setInterval(() => { this.drain ??= this.takeHanded(changes, ponte).finally(() => { this.drain = undefined }) }, HANDED_EVERY_MS).unref()
    })
    // After the poller's own preClose hook (registered before): no poll is under way now.
    app.addHook('preClose', async () => {
      clearInterval(this.draining)
      await this.drain
      await this.lease.stop()
    })
  }

  /** The poller's side of the hand-off: the ids other replicas wrote, compared and emitted now. */
  private async takeHanded (changes: ChangeDetector, ponte: () => Ponte): Promise<void> {
    if (!this.lease.held) return
    try {
      for (;;) {
        const ids = await this.redis.lpop(this.log.keys.written, HANDED_BATCH)
        if (ids === null || ids.length === 0) return
        // A failure is logged inside; the next poll finds the same change anyway.
        await changes.written(ponte(), [...new Set(ids)])
      }
    } catch (err) {
      this.logger.warn({ err: safeError(err) }, 'writes handed over by other replicas could not be read; the next poll finds them')
    }
  }

  async close (): Promise<void> {
    this.log.close()
    await this.redis.quit().catch(() => { this.redis.disconnect() })
  }

  /** The shared delivery store alone, for `ponte webhooks` (dead letters, replay) beside running replicas. */
  static async deliveryStore (url: string, prefix: string): Promise<{ store: RedisDeliveryStore, close: () => Promise<void> }> {
    const redis = await connectRedis(url)
    const log = await RedisEventLog.open(redis, eventKeys(prefix))
    return {
      store: new RedisDeliveryStore(redis, log),
      close: async () => {
        log.close()
        await redis.quit().catch(() => { redis.disconnect() })
      }
    }
  }
}
