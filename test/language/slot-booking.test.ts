// Slot-based booking on the normalised installation: the appointment row holds only a pointer
// to a time slot; booking finds the slot /availability offered, each slot books once, and
// rescheduling points the row at another slot.
import t from 'tap'
import { normalisedInstallation, USER_ID } from '../helpers/normalised-installation.js'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

t.test('every offered slot books once, and then is offered no more', async (t) => {
  const { get, call, raw } = await normalisedInstallation(t)
  const day = '2027-03-10'
  const { body: offered } = await get(`/availability?start=${day}&end=${day}&service=1`)
  t.ok(offered.length > 5, `${offered.length} slots offered`)
  for (const s of offered) {
    const res = await call('POST', '/appointments', { date: s.date, hour: s.hour, client: '3', professional: s.professional.id, location: s.location.id, service: '1' })
    if (res.status !== 200) { t.fail(`${s.date} ${s.hour} with ${s.professional.id}: ${res.status} ${JSON.stringify(res.body)}`); continue }
    t.same([res.body.date, res.body.hour, res.body.endHour, res.body.professional.id, res.body.location.id], [s.date, s.hour, s.endHour, s.professional.id, s.location.id], 'reads back as offered')
    const row = raw.prepare(`SELECT a.*, s.start_date FROM appointmentscheduling_appointment a
      JOIN appointmentscheduling_time_slot s ON s.time_slot_id = a.time_slot_id WHERE a.appointment_id = ?`).get(Number(res.body.id)) as any
    t.equal(row.start_date, `${s.date} ${s.hour}:00`, 'the row points at the slot')
    t.match(row.uuid, UUID, 'a uuid of its own')
    t.same([row.creator, row.status, row.voided, row.patient_id, row.appointment_type_id], [USER_ID, 'SCHEDULED', 0, 3, 1])
    const again = await call('POST', '/appointments', { date: s.date, hour: s.hour, client: '4', professional: s.professional.id, location: s.location.id, service: '1' })
    t.equal(again.status, 409, 'the same slot books once')
  }
  t.same((await get(`/availability?start=${day}&end=${day}&service=1`)).body, [], 'nothing left once every offered slot is booked')
})

t.test('only a slot\'s start can be booked', async (t) => {
  const { call, raw } = await normalisedInstallation(t)
  const before = (raw.prepare('SELECT COUNT(*) AS n FROM appointmentscheduling_appointment').get() as { n: number }).n
  const res = await call('POST', '/appointments', { date: '2027-03-10', hour: '08:10', client: '3', professional: '1', location: '3', service: '1' })
  t.equal(res.status, 409, JSON.stringify(res.body))
  const other = await call('POST', '/appointments', { date: '2027-03-10', hour: '08:00', client: '3', professional: '2', location: '3', service: '1' })
  t.equal(other.status, 409, 'not a slot of that professional')
  t.equal((raw.prepare('SELECT COUNT(*) AS n FROM appointmentscheduling_appointment').get() as { n: number }).n, before, 'nothing written')
})

t.test('rescheduling points the appointment at another slot', async (t) => {
  const { get, call, raw } = await normalisedInstallation(t)
  const { body: offered } = await get('/availability?start=2027-03-12&end=2027-03-12&professional=1')
  const [first, second] = offered
  const booked = await call('POST', '/appointments', { date: first.date, hour: first.hour, client: '5', professional: '1', service: '1' })
  t.equal(booked.status, 200, JSON.stringify(booked.body))
  const moved = await call('PATCH', `/appointments/${booked.body.id}/time`, { date: second.date, hour: second.hour })
  t.equal(moved.status, 200, JSON.stringify(moved.body))
  const after = (await get(`/appointments/${booked.body.id}`)).body
  t.same([after.date, after.hour, after.endHour], [second.date, second.hour, second.endHour])
  const slot = raw.prepare(`SELECT s.start_date FROM appointmentscheduling_appointment a JOIN appointmentscheduling_time_slot s
    ON s.time_slot_id = a.time_slot_id WHERE a.appointment_id = ?`).get(Number(booked.body.id)) as any
  t.equal(slot.start_date, `${second.date} ${second.hour}:00`)
  const offTheGrid = await call('PATCH', `/appointments/${booked.body.id}/time`, { date: second.date, hour: '08:05' })
  t.equal(offTheGrid.status, 409, 'no slot starts then')
})

t.test('a booking opens a status-history row; each state move closes it and opens the next', async (t) => {
  const { get, call, raw } = await normalisedInstallation(t)
  const [slot] = (await get('/availability?start=2027-03-15&end=2027-03-15&professional=1')).body
  const booked = await call('POST', '/appointments', { date: slot.date, hour: slot.hour, client: '6', professional: '1', service: '2' })
  t.equal(booked.status, 200, JSON.stringify(booked.body))
  const id = Number(booked.body.id)
  const history = () => raw.prepare(`SELECT status, start_date, end_date FROM appointmentscheduling_appointment_status_history
    WHERE appointment_id = ? ORDER BY appointment_status_history_id`).all(id) as any[]
  t.same(history().map((h) => [h.status, h.end_date]), [['SCHEDULED', null]], 'the first row, open')
  t.equal((await call('PATCH', `/appointments/${id}/state`, { state: 'CONFIRMED' })).status, 200)
  const rows = history()
  t.same(rows.map((h) => h.status), ['SCHEDULED', 'WAITING'], 'CONFIRMED is stored as the system\'s WAITING')
  t.match(rows[0].end_date, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/, 'the previous row is closed')
  t.equal(rows[1].end_date, null, 'the new one is current')
  t.equal((raw.prepare('SELECT status FROM appointmentscheduling_appointment WHERE appointment_id = ?').get(id) as any).status, 'WAITING')
  t.equal((await call('PATCH', `/appointments/${id}/state`, { state: 'CONFIRMED' })).status, 200)
  t.equal(history().length, 2, 'no move, no history')
  t.equal((await call('PATCH', `/appointments/${id}/state`, { state: 'CANCELED' })).status, 200)
  t.same(history().map((h) => [h.status, h.end_date === null]), [['SCHEDULED', false], ['WAITING', false], ['CANCELLED', true]], 'exactly one current row')
})
