// Several replicas behave as one: two Ponte processes (src/server.ts, as production starts
// them) on one SQLite database and the machine's real Redis (127.0.0.1:6379) share
// Idempotency-Keys (a replay through the other process, a concurrent retry through the other
// process is 409) and the per-key rate limit. Then Redis goes down (a private redis-server,
// stopped mid-test): Idempotency-Key requests answer 503 and everything else goes on.
import t from 'tap'
import { spawn, type ChildProcess } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { createSqliteFromFixture } from '../../../src/sql/sqlite/load.js'
import { sampleFixture } from '../../../src/installation.js'
import { freePort, startServer } from '../../helpers/server-process.js'
import { sampleApp } from '../../helpers/app.js'

const MAPPING = 'mappings/clinica-sorriso.yaml'
// Fresh keys per run: the shared Redis may hold another run's keys and budgets.
const KEY = `replica-${randomUUID()}`
const RATE_KEY = `rate-${randomUUID()}`
const PER_MINUTE = 20

const EVENTS_PREFIX = `ponte-test:replicas:${randomUUID()}:`

const dir = mkdtempSync(join(tmpdir(), 'ponte-replicas-'))
t.teardown(() => rmSync(dir, { recursive: true, force: true }))
const file = join(dir, 'clinic.db')
createSqliteFromFixture(sampleFixture(MAPPING), file)
const env = {
  DATABASE_URL: `sqlite:${file}`,
  MAPPING,
  REDIS_URL: 'redis://127.0.0.1:6379',
  // The events the two share (the sample maps change detection) under this run's own keys.
  REDIS_EVENTS_PREFIX: EVENTS_PREFIX,
  API_KEYS: `main:write:${KEY},rate:read:${RATE_KEY}`,
  RATE_LIMIT_PER_MINUTE: String(PER_MINUTE),
  IDEMPOTENCY_STORE: ':memory:'
}
const [a, b] = await Promise.all([startServer(env), startServer(env)])
t.teardown(async () => {
  await Promise.all([a.stop(), b.stop()])
  // Then the events they shared, once neither can write them again.
  const { Redis } = await import('ioredis')
  const redis = new Redis('redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 })
  const keys = await redis.keys(`${EVENTS_PREFIX}*`)
  if (keys.length > 0) await redis.del(...keys)
  await redis.quit()
})

async function call (url: string, init: { method?: string, body?: unknown, key?: string, idempotencyKey?: string } = {}) {
  const res = await fetch(url, {
    method: init.method ?? 'GET',
    headers: {
      authorization: `Bearer ${init.key ?? KEY}`,
      ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(init.idempotencyKey ? { 'idempotency-key': init.idempotencyKey } : {})
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body)
  })
  return { status: res.status, headers: res.headers, text: await res.text() }
}

t.test('a POST replayed through the other process returns the first response, and writes once', async (t) => {
  const idem = randomUUID()
  const body = { name: 'Réplica Primeira', phone: '+5511955557001' }
  const first = await call(a.url('/clients'), { method: 'POST', body, idempotencyKey: idem })
  t.equal(first.status, 200)
  const again = await call(b.url('/clients'), { method: 'POST', body, idempotencyKey: idem })
  t.equal(again.status, 200)
  t.equal(again.headers.get('idempotent-replayed'), 'true', 'replayed by the other process')
  t.equal(again.text, first.text, 'the same body')
  const other = await call(b.url('/clients'), { method: 'POST', body: { ...body, name: 'Outra' }, idempotencyKey: idem })
  t.equal(other.status, 422, 'another body under the key is refused by the other process too')
  const found = JSON.parse((await call(a.url('/clients/search?term=%2B5511955557001'))).text)
  t.equal(found.length, 1, 'one client written')
})

t.test('a retry through the other process while the first is in flight is a 409', async (t) => {
  const idem = randomUUID()
  const body = { name: 'Réplica Concorrente', phone: '+5511955557002' }
  // The clinic's own system holds the write lock: the first request waits inside Ponte.
  const lock = new BetterSqlite3(file)
  lock.exec('BEGIN IMMEDIATE')
  const pending = call(a.url('/clients'), { method: 'POST', body, idempotencyKey: idem })
  await new Promise((resolve) => setTimeout(resolve, 800))
  const retry = await call(b.url('/clients'), { method: 'POST', body, idempotencyKey: idem })
  t.equal(retry.status, 409, 'the key is claimed by the other process')
  t.match(retry.headers.get('content-type'), /application\/problem\+json/)
  t.match(JSON.parse(retry.text), { type: /idempotency-key-in-flight$/ })
  lock.exec('ROLLBACK')
  lock.close()
  const first = await pending
  t.equal(first.status, 200, 'the first request finishes once the lock is gone')
  const replay = await call(b.url('/clients'), { method: 'POST', body, idempotencyKey: idem })
  t.equal(replay.headers.get('idempotent-replayed'), 'true')
  t.equal(replay.text, first.text)
})

t.test('the per-key rate limit is shared: the budget is spent across both processes', async (t) => {
  const statuses: number[] = []
  for (let i = 0; i < PER_MINUTE + 2; i++) statuses.push((await call((i % 2 === 0 ? a : b).url('/professionals'), { key: RATE_KEY })).status)
  t.same(statuses.slice(0, PER_MINUTE), Array(PER_MINUTE).fill(200), `${PER_MINUTE} requests, half through each, pass`)
  t.same(statuses.slice(PER_MINUTE), [429, 429], 'then both processes refuse')
  t.equal((await call(a.url('/professionals'))).status, 200, 'another key keeps its own budget')
})

// ---------- Redis down ----------

async function privateRedis (port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' })
  for (let i = 0; i < 100; i++) {
    try {
      const { Redis } = await import('ioredis')
      const probe = new Redis({ port, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null })
      probe.on('error', () => {})
      await probe.connect()
      await probe.quit()
      return child
    } catch { await new Promise((resolve) => setTimeout(resolve, 50)) }
  }
  throw new Error('redis-server did not start')
}

t.test('Redis down: Idempotency-Key requests answer 503, every other request goes on; back up, keys work again', async (t) => {
  const port = await freePort()
  let redis = await privateRedis(port)
  t.teardown(() => { redis.kill('SIGKILL') })
  const app = await sampleApp(MAPPING, { REDIS_URL: `redis://127.0.0.1:${port}`, RATE_LIMIT_PER_MINUTE: '100' })
  t.teardown(() => app.close())
  const post = async (name: string, idempotencyKey?: string) => await app.app.inject({
    method: 'POST',
    url: '/clients',
    payload: { name, phone: '+5511955557003' },
    headers: { authorization: 'Bearer test-key-0123456789abcdef', ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) }
  })
  t.equal((await post('Antes', randomUUID())).statusCode, 200, 'with Redis up')

  redis.kill('SIGKILL')
  await new Promise((resolve) => redis.once('exit', resolve))
  const keyed = await post('Durante', randomUUID())
  t.equal(keyed.statusCode, 503, 'a keyed write cannot be made safe: 503')
  t.match(keyed.headers['content-type'], /application\/problem\+json/)
  t.match(JSON.parse(keyed.body), { type: /idempotency-store-unavailable$/ })
  t.ok(keyed.headers['retry-after'])
  t.equal((await post('Sem Chave')).statusCode, 200, 'a write without a key goes on')
  t.equal((await app.get('/professionals')).status, 200, 'reads go on (the rate limit is skipped while Redis is away)')

  redis = await privateRedis(port)
  let status = 0
  for (let i = 0; i < 60 && status !== 200; i++) {
    status = (await post('Depois', randomUUID())).statusCode
    if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100))
  }
  t.equal(status, 200, 'keys work again once Redis is back')
})
