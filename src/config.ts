// Environment → one validated, typed Config. Every problem is reported at once, and start-up
// stops with a non-zero exit (server.ts) rather than running half-configured.
import { createHash, randomBytes } from 'node:crypto'
import { tmpdir } from 'node:os'
import { isAbsolute, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { databaseOf, schemeList } from './sql/databases.js'
import { loadSubscribers, type Subscriber } from './events/delivery/subscribers.js'

/** What a key may do: `read` keys answer GET only; `write` keys (the default) everything. */
export type KeyScope = 'read' | 'write'

/** An accepted API key: a name for logs and metrics, a scope, and only the key's SHA-256. */
export interface ApiKey {
  name: string
  scope: KeyScope
  /** SHA-256 of the key (hex). */
  hash: string
}

/** Where replicas keep their shared events in Redis unless REDIS_EVENTS_PREFIX says otherwise. */
export const DEFAULT_REDIS_EVENTS_PREFIX = 'ponte:events:'

export interface Config {
  port: number
  host: string
  /** SHA-256 digests (hex) of the accepted API keys; plain keys are hashed on load. */
  apiKeyHashes: string[]
  /** The same keys with their names and scopes (API_KEYS entries `name:scope:key`). */
  apiKeys: ApiKey[]
  /** SHA-256 of the key that may read GET /metrics (METRICS_KEY); unset: /metrics only on METRICS_PORT. */
  metricsKeyHash?: string
  /** A separate listen address for /metrics alone (METRICS_PORT, METRICS_HOST default 127.0.0.1). */
  metricsPort?: number
  metricsHost: string
  /** Redis for state shared by replicas (Idempotency-Key store, rate limit); unset: this process alone. */
  redisUrl?: string
  /** With REDIS_URL: the prefix of the event keys replicas share (REDIS_EVENTS_PREFIX; one per installation). */
  redisEventsPrefix: string
  /** With REDIS_URL: how long the poller's and the delivery's lease last unrenewed (EVENTS_LEASE_SECONDS). */
  eventsLeaseMs: number
  /** Where the caller's exchanges are recorded for `ponte replay` (toolkit/capture); unset: nothing is recorded. */
  captureDir?: string
  /** A key made up for this run when API_KEYS is unset (development only). */
  generatedKey?: string
  mapping: string
  /** Unset: the bundled sample installation on a fresh SQLite copy. */
  databaseUrl?: string
  basePath: string
  logLevel: string
  maxRangeDays: number
  /** Requests a minute each API key may make (0: no limit). */
  rateLimitPerMinute: number
  /** Accept bookings and reschedules into the past (back-office corrections); refused by default. */
  allowPastBookings: boolean
  /**
   * Long appointment lists are streamed in blocks when the database can (STREAM_LISTS, default
   * true; every database): memory stays bounded by a few blocks per request. false: built whole, as before.
   */
  streamLists: boolean
  /**
   * How long a streamed list may hold its database connection at its client's pace (STREAM_HOLD_MS,
   * default 2000); past it the rest is read into memory and the connection let go (services/read-ahead.ts).
   */
  streamHoldMs: number
  production: boolean
  /** SQLite file remembering Idempotency-Key responses (its own file, not the clinic's); `:memory:` for tests. */
  idempotencyStore: string
  /** How long an Idempotency-Key and its response are kept (hours, at least 24). */
  idempotencyTtlHours: number
  /** Days events are kept in EVENTS_STORE (at least 2: webhooks retry for 24 h); owed ones longer. */
  eventsRetentionDays: number
  /** SQLite file holding the event log, its cursors and deliveries (its own file, not the clinic's); `:memory:` for tests. */
  eventsStore: string
  /** Webhook subscribers (the WEBHOOKS file; none when unset) and how events are delivered to them. */
  webhooks: WebhookSettings
  /** How long a keyed request waits for another process's lock on the SQLite store before a 503 (ms). */
  idempotencyBusyTimeoutMs: number
  /** After SIGTERM/SIGINT, in-flight requests get this long to finish before the process exits anyway. */
  shutdownTimeoutMs: number
  /** A request's line and headers must arrive within this (HEADERS_TIMEOUT_MS), else a 408 and the connection closes. */
  headersTimeoutMs: number
  /** A whole request, body included, must arrive within this (REQUEST_TIMEOUT_MS), else a 408 and the connection closes. */
  requestTimeoutMs: number
  /**
   * A mapping that does not fit the database (STRUCTURAL_CHECK): `refuse` to start (exit 1), or
   * start `not-ready` — /ready and every database route answer 503 with the places to fix.
   */
  structuralCheck: 'refuse' | 'not-ready'
  /**
   * Where the server writes its process id once it listens (PID_FILE), removed at shutdown: the
   * process to send SIGHUP (reload) or SIGTERM, whatever started it (npm does not pass SIGHUP on).
   */
  pidFile?: string
}

export interface WebhookSettings {
  subscribers: Subscriber[]
  /** The WEBHOOKS file they were read from, read again on SIGHUP (unset: no webhooks). */
  file?: string
  /** One attempt's bound: no 2xx within it is a failed attempt (WEBHOOK_TIMEOUT_MS). */
  timeoutMs: number
  /** How long an event is retried after its first attempt before it is dead-lettered (WEBHOOK_RETRY_SECONDS). */
  retryForMs: number
  /** The first retry's delay, doubled each attempt up to WEBHOOK_BACKOFF_MAX_MS (WEBHOOK_BACKOFF_MS). */
  backoffMs: number
  backoffMaxMs: number
  /** Requests in flight at once to one subscriber (WEBHOOK_CONCURRENCY). */
  concurrency: number
}

/** The package root (one level above src/ or dist/): where the bundled mappings and fixtures live. */
export const PACKAGE_ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)))
/** The sample installation served without DATABASE_URL, found from the package, not the cwd. */
export const SAMPLE_MAPPING = join(PACKAGE_ROOT, 'mappings', 'clinica-sorriso.yaml')
const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']

