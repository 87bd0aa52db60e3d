// A legacy row dated 9999-12-31 (the "never" some systems write) made every range that ends
// that day fail (the day after it has no date): a state move on such an appointment was a 500.
import t from 'tap'
import { rangeArgs } from '../../../../src/mapping/compile/date-range.js'
import { normalisedInstallation } from '../../../helpers/normalised-installation.js'

t.test('a range ending on the last date there is ends at its last second', async (t) => {
  const args = rangeArgs('9999-12-31', '9999-12-31')
  t.equal(args.afterDatetime, '9999-12-31 23:59:59')
  t.ok(String(args.after) > '9999-12-31 23:59:59', 'text datetimes of that day all sort before the end')
  t.equal(rangeArgs('2027-02-28', '2027-02-28').afterDatetime, '2027-03-01 00:00:00', 'other days end where the next begins')
})

t.test('an appointment on 9999-12-31 reads, moves state and back', async (t) => {
  const { get, call, raw } = await normalisedInstallation(t)
  raw.exec('INSERT INTO appointmentscheduling_appointment_block VALUES (9001, \'9999-12-31 08:00:00\', \'9999-12-31 12:00:00\', 1, 3, 0, \'far-block\')')
  raw.exec('INSERT INTO appointmentscheduling_time_slot VALUES (90001, 9001, \'9999-12-31 08:00:00\', \'9999-12-31 08:20:00\', 0, \'far-slot\')')
  raw.exec(`INSERT INTO appointmentscheduling_appointment (time_slot_id, patient_id, appointment_type_id, status, voided, uuid, creator, date_created)
    VALUES (90001, 3, 1, 'SCHEDULED', 0, 'far-appointment', 1, '2028-01-10 09:00:00')`)
  const { id } = raw.prepare('SELECT appointment_id AS id FROM appointmentscheduling_appointment WHERE uuid = ?').get('far-appointment') as { id: number }

  const read = await get(`/appointments/${id}`)
  t.equal(read.status, 200, JSON.stringify(read.body))
  t.same([read.body.date, read.body.hour], ['9999-12-31', '08:00'])
  for (const state of ['CANCELED', 'WAITING', 'CONFIRMED']) {
    const r = await call('PATCH', `/appointments/${id}/state`, { state })
    t.equal(r.status, 200, `→ ${state}: ${JSON.stringify(r.body)}`)
  }
  t.equal((raw.prepare('SELECT status FROM appointmentscheduling_appointment WHERE appointment_id = ?').get(id) as { status: string }).status, 'WAITING', 'CONFIRMED stored as the system\'s WAITING')
})
