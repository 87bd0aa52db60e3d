// The Redis Idempotency-Key store against the machine's real Redis (127.0.0.1:6379), under a
// prefix of its own per run: the same contract as the SQLite store (store.test.ts).
import t from 'tap'
import { randomUUID } from 'node:crypto'
import { Redis } from 'ioredis'
import { RedisIdempotencyStore } from '../../../src/idempotency/redis-store.js'

const redis = new Redis('redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 })
const prefix = `ponte-test:${randomUUID()}:`
t.teardown(async () => {
  const keys = await redis.keys(`${prefix}*`)
  if (keys.length > 0) await redis.del(...keys)
  await redis.quit()
})

t.test('new → in-flight → done → replay; another fingerprint is a mismatch; only the lease holder completes', async (t) => {
  const store = new RedisIdempotencyStore(redis, { prefix, ttlMs: 60_000 })
  const first = await store.begin('scope', 'k', 'fp')
  t.equal(first.kind, 'new')
  t.same(await store.begin('scope', 'k', 'fp'), { kind: 'in-flight' })
  t.same(await store.begin('scope', 'k', 'other'), { kind: 'mismatch' })
  t.same(await store.begin('other-scope', 'k', 'fp').then((r) => r.kind), 'new', 'keys are per scope')
  const response = { status: 200, headers: { 'content-type': 'application/json' }, body: '{"id":"1"}' }
  t.equal(await store.complete('scope', 'k', response, 'not-the-lease'), false, 'a stale lease cannot complete')
  t.equal(await store.complete('scope', 'k', response, first.kind === 'new' ? first.lease : ''), true)
  t.same(await store.begin('scope', 'k', 'fp'), { kind: 'replay', response })
  t.equal(await store.release('scope', 'k', 'any'), false, 'an answered key cannot be released')
  const ttl = await redis.pttl(`${prefix}scope:${(await import('node:crypto')).createHash('sha256').update('k').digest('hex')}`)
  t.ok(ttl > 50_000 && ttl <= 60_000, `answered keys expire with the TTL (${ttl} ms left)`)
})

t.test('bytes bodies survive; a released claim can be taken again; an abandoned claim lapses', async (t) => {
  const store = new RedisIdempotencyStore(redis, { prefix, abandonAfterMs: 200 })
  const a = await store.begin('s', 'bytes', 'fp')
  const body = Buffer.from([0, 1, 2, 255])
  await store.complete('s', 'bytes', { status: 201, headers: {}, body }, a.kind === 'new' ? a.lease : '')
  const replay = await store.begin('s', 'bytes', 'fp')
  t.same(replay.kind === 'replay' && Buffer.isBuffer(replay.response.body) ? [...replay.response.body] : undefined, [0, 1, 2, 255])

  const b = await store.begin('s', 'released', 'fp')
  t.equal(await store.release('s', 'released', b.kind === 'new' ? b.lease : ''), true)
  t.equal((await store.begin('s', 'released', 'fp')).kind, 'new', 'a retry after a failure runs again')

  t.equal((await store.begin('s', 'crashed', 'fp')).kind, 'new')
  await new Promise((resolve) => setTimeout(resolve, 300))
  t.equal((await store.begin('s', 'crashed', 'fp')).kind, 'new', 'the claim of a process that died lapses')
})
