// A per-key request budget (design notes §1): each API key gets RATE_LIMIT_PER_MINUTE requests
// a minute; past it, 429 problem+json with Retry-After. Registered after the key check, so
// only callers with a valid key spend a budget, and a bad key cannot exhaust anyone's.
import rateLimit from '@fastify/rate-limit'
import type { FastifyInstance } from 'fastify'
import { sha256 } from '../config.js'
import { RateLimitedError } from '../errors.js'
import { presentedKey } from './auth.js'

export async function limitPerKey (api: FastifyInstance, perMinute: number): Promise<void> {
  if (perMinute <= 0) return
  await api.register(rateLimit, {
    global: true,
    max: perMinute,
    timeWindow: 60_000,
    keyGenerator: (request) => sha256(presentedKey(request.headers) ?? request.ip),
    errorResponseBuilder: (_request, context) => new RateLimitedError(`More than ${context.max} requests a minute with this API key; retry in ${context.after}.`)
  })
}
