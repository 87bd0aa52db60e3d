// The server's webhook delivery over the process's one event log, with a logger of its own
// (its lines say `component: webhooks`), and the subscribers WEBHOOKS no longer lists forgotten:
// at start over the process's file, and with REDIS_URL once no replica serves them.
import pino from 'pino'
import type { Config } from '../../config.js'
import type { PonteMetrics } from '../../metrics/registry.js'
import { loggerOptions, safeError } from '../../logging.js'
import type { SqliteEventLog } from '../log.js'
import type { ReplicaEvents } from '../replicas/open.js'
import { WebhookDelivery } from './delivery.js'
import { DeliveryStore } from './store.js'

// With REDIS_URL a subscriber this replica's WEBHOOKS does not list is forgotten once no
// replica has renewed it for this many leases (each renews every third of one): a replica
// still started with an older WEBHOOKS keeps serving it meanwhile, and a rolling restart
// that drops it forgets it soon after the last old replica stops.
const FORGET_AFTER_LEASES = 2

const webhooksLogger = (config: Config): pino.Logger => pino(loggerOptions(config.logLevel)).child({ component: 'webhooks' })

/** Over the process's own file, or (REDIS_URL) over the state and lease replicas share in Redis. */
export async function openWebhooks (log: SqliteEventLog | ReplicaEvents, config: Config, metrics: PonteMetrics): Promise<WebhookDelivery> {
  const logger = webhooksLogger(config)
  if (!('deliveryStore' in log)) return await WebhookDelivery.open(log, config.webhooks, logger, metrics)
  const store = log.deliveryStore
  const delivery = await WebhookDelivery.openOn(store, log.log, { ...config.webhooks, leaseMs: config.eventsLeaseMs }, logger, metrics)
  const graceMs = FORGET_AFTER_LEASES * config.eventsLeaseMs
  delivery.upkeep = {
    tend: async (names) => {
      const now = await store.clock()
      await store.renew(names, now)
      const gone = await store.forgetUnseen(names, now, graceMs)
      if (gone.length > 0) logger.warn({ subscribers: gone }, 'webhook subscribers in no replica\'s WEBHOOKS were forgotten: their owed deliveries are dropped and they no longer hold old events')
    }
  }
  return delivery
}

/**
 * Before anything purges: a subscriber the events file remembers but WEBHOOKS no longer lists
 * is forgotten, cursor and owed deliveries, so it stops holding events past
 * EVENTS_RETENTION_DAYS. Listed again later, it starts at the log's end, as a new one does.
 * With WEBHOOKS unset nothing is forgotten: an unset variable is more often a slip than the
 * end of every subscription. A file locked by another process: logged, tried at the next start.
 */
export async function forgetRemovedSubscribers (log: SqliteEventLog, config: Config): Promise<void> {
  const logger = webhooksLogger(config)
  if (config.webhooks.subscribers.length === 0) return
  try {
    const store = await DeliveryStore.open(log.db, config.idempotencyBusyTimeoutMs)
    const gone = await store.forgetAllBut(config.webhooks.subscribers.map((s) => s.name))
    // Names are the operator's labels (never a URL or a secret); counts, never payloads.
    if (gone.length > 0) logger.warn({ subscribers: gone }, 'webhook subscribers no longer in WEBHOOKS were forgotten: their owed deliveries are dropped and they no longer hold old events')
  } catch (err) {
    logger.warn({ err: safeError(err) }, 'webhook subscribers no longer in WEBHOOKS could not be forgotten now (the events file is busy); tried again at the next start')
  }
}
