// Issue 27 item 13's status-history form on an OpenMRS-like schema generated in the test, on
// every test database: the status column has no confirmed code, each change adds a row to
// `appointment_status_history` with the installation's code, and the latest row (by date,
// then id) is what the state rules read. Booking, confirming, cancelling and a desk's own
// history row must read back alike in GET by id, the list, availability and the event feed;
// `check` proves the paths. Every write is read back from the database directly.
import t, { type Test } from 'tap'
import { testDialects } from '../helpers/contract.js'
import { scratchOn, type ServerScratch } from '../helpers/scratch-servers.js'
import { checkInstallation } from '../../src/check/index.js'
import { tableContents } from '../helpers/table-contents.js'
import { addDays, todayIn } from '../../src/normalise/datetime.js'
import { eventsAfter, head, morePolls } from '../helpers/event-feed.js'
import { historyMapping, historySchema, ROWS } from '../helpers/history-installation.js'

// Inside the change window, which counts from today.
const DAY = addDays(todayIn('America/Sao_Paulo'), 2)

const listed = async (s: ServerScratch, query = ''): Promise<Record<string, string>> => {
  const res = await s.call('GET', `/appointments?start=${DAY}&end=${DAY}${query}`)
  if (res.status !== 200) throw new Error(JSON.stringify(res.body))
  return Object.fromEntries((res.body as Array<{ id: string, state: string }>).map((a) => [a.id, a.state]))
}

/** The appointment's status and its history codes in the order written. */
async function recorded (s: ServerScratch, id: string): Promise<{ status: string, history: string[] }> {
  const [row] = await s.rows(`SELECT status FROM appointment WHERE appointment_id = ${id}`)
  const history = await s.rows(`SELECT status FROM appointment_status_history WHERE appointment_id = ${id} ORDER BY id`)
  return { status: row.status, history: history.map((h) => String(h.status)) }
}

async function move (t: Test, s: ServerScratch, id: string, state: string): Promise<void> {
  const res = await s.call('PATCH', `/appointments/${id}/state`, { state })
  t.equal(res.status, 200, `PATCH ${id} → ${state}: ${JSON.stringify(res.body)}`)
  t.equal((await s.call('GET', `/appointments/${id}`)).body.state, state, `GET ${id} reads back ${state}`)
  t.equal((await listed(s))[id], state, `the list reads ${state}`)
}

const offered = async (s: ServerScratch): Promise<string> => JSON.stringify((await s.call('GET', `/availability?start=${DAY}&end=${DAY}&professional=7`)).body)

