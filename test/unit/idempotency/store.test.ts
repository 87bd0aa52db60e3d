import t from 'tap'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { HOUR_MS, IdempotencyStore, type BeginResult, type StoredResponse } from '../../../src/idempotency/store.js'

const created: StoredResponse = { status: 201, headers: { 'content-type': 'application/json; charset=utf-8', location: '/clients/7' }, body: '{"id":"7"}' }

async function memoryStore (start = Date.UTC(2025, 0, 1)) {
  const clock = { now: start }
  const store = await IdempotencyStore.open(':memory:', { now: () => clock.now, purgeEveryMs: 0 })
  t.teardown(() => { store.close() })
  return { store, clock }
}

function lease (r: BeginResult): string {
  if (r.kind !== 'new') throw new Error(`expected new, got ${r.kind}`)
  return r.lease
}

t.test('new → in-flight → done → replay; a different fingerprint is a mismatch', async (t) => {
  const { store } = await memoryStore()
  const l = lease(await store.begin('scope-a', 'k1', 'fp1'))
  t.same(await store.begin('scope-a', 'k1', 'fp1'), { kind: 'in-flight' })
  t.same(await store.begin('scope-a', 'k1', 'fp2'), { kind: 'mismatch' }, 'a different request is a mismatch even while in flight')
  t.equal(await store.complete('scope-a', 'k1', created, l), true)
  t.same(await store.begin('scope-a', 'k1', 'fp1'), { kind: 'replay', response: created })
  t.same(await store.begin('scope-a', 'k1', 'fp2'), { kind: 'mismatch' })
})

t.test('release forgets the key, so a retry is new again', async (t) => {
  const { store } = await memoryStore()
  const l = lease(await store.begin('s', 'k', 'fp'))
  t.equal(await store.release('s', 'k', l), true)
  t.equal((await store.begin('s', 'k', 'other')).kind, 'new', 'after release, even a different body may use the key')
})

t.test('release and complete only touch the claim they were given', async (t) => {
  const { store } = await memoryStore()
  const l = lease(await store.begin('s', 'k', 'fp'))
  t.equal(await store.release('s', 'k', 'not-the-lease'), false)
  t.equal(await store.complete('s', 'k', created, 'not-the-lease'), false)
  t.equal(await store.complete('s', 'k', created, l), true)
  t.equal(await store.release('s', 'k', l), false, 'a done key cannot be released')
  t.equal((await store.begin('s', 'k', 'fp')).kind, 'replay')
})

t.test('scopes are independent', async (t) => {
  const { store } = await memoryStore()
  const l = lease(await store.begin('caller-1', 'same', 'fp-1'))
  t.equal((await store.begin('caller-2', 'same', 'fp-2')).kind, 'new')
  await store.complete('caller-1', 'same', created, l)
  t.equal((await store.begin('caller-2', 'same', 'fp-2')).kind, 'in-flight')
})

t.test('binary bodies come back as bytes, text as text', async (t) => {
  const { store } = await memoryStore()
  const bytes = Buffer.from([0, 1, 2, 255])
  await store.complete('s', 'bin', { status: 200, headers: {}, body: bytes }, lease(await store.begin('s', 'bin', 'fp')))
  await store.complete('s', 'txt', { status: 204, headers: {}, body: '' }, lease(await store.begin('s', 'txt', 'fp')))
  const bin = await store.begin('s', 'bin', 'fp')
  const txt = await store.begin('s', 'txt', 'fp')
  t.ok(bin.kind === 'replay' && Buffer.isBuffer(bin.response.body) && bin.response.body.equals(bytes))
  t.ok(txt.kind === 'replay' && txt.response.body === '' && txt.response.status === 204)
})

t.test('keys expire after the TTL and are purged', async (t) => {
  const { store, clock } = await memoryStore()
  t.equal(store.ttlMs, 24 * HOUR_MS)
  await store.complete('s', 'k1', created, lease(await store.begin('s', 'k1', 'fp')))
  clock.now += HOUR_MS
  await store.complete('s', 'k2', created, lease(await store.begin('s', 'k2', 'fp')))
  clock.now += 23 * HOUR_MS - 1
  t.equal(await store.purgeExpired(), 0, 'nothing is purged before 24 h')
  t.equal((await store.begin('s', 'k1', 'fp')).kind, 'replay')
  clock.now += 1
  t.equal(await store.purgeExpired(), 1, 'k1 is purged at 24 h')
  t.equal((await store.begin('s', 'k1', 'fp')).kind, 'new', 'a purged key is new again')
  t.equal((await store.begin('s', 'k2', 'fp')).kind, 'replay', 'k2 still has an hour to go')
  clock.now += HOUR_MS
  t.equal((await store.begin('s', 'k2', 'other-fp')).kind, 'new', 'an expired key is new even before the purge runs')
})

