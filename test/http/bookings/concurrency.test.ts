// No double booking (issue 3): many requests for one slot at the same time give exactly one
// success, the rest 409, and one row in the legacy table; concurrent registrations never
// reuse a key. Requests are injected together, so they race through Ponte as far as it lets them.
import t from 'tap'
import {
  forEachSample, send, problem, legacy, keyState, storedSlot, slotPool, bookingBody, mobile, type FreeSlot, type TestApp
} from '../../helpers/writes.js'
import { TEST_KEY } from '../../helpers/app.js'
import { openInstallation } from '../../../src/installation.js'
import { loadConfig } from '../../../src/config.js'
import { createPonte } from '../../../src/ponte.js'
import { buildApp } from '../../../src/app.js'

/** Legacy rows (deleted or not) of one professional at one date and hour, read directly. */
async function rowsAt (a: TestApp, slot: FreeSlot): Promise<Record<string, unknown>[]> {
  const model = a.inst.model
  const appt = model.appointment
  const pro = appt.refs.professional as any
  const proColumn: string = pro.column ?? pro.rules.at(-1).column
  return await legacy(a).rows(appt.table, { ...storedSlot(model, slot.date, slot.hour), [proColumn]: slot.professional })
}

/** The first slot that no legacy row holds at all (not even a cancelled one). */
async function emptySlot (a: TestApp, slots: FreeSlot[]): Promise<FreeSlot> {
  for (const s of slots) if ((await rowsAt(a, s)).length === 0) return s
  throw new Error('no slot without any legacy row')
}

