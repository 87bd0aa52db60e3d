// Issue 25, item 7: another process holds the Idempotency-Key store's file locked (BEGIN
// EXCLUSIVE). Over real HTTP on a listening server: /health and GET /professionals answer all
// through the lock and the event loop keeps turning; a keyed POST answers 503 with Retry-After
// within the store's bound (IDEMPOTENCY_BUSY_TIMEOUT_MS) and nothing of it runs; one sent
// shortly before the lock goes gets through; afterwards a keyed POST is answered and replayed.
// The store alone: its purge, a second store opening the file, and close, under the lock.
import { holdLock } from '../../helpers/sqlite-lock.js'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AddressInfo } from 'node:net'
import t, { type Test } from 'tap'
import { IdempotencyStore } from '../../../src/idempotency/store.js'
import { SAMPLES, TEST_KEY, sampleApp } from '../../helpers/app.js'

const BOUND_MS = 700
// Generous: the test machine's cores are shared with other suites.
const SLACK_MS = 600
const ANSWERS_WITHIN_MS = 1000
/** The longest the event loop may stall: a lock waited for on it stalls it for the whole bound. */
const STALL_MS = 500

/** The longest gap between ticks of a 5 ms timer from now until stop(). */
function watchEventLoop (): { stop: () => { ticks: number, longestGapMs: number } } {
  let last = performance.now()
  let longestGapMs = 0
  let ticks = 0
  const timer = setInterval(() => {
    const now = performance.now()
    longestGapMs = Math.max(longestGapMs, now - last)
    last = now
    ticks++
  }, 5)
  return { stop: () => { clearInterval(timer); return { ticks, longestGapMs: Math.max(longestGapMs, performance.now() - last) } } }
}

function scratchFile (t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'ponte-idem-locked-'))
  t.teardown(() => { rmSync(dir, { recursive: true, force: true }) })
  return join(dir, 'idempotency.sqlite')
}

/** What the store throws when the lock outlasts its bound (KeyStoreUnavailableError). */
const LOCKED = { status: 503, type: 'idempotency-store-unavailable', message: /locked by another process/ }

type Answer = { status: number, ms: number, body: any, headers: Headers }

