// A webhook subscriber removed from WEBHOOKS no longer holds events past EVENTS_RETENTION_DAYS:
// at start its cursor and owed deliveries are forgotten (the ones still listed keep theirs; with
// WEBHOOKS unset no one is),
// and the purge then removes the old prefix. Read back from the events file itself.
import t from 'tap'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { SqliteEventLog } from '../../../../src/events/log.js'
import { DeliveryStore } from '../../../../src/events/delivery/store.js'
import { forgetRemovedSubscribers } from '../../../../src/events/delivery/open.js'
import { loadConfig } from '../../../../src/config.js'
import type { NewEvent } from '../../../../src/events/event.js'
import { startServer } from '../../../helpers/server-process.js'
import { testSecret } from '../../../helpers/webhook-receiver.js'

const DAY_MS = 24 * 3600_000
const dir = mkdtempSync(join(tmpdir(), 'ponte-removed-subs-'))
t.teardown(() => { rmSync(dir, { recursive: true, force: true }) })

// Seen 40 days ago: past the default retention of 30 days.
const OLD = new Date(Date.now() - 40 * DAY_MS).toISOString()
const old = (id: string): NewEvent => ({ type: 'appointment.updated', appointmentId: id, seenAt: OLD, data: { appointment: { id } } })

/** A file where `kept` has seen every event and `gone` still owes the first two. */
async function fileWithTwoSubscribers (file: string): Promise<{ log: SqliteEventLog, store: DeliveryStore }> {
  const log = await SqliteEventLog.open(file)
  const store = await DeliveryStore.open(log.db)
  await store.cursor('kept', 0)
  await store.cursor('gone', 0)
  const events = await log.append(['1', '2', '3', '4', '5'].map(old))
  await store.enqueue('kept', [], events[4].seq, Date.now())
  await store.enqueue('gone', events.slice(0, 2), 2, Date.now())
  return { log, store }
}

const table = (file: string, sql: string): unknown[] => {
  const db = new BetterSqlite3(file, { readonly: true })
  try { return db.prepare(sql).all() } finally { db.close() }
}

t.test('forgetAllBut drops the removed subscriber only; the purge then removes the expired prefix', async (t) => {
  const file = join(dir, 'store.sqlite')
  const { log, store } = await fileWithTwoSubscribers(file)
  t.teardown(() => { log.close() })
  const cutoff = Date.now() - 30 * DAY_MS
  t.equal(await log.purge(cutoff), 0, 'while listed, the subscriber owed event 1 holds every event')
  t.same(await store.forgetAllBut(['kept']), [{ name: 'gone', owed: 2 }], 'the removed one is forgotten with its two owed deliveries')
  t.same(log.db.prepare('SELECT name, cursor FROM webhook_subscribers ORDER BY name').all(), [{ name: 'kept', cursor: 5 }], 'the listed one keeps its cursor')
  t.same(log.db.prepare('SELECT COUNT(*) AS n FROM webhook_deliveries').get(), { n: 0 }, 'no delivery of the removed one is left')
  t.equal(await log.purge(cutoff), 4, 'the purge removes the events past the retention, all but the head')
  t.same((await log.after(0, 10)).map((e) => e.seq), [5], 'the head stays')
  t.same(await store.forgetAllBut(['kept']), [], 'a second start forgets nothing more')
})

t.test('WEBHOOKS unset forgets no one: an unset variable is more likely a slip than the end of every subscription', async (t) => {
  const file = join(dir, 'unset.sqlite')
  const { log } = await fileWithTwoSubscribers(file)
  t.teardown(() => { log.close() })
  await forgetRemovedSubscribers(log, loadConfig({ EVENTS_STORE: file }))
  t.same(log.db.prepare('SELECT name FROM webhook_subscribers ORDER BY name').all(), [{ name: 'gone' }, { name: 'kept' }], 'both remembered')
  t.same(log.db.prepare('SELECT COUNT(*) AS n FROM webhook_deliveries').get(), { n: 2 }, 'the owed deliveries kept')
})

t.test('a server started with a subscriber removed from WEBHOOKS forgets it and purges', async (t) => {
  const file = join(dir, 'server.sqlite')
  const { log } = await fileWithTwoSubscribers(file)
  log.close()
  const webhooks = join(dir, 'webhooks.yaml')
  // `kept` has seen every event: nothing is sent to its URL (no one listens there).
  writeFileSync(webhooks, 'subscribers:\n  - name: kept\n    url: http://127.0.0.1:9/hooks\n    secretEnv: KEPT_SECRET\n')
  const key = 'removed-subscribers-key-0123456789'
  const server = await startServer({ API_KEYS: key, WEBHOOKS: webhooks, KEPT_SECRET: testSecret(), EVENTS_STORE: file, IDEMPOTENCY_STORE: ':memory:', RATE_LIMIT_PER_MINUTE: '0' })
  t.teardown(async () => { await server.stop() })
  const get = async (path: string): Promise<{ status: number, body: any }> => {
    const r = await fetch(server.url(path), { headers: { authorization: `Bearer ${key}` } })
    return { status: r.status, body: await r.json() }
  }
  const feed = await get('/events?after=0')
  t.same(feed.body.events.map((e: { seq: number }) => e.seq), [5], 'the feed keeps only the head: the expired events were purged at start')
  const expired = await get('/events?after=1')
  t.equal(expired.status, 410, 'a cursor into them is 410')
  t.match(server.lines(), [{ msg: /no longer in WEBHOOKS were forgotten/, subscribers: [{ name: 'gone', owed: 2 }] }], 'the start says which subscriber was forgotten, by name and count')
  await server.stop()
  t.same(table(file, 'SELECT name FROM webhook_subscribers'), [{ name: 'kept' }], 'the file holds the listed subscriber only')
  t.same(table(file, "SELECT COUNT(*) AS n FROM webhook_deliveries WHERE subscriber = 'gone'"), [{ n: 0 }], 'and none of the removed one\'s deliveries')
})
