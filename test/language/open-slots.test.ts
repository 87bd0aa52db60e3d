// Issue 27 item 2, open slots kept as rows of the appointment table (GNU Health's `free`
// appointments), on a schema generated here and on every test database: /availability offers
// exactly the free rows, a booking claims one (the same row now holds the patient, no row is
// added), a second booking of that slot is a 409 that changes nothing, and a cancellation
// releases, reopens or keeps the row as the mapping says, and a reschedule swaps times with
// the new slot's row — the legacy program's own view (a SELECT of the free rows) agreeing with
// /availability after every step.
import t, { type Test } from 'tap'
import { testDialects } from '../helpers/contract.js'
import { scratchOn, type ServerScratch } from '../helpers/scratch-servers.js'
import { checkOf } from '../helpers/check-of.js'
import { DAY, mapping, NEXT, schema } from '../helpers/open-slots-installation.js'
import { connect } from '../../src/db/connect.js'
import { parseMapping } from '../../src/mapping/load.js'
import { buildModel } from '../../src/mapping/model.js'
import { compileMapping, isUnsupported } from '../../src/mapping/compile/index.js'

/** The legacy program's view: the free rows, as `professional date hour`. */
async function legacyFree (s: ServerScratch): Promise<string[]> {
  const rows = await s.rows("SELECT healthprof, appointment_date FROM gh_appointment WHERE patient IS NULL AND state = 'free' ORDER BY appointment_date, healthprof")
  return rows.map((r) => `${r.healthprof} ${stamp(r.appointment_date).slice(0, 16)}`).sort()
}

/** /availability's view, in the same words. */
async function offered (t: Test, s: ServerScratch): Promise<string[]> {
  const res = await s.call('GET', `/availability?start=${DAY}&end=${NEXT}`)
  t.equal(res.status, 200, JSON.stringify(res.body))
  return (res.body as Array<{ date: string, hour: string, professional: { id: string } }>).map((x) => `${x.professional.id} ${x.date} ${x.hour}`).sort()
}

async function agree (t: Test, s: ServerScratch, expected: string[], when: string): Promise<void> {
  t.same(await offered(t, s), expected, `${when}: /availability offers exactly the free rows`)
  t.same(await legacyFree(s), expected, `${when}: the legacy view of free rows agrees`)
}

function stamp (v: unknown): string {
  if (v instanceof Date) return `${v.getFullYear()}-${String(v.getMonth() + 1).padStart(2, '0')}-${String(v.getDate()).padStart(2, '0')} ${String(v.getHours()).padStart(2, '0')}:${String(v.getMinutes()).padStart(2, '0')}`
  return String(v)
}

const row = async (s: ServerScratch, id: number | string): Promise<Record<string, any>> => (await s.rows(`SELECT id, patient, healthprof, state, write_date FROM gh_appointment WHERE id = ${Number(id)}`))[0]
const count = async (s: ServerScratch): Promise<number> => Number((await s.rows('SELECT COUNT(*) AS n FROM gh_appointment'))[0].n)
const table = async (s: ServerScratch): Promise<string> => JSON.stringify(await s.rows('SELECT id, patient, healthprof, institution, state FROM gh_appointment ORDER BY id'))

const ALL_FREE = [`1 ${DAY} 09:00`, `1 ${DAY} 09:30`, `1 ${DAY} 10:00`, `1 ${NEXT} 09:00`, `2 ${DAY} 09:00`].sort()
const without = (list: string[], x: string): string[] => list.filter((y) => y !== x)

async function book (t: Test, s: ServerScratch, hour: string, client: string, date = DAY): Promise<string> {
  const res = await s.call('POST', '/appointments', { date, hour, client, professional: '1' })
  t.equal(res.status, 200, JSON.stringify(res.body))
  return String(res.body.id)
}

