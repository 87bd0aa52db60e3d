// Issue 28: changes made in the clinic's own program (statements on the legacy table, as the
// desk program runs them) and writes through Ponte arrive in GET /events as the right events,
// on a small schema generated here (Portuguese-free names, a char state code, a free-text
// note) and on every test database. Polls are driven by a short `pollSeconds` and waited for
// through the feed's long-poll and /ready's poll count, never by timing.
import t, { type Test } from 'tap'
import { testDialects } from '../../helpers/contract.js'
import { deskMapping } from '../../helpers/desk-agenda.js'
import { scratchOn, type ServerScratch } from '../../helpers/scratch-servers.js'
import { addDays, todayIn } from '../../../src/normalise/datetime.js'
import { pino } from 'pino'
import { SqliteEventLog } from '../../../src/events/log.js'
import { ChangeDetector } from '../../../src/events/detector.js'
import { createPonte } from '../../../src/ponte.js'
import { loadConfig } from '../../../src/config.js'
import { WebhookDelivery } from '../../../src/events/delivery/delivery.js'
import { EVENT_TYPES } from '../../../src/events/event.js'
import { eventsAfter, head, morePolls, polls, type Ev } from '../../helpers/event-feed.js'
import { receiverFor, testSecret } from '../../helpers/webhook-receiver.js'

const ZONE = 'America/Sao_Paulo'
const today = todayIn(ZONE)
const day = (n: number): string => addDays(today, n)

const SCHEMA = `
CREATE TABLE person (pid INTEGER PRIMARY KEY, full_name VARCHAR(60) NOT NULL, tel VARCHAR(20));
CREATE TABLE dentist (did INTEGER PRIMARY KEY, label VARCHAR(60) NOT NULL);
CREATE TABLE booking_slot (bid INTEGER PRIMARY KEY, on_day DATE NOT NULL, at_hour VARCHAR(5) NOT NULL, person INTEGER, dentist INTEGER, st CHAR(1) NOT NULL, note VARCHAR(80));
INSERT INTO person (pid, full_name, tel) VALUES (1, 'Rita Moura', '11987650001');
INSERT INTO dentist (did, label) VALUES (7, 'Dra. Noemi Farias');
INSERT INTO booking_slot (bid, on_day, at_hour, person, dentist, st, note) VALUES (1, '${day(2)}', '09:00', 1, 7, 'A', NULL);
INSERT INTO booking_slot (bid, on_day, at_hour, person, dentist, st, note) VALUES (2, '${day(3)}', '10:00', 1, 7, 'C', 'first visit');
INSERT INTO booking_slot (bid, on_day, at_hour, person, dentist, st, note) VALUES (3, '${day(60)}', '11:00', 1, 7, 'A', NULL);
INSERT INTO booking_slot (bid, on_day, at_hour, person, dentist, st, note) VALUES (5, '${day(5)}', '08:00', 1, 7, 'A', NULL);
`

const mapping = (changes: boolean, pollSeconds = 0.2): string => deskMapping({
  installation: 'desk-events',
  zone: ZONE,
  table: 'booking_slot',
  key: 'bid',
  date: 'on_day',
  hour: 'at_hour',
  state: 'st',
  codes: ['A', 'C', 'X'],
  more: ['    classification: note', '    refs: { client: person, professional: dentist }'],
  changes: changes ? ['window: { daysBefore: 1, daysAfter: 30 }', `pollSeconds: ${pollSeconds}`] : undefined,
  client: { table: 'person', key: 'pid', name: 'full_name', more: ['    phones: [tel]'] },
  professional: { table: 'dentist', key: 'did', name: 'label' }
})

async function asAnswered (s: ServerScratch, id: string): Promise<unknown> {
  return (await s.call('GET', `/appointments/${id}`)).body
}

