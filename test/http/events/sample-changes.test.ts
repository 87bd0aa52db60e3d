// Issue 28: a sample installation serves GET /events out of the box (its mapping declares
// change detection), and a change at its desk arrives as an event on the next poll.
import t from 'tap'
import BetterSqlite3 from 'better-sqlite3'
import { sampleApp } from '../../helpers/app.js'
import { addDays, todayIn } from '../../../src/normalise/datetime.js'

const sleep = async (ms: number): Promise<void> => { await new Promise((resolve) => setTimeout(resolve, ms)) }

t.test('northwind-health: a desk cancellation is an event after the next poll', async (t) => {
  const a = await sampleApp('mappings/northwind-health.yaml')
  t.teardown(async () => { await a.close() })
  const desk = new BetterSqlite3((a.inst as { file: string }).file)
  t.teardown(() => { desk.close() })
  t.same((await a.get('/events')).body, { events: [], next: 0 }, 'the feed is served, empty')

  // One appointment of the fixture brought into the watched window, waiting, before the first poll.
  const soon = `${addDays(todayIn('America/Sao_Paulo'), 2)} 09:00:00`
  const { id } = desk.prepare('SELECT MIN(id) AS id FROM appointments WHERE deleted_at IS NULL').get() as { id: number }
  desk.prepare('UPDATE appointments SET starts_at = ?, ends_at = NULL, status = 0 WHERE id = ?').run(soon, id)

  const polled = async (n: number): Promise<void> => {
    for (let i = 0; i < 1200 && a.app.changePoller.state.polls < n; i++) await sleep(50)
  }
  a.app.changePoller.start()
  await polled(1)
  t.equal(a.app.changePoller.state.lastError, null, 'the first poll succeeded')
  t.same((await a.get('/events')).body.events, [], 'and emitted nothing')

  desk.prepare('UPDATE appointments SET status = 3 WHERE id = ?').run(id)
  // A reload's restart: the next poll at once, rather than in the sample's 30 seconds.
  a.app.changePoller.restart()
  const got = (await a.get('/events?after=0&wait=10')).body.events
  t.same(got.map((e: { type: string }) => e.type), ['appointment.state_changed', 'appointment.canceled'], 'cancelled by the clinic: state changed and canceled')
  t.same(got[0].data.appointment, (await a.get(`/appointments/${id}`)).body, 'with the appointment as GET /appointments/{id} answers it')
  t.match((await a.get('/ready')).body, { changes: { lastError: null } }, '/ready shows the poller')
  const metrics = await a.ponte.metrics.text()
  t.match(metrics, /ponte_changes_detected_total\{type="appointment.canceled",origin="poll"\} 1/, 'counted by type')
  t.match(metrics, /ponte_changes_detection_lag_seconds \d/, 'the detection lag is measured')
  t.match(metrics, /ponte_changes_rows_read_total [1-9]/, 'and the rows read')
})
