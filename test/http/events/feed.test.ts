// GET /events as a caller meets it, through the app (fastify inject) over an event log of the
// test's own: a cursor into purged events is 410 `events-expired` and one past the head 409
// `cursor-ahead`, each a problem document naming the cursor to use; bad `after`/`limit`/`wait`
// are 400 problems naming the parameter; a long-poll answers as soon as an event is appended,
// and with an empty page once its wait is over.
import t, { type Test } from 'tap'
import { scratchOn, type ServerScratch } from '../../helpers/scratch-servers.js'
import { SqliteEventLog } from '../../../src/events/log.js'
import type { NewEvent } from '../../../src/events/event.js'

const SCHEMA = `
CREATE TABLE visita (vid INTEGER PRIMARY KEY, dia DATE NOT NULL, hora VARCHAR(5) NOT NULL, paciente INTEGER, medico INTEGER, estado CHAR(1) NOT NULL);
CREATE TABLE paciente (pid INTEGER PRIMARY KEY, nome VARCHAR(60) NOT NULL);
CREATE TABLE medico (mid INTEGER PRIMARY KEY, nome VARCHAR(60) NOT NULL);
`
const MAPPING = `version: 1
installation: feed-route
timezone: America/Recife
states:
  values: [WAITING, CANCELED]
resources:
  appointment:
    table: visita
    key: vid
    start:
      date: { column: dia, format: date }
      hour: { column: hora, format: text }
    state: { column: estado, map: { E: WAITING, C: CANCELED } }
    refs: { client: paciente, professional: medico }
    changes:
      window: { daysBefore: 0, daysAfter: 7 }
      pollSeconds: 60
  client:
    table: paciente
    key: pid
    fields: { name: nome }
  professional:
    table: medico
    key: mid
    fields: { name: nome }
`

const OLD = '2020-01-01T00:00:00.000Z'
const updated = (id: string, seenAt?: string): NewEvent => ({ type: 'appointment.updated', appointmentId: id, data: { appointment: { id } }, ...(seenAt === undefined ? {} : { seenAt }) })

async function feed (t: Test): Promise<{ s: ServerScratch, log: SqliteEventLog }> {
  const log = await SqliteEventLog.open(':memory:', { pollMs: 20 })
  t.teardown(() => { log.close() })
  const s = await scratchOn(t, 'sqlite', SCHEMA, MAPPING, { pollChanges: false, eventLog: log })
  return { s, log }
}

t.test('a cursor into purged events is 410 events-expired; one past the head 409 cursor-ahead', async (t) => {
  const { s, log } = await feed(t)
  await log.append(['1', '2', '3', '4', '5'].map((id) => updated(id, OLD)))
  t.equal(await log.purge(Date.now()), 4, 'every event but the head purged')

  const expired = await s.call('GET', '/events?after=2')
  t.equal(expired.status, 410)
  t.match(expired.headers['content-type'], /^application\/problem\+json/, 'a problem document')
  t.match(expired.body, { type: /events-expired$/, status: 410, detail: /oldest cursor available is 4/ }, 'naming the oldest cursor available')
  const oldest = await s.call('GET', '/events?after=4')
  t.same(oldest.body.events.map((e: { seq: number }) => e.seq), [5], 'that cursor reads on without a hole')
  t.same((await s.call('GET', '/events?after=0')).body.events.map((e: { seq: number }) => e.seq), [5], 'after=0 reads from the oldest kept')

  const ahead = await s.call('GET', '/events?after=6')
  t.equal(ahead.status, 409)
  t.match(ahead.headers['content-type'], /^application\/problem\+json/)
  t.match(ahead.body, { type: /cursor-ahead$/, status: 409, detail: /head, 5/ }, 'naming the head')
  t.equal((await s.call('GET', '/events?after=5')).status, 200, 'the head itself is a cursor (nothing after it yet)')
})

t.test('bad after, limit or wait: 400 problem naming the parameter', async (t) => {
  const { s } = await feed(t)
  const cases: Array<[string, string]> = [
    ['after=-1', 'after'], ['after=x', 'after'], ['after=1.5', 'after'], ['after=9007199254740992', 'after'],
    ['limit=0', 'limit'], ['limit=501', 'limit'], ['limit=ten', 'limit'],
    ['wait=-1', 'wait'], ['wait=31', 'wait'], ['wait=2.5', 'wait'],
    ['after=1&after=2', 'after'], ['cursor=3', 'cursor']
  ]
  for (const [query, name] of cases) {
    const res = await s.call('GET', `/events?${query}`)
    t.equal(res.status, 400, `${query}: 400`)
    t.match(res.headers['content-type'], /^application\/problem\+json/, `${query}: a problem document`)
    t.match(res.body, { status: 400, errors: [{ path: new RegExp(`/querystring/${name}$`) }] }, `${query}: names ${name}`)
  }
})

t.test('a long-poll answers as soon as an event arrives, and empty once its wait is over', async (t) => {
  const { s, log } = await feed(t)
  await log.append([updated('1')])

  // Waits up to 20 s; the event comes after 300 ms. The bound below only tells "at once"
  // from "after the wait" (it is not a speed claim): 10 s is half the wait.
  const began = Date.now()
  const answer = s.call('GET', '/events?after=1&wait=20')
  await new Promise((resolve) => setTimeout(resolve, 300))
  let settled = false
  void answer.then(() => { settled = true })
  await new Promise((resolve) => setImmediate(resolve))
  t.notOk(settled, 'no answer before the event')
  const [appended] = await log.append([updated('2')])
  const got = await answer
  const took = Date.now() - began
  t.equal(got.status, 200)
  t.same(got.body, { events: [JSON.parse(JSON.stringify(appended))], next: appended.seq }, 'the event appended while it waited')
  t.ok(took < 10_000, `answered at once, not after the 20 s wait (${took} ms)`)

  const emptyBegan = Date.now()
  const empty = await s.call('GET', `/events?after=${appended.seq}&wait=1`)
  const waited = Date.now() - emptyBegan
  t.same(empty.body, { events: [], next: appended.seq }, 'nothing came: an empty page keeping the cursor')
  t.ok(waited >= 950, `after the wait (${waited} ms)`)
})
