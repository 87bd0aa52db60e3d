// Issue 28, replicas: the pieces replicas share, on the machine's Redis under a prefix of this
// run. The poller lease is held by one process at a time and passes on release or expiry; an
// append by a process that does not hold it writes nothing (fencing); of two stores that see a
// delivery due exactly one claims it, and an appointment's later event waits for its earlier
// one; `ponte webhooks` lists and replays the dead letters kept in Redis.
import t from 'tap'
import { randomUUID } from 'node:crypto'
import { Redis } from 'ioredis'
import { RedisLease } from '../../../src/events/replicas/lease.js'
import { eventKeys, RedisEventLog } from '../../../src/events/replicas/redis-log.js'
import { RedisDeliveryStore } from '../../../src/events/replicas/redis-delivery-store.js'
import type { NewEvent } from '../../../src/events/event.js'
import { main } from '../../../src/cli.js'

const PREFIX = `ponte-test:replica-store:${randomUUID()}:`
const keys = eventKeys(PREFIX)
const connect = (): Redis => new Redis('redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 })
const one = connect()
const two = connect()
t.teardown(async () => {
  const left = await one.keys(`${PREFIX}*`)
  if (left.length > 0) await one.del(...left)
  await Promise.all([one.quit(), two.quit()])
})

const event = (appointmentId: string, type: NewEvent['type'] = 'appointment.updated'): NewEvent => ({ type, appointmentId, data: { appointment: { id: appointmentId } } })

t.test('the poller lease: one holder; given up at stop, lapsed after a kill', async (t) => {
  const key = `${PREFIX}lease-test`
  let loads = 0
  const a = new RedisLease(one, key, 400, async () => { loads++ })
  const b = new RedisLease(two, key, 400)
  t.equal(await a.hold(), true, 'the first takes it')
  t.equal(loads, 1, 'and loads the shared state once, on taking it')
  t.equal(await b.hold(), false, 'the second does not')
  t.equal(await a.hold(), true, 'the holder renews')
  t.equal(loads, 1, 'a renewal loads nothing')
  await a.stop()
  t.equal(await b.hold(), true, 'given up at stop: the other takes it at once')
  // b "dies": no renewal, no release. a gets it once the lease has lapsed in Redis.
  t.equal(await a.hold(), false, 'not while it is live')
  await new Promise((resolve) => setTimeout(resolve, 450))
  t.equal(await a.hold(), true, 'after its life, the other takes it')
  t.equal(b.held, false, 'and the one that stopped renewing no longer counts itself the holder')
  await a.stop()
})

t.test('a load that outlasts the lease keeps it: no other replica takes it meanwhile', async (t) => {
  const key = `${PREFIX}slow-load`
  const slow = new RedisLease(one, key, 300, async () => { await new Promise((resolve) => setTimeout(resolve, 1000)) })
  const other = new RedisLease(two, key, 300)
  const taking = slow.hold()
  await new Promise((resolve) => setTimeout(resolve, 700))
  t.equal(await other.hold(), false, 'past the lease\'s life, mid-load, the other still cannot take it')
  t.equal(await taking, true, 'the slow loader holds it once loaded')
  t.equal(slow.held, true)
  await slow.stop()
})

t.test('an append by a replica that does not hold the poller lease writes nothing', async (t) => {
  const holderLog = await RedisEventLog.open(one, keys)
  const otherLog = await RedisEventLog.open(two, keys)
  t.teardown(() => { holderLog.close(); otherLog.close() })
  const holder = new RedisLease(one, keys.pollerLease, 5000, async () => { await holderLog.load() })
  const other = new RedisLease(two, keys.pollerLease, 5000, async () => { await otherLog.load() })
  holderLog.lease = holder
  otherLog.lease = other
  t.equal(await holder.hold(), true)
  t.equal(await other.hold(), false)
  const done = await holderLog.append([event('a1', 'appointment.created'), event('a1')])
  t.same(done.map((e) => e.seq), [1, 2], 'the holder appends at 1 and 2')
  await t.rejects(otherLog.append([event('a9')]), { type: 'event-store-unavailable', cause: { message: 'NOTLEADER' } }, 'the other is refused (its error names no argument of the command)')
  t.equal(await otherLog.head(), 2, 'nothing was appended by it')
  t.same((await otherLog.after(0, 10)).map((e) => [e.seq, e.id, e.appointmentId]), done.map((e) => [e.seq, e.id, e.appointmentId]), 'both read the same log')
  // The detector's memory goes with the events and comes back on taking over.
  await holderLog.append([], () => { holderLog.db.prepare("INSERT INTO detector_state (name, value) VALUES ('marker', '42')").run() })
  await otherLog.append([], () => { otherLog.db.prepare("INSERT INTO detector_state (name, value) VALUES ('marker', '99')").run() }).catch(() => {})
  t.equal(otherLog.db.prepare("SELECT value FROM detector_state WHERE name = 'marker'").get(), undefined, 'a refused append leaves its mirror as it was')
  await holder.stop()
  t.equal(await other.hold(), true, 'the other takes over')
  t.same(otherLog.db.prepare("SELECT value FROM detector_state WHERE name = 'marker'").get(), { value: '42' }, 'and loads the memory the holder wrote')
  await other.stop()
})

t.test('deliveries: one claim of two, in order per appointment, dead letters through `ponte webhooks`', async (t) => {
  const log = await RedisEventLog.open(one, keys)
  const lease = new RedisLease(one, keys.pollerLease, 5000)
  log.lease = lease
  t.teardown(async () => { await lease.stop(); log.close() })
  await lease.hold()
  const s1 = new RedisDeliveryStore(one, log)
  const s2 = new RedisDeliveryStore(two, await RedisEventLog.open(two, keys))
  const head = await log.head()
  t.equal(await s1.cursor('crm', head), head, 'a new subscriber starts at the head')
  const appended = await log.append([event('b1'), event('b2'), event('b1', 'appointment.canceled')])
  const now = Date.now()
  t.equal(await s1.enqueue('crm', appended, appended[2].seq, now), appended[2].seq, 'copied, the cursor moved')
  t.equal(await s2.enqueue('crm', appended.slice(0, 1), appended[0].seq, now), appended[2].seq, 'a copy by another replica never moves it back')
  t.same((await s2.due('crm', now, 10)).owed.map((o) => o.event.id), [appended[0].id, appended[1].id], 'due: the first of each appointment (b1\'s later event waits)')
  const claims = await Promise.all([s1.claim('crm', appended[0].seq, now, now + 60_000), s2.claim('crm', appended[0].seq, now, now + 60_000)])
  t.same(claims.filter(Boolean).length, 1, 'of two replicas claiming at once, exactly one sends')
  t.equal(await s1.claim('crm', appended[2].seq, now, now + 60_000), false, 'b1\'s later event cannot be claimed while its earlier one is owed')
  await s1.delivered('crm', appended[0].seq)
  t.same((await s1.due('crm', now, 10)).owed.map((o) => o.event.id), [appended[1].id, appended[2].id], 'delivered: b1\'s next is due')
  await s2.failed('crm', appended[1].seq, 'http-503', now, undefined)
  t.match(await s1.counts('crm'), { pending: 1, deadLettered: 1, lastError: 'http-503' }, 'counts as /ready shows them')

  const env = { REDIS_URL: process.env.REDIS_URL, REDIS_EVENTS_PREFIX: process.env.REDIS_EVENTS_PREFIX }
  process.env.REDIS_URL = 'redis://127.0.0.1:6379'
  process.env.REDIS_EVENTS_PREFIX = PREFIX
  t.teardown(() => {
    for (const [k, v] of Object.entries(env)) { if (v === undefined) delete process.env[k]; else process.env[k] = v }
  })
  const listed = await cli(['webhooks', 'dead-letters', '--json'])
  t.equal(listed.code, 1, 'dead-letters exits 1 when there are any')
  t.match(JSON.parse(listed.out), [{ subscriber: 'crm', eventId: appended[1].id, appointmentId: 'b2', lastError: 'http-503' }], 'listed from Redis')
  const replayed = await cli(['webhooks', 'replay', appended[1].id])
  t.equal(replayed.code, 0)
  t.match(await s1.counts('crm'), { pending: 2, deadLettered: 0 }, 'replayed: owed again')
})

t.test('retention: old events go as a prefix, never one owed or past a cursor, never the newest', async (t) => {
  const purgeKeys = eventKeys(`${PREFIX}purge:`)
  const log = await RedisEventLog.open(one, purgeKeys)
  const lease = new RedisLease(one, purgeKeys.pollerLease, 5000)
  log.lease = lease
  t.teardown(async () => { await lease.stop(); log.close() })
  await lease.hold()
  const day = 86_400_000
  const now = Date.now()
  const at = (daysAgo: number): string => new Date(now - daysAgo * day).toISOString()
  const appended = await log.append([40, 35, 33, 31, 1].map((d, i) => ({ ...event(`p${i}`), seenAt: at(d) })))
  const store = new RedisDeliveryStore(one, log)
  // A subscriber whose cursor is at the third event, the second still owed to it.
  await store.cursor('late', 0)
  await store.enqueue('late', [appended[1]], appended[2].seq, now)
  t.equal(await log.purge(now - 30 * day), 1, 'only the first goes: the second is owed')
  t.equal(await log.oldestCursor(), appended[0].seq, 'the oldest cursor moves past it')
  await store.delivered('late', appended[1].seq)
  t.equal(await log.purge(now - 30 * day), 2, 'delivered: the second and third go; the fourth is past the cursor')
  await store.enqueue('late', [], appended[4].seq, now)
  t.equal(await log.purge(now - 30 * day), 1, 'the cursor moved: the fourth goes')
  t.same((await log.after(0, 10)).map((e) => e.id), [appended[4].id], 'the newest is kept, whatever its age')
  t.equal(await log.purge(now), 0, 'and never purged')
})

async function cli (argv: string[]): Promise<{ code: number, out: string }> {
  let out = ''
  const write = process.stdout.write.bind(process.stdout)
  const writeErr = process.stderr.write.bind(process.stderr)
  process.stdout.write = ((chunk: string) => { out += chunk; return true }) as typeof process.stdout.write
  process.stderr.write = (() => true) as typeof process.stderr.write
  try {
    return { code: await main(argv), out }
  } finally {
    process.stdout.write = write
    process.stderr.write = writeErr
  }
}
