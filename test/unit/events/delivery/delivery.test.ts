// Webhook delivery against a real receiver that verifies every request with standardwebhooks:
// events delivered signed and in order, retries with the same webhook-id, a receiver down and
// back, one appointment's failures not holding back another's, dead letters in /ready, the
// metrics and the CLI and replayed, a clean stop, and no secret or payload in any log line.
import t, { type Test } from 'tap'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import pino from 'pino'
import BetterSqlite3 from 'better-sqlite3'
import { SqliteEventLog } from '../../../../src/events/log.js'
import { WebhookDelivery } from '../../../../src/events/delivery/delivery.js'
import { DeliveryStore } from '../../../../src/events/delivery/store.js'
import type { Subscriber } from '../../../../src/events/delivery/subscribers.js'
import { EVENT_TYPES, type NewEvent } from '../../../../src/events/event.js'
import { PonteMetrics } from '../../../../src/metrics/registry.js'
import { loggerOptions } from '../../../../src/logging.js'
import { main } from '../../../../src/cli.js'
import { loadConfig } from '../../../../src/config.js'
import { openSample } from '../../../../src/installation.js'
import { createPonte } from '../../../../src/ponte.js'
import { buildApp } from '../../../../src/app.js'
import { receiverFor, testSecret, WebhookReceiver, type Received } from '../../../helpers/webhook-receiver.js'

const dir = mkdtempSync(join(tmpdir(), 'ponte-delivery-'))
t.teardown(() => { rmSync(dir, { recursive: true, force: true }) })

const PATIENT = 'Joaquina Patient-Name'
let files = 0

/** An appointment event whose payload names a patient (which no log line may hold). */
const change = (appointmentId: string, type: NewEvent['type'] = 'appointment.updated'): NewEvent =>
  ({ type, appointmentId, data: { appointment: { id: appointmentId, client: { name: PATIENT } }, changed: ['date'] } })

/** Every log line delivery writes, at trace. */
const logLines: string[] = []
const logger = pino(loggerOptions('trace'), new Writable({ write (chunk, _enc, done) { logLines.push(String(chunk)); done() } }))

interface Setup { log: SqliteEventLog, delivery: WebhookDelivery, metrics: PonteMetrics, file: string }

async function deliver (t: Test, subscribers: Subscriber[], overrides: Partial<Parameters<typeof WebhookDelivery.open>[1]> = {}): Promise<Setup> {
  const file = join(dir, `events-${++files}.sqlite`)
  const log = await SqliteEventLog.open(file, { pollMs: 20 })
  const metrics = new PonteMetrics({ processMetrics: false })
  const delivery = await WebhookDelivery.open(log, {
    subscribers, timeoutMs: 10_000, retryForMs: 60_000, backoffMs: 20, backoffMaxMs: 100, concurrency: 4, pollMs: 50, ...overrides
  }, logger, metrics)
  delivery.start()
  t.teardown(async () => { await delivery.stop(); log.close() })
  return { log, delivery, metrics, file }
}

const subscriber = (name: string, url: string, secret: string, events: readonly string[] = EVENT_TYPES): Subscriber =>
  ({ name, url, secret, events: new Set(events) as Subscriber['events'] })

async function waitFor (what: () => boolean | Promise<boolean>): Promise<void> {
  while (!await what()) await new Promise((resolve) => setTimeout(resolve, 20))
}

/** The seqs each appointment's events were answered 2xx in, in arrival order. */
function orderPerAppointment (received: Received[]): Record<string, number[]> {
  const out: Record<string, number[]> = {}
  for (const r of received) (out[r.appointmentId] ??= []).push(r.body.seq)
  return out
}

// A repeat of an event (an attempt timed out after the receiver answered) may come before the next one.
const increasing = (seqs: number[]): boolean => seqs.every((s, i) => i === 0 || s >= seqs[i - 1])

