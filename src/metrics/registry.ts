// Ponte's Prometheus metrics: one registry per Ponte (tests build several in one process, and
// prom-client's global registry would mix them). Names follow Prometheus conventions: base
// units (seconds), `_total` for counters.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client'

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

  private sources: MetricSources = {}

  constructor (options: { processMetrics?: boolean } = {}) {
    const self = this
    new Gauge({
      name: 'ponte_catalogue_age_seconds',
      help: 'Age of the lookup catalogue being served (absent before the first load)',
      registers: [this.registry],
      collect () {
        const loadedAt = self.sources.catalogue?.().loadedAt
        if (loadedAt !== undefined) this.set((Date.now() - loadedAt) / 1000)
      }
    })
    new Gauge({
      name: 'ponte_catalogue_refresh_failures',
      help: 'Failed loads of the lookup catalogue since start (stale data is served meanwhile)',
      registers: [this.registry],
      collect () { this.set(self.sources.catalogue?.().failures ?? 0) }
    })
    new Gauge({
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
    new Gauge({
      name: 'ponte_database_up',
      help: 'Whether the clinic database answered a ping at scrape time (1) or not (0)',
      registers: [this.registry],
      async collect () {
        if (!self.sources.ping) return
        this.set(await withTimeout(self.sources.ping(), PING_TIMEOUT_MS).then(() => 1, () => 0))
      }
    })
    new Gauge({
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
    if (options.processMetrics !== false) collectDefaultMetrics({ register: this.registry, prefix: 'ponte_' })
  }

  /** Where scrape-time gauges read from (set again after a hot reload swaps the database view). */
  observe (sources: MetricSources): void {
    this.sources = sources
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
