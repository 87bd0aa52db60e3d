// Issue 28: with a change marker, a desk UPDATE arrives through the marker pass alone (the
// window pass is not due again in this test), a DELETE waits for a window pass (the marker
// cannot see a row that is gone), on every test database. Polls are counted through /ready.
import t, { type Test } from 'tap'
import { testDialects } from '../../helpers/contract.js'
import { scratchOn, type ServerScratch } from '../../helpers/scratch-servers.js'
import { markerMapping, markerSchema } from '../../helpers/marker-clinic.js'

interface Ev { type: string, appointmentId: string }
const sleep = async (ms: number): Promise<void> => { await new Promise((resolve) => setTimeout(resolve, ms)) }

async function morePolls (s: ServerScratch, n: number): Promise<void> {
  const polls = async (): Promise<number> => (await s.call('GET', '/ready')).body.changes.polls
  const target = await polls() + n
  for (let i = 0; i < 1200; i++) {
    if (await polls() >= target) return
    await sleep(50)
  }
  throw new Error('the poller did not poll')
}

const events = async (s: ServerScratch): Promise<Ev[]> => (await s.call('GET', '/events?after=0&limit=500')).body.events

async function marked (t: Test, dialect: Parameters<typeof scratchOn>[1]): Promise<void> {
  // One window pass (the first poll), then only marker passes.
  const s = await scratchOn(t, dialect, markerSchema(dialect), markerMapping('pollSeconds: 0.2\nmarker: { column: touched, windowEvery: 10000 }\n'), { pollChanges: 'ready' })
  await morePolls(s, 1)
  await s.rows("UPDATE visit SET st = 'X' WHERE vid = 1")
  const first = await s.call('GET', '/events?after=0&wait=10')
  t.same(first.body.events.map((e: Ev) => [e.type, e.appointmentId]), [['appointment.state_changed', '1'], ['appointment.canceled', '1']], 'a desk UPDATE is found by the marker pass')
  await s.rows('DELETE FROM visit WHERE vid = 2')
  await morePolls(s, 5)
  t.same((await events(s)).length, 2, 'a DELETE is not: the marker cannot see a row that is gone')
  await morePolls(s, 3)
  t.same((await events(s)).length, 2, 'and the UPDATE is not repeated')
}

async function windowed (t: Test, dialect: Parameters<typeof scratchOn>[1]): Promise<void> {
  const s = await scratchOn(t, dialect, markerSchema(dialect), markerMapping('pollSeconds: 0.2\nmarker: { column: touched, windowEvery: 3 }\n'), { pollChanges: 'ready' })
  await morePolls(s, 1)
  await s.rows('DELETE FROM visit WHERE vid = 2')
  const got = await s.call('GET', '/events?after=0&wait=10')
  t.same(got.body.events.map((e: Ev) => [e.type, e.appointmentId]), [['appointment.deleted', '2']], 'the window pass every third poll finds the DELETE')
  await s.rows('INSERT INTO visit (vid, on_day, at_hour, st) VALUES (9, (SELECT on_day FROM visit WHERE vid = 1), \'15:00\', \'A\')')
  const after = got.body.next as number
  const created = await s.call('GET', `/events?after=${after}&wait=10`)
  t.same(created.body.events.map((e: Ev) => [e.type, e.appointmentId]), [['appointment.created', '9']], 'an insert is seen, once')
}

for (const dialect of testDialects()) {
  t.test(`${dialect}: a desk update through the marker`, async (t) => { await marked(t, dialect) })
  t.test(`${dialect}: deletions through the window pass`, async (t) => { await windowed(t, dialect) })
}
