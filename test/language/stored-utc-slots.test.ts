// Slot-based booking on a database that keeps its slots in UTC (`storedIn`): the normalised
// installation's slots, read again as UTC instants by a La Paz clinic (UTC-4), are offered,
// listed and booked four hours earlier, and a booking still points at the slot the stored
// instant names; `now:` in the history row is UTC's now.
import t from 'tap'
import { NORMALISED_MAPPING, normalisedInstallation } from '../helpers/normalised-installation.js'

const UTC_MAPPING = NORMALISED_MAPPING.replace('timezone: America/La_Paz\n', 'timezone: America/La_Paz\nstoredIn: UTC\n')
const DAY = '2027-03-10'
const earlier = (hour: string): string => `${String(Number(hour.slice(0, 2)) - 4).padStart(2, '0')}${hour.slice(2)}`

t.test('slots stored in UTC are offered and booked on the clinic clock', async (t) => {
  t.not(UTC_MAPPING, NORMALISED_MAPPING)
  const local = await normalisedInstallation(t)
  const utc = await normalisedInstallation(t, UTC_MAPPING)
  const asStored = (await local.get(`/availability?start=${DAY}&end=${DAY}&professional=1`)).body as { date: string, hour: string, endHour: string }[]
  const offered = (await utc.get(`/availability?start=${DAY}&end=${DAY}&professional=1`)).body as { date: string, hour: string, endHour: string }[]
  t.ok(asStored.length > 3, `${asStored.length} slots`)
  t.same(offered.map((s) => [s.date, s.hour, s.endHour]), asStored.map((s) => [s.date, earlier(s.hour), earlier(s.endHour)]), 'every slot four hours earlier')

  const [first, second] = offered
  const booked = await utc.call('POST', '/appointments', { date: first!.date, hour: first!.hour, client: '5', professional: '1', service: '1' })
  t.equal(booked.status, 200, JSON.stringify(booked.body))
  t.same([booked.body.date, booked.body.hour], [first!.date, first!.hour], 'answered on the clinic clock')
  const slotOf = (id: string): string => (utc.raw.prepare(`SELECT s.start_date FROM appointmentscheduling_appointment a
    JOIN appointmentscheduling_time_slot s ON s.time_slot_id = a.time_slot_id WHERE a.appointment_id = ?`).get(Number(id)) as { start_date: string }).start_date
  t.equal(slotOf(booked.body.id), `${DAY} ${asStored[0]!.hour}:00`, 'the row points at the slot stored four hours later')
  const listed = (await utc.get(`/appointments?start=${DAY}&end=${DAY}&professional=1`)).body as { id: string, hour: string }[]
  t.same(listed.filter((a) => a.id === booked.body.id).map((a) => a.hour), [first!.hour], 'listed on the clinic clock')

  const history = utc.raw.prepare('SELECT start_date FROM appointmentscheduling_appointment_status_history WHERE appointment_id = ?').get(Number(booked.body.id)) as { start_date: string }
  t.ok(Math.abs(Date.parse(`${history.start_date.replace(' ', 'T')}Z`) - Date.now()) < 5 * 60_000, `a history row's now: datetime is UTC's now (${history.start_date})`)

  const moved = await utc.call('PATCH', `/appointments/${booked.body.id as string}/time`, { date: second!.date, hour: second!.hour })
  t.equal(moved.status, 200, JSON.stringify(moved.body))
  t.equal(slotOf(booked.body.id), `${DAY} ${asStored[1]!.hour}:00`, 'a move points at the next slot by its stored instant')
  const stored = await utc.call('POST', '/appointments', { date: DAY, hour: asStored[2]!.hour, client: '6', professional: '1', service: '1' })
  t.equal(stored.status, 409, 'a slot\'s UTC hour is not a clinic hour of it')
})
