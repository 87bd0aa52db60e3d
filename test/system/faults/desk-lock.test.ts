// Issue 25, item 7: the clinic's desktop program holds one appointment row FOR UPDATE (an
// appointment open for editing) on the real local MariaDB (and PostgreSQL, which already
// answered at once). On MariaDB, bookings of that day for other
// professionals used to wait for it and answer 504: the sample decides the professional by a
// rule (the hygienist column when the hygiene flag is set), so the day's locking read could
// not use the (professional, date) index, scanned the whole day and locked every row of it.
// Here the day of another professional books at once, the held appointment's own time is
// still refused, and a change to the held appointment itself waits for the desk and then
// goes through. On MariaDB, bookings of one day still wait for each other: for the day's
// claim, a named lock another Ponte holds.
import t from 'tap'
import { setTimeout as sleep } from 'node:timers/promises'
import type { FastifyInstance } from 'fastify'
import { loadConfig } from '../../../src/config.js'
import { createPonte } from '../../../src/ponte.js'
import { buildApp } from '../../../src/app.js'
import { openInstallation } from '../../../src/installation.js'
import { TEST_KEY } from '../../helpers/app.js'
import { mobile, bookingBody, type FreeSlot } from '../../helpers/writes.js'
import { REAL_SERVERS, urlVia } from '../../helpers/real-servers.js'
import { claimNames } from '../../../src/sql/claims.js'
import { dayClaims } from '../../../src/services/booking.js'

const MAPPING = 'mappings/clinica-sorriso.yaml'
const FIXTURE = 'fixtures/clinica-sorriso/fixture.json'
// The installation: a lock wait ends in a 504 after 4 s.
const SETTINGS = { poolMax: 5, connectTimeoutMs: 5000, statementTimeoutMs: 4000 }

t.setTimeout(120_000)

interface Reply { status: number, body: any, text: string }

async function send (app: FastifyInstance, method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown): Promise<Reply> {
  const res = await app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${TEST_KEY}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { payload: JSON.stringify(body) } : {})
  })
  let parsed: any
  try { parsed = JSON.parse(res.body) } catch {}
  return { status: res.statusCode, body: parsed, text: res.body }
}

/**
 * A day and an hour at which two professionals are both free, each free at a later hour of
 * that day too (through /availability).
 */
async function twoProfessionalsOneHour (app: FastifyInstance): Promise<{ a: FreeSlot, later: FreeSlot, b: FreeSlot, bLater: FreeSlot }> {
  const r = await send(app, 'GET', '/availability?start=2027-03-01&end=2027-03-19')
  if (r.status !== 200) throw new Error(`GET /availability → ${r.status} ${r.text.slice(0, 200)}`)
  const slots: FreeSlot[] = r.body.map((x: any) => ({ date: x.date, hour: x.hour, endHour: x.endHour, professional: x.professional.id, location: x.location?.id }))
  const laterThan = (x: FreeSlot): FreeSlot | undefined => slots.find((y) => y.date === x.date && y.professional === x.professional && y.hour >= x.endHour)
  for (const a of slots) {
    const b = slots.find((y) => y.date === a.date && y.hour === a.hour && y.endHour === a.endHour && y.professional !== a.professional)
    const later = laterThan(a)
    const bLater = b && laterThan(b)
    if (b && later && bLater) return { a, later, b, bLater }
  }
  throw new Error('no hour at which two professionals are free')
}