forEachSample(t, async (t, a) => {
  const model = a.inst.model
  const area = model.phone.defaultAreaCode ?? '11'
  const db = legacy(a)

  t.test('20 concurrent POST /clients → 20 distinct ids, none reused', async (t) => {
    const before = await keyState(a, 'client')
    const count = await db.count(model.client.table)
    const replies = await Promise.all(Array.from({ length: 20 }, (_, i) =>
      send(a, 'POST', '/clients', { name: `Paciente Concorrente ${i}`, phone: mobile(area, 6_200_000 + i * 1_009) })))
    t.same(replies.map((r) => r.status), Array(20).fill(200), 'every registration → 200')
    const ids = replies.map((r) => r.body?.id)
    t.equal(new Set(ids).size, 20, '20 distinct ids')
    t.equal(await db.count(model.client.table), count + 20, '20 rows added')
    const after = await keyState(a, 'client')
    if (after.gen.generate === 'keyTable') {
      t.equal(after.value, before.value + 20, 'the key table went up by exactly 20')
      t.same(ids.map(Number).sort((x, y) => x - y), Array.from({ length: 20 }, (_, i) => before.value + 1 + i), 'the ids are the 20 values handed out')
    }
    for (const [i, r] of replies.entries()) {
      const back = await send(a, 'GET', `/clients/${encodeURIComponent(r.body?.id)}`)
      t.equal(back.body?.name, `Paciente Concorrente ${i}`, `client ${r.body?.id} reads back as the one registered`)
    }
  })

  t.test('50 concurrent bookings of one slot → one 200, 49 × 409, one legacy row', async (t) => {
    // 50 different clients first, so that the client's own agenda is not what refuses anyone.
    const clients: string[] = []
    for (let i = 0; i < 50; i++) {
      const r = await send(a, 'POST', '/clients', { name: `Paciente Corrida ${i}`, phone: mobile(area, 6_500_000 + i * 2_003) })
      clients.push(r.body?.id)
    }
    t.equal(new Set(clients).size, 50, '50 clients registered')
    const pool = await slotPool(t, a, [['2027-02-01', '2027-02-26']], 5)
    const slot = await emptySlot(a, pool.slots)
    const count = await db.count(model.appointment.table)
    const keyBefore = (await keyState(a, 'appointment')).value

    const replies = await Promise.all(clients.map((client) => send(a, 'POST', '/appointments', bookingBody(slot, client))))
    const won = replies.filter((r) => r.status === 200)
    const refused = replies.filter((r) => r.status === 409)
    t.equal(won.length, 1, 'exactly one 200')
    t.equal(refused.length, 49, '49 × 409')
    t.same(replies.filter((r) => r.status !== 200 && r.status !== 409).map((r) => `${r.status} ${r.text.slice(0, 120)}`), [], 'no other answer')
    problem(t, a, refused[0], 409, 'a refused booking')
    t.equal(await db.count(model.appointment.table), count + 1, 'one row added to the table')
    const rows = await rowsAt(a, slot)
    t.equal(rows.length, 1, `one legacy row for professional ${slot.professional} on ${slot.date} at ${slot.hour}`)
    const winner = won[0]?.body
    t.equal(String(rows[0]?.[model.appointment.key.column]), winner?.id, 'and it is the one answered 200')
    const after = await keyState(a, 'appointment')
    if (after.gen.generate === 'keyTable') t.equal(after.value, keyBefore + 1, 'the key table handed out one key (the refused rolled back)')
    const listed = await send(a, 'GET', `/appointments?start=${slot.date}&end=${slot.date}&professional=${encodeURIComponent(slot.professional)}`)
    t.same((listed.body ?? []).filter((x: any) => x.hour === slot.hour).map((x: any) => x.id), [winner?.id], 'GET /appointments shows one appointment in the slot')
  })

  t.test('two Ponte instances on one database (two connections): still one booking', async (t) => {
    // The in-process queue serialises one connection; a second one must meet the database's own lock.
    const inst2 = await openInstallation(a.inst.model.file, a.url)
    const app2 = await buildApp(createPonte(loadConfig({ API_KEYS: TEST_KEY, MAPPING: a.inst.model.file, IDEMPOTENCY_STORE: ':memory:' }), inst2.db, inst2.compiled), { logLevel: false })
    t.teardown(async () => { await app2.close(); await inst2.close() })
    const other = { ...a, app: app2 }
    const clients: string[] = []
    for (let i = 0; i < 20; i++) clients.push((await send(a, 'POST', '/clients', { name: `Paciente Dupla ${i}`, phone: mobile(area, 7_300_000 + i * 4_001) })).body?.id)
    const pool = await slotPool(t, a, [['2027-02-01', '2027-02-26']], 5)
    const slot = await emptySlot(a, pool.slots)
    const replies = await Promise.all(clients.map((client, i) => send(i % 2 === 0 ? a : other, 'POST', '/appointments', bookingBody(slot, client))))
    const statuses = replies.map((r) => r.status)
    t.equal(statuses.filter((s) => s === 200).length, 1, 'exactly one 200 across both')
    t.same(statuses.filter((s) => s !== 200 && s !== 409 && s !== 503), [], 'the rest 409 (or 503 when the lock wait ran out)')
    t.equal((await rowsAt(a, slot)).length, 1, 'one legacy row')
  })

  t.test('25 concurrent reschedules of different appointments into one slot → one 200', async (t) => {
    const pool = await slotPool(t, a, [['2027-02-01', '2027-02-26']], 30)
    const target = pool.slots.pop() as FreeSlot
    const booked: string[] = []
    for (const [i, slot] of pool.slots.slice(0, 25).entries()) {
      const client = (await send(a, 'POST', '/clients', { name: `Paciente Remarca ${i}`, phone: mobile(area, 6_900_000 + i * 3_001) })).body?.id
      const r = await send(a, 'POST', '/appointments', bookingBody(slot, client))
      if (r.status === 200) booked.push(r.body.id)
    }
    t.equal(booked.length, 25, '25 appointments to move')
    const before = (await rowsAt(a, target)).length
    const replies = await Promise.all(booked.map((id) => send(a, 'PATCH', `/appointments/${id}/time`, { date: target.date, hour: target.hour })))
    t.equal(replies.filter((r) => r.status === 200).length, 1, 'exactly one 200')
    t.equal(replies.filter((r) => r.status === 409).length, 24, '24 × 409')
    t.equal((await rowsAt(a, target)).length, before + 1, 'one row moved into the slot')
  })
})
