// Issue 28: WEBHOOKS read again on SIGHUP, as an operator does it (`kill -HUP` a running
// Ponte, src/server.ts in its own process), over a small legacy schema made here on each test
// database, with the events in Redis (and, on SQLite, in the events file too). A subscriber
// added gets events from then on, one removed gets nothing more, one changed (URL, secret,
// types) is sent with its new settings, and one unchanged keeps what it was owed across the
// reload; a WEBHOOKS that no longer checks keeps the previous list and says why in one line.
import t, { type Test } from 'tap'
import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Redis } from 'ioredis'
import { testDialects } from '../../helpers/contract.js'
import { scratchOn } from '../../helpers/scratch-servers.js'
import { startServer, type ServerProcess } from '../../helpers/server-process.js'
import { testSecret, WebhookReceiver } from '../../helpers/webhook-receiver.js'
import { addDays, todayIn } from '../../../src/normalise/datetime.js'

const ZONE = 'Europe/Vienna'
const day = (n: number): string => addDays(todayIn(ZONE), n)
const KEY = `webhooks-reload-${randomUUID()}`
const PATIENT = 'Hedwig Obermaier'

const SCHEMA = `
CREATE TABLE kunde (kno INTEGER PRIMARY KEY, kname VARCHAR(60) NOT NULL);
CREATE TABLE arzt (ano INTEGER PRIMARY KEY, aname VARCHAR(60) NOT NULL);
CREATE TABLE termin (tno INTEGER PRIMARY KEY, tdate DATE NOT NULL, tslot VARCHAR(5) NOT NULL, kno INTEGER, ano INTEGER, st CHAR(1) NOT NULL);
INSERT INTO kunde VALUES (1, '${PATIENT}');
INSERT INTO arzt VALUES (3, 'Dr. Anton Grill');
`
const MAPPING = `version: 1
installation: reload-hooks
timezone: ${ZONE}
states:
  values: [WAITING, CONFIRMED, CANCELED]
resources:
  appointment:
    table: termin
    key: tno
    start:
      date: { column: tdate, format: date }
      hour: { column: tslot, format: text }
    state: { column: st, map: { W: WAITING, K: CONFIRMED, Z: CANCELED } }
    refs: { client: kno, professional: ano }
    changes:
      window: { daysBefore: 1, daysAfter: 30 }
      pollSeconds: 0.3
  client:
    table: kunde
    key: kno
    fields: { name: kname }
  professional:
    table: arzt
    key: ano
    fields: { name: aname }
`

const redis = new Redis('redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 })
t.teardown(async () => { await redis.quit() })

async function cleanRedis (prefix: string): Promise<void> {
  let cursor = '0'
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500)
    if (keys.length > 0) await redis.del(...keys)
    cursor = next
  } while (cursor !== '0')
}

async function within<T> (ms: number, what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_resolve, reject) => { timer = setTimeout(() => { reject(new Error(`${what}: not within ${ms} ms`)) }, ms) })
  try { return await Promise.race([work, late]) } finally { clearTimeout(timer) }
}

/** Sends SIGHUP and waits for the webhooks' reload line (reloaded or failed), which it returns. */
async function hupWebhooks (server: ServerProcess): Promise<any> {
  const before = server.lines().length
  server.child.kill('SIGHUP')
  const find = (): any => server.lines().slice(before).find((l) => typeof l.msg === 'string' && /^webhooks reload/.test(l.msg))
  await within(20_000, 'the webhooks reload line', (async () => { while (find() === undefined) await new Promise((resolve) => setTimeout(resolve, 50)) })())
  return find()
}

const types = (r: WebhookReceiver, id: string): string[] => {
  // Each event once (a retried one arrives again under its webhook-id), in the order first received.
  const seen = new Set<string>()
  return r.delivered.filter((d) => d.appointmentId === id && !seen.has(d.webhookId) && seen.add(d.webhookId) !== undefined).map((d) => d.body.type)
}