for (const dialect of testDialects()) {
  t.test(dialect, async (t) => {
    t.test('free rows are offered, never listed, and a booking claims the row', async (t) => {
      const s = await scratchOn(t, dialect, schema(dialect), mapping('release'))
      await agree(t, s, ALL_FREE, 'before any booking')
      const listed = await s.call('GET', `/appointments?start=${DAY}&end=${NEXT}`)
      t.same(listed.body.map((a: { id: string }) => a.id).sort(), ['6', '7'], 'only appointments are listed, never the free rows')
      t.equal((await s.call('GET', '/appointments/2')).status, 404, 'a free row is no appointment')

      const before = await count(s)
      const id = await book(t, s, '09:30', '3')
      t.equal(id, '2', 'the booking is the free row of that slot')
      const claimed = await row(s, 2)
      t.equal(Number(claimed.patient), 3, 'the same row now holds the patient')
      t.equal(claimed.state, 'confirmed', 'in the state a booking writes')
      t.not(claimed.write_date, null, 'with the claim\'s own columns')
      t.equal(await count(s), before, 'no row was added')
      const got = await s.call('GET', `/appointments/${id}`)
      t.match(got.body, { id: '2', date: DAY, hour: '09:30', endHour: '10:00', state: 'WAITING', client: { id: '3' }, professional: { id: '1' } })
      await agree(t, s, without(ALL_FREE, `1 ${DAY} 09:30`), 'after the booking')

      const again = await s.call('POST', '/appointments', { date: DAY, hour: '09:30', client: '4', professional: '1' })
      t.equal(again.status, 409, 'the claimed slot cannot be booked again')
      const off = await s.call('POST', '/appointments', { date: DAY, hour: '09:10', client: '4', professional: '1' })
      t.equal(off.status, 409, 'a time no free row starts at is refused')
      t.match(off.body.errors, [{ path: '/body/date' }, { path: '/body/hour' }])
      const noProfessional = await s.call('POST', '/appointments', { date: DAY, hour: '10:00', client: '4' })
      t.equal(noProfessional.status, 400)
      t.match(noProfessional.body.errors, [{ path: '/body/professional' }])
      t.equal(await count(s), before, 'refusals add nothing')
    })

    t.test('two concurrent bookings of one slot: one claims it, the other is a 409 naming date and hour', async (t) => {
      const s = await scratchOn(t, dialect, schema(dialect), mapping('release'))
      const before = await table(s)
      const answers = await Promise.all(['4', '5'].map(async (client) => await s.call('POST', '/appointments', { date: DAY, hour: '10:00', client, professional: '1' })))
      t.same(answers.map((a) => a.status).sort(), [200, 409], JSON.stringify(answers.map((a) => a.body)))
      const lost = answers.find((a) => a.status === 409)
      t.match(lost?.body.errors, [{ path: '/body/date' }, { path: '/body/hour' }])
      t.match(lost?.body.detail, /10:00 on 2031-03-04/)
      const won = answers.find((a) => a.status === 200)
      t.equal(Number((await row(s, 3)).patient), Number(won?.body.client.id), 'the row holds the winner, and only the row changed')
      t.equal(JSON.parse(await table(s)).filter((r: { id: number }) => Number(r.id) !== 3).length, JSON.parse(before).length - 1)
      t.same(JSON.parse(await table(s)).filter((r: { id: number }) => Number(r.id) !== 3), JSON.parse(before).filter((r: { id: number }) => Number(r.id) !== 3))
      await agree(t, s, without(ALL_FREE, `1 ${DAY} 10:00`), 'after the race')
    })

    t.test('the claim changes a row only while it is free, and says so', async (t) => {
      // As if the clinic's program took the slot between Ponte's lookup and its UPDATE.
      const s = await scratchOn(t, dialect, schema(dialect), mapping('release'))
      const db = await connect(s.url)
      t.teardown(async () => await db.close())
      const writes = compileMapping(buildModel(parseMapping(mapping('release'), 'x.yaml')), db.dialect).writes.appointment
      if (isUnsupported(writes) || !writes.openSlots) throw new Error('the mapping claims open slots')
      const open = writes.openSlots
      const now = { date: '2031-03-01', time: '08:00:00', datetime: '2031-03-01 08:00:00', at: new Date('2031-03-01T08:00:00Z') }
      const before = await table(s)
      t.equal(await db.transaction(async (tx) => await open.claim(tx, '6', 'WAITING', now, { client: '4' })), false, 'an appointment\'s row is not claimed')
      t.equal(await db.transaction(async (tx) => await open.claim(tx, '7', 'WAITING', now, { client: '4' })), false, 'nor a cancelled row that is not free')
      t.equal(await table(s), before, 'and neither changed')
      t.equal(await db.transaction(async (tx) => await open.claim(tx, '1', 'WAITING', now, { client: '4' })), true, 'a free row is claimed')
      t.equal(await db.transaction(async (tx) => await open.claim(tx, '1', 'WAITING', now, { client: '5' })), false, 'once')
      t.equal(Number((await row(s, 1)).patient), 4, 'by the first claim')
    })

    t.test('check walks open slots: the claim probed and rolled back, a condition no row meets warned of', async (t) => {
      const s = await scratchOn(t, dialect, schema(dialect), mapping('release'))
      const before = await table(s)
      const report = await checkOf(t, s.url, mapping('release'))
      t.same(report.findings.filter((f) => f.severity === 'problem').map((f) => f.message), [], 'no problem')
      t.notOk(report.findings.some((f) => /free/.test(f.message) && /state code|unmapped/i.test(f.message)), 'the free rows\' code is no unmapped state')
      t.ok(report.findings.some((f) => f.severity === 'ok' && f.path.endsWith('/openSlots/free') && /^5 rows/.test(f.message)), 'the open slots are counted')
      t.ok(report.findings.some((f) => f.severity === 'ok' && /^POST \/appointments/.test(f.message) && /rolled back/.test(f.message)), 'a claim is probed')
      t.ok(report.findings.some((f) => f.severity === 'ok' && /PATCH …\/state CANCELED: .*free slot again/.test(f.message)), 'and a release')
      t.ok(report.findings.some((f) => f.severity === 'ok' && /PATCH …\/time: .*swapped with the free row/.test(f.message)), 'and a reschedule')
      t.equal(await table(s), before, 'every probe rolled back')
      const none = await checkOf(t, s.url, mapping('release').replace('eq: free }]', 'eq: vago }]'))
      t.ok(none.findings.some((f) => f.severity === 'warning' && f.path.endsWith('/openSlots/free') && /no row of gh_appointment is free/.test(f.message)), 'a condition no row meets is warned of at its place')
    })

    t.test('onCancel: release writes the row free again', async (t) => {
      const s = await scratchOn(t, dialect, schema(dialect), mapping('release'))
      const id = await book(t, s, '09:00', '3')
      const before = await count(s)
      const res = await s.call('PATCH', `/appointments/${id}/state`, { state: 'CANCELED' })
      t.equal(res.status, 200, res.body)
      t.match(res.body, /is open again/)
      const r = await row(s, id)
      t.equal(r.patient, null, 'the patient is cleared')
      t.equal(r.state, 'free', 'the state is free again')
      t.equal(await count(s), before)
      t.equal((await s.call('GET', `/appointments/${id}`)).status, 404, 'the released row is a slot, not an appointment')
      await agree(t, s, ALL_FREE, 'after the release')
    })

    t.test('onCancel: reopen leaves the row cancelled and inserts a free one', async (t) => {
      const s = await scratchOn(t, dialect, schema(dialect), mapping('reopen'))
      const id = await book(t, s, '09:00', '3')
      const before = await count(s)
      const res = await s.call('PATCH', `/appointments/${id}/state`, { state: 'CANCELED' })
      t.equal(res.status, 200, res.body)
      const r = await row(s, id)
      t.equal(Number(r.patient), 3, 'the cancelled row keeps its patient')
      t.equal(r.state, 'user_cancelled')
      t.equal(await count(s), before + 1, 'one free row is added')
      t.match((await s.call('GET', `/appointments/${id}`)).body, { state: 'CANCELED' })
      await agree(t, s, ALL_FREE, 'after the reopen')
      const back = await s.call('PATCH', `/appointments/${id}/state`, { state: 'WAITING' })
      t.equal(back.status, 409, 'a reopened slot is booked again, not un-cancelled')
      await agree(t, s, ALL_FREE, 'after the refused move back')
    })

    t.test('onCancel: keep leaves the row cancelled and the slot closed', async (t) => {
      const s = await scratchOn(t, dialect, schema(dialect), mapping('keep'))
      const id = await book(t, s, '09:00', '3')
      const before = await count(s)
      t.equal((await s.call('PATCH', `/appointments/${id}/state`, { state: 'CANCELED' })).status, 200)
      t.equal((await row(s, id)).state, 'user_cancelled')
      t.equal(await count(s), before)
      await agree(t, s, without(ALL_FREE, `1 ${DAY} 09:00`), 'after the cancellation')
    })

    for (const onCancel of ['release', 'reopen', 'keep']) {
      t.test(`with onCancel ${onCancel}, a reschedule swaps times with the new slot's row and keeps its id`, async (t) => {
        const s = await scratchOn(t, dialect, schema(dialect), mapping(onCancel))
        const id = await book(t, s, '09:00', '3')
        const before = await count(s)
        const res = await s.call('PATCH', `/appointments/${id}/time`, { date: NEXT, hour: '09:00' })
        t.equal(res.status, 200, res.body)
        t.equal(res.body, `Appointment ${id} moved to ${NEXT} 09:00.`)
        t.equal(Number((await row(s, id)).patient), 3, 'the appointment\'s row still holds the patient')
        t.match((await s.call('GET', `/appointments/${id}`)).body, { id, date: NEXT, hour: '09:00', client: { id: '3' } }, 'read at the new time by the id the caller keeps')
        const vacated = await row(s, 4)
        t.equal(vacated.patient, null, 'the new slot\'s former row is free')
        t.equal(vacated.state, 'free')
        t.equal((await s.call('GET', '/appointments/4')).status, 404)
        t.equal(await count(s), before, 'no row added, whatever onCancel says: a move is no cancellation')
        await agree(t, s, without(ALL_FREE, `1 ${NEXT} 09:00`), 'after the reschedule: the old time offered again, the new one not')
        const taken = await s.call('PATCH', '/appointments/6/time', { date: NEXT, hour: '09:00' })
        t.equal(taken.status, 409, 'a slot taken by the reschedule cannot be taken by another')
      })
    }
  })
}
