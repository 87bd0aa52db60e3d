// buildApp: the HTTP face of Ponte, what server.ts listens with and what tests inject into.
import Fastify, { type FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { Ponte } from './ponte.js'
import { loggerOptions } from './logging.js'
import { encodedOnce, serialize } from './services/json.js'
import problems, { frameworkProblemOptions } from './plugins/problems.js'
import methods from './plugins/methods.js'
import input from './plugins/input.js'
import draining from './plugins/draining.js'
import openapi from './plugins/openapi.js'
import { parseQuery, validatorCompiler } from './plugins/validation.js'
import { MAX_ID_LENGTH } from './schemas/queries.js'
import { requireApiKey } from './plugins/auth.js'
import { limitPerKey } from './plugins/rate-limit.js'
import idempotency from './plugins/idempotency.js'
import requestId, { requestIdOptions } from './plugins/request-id.js'
import audit from './plugins/audit.js'
import requestClock from './plugins/request-clock.js'
import httpEdges from './plugins/http-edges.js'
import pipelining from './plugins/pipelining.js'
import lingeringClose from './plugins/lingering-close.js'
import capture from './toolkit/capture/plugin.js'
import metrics from './plugins/metrics.js'
import { HOUR_MS, IdempotencyStore, type KeyStore } from './idempotency/store.js'
import { RedisIdempotencyStore } from './idempotency/redis-store.js'
import { connectRedis } from './redis.js'
import { SqliteEventLog } from './events/log.js'
import { ChangeDetector } from './events/detector.js'
import { ChangePoller } from './events/poller.js'
import type { RedisEventLog } from './events/replicas/redis-log.js'
import type { ReplicaEvents } from './events/replicas/open.js'
import health from './routes/health.js'
import events from './routes/events.js'
import type { SubscriberStatus } from './events/delivery/delivery.js'
import appointments from './routes/appointments.js'
import clients from './routes/clients.js'
import lookups from './routes/lookups.js'
import availability from './routes/availability.js'

export const INTERFACE_VERSION = '1'

export interface AppOptions {
  /** false: no logs (tests); otherwise the pino level. */
  logLevel?: string | false
  /** Where log lines go (default stdout); tests read them. */
  logStream?: NodeJS.WritableStream
  /** An Idempotency-Key store owned by the caller (not closed with the app); default: Redis with REDIS_URL, else SQLite. */
  idempotencyStore?: KeyStore
  /** The event log, owned by the caller (not closed with the app); default: EVENTS_STORE. */
  eventLog?: SqliteEventLog | RedisEventLog
  /** Replicas (REDIS_URL): the log above is shared, and this process polls only while it holds the lease. */
  replicas?: ReplicaEvents
  /**
   * When change detection starts polling (mappings that declare `changes`): once the server
   * listens (the default: an app only injected into polls nothing), once ready, or never.
   */
  pollChanges?: 'listen' | 'ready' | false
  /** Webhook delivery running in this process: /ready shows each subscriber's state. */
  webhooks?: WebhookStatus
}

/** What /ready asks of webhook delivery (events/delivery/delivery.ts). */
export interface WebhookStatus {
  status: () => Promise<SubscriberStatus[]>
  /** Whether this process holds the events file's delivery lease (delivers); one of several servers on a file does. */
  holdsLease?: () => boolean
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Serve `next` from now on (a reloaded mapping); requests in flight keep the one they began with. */
    swapPonte: (next: Ponte) => void
    /** The event log `GET /events` reads (Ponte's own SQLite file, EVENTS_STORE; Redis for replicas). */
    eventLog: SqliteEventLog | RedisEventLog
    /** Change detection: writes through Ponte report what they changed here. */
    changes: ChangeDetector
    /** The change-detection loop; its state is on /ready. */
    changePoller: ChangePoller
    /** Webhook delivery in this process, when subscribers are configured. */
    webhooks: WebhookStatus | undefined
  }
}

