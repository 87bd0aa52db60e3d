// Issue 28, replicas: what the Redis delivery store forgets and gives up on, on the machine's
// Redis under a prefix of this run. A subscriber removed from WEBHOOKS is forgotten once no
// replica serves it any more (not while one started with the older list still does), so the
// log's trim goes on; an owed delivery whose event was evicted from the stream is dead-lettered
// with its reason, logged and counted, and its appointment's later events are delivered.
import t from 'tap'
import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import pino from 'pino'
import { Redis } from 'ioredis'
import { loadConfig } from '../../../../src/config.js'
import { loggerOptions } from '../../../../src/logging.js'
import { PonteMetrics } from '../../../../src/metrics/registry.js'
import { EVENT_TYPES, type NewEvent } from '../../../../src/events/event.js'
import { ReplicaEvents } from '../../../../src/events/replicas/open.js'
import { RedisLease } from '../../../../src/events/replicas/lease.js'
import { eventKeys, RedisEventLog } from '../../../../src/events/replicas/redis-log.js'
import { RedisDeliveryStore } from '../../../../src/events/replicas/redis-delivery-store.js'
import { WebhookDelivery } from '../../../../src/events/delivery/delivery.js'
import { openWebhooks } from '../../../../src/events/delivery/open.js'
import type { Subscriber } from '../../../../src/events/delivery/subscribers.js'
import { testSecret, WebhookReceiver } from '../../../helpers/webhook-receiver.js'

const DAY_MS = 24 * 3600_000
const PATIENT = 'Oda Kvist-Hallberg'
const RUN = `ponte-test:replica-subscribers:${randomUUID()}:`
const redis = new Redis('redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 })
const dir = mkdtempSync(join(tmpdir(), 'ponte-replica-subs-'))
t.teardown(async () => {
  const left = await redis.keys(`${RUN}*`)
  if (left.length > 0) await redis.del(...left)
  await redis.quit()
  rmSync(dir, { recursive: true, force: true })
})

// Seen 40 days ago: past the default retention of 30 days.
const OLD = new Date(Date.now() - 40 * DAY_MS).toISOString()
const old = (appointmentId: string, type: NewEvent['type'] = 'appointment.updated'): NewEvent =>
  ({ type, appointmentId, seenAt: OLD, data: { appointment: { id: appointmentId, client: { name: PATIENT } } } })
const cutoff = (): number => Date.now() - 30 * DAY_MS

async function within<T> (ms: number, what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_resolve, reject) => { timer = setTimeout(() => { reject(new Error(`${what}: not within ${ms} ms`)) }, ms) })
  try { return await Promise.race([work, late]) } finally { clearTimeout(timer) }
}

async function waitFor (ms: number, what: string, done: () => Promise<boolean>): Promise<void> {
  await within(ms, what, (async () => { while (!await done()) await new Promise((resolve) => setTimeout(resolve, 50)) })())
}

t.test('a subscriber removed from WEBHOOKS is forgotten once no replica serves it, and the trim goes on', async (t) => {
  const prefix = `${RUN}forget:`
  const keys = eventKeys(prefix)
  const secrets = { KEPT_SECRET: testSecret(), GONE_SECRET: testSecret() }
  const kept = await WebhookReceiver.start(secrets.KEPT_SECRET)
  t.teardown(async () => { await kept.close() })
  // Replica A was started with the older list (kept and gone); B with the newer one (kept).
  // Nothing listens at gone's URL: what it is owed stays owed.
  const file = (name: string, body: string): string => { const f = join(dir, name); writeFileSync(f, body); return f }
  const keptEntry = `  - name: kept\n    url: ${kept.url}\n    secretEnv: KEPT_SECRET\n`
  const older = file('older.yaml', `subscribers:\n${keptEntry}  - name: gone\n    url: http://127.0.0.1:9/hooks\n    secretEnv: GONE_SECRET\n`)
  const newer = file('newer.yaml', `subscribers:\n${keptEntry}`)
  const config = (webhooks: string) => loadConfig({ ...secrets, WEBHOOKS: webhooks, REDIS_URL: 'redis://127.0.0.1:6379', REDIS_EVENTS_PREFIX: prefix, EVENTS_LEASE_SECONDS: '1', WEBHOOK_BACKOFF_MS: '50', LOG_LEVEL: 'silent' })
  const [a, b] = [await ReplicaEvents.open({ ...config(older), redisUrl: 'redis://127.0.0.1:6379' }), await ReplicaEvents.open({ ...config(newer), redisUrl: 'redis://127.0.0.1:6379' })]
  const deliveryA = await openWebhooks(a, config(older), new PonteMetrics({ processMetrics: false }))
  const deliveryB = await openWebhooks(b, config(newer), new PonteMetrics({ processMetrics: false }))
  let aStopped = false
  t.teardown(async () => {
    if (!aStopped) await deliveryA.stop()
    await deliveryB.stop()
    await a.lease.stop()
    await a.close()
    await b.close()
  })
  t.equal(await a.lease.hold(), true, 'A holds the poller lease, to append')
  const appended = await a.log.append([old('31', 'appointment.created'), old('31'), old('32', 'appointment.created')])
  deliveryA.start()
  deliveryB.start()
  await within(15_000, 'kept receives every event', kept.until(() => new Set(kept.delivered.map((r) => r.webhookId)).size >= appended.length))

  // Two leases (the grace) and more pass while A, with the older list, still serves gone.
  await new Promise((resolve) => setTimeout(resolve, 2600))
  t.equal(await redis.sismember(keys.subscribers, 'gone'), 1, 'while A still lists it, B does not forget gone')
  t.equal(await a.log.purge(cutoff()), 0, 'and gone, owed every event, holds the trim')

  await deliveryA.stop()
  aStopped = true
  await waitFor(15_000, 'gone forgotten', async () => await redis.sismember(keys.subscribers, 'gone') === 0)
  t.equal(await redis.exists(keys.subscriber('gone'), keys.owed('gone')), 0, 'its cursor and its owed deliveries are gone from Redis')
  t.equal(await redis.zscore(keys.seen, 'gone'), null, 'and its renewal')
  t.equal(await redis.sismember(keys.subscribers, 'kept'), 1, 'the listed subscriber is kept')
  t.equal(await b.log.purge(cutoff()), appended.length - 1, 'the trim removes the expired events, all but the newest')
  t.same((await b.log.after(0, 10)).map((e) => e.seq), [appended[2].seq], 'the newest stays')
})

