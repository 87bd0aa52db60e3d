// The Redis connection replicas share state through (REDIS_URL): Idempotency-Keys and the
// per-key rate limit. A Redis outage must not stall requests: commands fail at once instead
// of queueing while ioredis reconnects in the background, and what needs Redis answers 503
// (Idempotency-Key) or is skipped (the rate limit) until it is back.
import type { Redis } from 'ioredis'
import type { FastifyBaseLogger } from 'fastify'

export async function connectRedis (url: string, log?: FastifyBaseLogger): Promise<Redis> {
  // Imported here, not at the top: ioredis costs ~20 MB resident, paid only when REDIS_URL is set.
  const { Redis } = await import('ioredis')
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 2000,
    commandTimeout: 1000,
    // Reconnect forever, at most every 2 s.
    retryStrategy: (times) => Math.min(times * 200, 2000)
  })
  let down = false
  redis.on('error', (err: NodeJS.ErrnoException) => {
    // One line per outage, not one per reconnection attempt; the code only (no URL, no password).
    if (!down) log?.warn({ code: err.code }, 'redis unreachable; Idempotency-Key requests answer 503 until it is back')
    down = true
  })
  redis.on('ready', () => {
    if (down) log?.info('redis reachable again')
    down = false
  })
  // Start even while Redis is down (requests without an Idempotency-Key do not need it).
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 2000)
    redis.once('ready', () => { clearTimeout(timer); resolve() })
  })
  return redis
}