async function reloadRun (t: Test, dialect: ReturnType<typeof testDialects>[number], store: 'redis' | 'file'): Promise<void> {
  const scratch = await scratchOn(t, dialect, SCHEMA, MAPPING)
  const dir = mkdtempSync(join(tmpdir(), 'ponte-hooks-reload-'))
  t.teardown(() => { rmSync(dir, { recursive: true, force: true }) })
  const mapping = join(dir, 'mapping.yaml')
  writeFileSync(mapping, MAPPING)
  const secret = { chat: testSecret(), chatNew: testSecret(), crm: testSecret(), old: testSecret(), fresh: testSecret() }
  const [chat, chatNew, crm, old, fresh] = await Promise.all([secret.chat, secret.chatNew, secret.crm, secret.old, secret.fresh].map(async (s) => await WebhookReceiver.start(s)))
  t.teardown(async () => { await Promise.all([chat, chatNew, crm, old, fresh].map(async (r) => { await r.close() })) })
  // crm is down at first: what it is owed must outlive the reload.
  crm.answer = () => 503
  const webhooks = join(dir, 'webhooks.yaml')
  const crmEntry = `  - name: crm\n    url: ${crm.url}\n    secretEnv: CRM_SECRET\n`
  writeFileSync(webhooks, `subscribers:
  - name: chat
    url: ${chat.url}
    secretEnv: CHAT_SECRET
${crmEntry}  - name: old
    url: ${old.url}
    secretEnv: OLD_SECRET
`)
  const prefix = `ponte-test:webhooks-reload:${randomUUID()}:`
  const server = await startServer({
    DATABASE_URL: scratch.url,
    MAPPING: mapping,
    WEBHOOKS: webhooks,
    CHAT_SECRET: secret.chat,
    CRM_SECRET: secret.crm,
    OLD_SECRET: secret.old,
    WEBHOOK_BACKOFF_MS: '100',
    WEBHOOK_BACKOFF_MAX_MS: '300',
    API_KEYS: `main:write:${KEY}`,
    IDEMPOTENCY_STORE: ':memory:',
    RATE_LIMIT_PER_MINUTE: '0',
    EVENTS_STORE: join(dir, 'events.sqlite'),
    ...(store === 'redis' ? { REDIS_URL: 'redis://127.0.0.1:6379', REDIS_EVENTS_PREFIX: prefix } : {})
  })
  t.teardown(async () => {
    await server.stop()
    await cleanRedis(prefix)
  })
  const ready = async (): Promise<any> => (await (await fetch(server.url('/ready'))).json())

  await scratch.rows(`INSERT INTO termin VALUES (1, '${day(3)}', '10:15', 1, 3, 'W')`)
  await within(15_000, 'chat and old receive the booking', Promise.all([chat, old].map(async (r) => { await r.until(() => types(r, '1').length >= 1) })))
  await within(15_000, 'crm is tried', crm.until(() => crm.received.length >= 1))
  t.equal(crm.delivered.length, 0, 'crm has refused it so far: it is owed')

  // chat moves (URL, secret, types); crm stays as it was; old goes; fresh comes.
  writeFileSync(webhooks, `subscribers:
  - name: chat
    url: ${chatNew.url}
    secret: ${secret.chatNew}
    events: [appointment.canceled]
${crmEntry}  - name: fresh
    url: ${fresh.url}
    secret: ${secret.fresh}
`)
  const reloaded = await hupWebhooks(server)
  t.match(reloaded, { msg: 'webhooks reloaded', subscribers: ['chat', 'crm', 'fresh'], added: ['fresh'], removed: ['old'], changed: ['chat'] }, 'the reload says who came, went and changed')
  if (store === 'file') t.match(reloaded, { forgotten: [{ name: 'old' }] }, 'over the events file the removed one is forgotten at once')
  t.notMatch(JSON.stringify(reloaded), /whsec_|http:\/\//, 'naming no secret and no URL')

  writeFileSync(webhooks, `subscribers:\n${crmEntry}    events: [appointment.moved]\n`)
  const refused = await hupWebhooks(server)
  t.match(refused, { msg: /^webhooks reload failed; still delivering to the previous subscribers/, problems: [/^WEBHOOKS: subscriber "crm": events: unknown type "appointment.moved"/], subscribers: ['chat', 'crm', 'fresh'] }, 'a WEBHOOKS that no longer checks is one line saying what is wrong, and the previous list stays')
  t.equal(server.lines().filter((l) => typeof l.msg === 'string' && l.msg.startsWith('webhooks reload failed')).length, 1, 'one line')
  t.same((await ready()).webhooks.subscribers.map((s: { name: string }) => s.name), ['chat', 'crm', 'fresh'], '/ready shows the list in force')

  await scratch.rows("UPDATE termin SET st = 'Z' WHERE tno = 1")
  await within(15_000, 'chat (new) and fresh receive the cancellation', Promise.all([chatNew, fresh].map(async (r) => { await r.until(() => types(r, '1').includes('appointment.canceled')) })))
  crm.answer = () => 200
  await within(15_000, 'crm receives what it was owed', crm.until(() => types(crm, '1').length >= 3))
  t.same(types(crm, '1'), ['appointment.created', 'appointment.state_changed', 'appointment.canceled'], 'crm, unchanged, gets what it was owed before the reload and after, in order')
  t.same(types(chatNew, '1'), ['appointment.canceled'], 'chat is sent at its new URL, signed with its new secret, its new types only')
  t.same(types(fresh, '1'), ['appointment.state_changed', 'appointment.canceled'], 'fresh gets the events from its reload on')
  t.same([types(chat, '1'), types(old, '1')], [['appointment.created'], ['appointment.created']], 'chat\'s old URL and the removed old get nothing after the reload')
  t.same([chat, chatNew, crm, old, fresh].flatMap((r) => r.unverified), [], 'every request verified with its subscriber\'s secret of the moment')
  t.match((await ready()).webhooks.subscribers, [{ name: 'chat', pending: 0 }, { name: 'crm', pending: 0 }, { name: 'fresh', pending: 0 }], 'nothing left owed')
  t.notOk(server.lines().some((l) => JSON.stringify(l).includes(PATIENT)), 'no log line holds the patient')
}

for (const dialect of testDialects()) {
  t.test(`WEBHOOKS reloaded on SIGHUP over ${dialect}, events in Redis`, async (t) => { await reloadRun(t, dialect, 'redis') })
  if (dialect === 'sqlite') t.test('WEBHOOKS reloaded on SIGHUP over sqlite, events in the events file', async (t) => { await reloadRun(t, dialect, 'file') })
}