t.test('the Idempotency-Key store locked by another process', async (t) => {
  const store = scratchFile(t)
  const a = await sampleApp(SAMPLES[0], { IDEMPOTENCY_STORE: store, IDEMPOTENCY_BUSY_TIMEOUT_MS: String(BOUND_MS) })
  t.teardown(async () => { await a.close() })
  await a.app.listen({ port: 0, host: '127.0.0.1' })
  const base = `http://127.0.0.1:${(a.app.server.address() as AddressInfo).port}`
  const http = async (method: string, path: string, body?: object, key?: string): Promise<Answer> => {
    const started = performance.now()
    const res = await fetch(base + path, {
      method,
      headers: { authorization: `Bearer ${TEST_KEY}`, ...(body ? { 'content-type': 'application/json' } : {}), ...(key ? { 'idempotency-key': key } : {}) },
      body: body ? JSON.stringify(body) : undefined
    })
    const text = await res.text()
    return { status: res.status, ms: performance.now() - started, body: text ? JSON.parse(text) : undefined, headers: res.headers }
  }
  const client = (n: number): object => ({ name: `Ana Trancada ${n}`, phone: `+55119876500${String(n).padStart(2, '0')}` })
  const holders = async (n: number): Promise<number> => (await http('GET', `/clients/search?term=${encodeURIComponent((client(n) as { phone: string }).phone)}`)).body.length

  // Warm-up, so what is measured under the lock is not first-call work.
  t.equal((await http('POST', '/clients', client(1), 'before-lock')).status, 200, 'a keyed POST before the lock')
  t.equal((await http('GET', '/professionals')).status, 200)
  t.equal((await http('GET', '/health')).status, 200)

  const lock = await holdLock(store, 'DELETE FROM idempotency_keys WHERE 0')
  const loop = watchEventLoop()
  let polling = true
  const health: Answer[] = []
  const professionals: Answer[] = []
  const poll = (async () => {
    while (polling) {
      const [h, p] = await Promise.all([http('GET', '/health'), http('GET', '/professionals')])
      health.push(h)
      professionals.push(p)
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
  })()

  // Three new keys and a replay of an answered one, at once.
  const keyed = await Promise.all([
    http('POST', '/clients', client(2), 'locked-2'),
    http('POST', '/clients', client(3), 'locked-3'),
    http('POST', '/clients', client(4), 'locked-4'),
    http('POST', '/clients', client(1), 'before-lock')
  ])
  for (const [i, r] of keyed.entries()) {
    t.equal(r.status, 503, `keyed POST ${i + 1} while the store is locked: 503`)
    t.match(r.headers.get('content-type'), /^application\/problem\+json/, 'a problem document')
    t.equal(r.body?.type, 'https://ponte.dev/problems/idempotency-store-unavailable')
    t.match(r.body?.detail, /locked by another process/, 'says why')
    t.ok(Number(r.headers.get('retry-after')) > 0, 'with Retry-After')
    t.ok(r.ms < BOUND_MS + SLACK_MS, `within the store's bound (${Math.round(r.ms)} ms)`)
  }
  const unkeyed = await http('POST', '/clients', client(5))
  t.equal(unkeyed.status, 200, 'a POST without a key does not need the store')
  t.ok(unkeyed.ms < ANSWERS_WITHIN_MS, `and is not delayed by it (${Math.round(unkeyed.ms)} ms)`)

  // Sent while locked, the lock gone before its bound: it gets through.
  const late = http('POST', '/clients', client(6), 'late-6')
  await new Promise((resolve) => setTimeout(resolve, 150))
  polling = false
  await poll
  const stalled = loop.stop()
  await lock.release()
  t.equal((await late).status, 200, 'a keyed POST waiting when the lock goes is answered')

  t.ok(health.length >= 5, `/health was polled through the lock (${health.length} calls)`)
  t.ok(health.every((r) => r.status === 200), '/health: 200 throughout')
  t.ok(professionals.every((r) => r.status === 200), 'GET /professionals: 200 throughout')
  const slowest = Math.max(...health.map((r) => r.ms), ...professionals.map((r) => r.ms))
  t.ok(slowest < ANSWERS_WITHIN_MS, `/health and /professionals answered while locked (slowest ${Math.round(slowest)} ms)`)
  t.ok(stalled.longestGapMs < STALL_MS, `the event loop kept turning (${stalled.ticks} ticks, longest gap ${Math.round(stalled.longestGapMs)} ms)`)

  for (const n of [2, 3, 4]) t.equal(await holders(n), 0, `nothing of refused POST ${n} ran: no client holds its phone`)
  const again = await http('POST', '/clients', client(2), 'locked-2')
  t.equal(again.status, 200, 'after the lock, the refused key is answered')
  t.equal(again.headers.get('idempotent-replayed'), null, 'as a new request')
  const replay = await http('POST', '/clients', client(2), 'locked-2')
  t.equal(replay.status, 200)
  t.equal(replay.headers.get('idempotent-replayed'), 'true', 'and its retry is replayed')
  t.same(replay.body, again.body, 'the same client')
  t.equal(await holders(2), 1, 'one client holds the phone')
  t.equal((await http('POST', '/clients', client(1), 'before-lock')).headers.get('idempotent-replayed'), 'true', 'the key answered before the lock still replays')
})

t.test('the store alone: purge, opening and close under the lock never wait on the event loop', async (t) => {
  const file = scratchFile(t)
  const store = await IdempotencyStore.open(file, { busyTimeoutMs: BOUND_MS, purgeEveryMs: 0 })
  t.teardown(() => { store.close() })
  const claim = await store.begin('s', 'k', 'fp')
  t.equal(claim.kind, 'new')

  const lock = await holdLock(file, 'DELETE FROM idempotency_keys WHERE 0')
  const loop = watchEventLoop()
  let started = performance.now()
  await t.rejects(store.purgeExpired(), LOCKED, 'a purge meeting the lock gives up with a 503')
  t.ok(performance.now() - started < BOUND_MS + SLACK_MS, 'within the bound')
  started = performance.now()
  await t.rejects(store.begin('s', 'k2', 'fp'), LOCKED, 'so does a claim')
  t.ok(performance.now() - started < BOUND_MS + SLACK_MS, 'within the bound')
  const second = await IdempotencyStore.open(file, { busyTimeoutMs: BOUND_MS })
  t.pass('a second store opens the locked file (a process starting meanwhile)')
  started = performance.now()
  second.close()
  t.ok(performance.now() - started < STALL_MS, 'and closes at once')
  const stalled = loop.stop()
  await lock.release()
  t.ok(stalled.longestGapMs < STALL_MS, `the event loop kept turning (longest gap ${Math.round(stalled.longestGapMs)} ms)`)

  t.equal(await store.complete('s', 'k', { status: 201, headers: {}, body: 'done' }, claim.kind === 'new' ? claim.lease : undefined), true, 'after the lock, the claim completes')
  t.same(await store.begin('s', 'k', 'fp'), { kind: 'replay', response: { status: 201, headers: {}, body: 'done' } })
})