t.test('appended events arrive signed, in order, as Standard Webhooks payloads; only the types subscribed', async (t) => {
  const secret = testSecret()
  const receiver = await receiverFor(t, secret)
  const cancels = await receiverFor(t, secret)
  const { log, metrics, delivery } = await deliver(t, [subscriber('crm', receiver.url, secret), subscriber('cancels', cancels.url, secret, ['appointment.canceled'])])
  await new Promise((resolve) => setTimeout(resolve, 100))
  const appended = await log.append([change('10', 'appointment.created'), change('11', 'appointment.created'), change('10'), change('10', 'appointment.canceled'), change('11')])

  await receiver.until(() => receiver.delivered.length === 5)
  await cancels.until(() => cancels.delivered.length === 1)
  t.same(receiver.unverified, [], 'every request verifies with the subscriber\'s secret')
  t.same(receiver.delivered.map((r) => r.webhookId).sort(), appended.map((e) => e.id).sort(), 'each event once, webhook-id its event id')
  const first = receiver.delivered.find((r) => r.webhookId === appended[0].id)
  t.same(first?.body, { id: appended[0].id, seq: appended[0].seq, type: 'appointment.created', timestamp: appended[0].seenAt, data: appended[0].data }, 'type, timestamp and data, with the id and place')
  t.same(orderPerAppointment(receiver.delivered), { 10: [1, 3, 4], 11: [2, 5] }, 'each appointment\'s events in order')
  t.same(cancels.delivered.map((r) => r.body.type), ['appointment.canceled'], 'a subscriber gets only its types')
  // The receiver answers before Ponte records the delivery.
  await waitFor(async () => (await delivery.status()).every((s) => s.pending === 0))
  t.match(await metrics.text(), /ponte_webhook_deliveries_total\{subscriber="crm"\} 5/, 'counted as delivered')
  t.match(await metrics.text(), /ponte_webhook_delivery_latency_seconds_count\{subscriber="crm"\} 5/, 'latency observed')
})

t.test('a 500 is retried with the same webhook-id until a 200', async (t) => {
  const secret = testSecret()
  const receiver = await receiverFor(t, secret)
  let calls = 0
  receiver.answer = () => ++calls <= 2 ? 500 : 200
  const { log, delivery, metrics } = await deliver(t, [subscriber('crm', receiver.url, secret)])
  await new Promise((resolve) => setTimeout(resolve, 100))
  const [event] = await log.append([change('20')])
  await receiver.until(() => receiver.delivered.length === 1)
  t.same(receiver.received.map((r) => [r.webhookId, r.status]), [[event.id, 500], [event.id, 500], [event.id, 200]], 'the same id on every attempt')
  t.same(receiver.unverified, [], 'each attempt freshly signed and verified')
  t.match(await metrics.text(), /ponte_webhook_failed_attempts_total\{subscriber="crm",kind="http-500"\} 2/, 'failed attempts counted by kind')
  await waitFor(async () => (await delivery.status())[0].pending === 0)
  t.same(await delivery.status(), [{ name: 'crm', pending: 0, retrying: 0, deadLettered: 0, lastError: 'http-500' }], 'nothing owed; the last error kept')
})

t.test('a receiver down for a while gets every event afterwards, each appointment in order', async (t) => {
  const secret = testSecret()
  const probe = await WebhookReceiver.start(secret)
  const url = probe.url
  const port = Number(new URL(url).port)
  await probe.close() // the port is closed: connections are refused
  const { log, delivery } = await deliver(t, [subscriber('crm', url, secret)], { concurrency: 2 })
  await new Promise((resolve) => setTimeout(resolve, 100))
  const appended = await log.append(['30', '31', '30', '32', '31', '30', '32', '30'].map((id) => change(id)))
  await waitFor(async () => (await delivery.status())[0].retrying >= 2)
  const status = (await delivery.status())[0]
  t.equal(status.lastError, 'connection', '/ready\'s kind for a refused connection')
  t.equal(status.pending, 8, 'all owed meanwhile')

  const receiver = await receiverFor(t, secret, port)
  await receiver.until(() => receiver.delivered.length >= 8)
  t.same(new Set(receiver.delivered.map((r) => r.webhookId)), new Set(appended.map((e) => e.id)), 'every event arrived')
  for (const [id, seqs] of Object.entries(orderPerAppointment(receiver.delivered))) t.ok(increasing(seqs), `appointment ${id} in order: ${seqs.join(', ')}`)
})

