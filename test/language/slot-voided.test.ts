// A voided time slot is gone for the legacy system: /availability never offers it, and
// booking never points an appointment at it, even when it is the first slot at that start
// (the clinic voided a slot and cut a new one at the same hour).
import t from 'tap'
import { normalisedInstallation } from '../helpers/normalised-installation.js'

const DAY = '2027-03-10' // a Wednesday: provider 1 at room 3, 08:00–12:00

t.test('a voided slot at a start is never booked; the live one there is', async (t) => {
  const { get, call, raw } = await normalisedInstallation(t)
  const [offered] = (await get(`/availability?start=${DAY}&end=${DAY}&professional=1`)).body
  t.ok(offered, 'a free slot to start from')
  const start = `${offered.date} ${offered.hour}:00`
  const old = raw.prepare(`SELECT s.* FROM appointmentscheduling_time_slot s JOIN appointmentscheduling_appointment_block b
    ON b.appointment_block_id = s.appointment_block_id WHERE s.start_date = ? AND b.provider_id = 1`).get(start) as any
  // The old slot voided, a new one cut at the same start, with a higher id (looked up second).
  raw.prepare('UPDATE appointmentscheduling_time_slot SET voided = 1 WHERE time_slot_id = ?').run(old.time_slot_id)
  const fresh = (raw.prepare('SELECT MAX(time_slot_id) AS n FROM appointmentscheduling_time_slot').get() as { n: number }).n + 1
  raw.prepare('INSERT INTO appointmentscheduling_time_slot VALUES (?, ?, ?, ?, 0, ?)').run(fresh, old.appointment_block_id, old.start_date, old.end_date, 'fresh-slot-uuid')

  const again = (await get(`/availability?start=${DAY}&end=${DAY}&professional=1`)).body
  t.equal(again.filter((s: any) => s.hour === offered.hour).length, 1, 'the start is offered once (the live slot)')
  const booked = await call('POST', '/appointments', { date: offered.date, hour: offered.hour, client: '3', professional: '1', location: offered.location.id, service: '1' })
  t.equal(booked.status, 200, JSON.stringify(booked.body))
  const row = raw.prepare('SELECT time_slot_id FROM appointmentscheduling_appointment WHERE appointment_id = ?').get(Number(booked.body.id)) as any
  t.equal(row.time_slot_id, fresh, 'the appointment points at the live slot, not the voided one')
  t.same([booked.body.date, booked.body.hour], [offered.date, offered.hour], 'and reads back at that start')
})

t.test('a voided slot with no live one at its start cannot be booked', async (t) => {
  const { get, call, raw } = await normalisedInstallation(t)
  const [offered] = (await get(`/availability?start=${DAY}&end=${DAY}&professional=1`)).body
  raw.prepare(`UPDATE appointmentscheduling_time_slot SET voided = 1 WHERE start_date = ? AND appointment_block_id IN
    (SELECT appointment_block_id FROM appointmentscheduling_appointment_block WHERE provider_id = 1)`).run(`${offered.date} ${offered.hour}:00`)
  const count = (): number => (raw.prepare('SELECT COUNT(*) AS n FROM appointmentscheduling_appointment').get() as { n: number }).n
  const before = count()
  t.notOk((await get(`/availability?start=${DAY}&end=${DAY}&professional=1`)).body.some((s: any) => s.hour === offered.hour), 'not offered')
  const res = await call('POST', '/appointments', { date: offered.date, hour: offered.hour, client: '3', professional: '1', location: offered.location.id, service: '1' })
  t.equal(res.status, 409, JSON.stringify(res.body))
  t.equal(count(), before, 'nothing written')
})