t.test('an owed delivery whose event was evicted is dead-lettered with its reason; its appointment goes on', async (t) => {
  const keys = eventKeys(`${RUN}evicted:`)
  const secret = testSecret()
  const receiver = await WebhookReceiver.start(secret)
  t.teardown(async () => { await receiver.close() })
  const log = await RedisEventLog.open(redis, keys, { pollMs: 20 })
  const lease = new RedisLease(redis, keys.pollerLease, 5000)
  log.lease = lease
  t.equal(await lease.hold(), true)
  const [first, second, other] = await log.append([old('41', 'appointment.created'), old('41', 'appointment.canceled'), old('42', 'appointment.created')])
  const store = new RedisDeliveryStore(redis, log)
  await store.cursor('crm', 0)
  await store.enqueue('crm', [first, second, other], other.seq, Date.now())
  // Evicted before it was sent (a MAXLEN, an XDEL by hand, a memory policy): Ponte's purge never does this.
  await redis.xdel(keys.log, `${first.seq}-0`)

  const lines: string[] = []
  const logger = pino(loggerOptions('info'), new Writable({ write (chunk, _enc, done) { lines.push(String(chunk)); done() } }))
  const metrics = new PonteMetrics({ processMetrics: false })
  const crm: Subscriber = { name: 'crm', url: receiver.url, secret, events: new Set(EVENT_TYPES) }
  const delivery = await WebhookDelivery.openOn(store, log, { subscribers: [crm], timeoutMs: 5000, retryForMs: 60_000, backoffMs: 20, backoffMaxMs: 100, concurrency: 4, pollMs: 50, leaseMs: 1000 }, logger, metrics)
  delivery.start()
  t.teardown(async () => { await delivery.stop(); await lease.stop(); log.close() })

  await within(15_000, 'the later events are delivered', receiver.until(() => receiver.delivered.length >= 2))
  t.same(receiver.delivered.map((r) => r.webhookId).sort(), [second.id, other.id].sort(), 'the appointment\'s later event and the other appointment\'s are delivered')
  t.same(receiver.unverified, [], 'verified')
  t.match(await store.deadLetters('crm'), [{ subscriber: 'crm', eventId: first.id, seq: first.seq, type: 'appointment.created', appointmentId: '41', attempts: 0, lastError: 'event-missing' }], 'the evicted one is in the dead-letter list, with its reason')
  t.match(await store.counts('crm'), { pending: 0, deadLettered: 1 }, 'counted as dead-lettered, nothing left owed')
  const text = await metrics.text()
  t.match(text, /ponte_webhook_events_missing_total\{subscriber="crm"\} 1\n/, 'counted as missing in the metrics')
  t.match(text, /ponte_webhook_dead_lettered_total\{subscriber="crm"\} 1\n/, 'and as dead-lettered')
  const said = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.reason === 'event-missing')
  t.match(said, [{ subscriber: 'crm', eventId: first.id, seq: first.seq, msg: /no longer in the log/ }], 'one structured line names the subscriber, the event and why')
  t.notOk(lines.some((l) => l.includes(PATIENT)), 'no log line holds the patient')
  t.equal(await store.replay(Date.now(), { subscriber: 'crm' }), 0, 'replay leaves it: there is nothing left to send')
  t.equal(await log.purge(cutoff()), 1, 'it holds no trim back: the expired delivered event goes, the newest stays')
})