t.test('the TTL is configurable', async (t) => {
  let now = 0
  const store = await IdempotencyStore.open(':memory:', { ttlMs: 48 * HOUR_MS, now: () => now, purgeEveryMs: 0 })
  t.teardown(() => { store.close() })
  await store.complete('s', 'k', created, lease(await store.begin('s', 'k', 'fp')))
  now = 47 * HOUR_MS
  t.equal(await store.purgeExpired(), 0)
  now = 48 * HOUR_MS
  t.equal(await store.purgeExpired(), 1)
})

t.test('an in-flight claim older than abandonAfterMs is abandoned', async (t) => {
  const { store, clock } = await memoryStore()
  t.equal(store.abandonAfterMs, 5 * 60 * 1000)
  const first = lease(await store.begin('s', 'k', 'fp'))
  clock.now += store.abandonAfterMs - 1
  t.equal((await store.begin('s', 'k', 'fp')).kind, 'in-flight')
  clock.now += 1
  const second = lease(await store.begin('s', 'k', 'fp'))
  t.not(second, first, 'the retry takes the key over')
  t.equal(await store.complete('s', 'k', { ...created, body: 'late' }, first), false, 'the abandoned request cannot overwrite it')
  t.equal(await store.release('s', 'k', first), false, 'nor release it')
  t.equal(await store.complete('s', 'k', created, second), true)
  const r = await store.begin('s', 'k', 'fp')
  t.ok(r.kind === 'replay' && r.response.body === created.body)

  lease(await store.begin('s', 'stuck', 'fp'))
  clock.now += store.abandonAfterMs
  t.equal(await store.purgeExpired(), 1, 'abandoned claims are purged too')
})

t.test('a store file survives a restart; WAL; own directory created', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ponte-idem-'))
  t.teardown(() => { rmSync(dir, { recursive: true, force: true }) })
  const file = join(dir, 'nested', 'idempotency.sqlite')
  const first = await IdempotencyStore.open(file, { purgeEveryMs: 0 })
  await first.complete('s', 'done', created, lease(await first.begin('s', 'done', 'fp')))
  lease(await first.begin('s', 'pending', 'fp'))
  first.close()
  first.close() // closing twice is harmless

  const raw = new BetterSqlite3(file, { readonly: true })
  t.equal(raw.pragma('journal_mode', { simple: true }), 'wal')
  raw.close()

  const second = await IdempotencyStore.open(file, { purgeEveryMs: 0 })
  t.teardown(() => { second.close() })
  t.same(await second.begin('s', 'done', 'fp'), { kind: 'replay', response: created })
  t.same(await second.begin('s', 'pending', 'fp'), { kind: 'in-flight' }, 'an in-flight claim survives too (until abandoned)')
  t.same(await second.begin('s', 'done', 'other'), { kind: 'mismatch' })
})

t.test('the background purge timer runs and stops on close', async (t) => {
  let now = 0
  const store = await IdempotencyStore.open(':memory:', { now: () => now, purgeEveryMs: 10 })
  await store.complete('s', 'k', created, lease(await store.begin('s', 'k', 'fp')))
  now = 25 * HOUR_MS
  await new Promise((resolve) => setTimeout(resolve, 40))
  now = 0
  t.equal((await store.begin('s', 'k', 'other')).kind, 'new', 'the timer purged the expired key')
  store.close()
})

t.test('the store is readable by its user only (it holds patient data)', async (t) => {
  const dir = join(mkdtempSync(join(tmpdir(), 'ponte-idem-perm-')), 'state')
  t.teardown(() => rmSync(dirname(dir), { recursive: true, force: true }))
  const store = await IdempotencyStore.open(join(dir, 'idempotency.sqlite'))
  t.teardown(() => store.close())
  t.equal(statSync(dir).mode & 0o777, 0o700)
  t.equal(statSync(join(dir, 'idempotency.sqlite')).mode & 0o777, 0o600)
})
