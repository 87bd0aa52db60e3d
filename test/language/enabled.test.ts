// `enabled` on every lookup: a retired location takes no new bookings and gets no offers,
// and the past appointments that name it still show it.
import t from 'tap'
import { normalisedInstallation } from '../helpers/normalised-installation.js'

t.test('a retired location', async (t) => {
  const { get } = await normalisedInstallation(t)
  const day = '2027-03-08' // a Monday: provider 2 works at room 4 in the afternoon
  const before = (await get(`/availability?start=${day}&end=${day}`)).body
  t.ok(before.some((s: any) => s.location?.id === '4'), 'room 4 is offered while in use')
  const [slot] = before.filter((s: any) => s.location?.id === '4')
  const listed = (await get('/appointments?start=2027-01-04&end=2027-03-31&location=4')).body
  t.ok(listed.length > 0, 'appointments at room 4')

  const app = await normalisedInstallation(t) // the same data, room 4 retired before the catalogue is read
  app.raw.prepare('UPDATE location SET retired = 1 WHERE location_id = 4').run()
  t.equal((await app.get('/locations/4')).body.id, '4', 'still there by id')
  const after = (await app.get(`/availability?start=${day}&end=${day}`)).body
  t.same(after.filter((s: any) => s.location?.id === '4'), [], 'no offers at a retired location')
  t.ok(after.length > 0, 'the other rooms are still offered')
  const res = await app.call('POST', '/appointments', { date: slot.date, hour: slot.hour, client: '3', professional: slot.professional.id, location: '4' })
  t.equal(res.status, 400, JSON.stringify(res.body))
  t.match(res.body.detail, /location/)
  const past = (await app.get('/appointments?start=2027-01-04&end=2027-03-31&location=4')).body
  t.same(past.map((a: any) => a.id), listed.map((a: any) => a.id), 'its appointments are listed as before')
  t.ok(past.every((a: any) => a.location?.id === '4'), 'and still name it')
})