async function desk (t: Test, dialect: string): Promise<void> {
  const s = await scratchOn(t, dialect as any, SCHEMA, mapping(true), { pollChanges: 'ready' })
  await morePolls(s, 1)
  t.same((await s.call('GET', '/events')).body, { events: [], next: 0 }, 'the first poll records the window and emits nothing')

  await s.rows(`INSERT INTO booking_slot (bid, on_day, at_hour, person, dentist, st, note) VALUES (4, '${day(4)}', '14:00', 1, 7, 'A', NULL)`)
  let cursor = await head(s)
  let got = await eventsAfter(s, cursor)
  t.match(got, [{ type: 'appointment.created', appointmentId: '4' }], 'a desk INSERT is appointment.created')
  t.equal(got.length, 1, 'and nothing else')
  t.same(got[0].data.appointment, await asAnswered(s, '4'), 'carrying the appointment as GET /appointments/{id} answers it')
  t.ok(typeof got[0].id === 'string' && got[0].seq > cursor, 'with an id and a place in the log')

  cursor = await head(s)
  await s.rows("UPDATE booking_slot SET st = 'X' WHERE bid = 1")
  got = await eventsAfter(s, cursor)
  t.same(got.map((e) => e.type), ['appointment.state_changed', 'appointment.canceled'], 'a desk cancellation: state changed, and canceled')
  t.same(got[0].data.previous, { state: 'WAITING' }, 'the previous state')
  t.equal(got[0].data.appointment.state, 'CANCELED')

  cursor = await head(s)
  await s.rows(`UPDATE booking_slot SET on_day = '${day(6)}', at_hour = '15:30' WHERE bid = 2`)
  got = await eventsAfter(s, cursor)
  t.same(got.map((e) => e.type), ['appointment.rescheduled'], 'a desk move is appointment.rescheduled')
  t.match(got[0].data, { appointment: { id: '2', date: day(6), hour: '15:30' }, previous: { date: day(3), hour: '10:00' } }, 'old and new date and hour')

  cursor = await head(s)
  await s.rows("UPDATE booking_slot SET note = 'return' WHERE bid = 2")
  got = await eventsAfter(s, cursor)
  t.match(got, [{ type: 'appointment.updated', data: { changed: ['classification'], appointment: { classification: 'return' } } }], 'another field: appointment.updated naming it')
  t.equal(got.length, 1)

  cursor = await head(s)
  await s.rows('DELETE FROM booking_slot WHERE bid = 4')
  got = await eventsAfter(s, cursor)
  t.same(got.map((e) => [e.type, e.data]), [['appointment.deleted', { appointment: { id: '4' } }]], 'a desk DELETE is appointment.deleted, with the id')

  cursor = await head(s)
  await s.rows(`UPDATE booking_slot SET on_day = '${day(45)}' WHERE bid = 2`)
  got = await eventsAfter(s, cursor)
  t.same(got.map((e) => e.type), ['appointment.rescheduled'], 'moved out of the window: rescheduled, not deleted')
  t.equal(got[0].data.appointment.date, day(45))

  // Through Ponte: in the feed right after the 200, and not again on the next polls.
  cursor = await head(s)
  const booked = await s.call('POST', '/appointments', { date: day(7), hour: '16:00', client: '1', professional: '7' })
  t.equal(booked.status, 200, JSON.stringify(booked.body))
  let now = (await s.call('GET', `/events?after=${cursor}`)).body.events as Ev[]
  t.same(now.map((e) => [e.type, e.appointmentId]), [['appointment.created', booked.body.id]], 'a booking through Ponte is in the feed right after its 200')
  t.same(now[0].data.appointment, await asAnswered(s, booked.body.id))
  const confirmed = await s.call('PATCH', `/appointments/${booked.body.id as string}/state`, { state: 'CONFIRMED' })
  t.equal(confirmed.status, 200)
  now = (await s.call('GET', `/events?after=${cursor}`)).body.events
  t.same(now.map((e) => e.type), ['appointment.created', 'appointment.state_changed'], 'a state change through Ponte right after its 200')
  const moved = await s.call('PATCH', `/appointments/${booked.body.id as string}/time`, { date: day(8), hour: '16:00' })
  t.equal(moved.status, 200, JSON.stringify(moved.body))
  await morePolls(s, 2)
  now = (await s.call('GET', `/events?after=${cursor}`)).body.events
  // A reschedule puts it back in the installation's `onReschedule` state (WAITING): two events.
  t.same(now.map((e) => e.type), ['appointment.created', 'appointment.state_changed', 'appointment.rescheduled', 'appointment.state_changed'], 'a reschedule too, and the polls repeat none of them')

  // The database cannot answer a poll: nothing is appended or forgotten, the next poll resumes.
  cursor = await head(s)
  await s.rows('ALTER TABLE booking_slot RENAME TO booking_slot_away')
  await morePolls(s, 1, (p) => p.lastError !== null)
  t.equal((await polls(s)).lastError !== null, true, '/ready says the last poll failed')
  await s.rows("UPDATE booking_slot_away SET st = 'C' WHERE bid = 5")
  await morePolls(s, 1)
  t.same((await s.call('GET', `/events?after=${cursor}`)).body.events, [], 'failed polls append nothing (no appointment is taken for deleted)')
  await s.rows('ALTER TABLE booking_slot_away RENAME TO booking_slot')
  got = await eventsAfter(s, cursor)
  t.same(got.map((e) => [e.type, e.appointmentId]), [['appointment.state_changed', '5']], 'once it answers, the change made meanwhile arrives, once')
  t.equal((await polls(s)).lastError, null, 'and /ready says the poll succeeded')

  // Paging: the same sequence whatever the page size, in order.
  const all = (await s.call('GET', '/events?after=0&limit=500')).body.events as Ev[]
  const paged: Ev[] = []
  let after = 0
  for (;;) {
    const page = (await s.call('GET', `/events?after=${after}&limit=2`)).body
    if (page.events.length === 0) { t.equal(page.next, after, 'an empty page keeps the cursor'); break }
    paged.push(...page.events)
    after = page.next
  }
  t.same(paged.map((e) => e.id), all.map((e) => e.id), 'pages of 2 give the same events in the same order')
  t.ok(all.every((e, i) => i === 0 || e.seq > all[i - 1].seq), 'in increasing seq')
  t.equal(all.length, 12, 'every event of this test, once')
}

