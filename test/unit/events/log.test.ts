// The event log in its own SQLite file: order, ids that stay, cursors, waiting without holding
// the event loop, a second process's appends, and a lock held by another process.
import t from 'tap'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { SqliteEventLog } from '../../../src/events/log.js'

const dir = mkdtempSync(join(tmpdir(), 'ponte-events-'))
t.teardown(() => { rmSync(dir, { recursive: true, force: true }) })

const created = (id: string): { type: 'appointment.created', appointmentId: string, data: Record<string, unknown> } =>
  ({ type: 'appointment.created', appointmentId: id, data: { appointment: { id, name: 'not logged' } } })

t.test('appends in order and reads by cursor; ids and places survive a reopen', async (t) => {
  const file = join(dir, 'order.sqlite')
  const log = await SqliteEventLog.open(file)
  t.equal(await log.head(), 0, 'an empty log')
  const first = await log.append([created('1'), created('2')])
  const second = await log.append([{ type: 'appointment.deleted', appointmentId: '1', data: { id: '1' }, seenAt: '2026-01-02T03:04:05.000Z' }])
  t.same([...first, ...second].map((e) => e.seq), [1, 2, 3], 'places in append order')
  t.equal(new Set([...first, ...second].map((e) => e.id)).size, 3, 'each event its own id')
  t.equal(second[0].seenAt, '2026-01-02T03:04:05.000Z', 'a given time is kept')
  t.match(first[0].seenAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/, 'else the time it was appended')
  t.same(await log.after(1, 10), [first[1], second[0]], 'after a cursor: the later events, as appended')
  t.same(await log.after(0, 1), [first[0]], 'limited')
  t.same(await log.append([]), [], 'nothing appended for no events')
  log.close()
  t.equal(statSync(file).mode & 0o777, 0o600, 'the file only its owner reads')

  const again = await SqliteEventLog.open(file)
  t.teardown(() => { again.close() })
  t.same(await again.after(0, 10), [...first, ...second], 'the same events, ids and places after a reopen')
  const next = await again.append([created('3')])
  t.equal(next[0].seq, 4, 'places are never reused')
})

t.test('a waiter wakes on an append in this process, times out, or stops when aborted', async (t) => {
  const log = await SqliteEventLog.open(':memory:')
  t.teardown(() => { log.close() })
  const before = await log.head()
  // The append is made from a timer: it only happens if the wait leaves the event loop free.
  let began = performance.now()
  const waited = log.waitAfter(before, 30_000)
  let ticks = 0
  const tick = setInterval(() => { if (++ticks === 3) log.append([created('9')]).catch(() => {}) }, 5)
  await waited
  clearInterval(tick)
  // 30 s is the timeout: returning well before it means the append woke it.
  t.ok(performance.now() - began < 15_000, 'woken by the append made while it waited, long before its 30 s timeout')
  t.equal((await log.after(before, 10)).length, 1, 'and the append is there to read')

  began = performance.now()
  await log.waitAfter(await log.head(), 200)
  t.ok(performance.now() - began >= 150, 'a wait with nothing new ends at its timeout, not before')
  const stop = new AbortController()
  began = performance.now()
  const aborted = log.waitAfter(await log.head(), 30_000, stop.signal)
  stop.abort()
  await aborted
  t.ok(performance.now() - began < 15_000, 'and long before its timeout when aborted')
  began = performance.now()
  await log.waitAfter(0, 30_000)
  t.ok(performance.now() - began < 15_000, 'a cursor behind the head returns long before its timeout')
})

t.test('events appended by another process are seen by a waiter', async (t) => {
  const file = join(dir, 'shared.sqlite')
  const log = await SqliteEventLog.open(file, { pollMs: 20 })
  t.teardown(() => { log.close() })
  const other = new BetterSqlite3(file)
  t.teardown(() => { other.close() })
  const waited = log.waitAfter(0, 30_000)
  other.prepare("INSERT INTO events (id, type, seen_at, appointment_id, data) VALUES ('evt_x', 'appointment.created', '2026-01-01T00:00:00.000Z', '5', '{}')").run()
  await waited
  t.match(await log.after(0, 10), [{ id: 'evt_x', appointmentId: '5' }], 'seen through the file')
})

