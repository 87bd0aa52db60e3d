// What /availability offers can be booked as offered: back-to-back slots both succeed, and
// each booking lasts exactly its slot.
import t from 'tap'
import { forEachSample } from '../../helpers/contract.js'
import { TEST_KEY } from '../../helpers/app.js'
import { schedulesInstallation } from '../../helpers/schedules-installation.js'

forEachSample(t, async (t, a) => {
  const { body: professionals } = await a.get('/professionals?enabled=true')
  let checked = 0
  for (const p of professionals) {
    if (checked >= 3) break
    const { body: slots } = await a.get(`/availability?start=2027-02-08&end=2027-02-12&professional=${p.id}`)
    const pair = slots.findIndex((s: any, i: number) => i + 1 < slots.length && slots[i + 1].date === s.date && slots[i + 1].hour === s.endHour)
    if (pair < 0) continue
    checked++
    for (const slot of [slots[pair], slots[pair + 1]]) {
      // A new client per booking, so only the professional's agenda can refuse it.
      const created = await a.app.inject({
        method: 'POST',
        url: '/clients',
        headers: { authorization: `Bearer ${TEST_KEY}` },
        payload: { name: `Slot ${p.id} ${slot.hour}`, phone: `+55119${String(70000000 + checked * 10000 + Number(slot.hour.replace(':', ''))).slice(-8)}` }
      })
      const client = JSON.parse(created.body)
      const res = await a.app.inject({
        method: 'POST',
        url: '/appointments',
        headers: { authorization: `Bearer ${TEST_KEY}` },
        payload: { date: slot.date, hour: slot.hour, client: client.id, professional: p.id, ...(slot.location ? { location: slot.location.id } : {}) }
      })
      t.equal(res.statusCode, 200, `${p.id} ${slot.date} ${slot.hour}-${slot.endHour} books: ${res.body.slice(0, 160)}`)
      if (res.statusCode === 200) t.equal(JSON.parse(res.body).endHour, slot.endHour, 'the booking lasts its slot')
    }
  }
  t.ok(checked > 0, 'found back-to-back slots to book')

  // The other way round: a start /availability does not offer (inside the hours, off the grid) is refused.
  const { body: free } = await a.get(`/availability?start=2027-02-15&end=2027-02-19&professional=${professionals[0].id}`)
  const slot = free.find((s: any) => Number(s.hour.slice(3)) <= 50)
  t.ok(slot, 'a free slot to shift off the grid')
  const off = `${slot.hour.slice(0, 3)}${String(Number(slot.hour.slice(3)) + 5).padStart(2, '0')}`
  t.notOk(free.some((s: any) => s.date === slot.date && s.hour === off), `${off} is not offered`)
  const created = await a.app.inject({ method: 'POST', url: '/clients', headers: { authorization: `Bearer ${TEST_KEY}` }, payload: { name: 'Fora da Grade', phone: '+5511970009999' } })
  const res = await a.app.inject({
    method: 'POST',
    url: '/appointments',
    headers: { authorization: `Bearer ${TEST_KEY}` },
    payload: { date: slot.date, hour: off, client: JSON.parse(created.body).id, professional: professionals[0].id, ...(slot.location ? { location: slot.location.id } : {}) }
  })
  t.equal(res.statusCode, 409, `booking ${slot.date} ${off}, which /availability does not offer: 409`)
})

// The generated installation with every schedule form (test/helpers/schedules-installation.ts): every slot
// offered around the holidays, closures and slot-holding rows books, and lasts its slot.
t.test('clinica-andina: every offered slot books', async (t) => {
  const { get, call } = await schedulesInstallation(t)
  const days = ['2027-12-02', '2027-12-03', '2027-12-08', '2027-12-13', '2027-12-20', '2027-12-21', '2027-12-24', '2027-12-25']
  let booked = 0
  for (const date of days) {
    const { body: slots } = await get(`/availability?start=${date}&end=${date}`)
    for (const slot of slots) {
      // One client per professional: only the professional's agenda can refuse, and never does.
      const res = await call('POST', '/appointments', { date: slot.date, hour: slot.hour, client: slot.professional.id, professional: slot.professional.id, location: slot.location?.id })
      t.equal(res.status, 200, `${slot.date} ${slot.hour}-${slot.endHour} with ${slot.professional.id}: ${JSON.stringify(res.body).slice(0, 160)}`)
      if (res.status === 200) t.equal(res.body.endHour, slot.endHour, 'the booking lasts its slot')
      booked++
    }
    t.same((await get(`/availability?start=${date}&end=${date}`)).body, [], `${date}: nothing left once every offered slot is booked`)
  }
  t.ok(booked > 50, `${booked} slots booked`)
})
