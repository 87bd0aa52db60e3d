// Ponte's Prometheus metrics: one registry per Ponte (tests build several in one process, and
// prom-client's global registry would mix them). Names follow Prometheus conventions: base
// units (seconds), `_total` for counters.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics, type GaugeConfiguration } from 'prom-client'

/** What the metrics read at scrape time rather than count as they happen. */
export interface MetricSources {
  /** When the lookup catalogue served was read (ms since the epoch), and failed loads so far. */
  catalogue?: () => { loadedAt: number | undefined, failures: number, hits: number, misses: number }
  /** A cheap database round trip; rejects when unreachable. */
  ping?: () => Promise<void>
  /** Connections in use and callers waiting, where the driver keeps a pool. */
  pool?: () => { inUse: number, waiting: number } | undefined
}

const SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
const PING_TIMEOUT_MS = 1000

export class PonteMetrics {
  readonly registry = new Registry()
  readonly httpDuration = new Histogram({
    name: 'ponte_http_request_duration_seconds',
    help: 'HTTP requests by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: SECONDS,
    registers: [this.registry]
  })

  readonly sqlDuration = new Histogram({
    name: 'ponte_sql_statement_duration_seconds',
    help: 'SQL statements by compiled statement name and outcome (ok, error)',
    labelNames: ['statement', 'outcome'] as const,
    buckets: SECONDS,
    registers: [this.registry]
  })

  readonly idempotency = new Counter({
    name: 'ponte_idempotency_total',
    help: 'Idempotency-Key requests by result (new, replay, in-flight conflict, mismatch, store unavailable)',
    labelNames: ['result'] as const,
    registers: [this.registry]
  })

  readonly rateLimited = new Counter({
    name: 'ponte_rate_limited_requests_total',
    help: 'Requests refused with 429 over the per-key rate limit',
    registers: [this.registry]
  })

  readonly reloads = new Counter({
    name: 'ponte_mapping_reloads_total',
    help: 'Mapping reloads on SIGHUP by outcome (ok, failed)',
    labelNames: ['outcome'] as const,
    registers: [this.registry]
  })

  readonly changesDetected = new Counter({
    name: 'ponte_changes_detected_total',
    help: 'Events appended to the event log by type and origin (poll: seen in the clinic database; write: made through Ponte)',
    labelNames: ['type', 'origin'] as const,
    registers: [this.registry]
  })

  readonly changesPollDuration = new Histogram({
    name: 'ponte_changes_poll_duration_seconds',
    help: 'Change-detection polls by outcome (ok, failed): the window read, compared and its events appended',
    labelNames: ['outcome'] as const,
    buckets: [...SECONDS, 30, 60],
    registers: [this.registry]
  })

  readonly changesRowsRead = new Counter({
    name: 'ponte_changes_rows_read_total',
    help: 'Appointments read by change-detection polls (the window, plus any read by id because they left it)',
    registers: [this.registry]
  })

  readonly webhookDelivered = new Counter({
    name: 'ponte_webhook_deliveries_total',
    help: 'Events delivered to a webhook subscriber (answered 2xx)',
    labelNames: ['subscriber'] as const,
    registers: [this.registry]
  })

  readonly webhookFailedAttempts = new Counter({
    name: 'ponte_webhook_failed_attempts_total',
    help: 'Webhook attempts that failed, by subscriber and kind (http-<status>, timeout, connection)',
    labelNames: ['subscriber', 'kind'] as const,
    registers: [this.registry]
  })

  readonly webhookDeadLettered = new Counter({
    name: 'ponte_webhook_dead_lettered_total',
    help: 'Events given up on (retried past WEBHOOK_RETRY_SECONDS, or their event gone from the log), by subscriber',
    labelNames: ['subscriber'] as const,
    registers: [this.registry]
  })

  readonly webhookEventsMissing = new Counter({
    name: 'ponte_webhook_events_missing_total',
    help: 'Owed webhook deliveries whose event was no longer in the log (evicted from Redis), dead-lettered without an attempt, by subscriber',
    labelNames: ['subscriber'] as const,
    registers: [this.registry]
  })

  readonly webhookLatency = new Histogram({
    name: 'ponte_webhook_delivery_latency_seconds',
    help: 'From an event seen to its delivery (retries included), by subscriber',
    labelNames: ['subscriber'] as const,
    buckets: [0.1, 0.5, 1, 5, 30, 60, 300, 1800, 3600, 21600, 86400],
    registers: [this.registry]
  })