t.test('one appointment failing does not hold back another\'s events; its own wait behind its first', async (t) => {
  const secret = testSecret()
  const receiver = await receiverFor(t, secret)
  let failing = true
  receiver.answer = (r) => r.appointmentId === '40' && failing ? 503 : 200
  const { log } = await deliver(t, [subscriber('crm', receiver.url, secret)])
  await new Promise((resolve) => setTimeout(resolve, 100))
  const appended = await log.append([change('40'), change('41'), change('40'), change('41'), change('41')])
  await receiver.until(() => receiver.delivered.length === 3 && receiver.received.filter((r) => r.appointmentId === '40').length >= 3)
  t.same(receiver.delivered.map((r) => r.body.seq), [2, 4, 5], 'the other appointment\'s events all delivered')
  t.same(new Set(receiver.received.filter((r) => r.appointmentId === '40').map((r) => r.body.seq)), new Set([1]), 'the failing one\'s later event not sent while its first is owed')
  failing = false
  await receiver.until(() => receiver.delivered.length === 5)
  t.same(orderPerAppointment(receiver.delivered)['40'], [1, 3], 'then in order')
  t.equal(receiver.delivered.find((r) => r.body.seq === 1)?.webhookId, appended[0].id, 'the same webhook-id as its failed attempts')
})