// The bound: each desk write arrives within twice the poll interval, measured from
// the write's commit to the event's answer in the feed (a long-poll waiting on it) and to its
// signed delivery at a receiver. No slack is added for the loaded machine: a poll of this
// table is a few ms, so a write just missed by one poll is in the next, at most one interval
// and two polls later.
const POLL_MS = 1000
const BOUND_MS = 2 * POLL_MS

async function withinTwoPolls (t: Test, dialect: string): Promise<void> {
  const secret = testSecret()
  const arrived = new Map<string, number>()
  const receiver = await receiverFor(t, secret)
  receiver.answer = (r) => { arrived.set(r.webhookId, Date.now()); return 200 }
  const log = await SqliteEventLog.open(':memory:', { pollMs: 20 })
  t.teardown(() => { log.close() })
  const s = await scratchOn(t, dialect as any, SCHEMA, mapping(true, POLL_MS / 1000), { pollChanges: 'ready', eventLog: log })
  const delivery = await WebhookDelivery.open(log, {
    subscribers: [{ name: 'desk-test', url: receiver.url, secret, events: new Set(EVENT_TYPES) }],
    timeoutMs: 5000,
    retryForMs: 60_000,
    backoffMs: 20,
    backoffMaxMs: 100,
    concurrency: 4,
    pollMs: 50
  }, pino({ level: 'silent' }))
  delivery.start()
  t.teardown(async () => { await delivery.stop() })
  await morePolls(s, 1)
  while (!delivery.holdsLease()) await new Promise((resolve) => setTimeout(resolve, 20))

  const writes: Array<[string, string, string[]]> = [
    ['INSERT', `INSERT INTO booking_slot (bid, on_day, at_hour, person, dentist, st, note) VALUES (9, '${day(4)}', '14:00', 1, 7, 'A', NULL)`, ['appointment.created']],
    ['UPDATE of state', "UPDATE booking_slot SET st = 'C' WHERE bid = 9", ['appointment.state_changed']],
    ['UPDATE of date and hour', `UPDATE booking_slot SET on_day = '${day(6)}', at_hour = '15:30' WHERE bid = 9`, ['appointment.rescheduled']],
    ['DELETE', 'DELETE FROM booking_slot WHERE bid = 9', ['appointment.deleted']]
  ]
  const took: string[] = []
  for (const [i, [what, sql, types]] of writes.entries()) {
    const cursor = await head(s)
    // Each write at another point of the poll cycle (the last event came right after a poll).
    await new Promise((resolve) => setTimeout(resolve, i * POLL_MS / writes.length))
    await s.rows(sql)
    const written = Date.now()
    const page = await s.call('GET', `/events?after=${cursor}&wait=10`)
    const inFeed = Date.now() - written
    const events = page.body.events as Ev[]
    t.same(events.map((e) => [e.type, e.appointmentId]), types.map((type) => [type, '9']), `a desk ${what} is ${types.join(', ')}`)
    await receiver.until(() => events.every((e) => arrived.has(e.id)))
    const atReceiver = Math.max(...events.map((e) => (arrived.get(e.id) ?? Infinity) - written))
    t.ok(inFeed <= BOUND_MS, `${what}: in the feed ${inFeed} ms after the write (bound ${BOUND_MS} ms)`)
    t.ok(atReceiver <= BOUND_MS, `${what}: at the receiver, signed, ${atReceiver} ms after the write (bound ${BOUND_MS} ms)`)
    took.push(`${what} ${inFeed}/${atReceiver} ms`)
  }
  t.same(receiver.unverified, [], 'every delivery verified by standardwebhooks')
  t.comment(`${dialect}, poll every ${POLL_MS} ms: feed/receiver ${took.join(', ')}`)
}

