// Issue 27 item 13 on an OpenMRS-like schema generated in the test, on every test database:
// the status column has no confirmed code, so a confirmation is recorded in a `confirmed_at`
// flag column, in a `confirmed` attribute row (deleted when withdrawn) or in one voided when
// withdrawn. Confirming by PATCH, moving back, cancelling, `?state=` and availability must
// hold on each, every write read back from the database directly; `check` proves the paths.
import t, { type Test } from 'tap'
import { testDialects } from '../helpers/contract.js'
import { scratchOn, type ServerScratch } from '../helpers/scratch-servers.js'
import { checkInstallation } from '../../src/check/index.js'
import { tableContents } from '../helpers/table-contents.js'
import { confirmMapping, confirmSchema, DAY, ROWS, type ConfirmForm } from '../helpers/confirm-installation.js'

const FORMS: ConfirmForm[] = ['flag', 'attribute', 'voided']

const ids = (body: Array<{ id: string }>): string[] => body.map((a) => a.id).sort((a, b) => Number(a) - Number(b))
const inState = async (s: ServerScratch, state: string): Promise<string[]> => {
  const res = await s.call('GET', `/appointments?start=${DAY}&end=${DAY}&state=${state}`)
  if (res.status !== 200) throw new Error(JSON.stringify(res.body))
  return ids(res.body)
}

/** What the database holds for appointment `id`: its status and every confirmation recorded for it. */
async function recorded (s: ServerScratch, id: number): Promise<{ status: string, flag: boolean, live: string[], voided: number }> {
  const [row] = await s.rows(`SELECT status, confirmed_at FROM appointment WHERE appointment_id = ${id}`)
  const attrs = await s.rows(`SELECT attribute_type, value, voided FROM appointment_attribute WHERE appointment_id = ${id}`)
  return {
    status: row.status,
    flag: row.confirmed_at !== null,
    live: attrs.filter((a) => Number(a.voided) === 0).map((a) => `${String(a.attribute_type)}=${String(a.value)}`),
    voided: attrs.filter((a) => Number(a.voided) === 1).length
  }
}

async function move (t: Test, s: ServerScratch, id: number, state: string): Promise<void> {
  const res = await s.call('PATCH', `/appointments/${id}/state`, { state })
  t.equal(res.status, 200, `PATCH ${id} → ${state}: ${JSON.stringify(res.body)}`)
  t.equal((await s.call('GET', `/appointments/${id}`)).body.state, state, `${id} reads back ${state}`)
}

for (const dialect of testDialects()) {
  for (const form of FORMS) {
    t.test(`${form} [${dialect}]`, async (t) => {
      const s = await scratchOn(t, dialect, confirmSchema(dialect), confirmMapping(form))
      // Where each form records a confirmation; the flag form leaves the attribute table alone and the others the flag.
      const confirmed = (r: Awaited<ReturnType<typeof recorded>>): boolean => form === 'flag' ? r.flag : r.live.includes('confirmed=true')

      t.test('reads: a recorded confirmation on a Scheduled row is CONFIRMED; a cancelled row keeps CANCELED', async (t) => {
        const res = await s.call('GET', `/appointments?start=${DAY}&end=${DAY}`)
        t.equal(res.status, 200, JSON.stringify(res.body))
        t.same(Object.fromEntries((res.body as Array<{ id: string, state: string }>).map((a) => [a.id, a.state])), Object.fromEntries(ROWS.map((r) => [String(r[0]), r[4]])))
        t.equal((await s.call('GET', '/appointments/4')).body.state, 'CANCELED', 'Cancelled with a confirmation left behind reads CANCELED')
        t.same(await inState(s, 'CONFIRMED'), ['2', '3'], '?state=CONFIRMED: the confirmed Scheduled row and the checked-in one')
      })

      t.test('confirm, move back, cancel: recorded where the mapping says, read back as the state', async (t) => {
        const freeBefore = await s.call('GET', `/availability?start=${DAY}&end=${DAY}&professional=7`)
        t.equal(freeBefore.status, 200)

        await move(t, s, 1, 'CONFIRMED')
        const one = await recorded(s, 1)
        t.equal(one.status, 'Scheduled', 'the status column keeps its booked code')
        t.ok(confirmed(one), `the confirmation is recorded (${JSON.stringify(one)})`)
        if (form !== 'flag') t.same(one.live, ['confirmed=true'], 'one attribute row, as the join\'s where requires')
        t.same(await inState(s, 'CONFIRMED'), ['1', '2', '3'], '?state=CONFIRMED now holds 1')
        t.same(await inState(s, 'WAITING'), ['7'], 'and ?state=WAITING no longer does')

        const freeAfter = await s.call('GET', `/availability?start=${DAY}&end=${DAY}&professional=7`)
        t.same(freeAfter.body, freeBefore.body, 'availability is the same: a confirmed appointment holds its slot as a waiting one did')
        t.notMatch(JSON.stringify(freeAfter.body), /"08:00"/, '08:00 is not offered')

        await move(t, s, 1, 'WAITING')
        const back = await recorded(s, 1)
        t.notOk(confirmed(back), `moving back to WAITING clears the confirmation (${JSON.stringify(back)})`)
        t.equal(back.voided, form === 'voided' ? 1 : 0, form === 'voided' ? 'the row is voided, kept' : 'no row is voided')
        t.same(await inState(s, 'CONFIRMED'), ['2', '3'])

        await move(t, s, 1, 'CONFIRMED')
        t.ok(confirmed(await recorded(s, 1)), 'confirming again records it again')
        if (form !== 'flag') t.same((await recorded(s, 1)).live, ['confirmed=true'], 'in one live row')

        await move(t, s, 2, 'CANCELED')
        const two = await recorded(s, 2)
        t.equal(two.status, 'Cancelled')
        if (form !== 'flag') t.same(two.live, [], 'cancelling removes the attribute')
        t.same(await inState(s, 'CONFIRMED'), ['1', '3'], 'a cancelled confirmed appointment is not CONFIRMED')
        t.same(await inState(s, 'CANCELED'), ['2', '4'])
        t.match(JSON.stringify((await s.call('GET', `/availability?start=${DAY}&end=${DAY}&professional=7`)).body), /"08:30"/, 'its slot is offered again')
      })

      t.test('a new booking is WAITING with no confirmation recorded', async (t) => {
        const res = await s.call('POST', '/appointments', { date: DAY, hour: '11:30', client: '1', professional: '7' })
        t.equal(res.status, 200, JSON.stringify(res.body))
        t.equal(res.body.state, 'WAITING')
        const r = await recorded(s, Number(res.body.id))
        t.same([r.status, confirmed(r)], ['Scheduled', false])
        await move(t, s, Number(res.body.id), 'CONFIRMED')
        t.ok(confirmed(await recorded(s, Number(res.body.id))), 'and is confirmed by PATCH like any other')
      })

      t.test('check proves the confirm path and leaves every table as it was', async (t) => {
        const before = await tableContents(s.installation.db)
        const report = await checkInstallation(s.installation, { budgetMs: 2000 })
        const confirm = report.findings.filter((f) => /^PATCH …\/state CONFIRMED: /.test(f.message))
        t.same(confirm.map((f) => f.severity), ['ok'], confirm.map((f) => f.message).join(' | '))
        t.same(await tableContents(s.installation.db), before, 'rolled back')
        t.notOk(report.findings.some((f) => f.severity === 'problem'), report.lines.filter((l) => l.startsWith('✗')).join('\n'))
      })
    })
  }
}
