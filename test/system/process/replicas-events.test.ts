// Issue 28, replicas: two Ponte processes (src/server.ts, as production starts them) on one
// legacy database (a small schema made here, on each test database) and the machine's Redis,
// under a key prefix of this run. One polls (the poller lease); a change the desk makes on
// the legacy table is one event, not two; both
// replicas' GET /events answer the same ids in the same order; each subscriber's receiver
// gets each event once (verified with standardwebhooks); a write through the replica that does
// not poll is emitted at once; and after SIGKILL of the poller the other takes over and
// nothing is lost.
import t, { type Test } from 'tap'
import { randomUUID } from 'node:crypto'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Redis } from 'ioredis'
import { testDialects } from '../../helpers/contract.js'
import { deskMapping } from '../../helpers/desk-agenda.js'
import { scratchOn } from '../../helpers/scratch-servers.js'
import { callServer, startServer, type ServerProcess } from '../../helpers/server-process.js'
import { receiverFor, testSecret, webhooksFile, type WebhookReceiver } from '../../helpers/webhook-receiver.js'
import { addDays, todayIn } from '../../../src/normalise/datetime.js'

const ZONE = 'America/Sao_Paulo'
const day = (n: number): string => addDays(todayIn(ZONE), n)
const KEY = `replica-events-${randomUUID()}`
const LEASE_SECONDS = 2
const CRM_TYPES = ['appointment.created', 'appointment.rescheduled']

const SCHEMA = `
CREATE TABLE patient (pno INTEGER PRIMARY KEY, pname VARCHAR(60) NOT NULL);
CREATE TABLE chair (cno INTEGER PRIMARY KEY, cname VARCHAR(60) NOT NULL);
CREATE TABLE visit (vno INTEGER PRIMARY KEY, vday DATE NOT NULL, vtime VARCHAR(5) NOT NULL, pno INTEGER, cno INTEGER, flag CHAR(1) NOT NULL);
INSERT INTO patient VALUES (1, 'Ilse Brandt');
INSERT INTO chair VALUES (4, 'Dr. Teodor Lind');
INSERT INTO visit VALUES (1, '${day(2)}', '09:00', 1, 4, 'W');
`
const MAPPING = deskMapping({
  installation: 'replica-desk',
  zone: ZONE,
  table: 'visit',
  key: 'vno',
  date: 'vday',
  hour: 'vtime',
  state: 'flag',
  codes: ['W', 'K', 'Z'],
  more: ['    refs: { client: pno, professional: cno }'],
  changes: ['window: { daysBefore: 1, daysAfter: 30 }', 'pollSeconds: 0.3'],
  client: { table: 'patient', key: 'pno', name: 'pname' },
  professional: { table: 'chair', key: 'cno', name: 'cname' }
})

const redis = new Redis('redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 })
t.teardown(async () => { await redis.quit() })

/** Everything a run wrote under `prefix` (once its servers are gone). */
async function cleanRedis (prefix: string): Promise<void> {
  let cursor = '0'
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500)
    if (keys.length > 0) await redis.del(...keys)
    cursor = next
  } while (cursor !== '0')
}

interface Event { seq: number, id: string, type: string, appointmentId: string, data: Record<string, any> }

const call = async (server: ServerProcess, method: string, path: string, body?: unknown): Promise<{ status: number, body: any }> => await callServer(server, KEY, method, path, body)

const feed = async (server: ServerProcess): Promise<Event[]> => (await call(server, 'GET', '/events?after=0&limit=500')).body.events as Event[]

/** Waits (long-polling the feed of `server`) until `done` holds for its events, at most `ms`. */
async function feedUntil (server: ServerProcess, done: (events: Event[]) => boolean, ms = 15_000): Promise<Event[]> {
  const until = Date.now() + ms
  for (;;) {
    const events = await feed(server)
    if (done(events)) return events
    if (Date.now() > until) throw new Error(`the feed did not reach the expected state in ${ms} ms: ${JSON.stringify(events.map((e) => [e.seq, e.type, e.appointmentId]))}`)
    const head = events.length === 0 ? 0 : events[events.length - 1].seq
    await call(server, 'GET', `/events?after=${head}&wait=1`)
  }
}

/** Which of `servers` holds the poller lease under `prefix` now (its token names its pid), if either. */
async function pollerOf (prefix: string, servers: ServerProcess[]): Promise<ServerProcess | undefined> {
  const token = await redis.get(`${prefix}poller-lease`)
  return servers.find((s) => token?.split('-').includes(String(s.child.pid)))
}

const polls = async (server: ServerProcess): Promise<number> => (await call(server, 'GET', '/ready')).body.changes.polls as number