for (const dialect of testDialects()) {
  t.test(`${dialect}: desk changes and writes through Ponte become events`, async (t) => { await desk(t, dialect) })
  t.test(`${dialect}: each desk write arrives within twice the poll interval`, async (t) => { await withinTwoPolls(t, dialect) })
}

t.test('the feed\'s parameters, and a mapping without change detection', async (t) => {
  const s = await scratchOn(t, 'sqlite', SCHEMA, mapping(true), { pollChanges: false })
  for (const q of ['after=-1', 'after=x', 'limit=0', 'limit=501', 'wait=31', 'wait=-1', 'other=1']) {
    const res = await s.call('GET', `/events?${q}`)
    t.equal(res.status, 400, `${q}: 400`)
  }
  const waited = await s.call('GET', '/events?after=0&wait=1')
  t.same(waited.body, { events: [], next: 0 }, 'a wait with nothing to show answers an empty page')
  const bare = await scratchOn(t, 'sqlite', SCHEMA, mapping(false), { pollChanges: 'ready' })
  const res = await bare.call('GET', '/events')
  t.equal(res.status, 404, 'not mapped: 404')
  t.match(res.body, { detail: /not mapped/ })
  t.notOk((await bare.call('GET', '/ready')).body.changes, '/ready shows no poller')
})

// The clinic's today moves (midnight): the window reaches a day it never watched. What is on
// that day was booked long ago, not now: recorded without appointment.created.
t.test('an appointment entering the window by the calendar is not created', async (t) => {
  const s = await scratchOn(t, 'sqlite', SCHEMA, mapping(true), { pollChanges: false })
  const log = await SqliteEventLog.open(':memory:')
  t.teardown(() => { log.close() })
  const { db, compiled } = s.installation
  const ponte = createPonte(loadConfig({ API_KEYS: 'k'.repeat(24), IDEMPOTENCY_STORE: ':memory:', EVENTS_STORE: ':memory:' }), db, compiled)
  let clock = new Date()
  const detector = await ChangeDetector.open(log, ponte.metrics, pino({ level: 'silent' }), { now: () => clock })
  // Day 31 is one past the window (daysAfter: 30) today, and its last day tomorrow.
  await s.rows(`INSERT INTO booking_slot (bid, on_day, at_hour, person, dentist, st, note) VALUES (10, '${day(31)}', '09:00', 1, 7, 'A', NULL)`)
  t.equal((await detector.poll(ponte)).primed, false, 'the first poll primes')
  await s.rows(`INSERT INTO booking_slot (bid, on_day, at_hour, person, dentist, st, note) VALUES (11, '${day(10)}', '09:00', 1, 7, 'A', NULL)`)
  clock = new Date(clock.getTime() + 24 * 3600_000)
  const next = await detector.poll(ponte)
  t.same(next.events.map((e) => [e.type, e.appointmentId]), [['appointment.created', '11']], 'a day later: the booking inside the watched days is created, the one on the newly reached day is not')
  await s.rows("UPDATE booking_slot SET st = 'C' WHERE bid = 10")
  const after = await detector.poll(ponte)
  t.same(after.events.map((e) => [e.type, e.appointmentId]), [['appointment.state_changed', '10']], 'it was recorded: its next change is an event')
})