t.test('a lock held by another process: 503 after the wait, nothing appended', async (t) => {
  const file = join(dir, 'locked.sqlite')
  const log = await SqliteEventLog.open(file, { busyTimeoutMs: 100 })
  t.teardown(() => { log.close() })
  const other = new BetterSqlite3(file)
  t.teardown(() => { other.close() })
  other.exec('BEGIN EXCLUSIVE')
  const refused = await log.append([created('1')]).then(() => undefined, (err: unknown) => err)
  t.match(refused, { status: 503, type: 'event-store-unavailable' }, 'the append fails as unavailable')
  other.exec('ROLLBACK')
  t.equal(await log.head(), 0, 'nothing was appended')
  t.equal((await log.append([created('1')]))[0].seq, 1, 'and appends once the lock is gone')
})

t.test('what runs alongside an append is in its transaction: both or neither', async (t) => {
  const log = await SqliteEventLog.open(':memory:')
  t.teardown(() => { log.close() })
  log.db.exec('CREATE TABLE beside (n INTEGER)')
  const put = log.db.prepare('INSERT INTO beside (n) VALUES (1)')
  await t.rejects(log.append([created('1')], () => { put.run(); throw new Error('fails after writing') }), /fails after writing/)
  t.equal(await log.head(), 0, 'a failure alongside appends no event')
  t.same(log.db.prepare('SELECT COUNT(*) AS n FROM beside').get(), { n: 0 }, 'and keeps nothing written alongside')
  t.same(await log.append([], () => { put.run() }), [], 'no events: what runs alongside still runs')
  t.same(log.db.prepare('SELECT COUNT(*) AS n FROM beside').get(), { n: 1 })
})

t.test('purge: an old prefix goes, never the head nor an event owed to a subscriber; the oldest cursor says where', async (t) => {
  const log = await SqliteEventLog.open(join(dir, 'purge.sqlite'))
  t.teardown(() => { log.close() })
  const old = '2020-01-01T00:00:00.000Z'
  const ev = (id: string): { type: 'appointment.updated', appointmentId: string, seenAt: string, data: Record<string, unknown> } => ({ type: 'appointment.updated', appointmentId: id, seenAt: old, data: {} })
  await log.append([ev('1'), ev('2'), ev('3'), ev('4'), ev('5')])
  log.db.exec('CREATE TABLE webhook_deliveries (subscriber TEXT, seq INTEGER); INSERT INTO webhook_deliveries VALUES (\'crm\', 3)')
  t.equal(await log.oldestCursor(), 0, 'nothing purged: 0')
  t.equal(await log.purge(Date.now()), 2, 'only the events before the one still owed')
  t.equal(await log.oldestCursor(), 2, 'the oldest cursor available is the last purged seq')
  log.db.exec('DELETE FROM webhook_deliveries')
  t.equal(await log.purge(Date.now()), 2, 'once delivered, the rest but the head')
  t.equal(await log.head(), 5, 'the head stays, so cursors stay meaningful')
  t.equal(await log.purge(Date.parse(old)), 0, 'nothing older than the cutoff: nothing purged')
})

t.test('the purge reads by the time seen through an index, added to a file made before it', async (t) => {
  const file = join(dir, 'older.sqlite')
  // A file as an earlier Ponte left it: the events table, no index on seen_at.
  const before = new BetterSqlite3(file)
  before.exec('CREATE TABLE events (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, type TEXT NOT NULL, seen_at TEXT NOT NULL, appointment_id TEXT NOT NULL, data TEXT NOT NULL)')
  before.prepare("INSERT INTO events (id, type, seen_at, appointment_id, data) VALUES ('evt_old', 'appointment.updated', '2020-01-01T00:00:00.000Z', '1', '{}')").run()
  before.close()
  const log = await SqliteEventLog.open(file)
  t.teardown(() => { log.close() })
  const indexes = log.db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'events' AND sql LIKE '%seen_at%'").all()
  t.same(indexes, [{ name: 'events_seen_at' }], 'the index exists once the file is opened')
  t.match(log.db.prepare("SELECT sql FROM sqlite_master WHERE name = 'events_seen_at'").get(), { sql: /ON events \(seen_at\)/ }, 'on the column the purge\'s WHERE reads')
  log.close()
  const again = await SqliteEventLog.open(file)
  t.teardown(() => { again.close() })
  t.same((await again.after(0, 10)).map((e) => e.id), ['evt_old'], 'opening again changes nothing (idempotent), the events kept')
  await again.append([created('2')])
  // The purge names the index (INDEXED BY): on a file without it, it would fail, not scan.
  t.equal(await again.purge(Date.now()), 1, 'and the purge removes the old one by it')
})