const sameTypes = (e: Event): boolean => CRM_TYPES.includes(e.type)

/**
 * What a receiver must have got of `events`: each id (once each, or `repeats` more under an id
 * already sent), and per appointment in the log's order (delivery orders within an appointment only).
 */
function deliveredOnce (t: Test, receiver: WebhookReceiver, events: Event[], name: string, repeats = 0): void {
  const ids = receiver.delivered.map((r) => r.webhookId)
  t.same([...new Set(ids)].sort(), events.map((e) => e.id).sort(), `${name} received every event under its id`)
  t.ok(ids.length - events.length <= repeats, `${name}: ${ids.length - events.length} repeated (at most ${repeats})`)
  const firsts = ids.filter((id, i) => ids.indexOf(id) === i)
  const byAppointment = (list: Array<{ id: string, appointmentId: string }>): Record<string, string[]> => {
    const out: Record<string, string[]> = {}
    for (const e of list) (out[e.appointmentId] ??= []).push(e.id)
    return out
  }
  const place = new Map(events.map((e) => [e.id, e]))
  t.same(byAppointment(firsts.map((id) => place.get(id)!)), byAppointment(events), `${name}: each appointment's events in the log's order`)
}

for (const dialect of testDialects()) {
  t.test(`two replicas on one Redis over ${dialect}`, async (t) => {
    const scratch = await scratchOn(t, dialect, SCHEMA, MAPPING)
    // The desk program's statements, straight on the legacy table.
    const desk = async (sql: string): Promise<Array<Record<string, any>>> => await scratch.rows(sql)
    const dir = mkdtempSync(join(tmpdir(), 'ponte-replica-events-'))
    t.teardown(() => { rmSync(dir, { recursive: true, force: true }) })
    const mapping = join(dir, 'mapping.yaml')
    writeFileSync(mapping, MAPPING)
    // Two subscribers, each its own receiver and secret; the second takes only some types.
    const secrets = [testSecret(), testSecret()]
    const [chat, crm] = await Promise.all(secrets.map(async (s) => await receiverFor(t, s)))
    const webhooks = webhooksFile(join(dir, 'webhooks.yaml'), [
      { name: 'chat', url: chat.url, secretEnv: 'CHAT_SECRET' },
      { name: 'crm', url: crm.url, secretEnv: 'CRM_SECRET', events: CRM_TYPES }
    ])
    const prefix = `ponte-test:replica-events:${randomUUID()}:`
    const unusedStore = join(dir, 'events-not-used.sqlite')
    const env = {
      DATABASE_URL: scratch.url,
      MAPPING: mapping,
      REDIS_URL: 'redis://127.0.0.1:6379',
      REDIS_EVENTS_PREFIX: prefix,
      EVENTS_LEASE_SECONDS: String(LEASE_SECONDS),
      EVENTS_STORE: unusedStore,
      WEBHOOKS: webhooks,
      CHAT_SECRET: secrets[0],
      CRM_SECRET: secrets[1],
      WEBHOOK_BACKOFF_MS: '100',
      API_KEYS: `main:write:${KEY}`,
      IDEMPOTENCY_STORE: ':memory:',
      RATE_LIMIT_PER_MINUTE: '0'
    }
    // One after the other: the first primes the shared memory, the second finds it primed.
    const a = await startServer(env)
    const b = await startServer(env)
    const poller = async (): Promise<ServerProcess | undefined> => await pollerOf(prefix, [a, b])
    try {
      await t.test('one replica polls; a desk change is one event; both feeds and both subscribers agree', async (t) => {
        const holder = await poller()
        t.ok(holder, 'one of the two holds the poller lease')
        const other = holder === a ? b : a
        const lines = (s: ServerProcess): any[] => s.lines().filter((l) => l.msg === 'poller lease taken: this replica detects changes')
        t.equal(lines(holder!).length + lines(other).length, 1, 'the lease was taken once, by one process')
        t.notOk(existsSync(unusedStore), 'with REDIS_URL no SQLite events file is made')

        await desk(`INSERT INTO visit VALUES (2, '${day(4)}', '14:30', 1, 4, 'W')`)
        let events = await feedUntil(a, (es) => es.some((e) => e.appointmentId === '2'))
        await desk("UPDATE visit SET flag = 'K' WHERE vno = 2")
        events = await feedUntil(b, (es) => es.some((e) => e.appointmentId === '2' && e.type === 'appointment.state_changed'))
        // A few more polls: a second poller would append the same changes again by now.
        const before = await polls(holder!)
        while (await polls(holder!) < before + 3) await new Promise((resolve) => setTimeout(resolve, 100))
        events = await feed(a)
        t.same(events.filter((e) => e.appointmentId === '2').map((e) => e.type), ['appointment.created', 'appointment.state_changed'], 'the insert is one created event and the update one state change, not two of each')
        t.same((await feed(b)).map((e) => [e.seq, e.id]), events.map((e) => [e.seq, e.id]), 'both replicas answer the same ids in the same order')
        t.equal(await polls(other), 0, 'the other replica has not polled once')
        t.match([(await call(holder!, 'GET', '/ready')).body.changes, (await call(other, 'GET', '/ready')).body.changes], [{ polling: true }, { polling: false }], '/ready says which replica polls')
        t.ok(await polls(holder!) > 3, 'the holder polls')

        await chat.until(() => new Set(chat.delivered.map((r) => r.webhookId)).size >= events.length)
        await crm.until(() => new Set(crm.delivered.map((r) => r.webhookId)).size >= events.filter(sameTypes).length)
        deliveredOnce(t, chat, events, 'chat')
        deliveredOnce(t, crm, events.filter(sameTypes), 'crm (its types only)')
        t.same([...chat.unverified, ...crm.unverified], [], 'every request verified by standardwebhooks')
        t.same(chat.delivered.findLast((r) => r.appointmentId === '2')?.body.data.appointment, (await call(other, 'GET', '/appointments/2')).body, 'carrying the appointment as GET answers it')
      })

      await t.test('a write through the replica that does not poll is emitted at once, in both feeds', async (t) => {
        const holder = await poller()
        const other = holder === a ? b : a
        const started = Date.now()
        const moved = await call(other, 'PATCH', '/appointments/1/state', { state: 'CANCELED' })
        if (moved.status !== 200) t.comment(JSON.stringify(moved.body))
        t.equal(moved.status, 200, 'cancelled through the replica that does not poll')
        t.equal((await desk('SELECT flag FROM visit WHERE vno = 1'))[0].flag, 'Z', 'the legacy row holds the cancelled code')
        const events = await feedUntil(holder!, (es) => es.some((e) => e.appointmentId === '1' && e.type === 'appointment.canceled'), 1000)
        t.ok(Date.now() - started < 1000, `in the poller's feed within a second (${Date.now() - started} ms)`)
        t.same(events.filter((e) => e.appointmentId === '1').map((e) => e.type), ['appointment.state_changed', 'appointment.canceled'], 'once: the state change and the cancellation')
        t.same((await feed(other)).map((e) => e.id), events.map((e) => e.id), 'the same sequence on both')
      })

      await t.test('the poller SIGKILLed: the other replica takes over polling and delivery, nothing is lost', async (t) => {
        const holder = (await poller())!
        const other = holder === a ? b : a
        const kept = await feed(other)
        // Made as the poller dies: whichever sees it first, it is one event.
        await desk(`UPDATE visit SET vday = '${day(6)}', vtime = '16:00' WHERE vno = 2`)
        holder.child.kill('SIGKILL')
        const killedAt = Date.now()
        await desk(`INSERT INTO visit VALUES (3, '${day(8)}', '08:00', 1, 4, 'W')`)
        const events = await feedUntil(other, (es) => es.some((e) => e.appointmentId === '3'), 15_000)
        t.ok(Date.now() - killedAt < (LEASE_SECONDS * 4 / 3 + 2) * 1000, `the survivor detected within the lease's bound (${Date.now() - killedAt} ms)`)
        t.equal(await poller(), other, 'the survivor holds the poller lease')
        t.same(events.slice(0, kept.length).map((e) => e.id), kept.map((e) => e.id), 'every earlier event is still in the feed, in place')
        t.same(events.filter((e) => e.appointmentId === '2' && e.type === 'appointment.rescheduled').length, 1, 'the move made as the poller died is one rescheduled event')
        t.same(events.filter((e) => e.appointmentId === '3').map((e) => e.type), ['appointment.created'], 'the insert after it, one created event')
        t.same(events.map((e) => e.seq), events.map((_, i) => i + 1), 'the sequence has no hole and no repeat')

        await chat.until(() => new Set(chat.delivered.map((r) => r.webhookId)).size >= events.length)
        await crm.until(() => new Set(crm.delivered.map((r) => r.webhookId)).size >= events.filter(sameTypes).length)
        // A delivery cut off by the kill is sent again by the survivor, under the same webhook-id.
        deliveredOnce(t, chat, events, 'chat', 4)
        deliveredOnce(t, crm, events.filter(sameTypes), 'crm (its types only)', 4)
        t.same([...chat.unverified, ...crm.unverified], [], 'every request verified')
      })
    } finally {
      await Promise.all([a.stop(), b.stop()])
      await cleanRedis(prefix)
    }
  })
}