export async function buildApp (ponte: Ponte, options: AppOptions = {}): Promise<FastifyInstance> {
  const level = options.logLevel ?? ponte.config.logLevel
  const app = Fastify({
    logger: level === false ? false : { ...loggerOptions(level), ...(options.logStream ? { stream: options.logStream } : {}) },
    bodyLimit: 64 * 1024,
    routerOptions: { maxParamLength: MAX_ID_LENGTH, querystringParser: parseQuery },
    // Whatever refuses a request (router, HTTP parser, shutdown) answers with a problem document.
    ...frameworkProblemOptions({ 'ponte-interface-version': INTERFACE_VERSION }),
    ...requestIdOptions(),
    return503OnClosing: false,
    // A request must arrive in full in bounded time, its head sooner (a 408 problem otherwise,
    // problems.ts): a caller trickling bytes must not hold a connection open for minutes.
    requestTimeout: ponte.config.requestTimeoutMs,
    http: {
      headersTimeout: ponte.config.headersTimeoutMs,
      // Node looks for late requests on this period: a bound is enforced up to one period late.
      connectionsCheckingInterval: Math.min(1000, Math.ceil(ponte.config.headersTimeoutMs / 4)),
      // Node would answer a Host-less HTTP/1.1 request with a bare 400; http-edges.ts answers it.
      requireHostHeader: false
    }
  }).withTypeProvider<TypeBoxTypeProvider>()
  app.setValidatorCompiler(validatorCompiler())
  // Responses are built field by field from the mapping, never from raw rows, so plain
  // JSON.stringify is safe here; the response schemas document them (OpenAPI) and the
  // contract tests check them. fast-json-stringify was twice as slow on accented text.
  // Catalogue lists' JSON is made once per snapshot (services/json.ts).
  app.setSerializerCompiler(() => serialize)

  // A getter over one slot: a mapping reload (reload.ts) swaps the whole Ponte at once, and a
  // handler that already read app.ponte finishes on the one it started with.
  const live = { current: ponte }
  ponte.catalog.log = app.log
  app.decorate('ponte', { getter: () => live.current })
  // Log sinks of the served mapping's parts, set again on each reload.
  const warnings = (p: Ponte): void => { p.availability.warn = (fields, message) => { app.log.warn(fields, message) }; p.catalog.log = app.log }
  warnings(ponte)
  app.decorate('swapPonte', (next: Ponte) => { warnings(next); live.current = next; app.changePoller.restart() })
  app.decorate('webhooks', options.webhooks)
  // Replicas (REDIS_URL) share Idempotency-Keys and rate limits in Redis; one process keeps
  // its keys in its own SQLite file.
  const redis = ponte.config.redisUrl ? await connectRedis(ponte.config.redisUrl, app.log) : undefined
  const ttlMs = ponte.config.idempotencyTtlHours * HOUR_MS
  const store = options.idempotencyStore ?? (redis
    ? new RedisIdempotencyStore(redis, { ttlMs })
    : await IdempotencyStore.open(ponte.config.idempotencyStore, { ttlMs, busyTimeoutMs: ponte.config.idempotencyBusyTimeoutMs }))
  if (options.idempotencyStore === undefined) app.addHook('onClose', async () => { store.close() })
  if (redis) app.addHook('onClose', async () => { await redis.quit().catch(() => redis.disconnect()) })
  // Events (change detection) in Ponte's own SQLite file, as the keys of one process are.
  const eventLog = options.eventLog ?? await SqliteEventLog.open(ponte.config.eventsStore)
  const changes = await ChangeDetector.open(eventLog, ponte.metrics, app.log, { busyTimeoutMs: ponte.config.idempotencyBusyTimeoutMs })
  const poller = new ChangePoller(changes, () => live.current, app.log)
  ponte.metrics.observePolls(() => poller.state.lastGoodStart)
  app.decorate<SqliteEventLog | RedisEventLog>('eventLog', eventLog)
  app.decorate('changes', changes)
  app.decorate('changePoller', poller)
  const pollOn = options.pollChanges ?? 'listen'
  if (pollOn === 'listen') app.addHook('onListen', async () => { poller.start() })
  if (pollOn === 'ready') app.addHook('onReady', async () => { poller.start() })
  // The poll under way ends before the database and the store close.
  app.addHook('preClose', async () => { await poller.stop() })
  options.replicas?.attach(app, changes, poller, () => live.current)
  // Old events are purged hourly (never one still owed to a webhook subscriber).
  const stopPurge = eventLog.purgeEvery(ponte.config.eventsRetentionDays * 24 * HOUR_MS, HOUR_MS)
  app.addHook('onClose', async () => { stopPurge() })
  if (options.eventLog === undefined) app.addHook('onClose', async () => { eventLog.close() })
  // First: a pipelined request waits for its turn before any other hook sees it.
  await app.register(pipelining)
  await app.register(requestId)
  await app.register(requestClock)
  await app.register(problems)
  await app.register(httpEdges, { headers: { 'ponte-interface-version': INTERFACE_VERSION } })
  await app.register(metrics, { metrics: ponte.metrics, keyHash: ponte.config.metricsKeyHash })
  // Before any route: these watch routes being added.
  await app.register(methods)
  await app.register(input)
  await app.register(draining)
  await app.register(capture, { dir: ponte.config.captureDir })
  await app.register(openapi, { version: INTERFACE_VERSION, basePath: ponte.config.basePath, states: () => app.ponte.compiled.model.states.values })
  // After capture (which records the text); the routes' own onSend hooks (idempotency) take a Buffer as well.
  app.addHook('onSend', (_request, reply, payload, done) => { reply.header('ponte-interface-version', INTERFACE_VERSION); done(null, encodedOnce(payload)) })
  // After the hooks above: it sends their final bytes, and may keep the answer open while it drains.
  await app.register(lingeringClose)
  await app.register(health)
  await app.register(async (api) => {
    requireApiKey(api, ponte.config.apiKeys)
    await limitPerKey(api, ponte.config.rateLimitPerMinute, ponte.metrics, redis)
    await api.register(audit)
    // Idempotency-Key for routes with `config: { idempotent: true }` (after auth: scoped per API key).
    await api.register(idempotency, { store, metrics: ponte.metrics })
    await api.register(appointments)
    await api.register(clients)
    await api.register(lookups)
    await api.register(availability)
    await api.register(events)
  }, { prefix: ponte.config.basePath })
  return app
}
