// Who may be booked (`resources.client.bookable`), on a practice's charts generated here unlike
// the samples, on every test database: an inactive (IN) or deceased (DE) patient stays a client
// — read by id, found by search, shown on their sessions, which can still be moved and
// confirmed — but a new booking for them is a 409 naming `/body/client`, nothing written; a
// standing changed at the desk counts at the next booking. `ponte check` books a client the
// condition allows, and reports a column it names that the table lacks, at its line.
import t from 'tap'
import { testDialects } from '../helpers/contract.js'
import { scratchOn, type ServerScratch } from '../helpers/scratch-servers.js'
import { checkOf } from '../helpers/check-of.js'
import { BOOKABLE, DAY, SCHEMA, physioMapping } from '../helpers/client-bookable.js'

const lineOf = (text: string, line: string): number => text.split('\n').indexOf(line) + 1
const sessions = async (s: ServerScratch): Promise<string[]> =>
  (await s.rows('SELECT sess_no, chart_no, th_no, sess_hm, flag FROM session_book ORDER BY sess_no'))
    .map((r) => `${Number(r.sess_no)} ${Number(r.chart_no)} ${Number(r.th_no)} ${String(r.sess_hm)} ${String(r.flag).trim()}`)

for (const dialect of testDialects()) {
  t.test(dialect, async (t) => {
    t.test('inactive and deceased patients are read as before, and refused a new booking', async (t) => {
      const s = await scratchOn(t, dialect, SCHEMA, physioMapping())
      const listed = await s.call('GET', `/appointments?start=${DAY}&end=${DAY}`)
      t.same(listed.body.map((a: any) => [a.id, a.client?.id, a.client?.name]), [['100', '1', 'Bruno Lima'], ['101', '2', 'Carla Dias']], 'their sessions show them')
      t.equal((await s.call('GET', '/clients/1')).status, 200, 'the inactive patient by id')
      t.equal((await s.call('GET', '/clients/2')).body.name, 'Carla Dias', 'the deceased patient by id')
      t.same((await s.call('GET', '/clients/search?term=11987650201')).body.map((c: any) => c.id), ['1'], 'found by phone')

      const before = await sessions(s)
      for (const client of ['1', '2']) {
        const res = await s.call('POST', '/appointments', { date: DAY, hour: '11:00', client, professional: '7' })
        t.equal(res.status, 409, JSON.stringify(res.body))
        t.same(res.body.errors?.map((e: { path: string }) => e.path), ['/body/client'], 'the refusal names the client')
        t.match(res.body.detail, new RegExp(`Client "${client}" takes no new appointments`))
        t.match(res.body.errors?.[0]?.message, /resources\.client\.bookable/)
      }
      t.same(await sessions(s), before, 'nothing was written')

      const active = await s.call('POST', '/appointments', { date: DAY, hour: '11:00', client: '3', professional: '7' })
      t.equal(active.status, 200, JSON.stringify(active.body))
      const unset = await s.call('POST', '/appointments', { date: DAY, hour: '11:30', client: '4', professional: '7' })
      t.equal(unset.status, 200, `a NULL standing is none of IN, DE: ${JSON.stringify(unset.body)}`)
      t.same(await sessions(s), [...before, '102 3 7 11:00 A', '103 4 7 11:30 A'], 'the allowed bookings, stored')

      const moved = await s.call('PATCH', '/appointments/100/time', { date: DAY, hour: '14:00' })
      t.equal(moved.status, 200, `an inactive patient's session is rescheduled: ${JSON.stringify(moved.body)}`)
      const confirmed = await s.call('PATCH', '/appointments/100/state', { state: 'CONFIRMED' })
      t.equal(confirmed.status, 200, JSON.stringify(confirmed.body))
      t.same((await sessions(s))[0], '100 1 7 14:00 C', 'moved and confirmed, read back')

      await s.rows("UPDATE chart SET standing = 'IN' WHERE chart_no = 3")
      const stood = await sessions(s)
      const changed = await s.call('POST', '/appointments', { date: DAY, hour: '15:00', client: '3', professional: '7' })
      t.equal(changed.status, 409, `the desk's change counts at once: ${JSON.stringify(changed.body)}`)
      t.same(await sessions(s), stood, 'nothing was written')

      const invalid = await s.call('POST', '/appointments', { date: DAY, hour: '15:00', client: '1', professional: '99' })
      t.equal(invalid.status, 400, 'bad input is told first')
      t.same(invalid.body.errors?.map((e: { path: string }) => e.path), ['/body/professional'])
    })

    t.test('check books a client the condition allows, and places a missing column at its line', async (t) => {
      const s = await scratchOn(t, dialect, SCHEMA, physioMapping())
      const report = await checkOf(t, s.url, physioMapping())
      t.same(report.findings.filter((f) => f.severity === 'problem').map((f) => `${f.path}: ${f.message}`), [], 'no problem')
      const probe = report.findings.find((f) => f.message.startsWith('POST /appointments with the professional only'))
      t.equal(probe?.severity, 'ok', JSON.stringify(probe))

      const misspelt = physioMapping(BOOKABLE.replace('standing', 'standig'))
      const wrong = await checkOf(t, s.url, misspelt)
      const found = wrong.findings.find((f) => f.severity === 'problem' && f.message.includes('standig'))
      t.equal(found?.line, lineOf(misspelt, BOOKABLE.replace('standing', 'standig')), JSON.stringify(found))
      t.same((await s.rows('SELECT COUNT(*) AS n FROM session_book')).map((r) => Number(r.n)), [2], 'check rolled its writes back')
    })
  })
}