t.test('past the retry period: dead-lettered, shown in /ready, metrics and the CLI, replayed and delivered', async (t) => {
  const secret = testSecret()
  const receiver = await receiverFor(t, secret)
  let down = true
  receiver.answer = (r) => r.body.seq === 1 && down ? 500 : 200
  const { log, delivery, metrics, file } = await deliver(t, [subscriber('crm', receiver.url, secret)], { retryForMs: 300 })
  await new Promise((resolve) => setTimeout(resolve, 100))
  const [dead, later, other] = await log.append([change('50'), change('50', 'appointment.deleted'), change('51')])
  await waitFor(async () => (await delivery.status())[0].deadLettered === 1)
  await receiver.until(() => receiver.delivered.length === 2)
  await waitFor(async () => (await delivery.status())[0].pending === 0)
  t.same(receiver.delivered.map((r) => r.webhookId).sort(), [later.id, other.id].sort(), 'the appointment\'s next event, and another appointment\'s, delivered')
  t.same(receiver.received.filter((r) => r.webhookId === dead.id).map((r) => r.status).every((s) => s === 500), true, 'the dead one was only ever refused')
  t.ok(receiver.received.filter((r) => r.webhookId === dead.id).length >= 2, 'and was retried before giving up')

  const inst = await openSample('mappings/clinica-sorriso.yaml')
  t.teardown(async () => { await inst.close() })
  const config = loadConfig({ API_KEYS: 'test-key-0123456789abcdef', IDEMPOTENCY_STORE: ':memory:' })
  const app = await buildApp(createPonte(config, inst.db, inst.compiled), { logLevel: false, webhooks: delivery })
  t.teardown(async () => { await app.close() })
  const ready = await app.inject('/ready')
  t.same(ready.json().webhooks, { delivering: true, subscribers: [{ name: 'crm', pending: 0, retrying: 0, deadLettered: 1, lastError: 'http-500' }] }, '/ready: per subscriber, by name')
  // the secret is random base64, so plain substrings, never a pattern built from it
  t.same([secret.slice(6, 20), '127.0.0.1', PATIENT].filter((held) => ready.body.includes(held)), [], 'no secret, URL or payload in /ready')
  const text = await metrics.text()
  t.match(text, /ponte_webhook_dead_lettered_total\{subscriber="crm"\} 1/, 'dead letters counted')
  t.match(text, /ponte_webhook_events\{subscriber="crm",state="dead-lettered"\} 1/, 'and gauged')

  const listed = await cli(['webhooks', 'dead-letters', '--store', file])
  t.equal(listed.code, 1, 'dead-letters exits 1 when there are some')
  t.match(listed.out, new RegExp(`^crm\\t${dead.id}\\tseq 1\\tappointment.updated\\tappointment 50\\t\\d+ attempts\\thttp-500\\tdead since `), 'one line naming the event and its last error')
  t.notMatch(listed.out, PATIENT, 'never the payload')
  const json = JSON.parse((await cli(['webhooks', 'dead-letters', '--store', file, '--json'])).out) as Array<{ eventId: string }>
  t.same(json.map((d) => d.eventId), [dead.id], '--json lists the same')
  t.equal((await cli(['webhooks', 'replay', '--store', file])).code, 2, 'replay needs an event id or --all')
  const unknown = await cli(['webhooks', 'replay', 'evt_nothing', '--store', file])
  t.same([unknown.code, unknown.out], [1, '0 deliveries owed again\n'], 'an id with no dead letter: exit 1')
  t.equal((await cli(['webhooks', 'dead-letters', '--store', join(dir, 'missing.sqlite')])).code, 2, 'a store that does not exist is a usage error')

  down = false
  const replayed = await cli(['webhooks', 'replay', dead.id, '--subscriber', 'crm', '--store', file])
  t.same([replayed.code, replayed.out], [0, '1 delivery owed again\n'], 'replayed by its id')
  await receiver.until(() => receiver.delivered.some((r) => r.webhookId === dead.id))
  t.same(receiver.delivered.filter((r) => r.webhookId === dead.id).length, 1, 'delivered once, with its own webhook-id')
  await waitFor(async () => (await delivery.status())[0].pending === 0)
  t.same((await cli(['webhooks', 'dead-letters', '--store', file])).out, 'no dead-lettered deliveries\n', 'the list is empty again')
  t.equal((await cli(['webhooks', 'replay', '--all', '--store', file])).out, '0 deliveries owed again\n', '--all with nothing to replay')
})

t.test('two processes\' stores on one file: of two claims of one due delivery exactly one wins', async (t) => {
  const file = join(dir, `events-${++files}.sqlite`)
  const logA = await SqliteEventLog.open(file)
  const logB = await SqliteEventLog.open(file)
  t.teardown(() => { logA.close(); logB.close() })
  const [a, b] = [await DeliveryStore.open(logA.db), await DeliveryStore.open(logB.db)]
  const [first, second] = await logA.append([change('70'), change('70')])
  await a.cursor('crm', 0)
  await a.enqueue('crm', [first, second], second.seq, 1000)
  t.same((await a.due('crm', 1000, 10)).owed.map((o) => o.event.seq), [first.seq], 'A sees the appointment\'s first event due')
  t.same((await b.due('crm', 1000, 10)).owed.map((o) => o.event.seq), [first.seq], 'so does B')
  t.same([await a.claim('crm', first.seq, 1000, 5000), await b.claim('crm', first.seq, 1000, 5000)], [true, false], 'A claims it; B\'s claim of the same row changes nothing')
  t.equal(await b.claim('crm', second.seq, 1000, 5000), false, 'the next event of the appointment cannot be claimed while the first is owed')
  t.equal(await b.enqueue('crm', [first, second], second.seq, 1000), second.seq, 'copying events already copied moves nothing back')
  await a.delivered('crm', first.seq)
  t.equal(await a.enqueue('crm', [first], first.seq, 1000), second.seq, 'a stale cursor neither re-owes a delivered event nor moves the cursor back')
  t.same((await b.due('crm', 1000, 10)).owed.map((o) => o.event.seq), [second.seq], 'only the second is owed now')
  t.same([await a.lease('A', 1000, 2000), await b.lease('B', 1500, 2500), await a.lease('A', 1900, 3000)], [true, false, true], 'the lease: taken, refused to another while live, renewed by its owner')
  t.equal(await b.lease('B', 3000, 4000), true, 'taken over once expired')
})

