// Issue 28 from outside: `npm start`'s server on the sample, a subscriber in WEBHOOKS and a
// receiver that verifies every request with standardwebhooks. A booking and a cancellation
// through Ponte arrive signed, in order, carrying the appointment as GET answers it, and the
// pull feed holds the same events under the same ids.
import t from 'tap'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { callServer, startServer } from '../../helpers/server-process.js'
import { receiverFor, testSecret, webhooksFile } from '../../helpers/webhook-receiver.js'

const KEY = 'end-to-end-key-0123456789abcdef0123'
const dir = mkdtempSync(join(tmpdir(), 'ponte-hooks-e2e-'))
t.teardown(() => { rmSync(dir, { recursive: true, force: true }) })

const secret = testSecret()
const receiver = await receiverFor(t, secret)
const webhooks = webhooksFile(join(dir, 'webhooks.yaml'), [{ name: 'chat', url: receiver.url, secretEnv: 'CHAT_SECRET' }])
const server = await startServer({ API_KEYS: KEY, WEBHOOKS: webhooks, CHAT_SECRET: secret, EVENTS_STORE: join(dir, 'events.sqlite'), IDEMPOTENCY_STORE: ':memory:', RATE_LIMIT_PER_MINUTE: '0' })
t.teardown(async () => { await server.stop() })

const call = async (method: string, path: string, body?: unknown): Promise<{ status: number, body: any }> => await callServer(server, KEY, method, path, body)

t.test('a booking and its cancellation through Ponte arrive as signed webhooks and in the feed', async (t) => {
  const professionals = (await call('GET', '/professionals?enabled=true')).body as Array<{ id: string }>
  let slot: { date: string, hour: string, location?: { id: string } } | undefined
  let professional = ''
  for (const p of professionals) {
    const offered = (await call('GET', `/availability?start=2031-03-03&end=2031-03-07&professional=${p.id}`)).body
    if (Array.isArray(offered) && offered.length > 0) { slot = offered[0]; professional = p.id; break }
  }
  if (slot === undefined) throw new Error('the sample offers no time in the week of 2031-03-03')
  const client = await call('POST', '/clients', { name: 'Webhook Receiver Test', phone: '+5511970001234' })
  t.equal(client.status, 200, 'a client to book')

  const booked = await call('POST', '/appointments', { date: slot.date, hour: slot.hour, client: client.body.id, professional, ...(slot.location ? { location: slot.location.id } : {}) })
  t.equal(booked.status, 200, 'booked')
  const id = String(booked.body.id)
  await receiver.until(() => receiver.delivered.some((r) => r.appointmentId === id))
  const created = receiver.delivered.find((r) => r.appointmentId === id)
  t.equal(created?.body.type, 'appointment.created', 'the booking arrives as appointment.created')
  const read = await call('GET', `/appointments/${id}`)
  t.same(created?.body.data.appointment, read.body, 'carrying the appointment as GET /appointments/{id} answers it')

  const canceled = await call('PATCH', `/appointments/${id}/state`, { state: 'CANCELED' })
  t.equal(canceled.status, 200, 'cancelled')
  await receiver.until(() => receiver.delivered.filter((r) => r.appointmentId === id).length >= 3)
  const mine = receiver.delivered.filter((r) => r.appointmentId === id)
  t.same(mine.map((r) => r.body.type), ['appointment.created', 'appointment.state_changed', 'appointment.canceled'], 'then the state change and the cancellation, in order')
  t.same(mine.map((r) => r.body.seq), [...mine.map((r) => r.body.seq)].sort((a, b) => a - b), 'in the order of the log')
  t.same(receiver.unverified, [], 'every request verified by standardwebhooks')

  const feed = await call('GET', '/events?after=0&limit=500')
  t.equal(feed.status, 200, 'the pull feed answers')
  const inFeed = (feed.body.events as Array<{ id: string, appointmentId: string, type: string }>).filter((e) => e.appointmentId === id)
  t.same(inFeed.map((e) => [e.id, e.type]), mine.map((r) => [r.webhookId, r.body.type]), 'the feed holds the same events under the same ids')

  const ready = await call('GET', '/ready')
  t.match(ready.body.webhooks, { subscribers: [{ name: 'chat', pending: 0, deadLettered: 0 }] }, '/ready shows the subscriber with nothing owed')
  t.notMatch(JSON.stringify(ready.body), secret.slice(6, 20), 'and never its secret')
  t.notOk(server.lines().some((l) => JSON.stringify(l).includes('Webhook Receiver Test')), 'no log line holds the patient\'s name')
})
