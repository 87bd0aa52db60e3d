// A per-key request budget (design notes §1): each API key gets RATE_LIMIT_PER_MINUTE requests
// a minute; past it, 429 problem+json with Retry-After. Registered after the key check, so
// only callers with a valid key spend a budget, and a bad key cannot exhaust anyone's.
import rateLimit from '@fastify/rate-limit'
import type { FastifyInstance } from 'fastify'
import { sha256 } from '../config.js'
import { RateLimitedError } from '../errors.js'
import { presentedKey } from './auth.js'
import type { PonteMetrics } from '../metrics/registry.js'
import type { Redis } from 'ioredis'

/** With `redis`, the budget is shared by every replica on that Redis; while it is unreachable, requests are not limited. */
export async function limitPerKey (api: FastifyInstance, perMinute: number, metrics?: PonteMetrics, redis?: Redis): Promise<void> {
  if (perMinute <= 0) return
  await api.register(rateLimit, {
    global: true,
    max: perMinute,
    timeWindow: 60_000,
    ...(redis ? { redis, nameSpace: 'ponte:rate-limit:', skipOnError: true } : {}),
    // The key check (registered before) already hashed the key: its digest is the budget's
    // name, the same SHA-256 hex as before, so no second hash per request.
    keyGenerator: (request) => request.apiKey?.hash ?? sha256(presentedKey(request.headers) ?? request.ip),
    errorResponseBuilder: (_request, context) => {
      metrics?.rateLimited.inc()
      return new RateLimitedError(`More than ${context.max} requests a minute with this API key; retry in ${context.after}.`)
    }
  })
}