for (const server of Object.values(REAL_SERVERS)) {
  t.test(`${server.label}: an appointment held FOR UPDATE by the desktop program`, async (t) => {
    await server.reachable()
    const scratch = await server.scratch(FIXTURE)
    t.teardown(async () => { await scratch.drop() })
    const inst = await openInstallation(MAPPING, urlVia(scratch.url, undefined, SETTINGS))
    t.teardown(async () => { await inst.close() })
    const config = loadConfig({ API_KEYS: TEST_KEY, MAPPING, IDEMPOTENCY_STORE: ':memory:', RATE_LIMIT_PER_MINUTE: '0' })
    const app = await buildApp(createPonte(config, inst.db, inst.compiled), { logLevel: false })
    t.teardown(async () => { await app.close() })

    const clients: string[] = []
    for (let i = 0; i < 5; i++) {
      const r = await send(app, 'POST', '/clients', { name: `Paciente Balcão ${i}`, phone: mobile('11', 5_300_000 + i * 7_001) })
      if (r.status !== 200) throw new Error(`POST /clients → ${r.status} ${r.text.slice(0, 200)}`)
      clients.push(r.body.id)
    }
    const { a, later, b, bLater } = await twoProfessionalsOneHour(app)
    const held = await send(app, 'POST', '/appointments', bookingBody(a, clients[0]))
    t.equal(held.status, 200, `professional ${a.professional} booked on ${a.date} at ${a.hour}`, { body: held.body })

    // The desk opens that appointment for editing: its row locked until the desk saves.
    const desk = await server.side(scratch.database)
    t.teardown(async () => { await desk.close() })
    const agenda = server.table(scratch.database, inst.model.appointment.table)
    const key = server.dialect.ident(inst.model.appointment.key.column)
    await desk.query('START TRANSACTION')
    const locked = await desk.query(`SELECT ${key} FROM ${agenda} WHERE ${key} = ${server.dialect.placeholder(1)} FOR UPDATE`, [Number(held.body.id)])
    t.equal(locked.length, 1, 'the desk holds the row')
    let deskDone = false

    // Answered before the desk saves: a lock wait would end in a 504 (SETTINGS).
    const other = await send(app, 'POST', '/appointments', bookingBody(b, clients[1]))
    t.equal(other.status, 200, `another professional (${b.professional}) books the same hour of that day at once`, { body: other.body })
    const clash = await send(app, 'POST', '/appointments', bookingBody(a, clients[2]))
    t.equal(clash.status, 409, 'the held appointment\'s time is still refused', { body: clash.body })
    const sameProfessional = await send(app, 'POST', '/appointments', bookingBody(later, clients[3]))
    t.equal(sameProfessional.status, 200, 'the same professional\'s other free time books too', { body: sameProfessional.body })

    // A change to the held appointment itself waits for the desk, then goes through.
    const patch = send(app, 'PATCH', `/appointments/${encodeURIComponent(held.body.id)}/state`, { state: 'CONFIRMED' })
      .finally(() => { t.ok(deskDone, 'the change to the held appointment answered only after the desk saved') })
    await sleep(500)
    deskDone = true
    await desk.query('COMMIT')
    const confirmed = await patch
    t.equal(confirmed.status, 200, 'and is then made', { body: confirmed.body })
    t.equal((await send(app, 'GET', `/appointments/${encodeURIComponent(held.body.id)}`)).body?.state, 'CONFIRMED', 'as GET shows')
    t.same((await send(app, 'GET', `/appointments?start=${a.date}&end=${a.date}&professional=${encodeURIComponent(a.professional)}`)).body
      .filter((x: any) => x.hour === a.hour).map((x: any) => x.id), [held.body.id], 'one appointment in the held slot')

    // PostgreSQL takes no claims (SERIALIZABLE keeps bookings apart: src/sql/postgres/driver.ts).
    if (server.name !== 'mysql') return
    // Another Ponte (a second replica) booking B's day holds its claim: this booking of B waits
    // for it, whatever rows either reads, and goes ahead once it is released.
    const [bDay] = claimNames(scratch.database, dayClaims(b.date, { professional: b.professional }))
    const replica = await server.side(scratch.database)
    t.teardown(async () => { await replica.close() })
    t.same(await replica.query('SELECT GET_LOCK(?, 5) AS claimed', [bDay]), [{ claimed: 1 }], 'another replica claims B\'s day')
    let replicaDone = false
    const waiting = send(app, 'POST', '/appointments', bookingBody(bLater, clients[4]))
      .finally(() => { t.ok(replicaDone, 'the booking of B answered only after the other replica\'s claim ended') })
    await sleep(500)
    replicaDone = true
    await replica.query('SELECT RELEASE_LOCK(?)', [bDay])
    const made = await waiting
    t.equal(made.status, 200, 'and is then made', { body: made.body })

    // Every claim taken above, by bookings made and refused alike, was given back.
    const names = claimNames(scratch.database, [
      ...dayClaims(a.date, { professional: a.professional }), ...dayClaims(b.date, { professional: b.professional }),
      ...clients.flatMap((client) => dayClaims(a.date, { client }))
    ])
    const [{ n }] = await replica.query(`SELECT ${names.map(() => 'IS_FREE_LOCK(?)').join(' + ')} AS n`, names)
    t.equal(Number(n), names.length, `none of the ${names.length} claims is still held`)
  })
}