for (const dialect of testDialects()) {
  t.test(`status history [${dialect}]`, async (t) => {
    const s = await scratchOn(t, dialect, historySchema(dialect, DAY), historyMapping(true), { pollChanges: 'ready' })
    await morePolls(s, 1)

    t.test('reads: the latest history row decides, by date before id', async (t) => {
      t.same(await listed(s), Object.fromEntries(ROWS.map((r) => [String(r[0]), r[4]])))
      t.equal((await s.call('GET', '/appointments/3')).body.state, 'WAITING', '3\'s later row (the lower id) is Scheduled')
      t.same(Object.keys(await listed(s, '&state=CONFIRMED')), ['2'], '?state=CONFIRMED')
    })

    t.test('book, confirm, cancel: one history row each, read back as the state', async (t) => {
      const before = await offered(s)
      const booked = await s.call('POST', '/appointments', { date: DAY, hour: '11:30', client: '1', professional: '7' })
      t.equal(booked.status, 200, JSON.stringify(booked.body))
      t.equal(booked.body.state, 'WAITING')
      const id = String(booked.body.id)
      t.same(await recorded(s, id), { status: 'Scheduled', history: ['Scheduled'] }, 'the booking writes the first history row')
      t.notMatch(await offered(s), /"hour":"11:30"/, '11:30 is taken')

      let cursor = await head(s)
      await move(t, s, id, 'CONFIRMED')
      t.same(await recorded(s, id), { status: 'Scheduled', history: ['Scheduled', 'Confirmed'] }, 'confirming adds a Confirmed row; the status keeps its code')
      t.same(Object.keys(await listed(s, '&state=CONFIRMED')).sort(), ['2', id].sort(), '?state=CONFIRMED holds it')
      t.notMatch(await offered(s), /"hour":"11:30"/, 'a confirmed appointment still holds its slot')
      let events = await eventsAfter(s, cursor)
      t.match(events, [{ type: 'appointment.state_changed', appointmentId: id, data: { previous: { state: 'WAITING' }, appointment: { state: 'CONFIRMED' } } }], 'the feed says it')
      t.equal(events.length, 1, 'once: the polls see the state the write left')

      cursor = await head(s)
      await move(t, s, id, 'CANCELED')
      t.same(await recorded(s, id), { status: 'Cancelled', history: ['Scheduled', 'Confirmed', 'Cancelled'] }, 'in order')
      t.equal(await offered(s), before, 'its slot is offered again')
      events = await eventsAfter(s, cursor)
      t.same(events.map((e) => e.type), ['appointment.state_changed', 'appointment.canceled'])
    })

    t.test('a history row the desk adds changes the state read, everywhere', async (t) => {
      const cursor = await head(s)
      // The same date as 1's latest row: the higher id is the later.
      await s.rows("INSERT INTO appointment_status_history (appointment_id, status, changed_at) SELECT 1, 'Confirmed', MAX(changed_at) FROM appointment_status_history WHERE appointment_id = 1")
      t.equal((await s.call('GET', '/appointments/1')).body.state, 'CONFIRMED', 'GET by id')
      t.equal((await listed(s))['1'], 'CONFIRMED', 'the list')
      const events = await eventsAfter(s, cursor)
      t.match(events, [{ type: 'appointment.state_changed', appointmentId: '1', data: { appointment: { state: 'CONFIRMED' } } }], 'the poll sees it')
      t.equal(events.length, 1)
      await move(t, s, '1', 'WAITING')
      t.same(await recorded(s, '1'), { status: 'Scheduled', history: ['Scheduled', 'Confirmed', 'Scheduled'] }, 'moving back adds a Scheduled row after the desk\'s')
    })

    t.test('check proves the state paths and leaves every table as it was', async (t) => {
      const before = await tableContents(s.installation.db)
      const report = await checkInstallation(s.installation, { budgetMs: 2000 })
      const moves = report.findings.filter((f) => /^PATCH …\/state \w+: /.test(f.message))
      t.ok(moves.length > 0, 'the probe moves states')
      t.same(moves.filter((f) => f.severity !== 'ok').map((f) => f.message), [], 'every move reads back')
      t.same(await tableContents(s.installation.db), before, 'rolled back')
      t.notOk(report.findings.some((f) => f.severity === 'problem'), report.lines.filter((l) => l.startsWith('✗')).join('\n'))
    })
  })

  t.test(`check: a state's code longer than the history's column [${dialect}]`, async (t) => {
    const mapping = historyMapping().replaceAll('Confirmed', 'Confirmed by phone call')
    const s = await scratchOn(t, dialect, historySchema(dialect, DAY), mapping)
    const report = await checkInstallation(s.installation, { budgetMs: 2000 })
    const said = report.findings.filter((f) => f.severity === 'problem' && f.path.endsWith('/write/history/open/status/state/CONFIRMED'))
    t.equal(said.length, 1, 'said once, at the code, before any move stores it cut or refused')
    t.match(said[0]?.message, /^`state\.CONFIRMED: "Confirmed by phone call"` writes 23 characters, but column `status` holds 20 \(/i)
    t.equal(said[0]?.line, mapping.split('\n').findIndex((l) => l.includes('        open: {')) + 1, 'at its line')
  })
}
