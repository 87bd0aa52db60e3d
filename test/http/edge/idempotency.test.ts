// Idempotency-Key on the interface's own POSTs, on both samples: a retried booking or
// registration replays the first answer and writes nothing more.
import t from 'tap'
import { forEachSample } from '../../helpers/contract.js'
import { TEST_KEY } from '../../helpers/app.js'

forEachSample(t, async (t, a) => {
  const post = async (url: string, payload: object, key: string) => await a.app.inject({
    method: 'POST', url, payload, headers: { authorization: `Bearer ${TEST_KEY}`, 'idempotency-key': key }
  })
  const client = { name: 'Retry Person', phone: '+5511944443333' }
  const first = await post('/clients', client, 'register-1')
  t.equal(first.statusCode, 200)
  const again = await post('/clients', client, 'register-1')
  t.equal(again.statusCode, 200)
  t.equal(again.headers['idempotent-replayed'], 'true')
  t.equal(again.body, first.body, 'the same client, not a second one')
  t.equal((await a.get('/clients/search?term=%2B5511944443333')).body.length, 1, 'one client holds the phone')
  t.equal((await post('/clients', { ...client, name: 'Someone Else' }, 'register-1')).statusCode, 422)

  const { body: professionals } = await a.get('/professionals?enabled=true')
  let slot: any
  let professional: any
  for (const p of professionals) {
    const { body: slots } = await a.get(`/availability?start=2027-03-01&end=2027-03-05&professional=${p.id}`)
    if (slots.length > 0) { slot = slots[0]; professional = p; break }
  }
  t.ok(slot, 'a free slot to book')
  const booking = { date: slot.date, hour: slot.hour, client: JSON.parse(first.body).id, professional: professional.id, ...(slot.location ? { location: slot.location.id } : {}) }
  const booked = await post('/appointments', booking, 'book-1')
  t.equal(booked.statusCode, 200)
  const retried = await post('/appointments', booking, 'book-1')
  t.equal(retried.statusCode, 200, 'a retry is not a 409: it is the same booking')
  t.equal(retried.body, booked.body)
  const other = await post('/appointments', booking, 'book-2')
  t.equal(other.statusCode, 409, 'a new key for the same slot is a new booking: refused')
})