t.test('two deliveries on one events file: one holds the lease, each event delivered once, the other takes over at stop', async (t) => {
  const secret = testSecret()
  const receiver = await receiverFor(t, secret)
  const file = join(dir, `events-${++files}.sqlite`)
  const settings = { subscribers: [subscriber('crm', receiver.url, secret)], timeoutMs: 10_000, retryForMs: 60_000, backoffMs: 20, backoffMaxMs: 100, concurrency: 4, pollMs: 50, leaseMs: 300 }
  const logs = [await SqliteEventLog.open(file, { pollMs: 20 }), await SqliteEventLog.open(file, { pollMs: 20 })]
  const deliveries = [await WebhookDelivery.open(logs[0], settings, logger), await WebhookDelivery.open(logs[1], settings, logger)]
  const stopped = new Set<number>()
  t.teardown(async () => {
    for (const [i, d] of deliveries.entries()) if (!stopped.has(i)) await d.stop()
    for (const l of logs) l.close()
  })
  for (const d of deliveries) d.start()
  await waitFor(() => deliveries.some((d) => d.holdsLease()))
  // Both have made their first pass (each subscriber's cursor at the head) before events come.
  await new Promise((resolve) => setTimeout(resolve, 300))
  t.equal(deliveries.filter((d) => d.holdsLease()).length, 1, 'exactly one holds the lease')
  const appended = await logs[1].append(Array.from({ length: 20 }, (_, i) => change(String(80 + (i % 5)))))
  await receiver.until(() => receiver.delivered.length >= 20)
  await waitFor(async () => (await deliveries[0].status())[0].pending === 0)
  await new Promise((resolve) => setTimeout(resolve, 300))
  t.same(receiver.delivered.map((r) => r.webhookId).sort(), appended.map((e) => e.id).sort(), 'each event delivered exactly once')
  t.ok(Object.values(orderPerAppointment(receiver.delivered)).every(increasing), 'each appointment in order')

  const holder = deliveries.findIndex((d) => d.holdsLease())
  await deliveries[holder].stop()
  stopped.add(holder)
  const other = deliveries[1 - holder]
  await waitFor(() => other.holdsLease())
  t.pass('the other takes the lease over once the holder stops')
  const more = await logs[1 - holder].append([change('80'), change('90')])
  await receiver.until(() => receiver.delivered.length >= 22)
  await new Promise((resolve) => setTimeout(resolve, 300))
  t.same(receiver.delivered.slice(20).map((r) => r.webhookId).sort(), more.map((e) => e.id).sort(), 'it delivers the later events, once each, and none of the earlier again')
  t.equal(receiver.unverified.length, 0, 'every request verified')
})

t.test('stop aborts a request in flight, which stays owed', async (t) => {
  const secret = testSecret()
  const receiver = await receiverFor(t, secret)
  receiver.answer = () => 'hold'
  const file = join(dir, 'stop.sqlite')
  const log = await SqliteEventLog.open(file, { pollMs: 20 })
  t.teardown(() => { log.close() })
  const settings = { subscribers: [subscriber('crm', receiver.url, secret)], timeoutMs: 600_000, retryForMs: 60_000, backoffMs: 20, backoffMaxMs: 100, concurrency: 4, pollMs: 50 }
  const delivery = await WebhookDelivery.open(log, settings, logger)
  delivery.start()
  await new Promise((resolve) => setTimeout(resolve, 100))
  await log.append([change('60')])
  await receiver.until(() => receiver.received.length === 1)
  await delivery.stop()
  t.same(await delivery.status(), [{ name: 'crm', pending: 1, retrying: 0, deadLettered: 0, lastError: null }], 'owed, not counted as a failure')

  receiver.answer = () => 200
  const again = await WebhookDelivery.open(log, settings, logger)
  again.start()
  t.teardown(async () => { await again.stop() })
  await receiver.until(() => receiver.delivered.length === 1)
  t.equal(receiver.delivered[0].webhookId, receiver.received[0].webhookId, 'sent at once on the next start, same webhook-id')
})