  private sources: MetricSources = {}
  /** When the last successful poll began (ms since the epoch): outlives a reload, as the poller does. */
  private lastPollAt: (() => number | undefined) | undefined
  private webhooks: (() => Promise<Array<{ name: string, pending: number, retrying: number, deadLettered: number }>>) | undefined

  constructor (options: { processMetrics?: boolean } = {}) {
    const self = this
    this.gauge({
      name: 'ponte_catalogue_age_seconds',
      help: 'Age of the lookup catalogue being served (absent before the first load)',
      registers: [this.registry],
      collect () {
        const loadedAt = self.sources.catalogue?.().loadedAt
        if (loadedAt !== undefined) this.set((Date.now() - loadedAt) / 1000)
      }
    })
    this.gauge({
      name: 'ponte_catalogue_refresh_failures',
      help: 'Failed loads of the lookup catalogue since start (stale data is served meanwhile)',
      registers: [this.registry],
      collect () { this.set(self.sources.catalogue?.().failures ?? 0) }
    })
    this.gauge({
      name: 'ponte_catalogue_lookups',
      help: 'Lookup catalogue reads since start: served from memory (hit) or waiting for a load from the database (miss)',
      labelNames: ['result'] as const,
      registers: [this.registry],
      collect () {
        const c = self.sources.catalogue?.()
        if (c === undefined) return
        this.set({ result: 'hit' }, c.hits)
        this.set({ result: 'miss' }, c.misses)
      }
    })
    this.gauge({
      name: 'ponte_database_up',
      help: 'Whether the clinic database answered a ping at scrape time (1) or not (0)',
      registers: [this.registry],
      async collect () {
        if (!self.sources.ping) return
        this.set(await withTimeout(self.sources.ping(), PING_TIMEOUT_MS).then(() => 1, () => 0))
      }
    })
    this.gauge({
      name: 'ponte_db_pool_connections',
      help: 'Database pool connections in use, and callers waiting for one (drivers with a pool)',
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect () {
        const pool = self.sources.pool?.()
        if (pool === undefined) return
        this.set({ state: 'in-use' }, pool.inUse)
        this.set({ state: 'waiting' }, pool.waiting)
      }
    })
    this.gauge({
      name: 'ponte_changes_detection_lag_seconds',
      help: 'How old the event log\'s view of the clinic database is: seconds since the last successful change-detection poll began (absent before the first)',
      registers: [this.registry],
      collect () {
        const at = self.lastPollAt?.()
        if (at !== undefined) this.set((Date.now() - at) / 1000)
      }
    })
    this.gauge({
      name: 'ponte_webhook_events',
      help: 'Events owed to each webhook subscriber at scrape time: pending (retrying among them) and dead-lettered',
      labelNames: ['subscriber', 'state'] as const,
      registers: [this.registry],
      async collect () {
        const all = await self.webhooks?.().catch(() => undefined)
        // A subscriber a reload removed leaves no series behind (an alert on it would never clear).
        this.reset()
        for (const s of all ?? []) {
          this.set({ subscriber: s.name, state: 'pending' }, s.pending)
          this.set({ subscriber: s.name, state: 'retrying' }, s.retrying)
          this.set({ subscriber: s.name, state: 'dead-lettered' }, s.deadLettered)
        }
      }
    })
    if (options.processMetrics !== false) collectDefaultMetrics({ register: this.registry, prefix: 'ponte_' })
  }

  /** A gauge computed at scrape time: its `registers` keep it, so no field holds it. */
  private gauge<T extends string> (config: GaugeConfiguration<T>): Gauge<T> {
    return new Gauge(config)
  }

  /** Where scrape-time gauges read from (set again after a hot reload swaps the database view). */
  observe (sources: MetricSources): void {
    this.sources = sources
  }

  /** Where the detection lag is read from (the poller of app.ts). */
  observePolls (lastPollAt: () => number | undefined): void {
    this.lastPollAt = lastPollAt
  }

  /** Where the webhook gauges read from: the delivery running in this process (apart from observe(), which a reload calls). */
  observeWebhooks (status: () => Promise<Array<{ name: string, pending: number, retrying: number, deadLettered: number }>>): void {
    this.webhooks = status
  }

  async text (): Promise<string> {
    return await this.registry.metrics()
  }

  get contentType (): string {
    return this.registry.contentType
  }
}

async function withTimeout (p: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  try {
    await Promise.race([p, new Promise<void>((_resolve, reject) => { timer = setTimeout(() => reject(new Error('timeout')), ms) })])
  } finally {
    clearTimeout(timer)
  }
}