export class ConfigError extends Error {
  constructor (readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`)
    this.name = 'ConfigError'
  }
}

export function sha256 (text: string): string {
  return createHash('sha256').update(text).digest('hex')
}

/** $XDG_STATE_HOME/ponte/… when set, else a per-user directory under the OS temp dir: never the repository. */
export function defaultStateFile (name: string, env: NodeJS.ProcessEnv = process.env): string {
  const state = env.XDG_STATE_HOME?.trim()
  if (state && isAbsolute(state)) return join(state, 'ponte', name)
  const user = typeof process.getuid === 'function' ? String(process.getuid()) : 'user'
  return join(tmpdir(), `ponte-${user}`, name)
}

export function loadConfig (env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = []
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = env[name]
    if (raw === undefined || raw === '') return fallback
    const n = Number(raw)
    if (!Number.isInteger(n) || n < min || n > max) {
      problems.push(`${name}="${raw}": expected a whole number from ${min} to ${max}`)
      return fallback
    }
    return n
  }
  const production = env.NODE_ENV === 'production'
  const flag = (name: string): boolean => {
    const raw = (env[name] ?? '').trim().toLowerCase()
    if (raw === '' || raw === 'false' || raw === '0' || raw === 'no') return false
    if (raw === 'true' || raw === '1' || raw === 'yes') return true
    problems.push(`${name}="${env[name]}": expected true or false`)
    return false
  }

  const keys = (env.API_KEYS ?? '').split(',').map((k) => k.trim()).filter(Boolean)
  const apiKeys: ApiKey[] = []
  for (const entry of keys) {
    const parsed = parseKeyEntry(entry)
    if (typeof parsed === 'string') problems.push(`API_KEYS: ${parsed}`)
    else if (apiKeys.some((k) => k.name === parsed.name)) problems.push(`API_KEYS: the name "${parsed.name}" is given to two keys`)
    else apiKeys.push(parsed)
  }
  let generatedKey: string | undefined
  if (apiKeys.length === 0 && keys.length === 0) {
    if (production) problems.push('API_KEYS is required when NODE_ENV=production')
    generatedKey = `dev-${randomBytes(18).toString('base64url')}`
    apiKeys.push({ name: 'development', scope: 'write', hash: sha256(generatedKey) })
  }
  const apiKeyHashes = apiKeys.map((k) => k.hash)

  const metricsKey = env.METRICS_KEY?.trim()
  if (metricsKey !== undefined && metricsKey !== '' && metricsKey.length < 16) problems.push('METRICS_KEY: needs at least 16 characters')
  const metricsPortRaw = env.METRICS_PORT?.trim()
  const redisUrl = env.REDIS_URL?.trim() || undefined
  if (redisUrl && !/^rediss?:\/\//.test(redisUrl)) problems.push('REDIS_URL: expected redis://host:port or rediss://…')

  const databaseUrl = env.DATABASE_URL?.trim() || undefined
  if (databaseUrl && databaseOf(databaseUrl) === undefined) {
    problems.push(`DATABASE_URL: expected ${schemeList()} followed by the database (sqlite:<file>; a server's //user:password@host:port/database), got "${databaseUrl.split(':')[0]}:…"`)
  }
  // In production the bundled sample clinic is never a fallback: a deployment that lost its
  // DATABASE_URL must stop, not answer with a fake clinic's patients and slots.
  if (production && !databaseUrl) problems.push('DATABASE_URL is required when NODE_ENV=production (without it Ponte would serve the bundled sample clinic)')
  if (!env.MAPPING?.trim()) {
    if (databaseUrl) problems.push('MAPPING is required with DATABASE_URL (which mapping describes that database?)')
    else if (production) problems.push('MAPPING is required when NODE_ENV=production (the mapping of the clinic\'s database)')
  }

  const basePath = (env.BASE_PATH ?? '').trim().replace(/\/+$/, '')
  if (basePath && !/^\/[A-Za-z0-9._~\-/]*$/.test(basePath)) problems.push(`BASE_PATH="${env.BASE_PATH}": expected a path like /v1`)

  const logLevel = env.LOG_LEVEL ?? 'info'
  if (!LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL="${logLevel}": expected one of ${LEVELS.join(', ')}`)

  // The bundled sample is a fresh copy each start: another start's stored answers and events
  // name its appointments' ids, which this copy reuses, so by default they live and go with it.
  const stateFile = (name: string): string => databaseUrl ? defaultStateFile(name, env) : ':memory:'
  const idempotencyRaw = env.IDEMPOTENCY_STORE?.trim()
  const idempotencyStore = idempotencyRaw === ':memory:' ? ':memory:' : idempotencyRaw ? resolve(idempotencyRaw) : stateFile('idempotency.sqlite')
  const eventsRaw = env.EVENTS_STORE?.trim()
  const eventsStore = eventsRaw === ':memory:' ? ':memory:' : eventsRaw ? resolve(eventsRaw) : stateFile('events.sqlite')
  // The temp dir may be wiped at a reboot, taking the log, the cursors and the owed webhooks with it.
  if (production && !eventsRaw && !isAbsolute(env.XDG_STATE_HOME?.trim() ?? '')) problems.push('EVENTS_STORE must be set to a persistent path when NODE_ENV=production (the default under the temp dir may be wiped at a reboot, losing events and owed webhooks)')

  const webhooksFile = env.WEBHOOKS?.trim()
  const hooks = webhooksFile ? loadSubscribers(resolve(webhooksFile), env) : { subscribers: [], problems: [] }
  problems.push(...hooks.problems)
  const backoffMs = int('WEBHOOK_BACKOFF_MS', 5000, 1, 3_600_000)
  const backoffMaxMs = int('WEBHOOK_BACKOFF_MAX_MS', 3_600_000, 1, 86_400_000)
  if (backoffMs > backoffMaxMs) problems.push(`WEBHOOK_BACKOFF_MS (${backoffMs}) must not be longer than WEBHOOK_BACKOFF_MAX_MS (${backoffMaxMs})`)

  const structuralRaw = (env.STRUCTURAL_CHECK ?? '').trim().toLowerCase()
  if (structuralRaw !== '' && structuralRaw !== 'refuse' && structuralRaw !== 'not-ready') {
    problems.push(`STRUCTURAL_CHECK="${env.STRUCTURAL_CHECK ?? ''}": expected refuse or not-ready`)
  }

  // Bodies are at most 64 KB: a caller that needs longer is trickling, not sending.
  const headersTimeoutMs = int('HEADERS_TIMEOUT_MS', 10_000, 100, 600_000)
  const requestTimeoutMs = int('REQUEST_TIMEOUT_MS', 30_000, 100, 600_000)
  if (headersTimeoutMs > requestTimeoutMs) problems.push(`HEADERS_TIMEOUT_MS (${headersTimeoutMs}) must not be longer than REQUEST_TIMEOUT_MS (${requestTimeoutMs}): the headers are part of the request`)

  const config: Config = {
    port: int('PORT', 3000, 0, 65535),
    host: env.HOST?.trim() || '0.0.0.0',
    apiKeyHashes,
    apiKeys,
    generatedKey,
    metricsKeyHash: metricsKey ? sha256(metricsKey) : undefined,
    metricsPort: metricsPortRaw ? int('METRICS_PORT', 9464, 1, 65535) : undefined,
    metricsHost: env.METRICS_HOST?.trim() || '127.0.0.1',
    redisUrl,
    redisEventsPrefix: env.REDIS_EVENTS_PREFIX?.trim() || DEFAULT_REDIS_EVENTS_PREFIX,
    eventsLeaseMs: int('EVENTS_LEASE_SECONDS', 15, 1, 600) * 1000,
    captureDir: env.CAPTURE_DIR?.trim() ? resolve(env.CAPTURE_DIR.trim()) : undefined,
    mapping: env.MAPPING?.trim() ? resolve(env.MAPPING.trim()) : SAMPLE_MAPPING,
    databaseUrl,
    basePath,
    logLevel,
    maxRangeDays: int('MAX_RANGE_DAYS', 92, 1, 3660),
    allowPastBookings: flag('ALLOW_PAST_BOOKINGS'),
    streamLists: (env.STREAM_LISTS ?? '').trim() === '' ? true : flag('STREAM_LISTS'),
    streamHoldMs: int('STREAM_HOLD_MS', 2000, 10, 600_000),
    rateLimitPerMinute: int('RATE_LIMIT_PER_MINUTE', 600, 0, 1_000_000),
    production,
    idempotencyStore,
    idempotencyTtlHours: int('IDEMPOTENCY_TTL_HOURS', 24, 24, 24 * 366),
    eventsRetentionDays: int('EVENTS_RETENTION_DAYS', 30, 2, 3660),
    idempotencyBusyTimeoutMs: int('IDEMPOTENCY_BUSY_TIMEOUT_MS', 2000, 0, 60_000),
    eventsStore,
    webhooks: {
      subscribers: hooks.subscribers,
      file: webhooksFile ? resolve(webhooksFile) : undefined,
      timeoutMs: int('WEBHOOK_TIMEOUT_MS', 10_000, 100, 600_000),
      retryForMs: int('WEBHOOK_RETRY_SECONDS', 86_400, 1, 30 * 86_400) * 1000,
      backoffMs,
      backoffMaxMs,
      concurrency: int('WEBHOOK_CONCURRENCY', 4, 1, 64)
    },
    shutdownTimeoutMs: int('SHUTDOWN_TIMEOUT_MS', 10_000, 100, 600_000),
    headersTimeoutMs,
    requestTimeoutMs,
    structuralCheck: structuralRaw === 'not-ready' ? 'not-ready' : 'refuse',
    pidFile: env.PID_FILE?.trim() ? resolve(env.PID_FILE.trim()) : undefined
  }
  if (problems.length > 0) throw new ConfigError(problems)
  return config
}

const NAME = /^[A-Za-z0-9._-]{1,40}$/

/**
 * One API_KEYS entry: `key`, `sha256:<hex>`, `name:scope:key` or `name:scope:sha256:<hex>`
 * (scope `read` or `write`). A plain key is named after the first 8 hex digits of its digest,
 * which says nothing usable about the key. Returns what is wrong as text.
 */
export function parseKeyEntry (entry: string): ApiKey | string {
  let name: string | undefined
  let scope: KeyScope = 'write'
  let secret = entry
  const parts = entry.split(':')
  if (parts.length >= 3 && (parts[1] === 'read' || parts[1] === 'write')) {
    if (!NAME.test(parts[0])) return `the key name "${parts[0].slice(0, 40)}" must be 1–40 letters, digits, dots, dashes or underscores`
    name = parts[0]
    scope = parts[1]
    secret = parts.slice(2).join(':')
  }
  let hash: string
  if (secret.startsWith('sha256:')) {
    hash = secret.slice(7).toLowerCase()
    if (!/^[0-9a-f]{64}$/.test(hash)) return 'an entry starting with sha256: must be followed by 64 hex digits'
  } else if (secret.length < 16) {
    return 'each key needs at least 16 characters'
  } else {
    hash = sha256(secret)
  }
  return { name: name ?? `key-${hash.slice(0, 8)}`, scope, hash }
}