t.test('an events file locked by another process: delivery waits, says so, and goes on', async (t) => {
  const secret = testSecret()
  const receiver = await receiverFor(t, secret)
  const file = join(dir, 'locked.sqlite')
  const log = await SqliteEventLog.open(file, { pollMs: 20 })
  t.teardown(() => { log.close() })
  const settings = { subscribers: [subscriber('crm', receiver.url, secret)], timeoutMs: 10_000, retryForMs: 60_000, backoffMs: 20, backoffMaxMs: 100, concurrency: 4, pollMs: 50 }
  const first = await WebhookDelivery.open(log, settings, logger)
  first.start()
  await new Promise((resolve) => setTimeout(resolve, 100))
  await first.stop()
  // Appended while no delivery runs; then a writer holds the file (WAL lets readers on).
  const [event] = await log.append([change('80')])
  const other = new BetterSqlite3(file)
  t.teardown(() => { other.close() })
  other.exec('BEGIN IMMEDIATE')
  const before = logLines.length
  const second = await WebhookDelivery.open(log, settings, logger)
  second.start()
  t.teardown(async () => { await second.stop() })
  // With the lock held it can take neither its lease nor its state: either is logged.
  const said = (l: string): boolean => l.includes('could not read its state') || l.includes('lease could not be renewed')
  await waitFor(() => logLines.slice(before).some(said))
  t.equal(receiver.received.length, 0, 'nothing sent while its state cannot be written')
  other.exec('ROLLBACK')
  await receiver.until(() => receiver.delivered.length === 1)
  t.equal(receiver.delivered[0].webhookId, event.id, 'delivered once the lock is gone')
  t.match(logLines.slice(before).find(said), /event-store-unavailable|locked by another process/, 'the log says the store was locked')
})

t.test('/ready does not wait long on delivery state: webhooks unknown, still ready', async (t) => {
  const inst = await openSample('mappings/clinica-sorriso.yaml')
  t.teardown(async () => { await inst.close() })
  const config = loadConfig({ API_KEYS: 'test-key-0123456789abcdef', IDEMPOTENCY_STORE: ':memory:', EVENTS_STORE: ':memory:' })
  // A status that never answers stands for an events file locked for longer than a probe waits.
  const never = { status: async () => await new Promise<never>(() => {}), holdsLease: () => false }
  const app = await buildApp(createPonte(config, inst.db, inst.compiled), { logLevel: false, webhooks: never })
  t.teardown(async () => { await app.close() })
  const ready = await app.inject('/ready')
  t.equal(ready.statusCode, 200, 'ready all the same')
  t.same(ready.json().webhooks, { delivering: false, subscribers: null, state: 'unknown' }, 'the webhooks section says unknown')
})

t.test('no log line holds a secret, a URL or a payload, at trace', async (t) => {
  t.ok(logLines.some((l) => l.includes('webhook delivered')), 'deliveries were logged')
  t.ok(logLines.some((l) => l.includes('will retry')), 'and failures')
  for (const line of logLines) {
    if (/whsec_|127\.0\.0\.1|Joaquina|Patient-Name|\/hooks/.test(line)) t.fail(`a log line holds a secret, URL or payload: ${line}`)
  }
})

/** Runs `ponte …` in this process, capturing its output. */
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
