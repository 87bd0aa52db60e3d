// Booking outside the professional's working hours (design notes §1): the one home of this rule.
// On both samples and every test database, POST /appointments before the day's first hour and
// after its last, and PATCH …/time of a booked appointment to one, are a 409 problem (one between
// two offered starts says so); nothing is
// written (rows, key generation, the moved appointment's row) and /availability never offered
// those hours. Blocks (holidays, absences, closures) refusing a booking: test/http/availability/schedules.
import t from 'tap'
import { forEachSample, send, problem, legacy, keyState, slotPool, bookingBody, mobile } from '../../helpers/writes.js'

const q = encodeURIComponent

forEachSample(t, async (t, a) => {
  const model = a.inst.model
  const table = model.appointment.table
  const db = legacy(a)
  const pool = await slotPool(t, a, [['2027-01-04', '2027-01-31']], 2)
  const [free, booked] = pool.slots
  const unchanged = async (): Promise<{ count: number, key: number }> => ({ count: await db.count(table), key: (await keyState(a, 'appointment')).value })
  const client = await send(a, 'POST', '/clients', { name: 'Paciente Fora de Hora', phone: mobile(model.phone.defaultAreaCode ?? '11', 5_190_417) })
  t.equal(client.status, 200, 'a client to book for')
  const offeredHours = async (date: string): Promise<string[]> =>
    ((await send(a, 'GET', `/availability?start=${date}&end=${date}&professional=${q(free.professional)}`)).body as any[]).map((s) => s.hour)

  t.test('POST /appointments outside the hours → 409, nothing written', async (t) => {
    const offered = await offeredHours(free.date)
    for (const hour of ['03:00', '22:30']) {
      t.notOk(offered.includes(hour), `${free.date} ${hour} is not offered`)
      const before = await unchanged()
      problem(t, a, await send(a, 'POST', '/appointments', { ...bookingBody(free, client.body.id), hour }), 409, `booking ${hour}, outside the professional's hours`)
      t.same(await unchanged(), before, `${hour}: nothing written (rows, key generation)`)
    }
    t.ok((await offeredHours(free.date)).includes(free.hour), 'the day\'s offered slot is still free')
  })

  t.test('POST /appointments inside the hours but off the grid → 409 saying so, nothing written', async (t) => {
    const [h, m] = free.hour.split(':').map(Number)
    const hour = `${String(h).padStart(2, '0')}:${String(m + 10).padStart(2, '0')}`
    t.notOk((await offeredHours(free.date)).includes(hour), `${free.date} ${hour} is not offered`)
    const before = await unchanged()
    const r = await send(a, 'POST', '/appointments', { ...bookingBody(free, client.body.id), hour })
    problem(t, a, r, 409, `booking ${hour}, between two offered starts`)
    t.same(r.body.errors.find((e: { path: string }) => e.path === '/body/hour'), { path: '/body/hour', message: 'is not a start time /availability offers' }, 'named as off the grid, not outside the hours')
    t.same(await unchanged(), before, 'nothing written')
  })

  t.test('PATCH …/time outside the hours → 409, the appointment unchanged', async (t) => {
    const r = await send(a, 'POST', '/appointments', bookingBody(booked, client.body.id))
    t.equal(r.status, 200, `booked ${booked.date} ${booked.hour}`)
    const whole = await db.dump(table)
    problem(t, a, await send(a, 'PATCH', `/appointments/${q(r.body.id)}/time`, { date: booked.date, hour: '03:00' }), 409, 'moved to 03:00, outside the professional\'s hours')
    t.equal(await db.dump(table), whole, 'every row as it was')
    const back = await send(a, 'GET', `/appointments/${q(r.body.id)}`)
    t.match(back.body, { date: booked.date, hour: booked.hour }, 'still at its hour')
  })
})
