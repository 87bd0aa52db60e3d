// Environment → one validated, typed Config. Every problem is reported at once, and start-up
// stops with a non-zero exit (server.ts) rather than running half-configured.
import { createHash, randomBytes } from 'node:crypto'
import { tmpdir } from 'node:os'
import { isAbsolute, join, resolve } from 'node:path'

export interface Config {
  port: number
  host: string
  /** SHA-256 digests (hex) of the accepted API keys; plain keys are hashed on load. */
  apiKeyHashes: string[]
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
  production: boolean
  /** SQLite file remembering Idempotency-Key responses (its own file, not the clinic's); `:memory:` for tests. */
  idempotencyStore: string
  /** How long an Idempotency-Key and its response are kept (hours, at least 24). */
  idempotencyTtlHours: number
  /** After SIGTERM/SIGINT, in-flight requests get this long to finish before the process exits anyway. */
  shutdownTimeoutMs: number
}

export const SAMPLE_MAPPING = 'mappings/clinica-sorriso.yaml'
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
export function defaultIdempotencyStore (env: NodeJS.ProcessEnv = process.env): string {
  const state = env.XDG_STATE_HOME?.trim()
  if (state && isAbsolute(state)) return join(state, 'ponte', 'idempotency.sqlite')
  const user = typeof process.getuid === 'function' ? String(process.getuid()) : 'user'
  return join(tmpdir(), `ponte-${user}`, 'idempotency.sqlite')
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
  const apiKeyHashes: string[] = []
  for (const k of keys) {
    if (k.startsWith('sha256:')) {
      const hex = k.slice(7).toLowerCase()
      if (/^[0-9a-f]{64}$/.test(hex)) apiKeyHashes.push(hex)
      else problems.push('API_KEYS: an entry starting with sha256: must be followed by 64 hex digits')
    } else if (k.length < 16) {
      problems.push('API_KEYS: each key needs at least 16 characters')
    } else {
      apiKeyHashes.push(sha256(k))
    }
  }
  let generatedKey: string | undefined
  if (apiKeyHashes.length === 0 && keys.length === 0) {
    if (production) problems.push('API_KEYS is required when NODE_ENV=production')
    generatedKey = `dev-${randomBytes(18).toString('base64url')}`
    apiKeyHashes.push(sha256(generatedKey))
  }

  const databaseUrl = env.DATABASE_URL?.trim() || undefined
  if (databaseUrl && !/^(sqlite|mssql|sqlserver):/.test(databaseUrl)) {
    problems.push(`DATABASE_URL: expected sqlite:<file> or mssql://user:password@host:port/database, got "${databaseUrl.split(':')[0]}:…"`)
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

  const idempotencyRaw = env.IDEMPOTENCY_STORE?.trim()
  const idempotencyStore = idempotencyRaw === ':memory:' ? ':memory:' : idempotencyRaw ? resolve(idempotencyRaw) : defaultIdempotencyStore(env)

  const config: Config = {
    port: int('PORT', 3000, 0, 65535),
    host: env.HOST?.trim() || '0.0.0.0',
    apiKeyHashes,
    generatedKey,
    mapping: resolve(env.MAPPING?.trim() || SAMPLE_MAPPING),
    databaseUrl,
    basePath,
    logLevel,
    maxRangeDays: int('MAX_RANGE_DAYS', 92, 1, 3660),
    allowPastBookings: flag('ALLOW_PAST_BOOKINGS'),
    rateLimitPerMinute: int('RATE_LIMIT_PER_MINUTE', 600, 0, 1_000_000),
    production,
    idempotencyStore,
    idempotencyTtlHours: int('IDEMPOTENCY_TTL_HOURS', 24, 24, 24 * 366),
    shutdownTimeoutMs: int('SHUTDOWN_TIMEOUT_MS', 10_000, 100, 600_000)
  }
  if (problems.length > 0) throw new ConfigError(problems)
  return config
}
