// Environment → one validated, typed Config. Every problem is reported at once, and start-up
// stops with a non-zero exit (server.ts) rather than running half-configured.
import { createHash, randomBytes } from 'node:crypto'
import { resolve } from 'node:path'

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
  production: boolean
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
  if (databaseUrl && !env.MAPPING) problems.push('MAPPING is required with DATABASE_URL (which mapping describes that database?)')

  const basePath = (env.BASE_PATH ?? '').trim().replace(/\/+$/, '')
  if (basePath && !/^\/[A-Za-z0-9._~\-/]*$/.test(basePath)) problems.push(`BASE_PATH="${env.BASE_PATH}": expected a path like /v1`)

  const logLevel = env.LOG_LEVEL ?? 'info'
  if (!LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL="${logLevel}": expected one of ${LEVELS.join(', ')}`)

  const config: Config = {
    port: int('PORT', 3000, 0, 65535),
    host: env.HOST?.trim() || '0.0.0.0',
    apiKeyHashes,
    generatedKey,
    mapping: resolve(env.MAPPING ?? SAMPLE_MAPPING),
    databaseUrl,
    basePath,
    logLevel,
    maxRangeDays: int('MAX_RANGE_DAYS', 92, 1, 3660),
    production
  }
  if (problems.length > 0) throw new ConfigError(problems)
  return config
}
