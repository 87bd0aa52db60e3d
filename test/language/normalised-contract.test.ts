// The contract checks of test/http/, driven against the normalised installation
// (test/helpers/normalised-installation.ts): the same things an outside judge asks of the
// samples — reads agree with each other and with their filters, every offered slot books
// once, state moves, reschedules and client writes read back. What the schema does not hold
// (CPF, e-mail, health insurances, specialties) is skipped with its reason, visibly.
import t from 'tap'
import type { Test } from 'tap'
import { parsePhoneNumberFromString } from 'libphonenumber-js'
import { normalisedInstallation, FIRST_DAY, LAST_DAY } from '../helpers/normalised-installation.js'
import type { Scratch } from '../helpers/scratch.js'
import { addDays } from '../../src/normalise/datetime.js'

const NOT_IN_SCHEMA = 'the normalised schema holds no health insurances or specialties'
const STATES = ['WAITING', 'CONFIRMED', 'CANCELED', 'MISSED', 'DONE']
const HOUR = /^([01]\d|2[0-3]):[0-5]\d$/
const E164 = /^\+[1-9]\d{6,14}$/
const LOOKUPS = { professional: '/professionals', location: '/locations', service: '/services' } as const
const q = encodeURIComponent
const ids = (list: any[]): string[] => list.map((x) => x.id)
const sorted = (list: string[]): string[] => [...list].sort()
/** Equal as JSON, whatever the key order. */
const same = (x: unknown, y: unknown): boolean => JSON.stringify(canonical(x)) === JSON.stringify(canonical(y))
function canonical (x: unknown): unknown {
  if (Array.isArray(x)) return x.map(canonical)
  if (x !== null && typeof x === 'object') return Object.fromEntries(Object.entries(x).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, canonical(v)]))
  return x
}

async function ok (t: Test, c: Scratch, url: string): Promise<any> {
  const r = await c.get(url)
  t.equal(r.status, 200, `GET ${url} → 200`)
  return r.body
}

function isProblem (t: Test, r: { status: number, body: any }, status: number, what: string): void {
  t.equal(r.status, status, `${what} → ${status}`)
  t.ok(typeof r.body === 'object' && r.body.status === status && typeof r.body.title === 'string' && typeof r.body.detail === 'string', `${what}: a problem`)
  t.notMatch(JSON.stringify(r.body), /SELECT|appointmentscheduling|person_name|SQLITE/i, `${what}: no SQL or table names`)
}

t.test('reads', async (t) => {
  const c = await normalisedInstallation(t)

  t.test('lookups: well-formed lists, details equal list items, unknown ids 404', async (t) => {
    for (const [name, path] of Object.entries(LOOKUPS)) {
      const list = await ok(t, c, path) as any[]
      t.ok(list.length > 0, `${path} is not empty`)
      t.equal(new Set(ids(list)).size, list.length, `${path}: ids unique`)
      for (const x of list) {
        t.ok(typeof x.id === 'string' && typeof x[name === 'location' ? 'address' : 'name'] === 'string', `${path} ${x.id}: required fields`)
        const one = await c.get(`${path}/${q(x.id)}`)
        t.ok(one.status === 200 && same(one.body, x), `${path}/${x.id} equals the list item`) || t.same(one.body, x)
      }
      for (const id of ['999999', 'no-such-id']) isProblem(t, await c.get(`${path}/${id}`), 404, `GET ${path}/${id}`)
    }
    for (const path of ['/health-insurances', '/specialties']) {
      const r = await c.get(path)
      t.ok(r.status === 200 ? Array.isArray(r.body) && r.body.length === 0 : r.status === 404, `${path}: empty or not mapped (${r.status})`)
    }
  })

  t.test('lookup filters: professional ↔ location agree both ways; enabled partitions; unknown ids → []', async (t) => {
    const professionals = await ok(t, c, '/professionals') as any[]
    const locations = await ok(t, c, '/locations') as any[]
    const forward = new Set<string>()
    const backward = new Set<string>()
    for (const p of professionals) for (const l of await ok(t, c, `/locations?professional=${q(p.id)}`)) forward.add(`${p.id}|${l.id}`)
    for (const l of locations) for (const p of await ok(t, c, `/professionals?location=${q(l.id)}`)) backward.add(`${p.id}|${l.id}`)
    t.ok(forward.size > 0, `${forward.size} pairs`)
    t.same(sorted([...forward]), sorted([...backward]), '/locations?professional=P holds L ⇔ /professionals?location=L holds P')
    // The interface filters professionals and services by `enabled` (a location's record says it).
    for (const path of [LOOKUPS.professional, LOOKUPS.service]) {
      const all = ids(await ok(t, c, path))
      const on = ids(await ok(t, c, `${path}?enabled=true`))
      const off = ids(await ok(t, c, `${path}?enabled=false`))
      t.same(sorted([...on, ...off]), sorted(all), `${path}: enabled=true and enabled=false partition the list`)
      t.same(on.filter((x) => off.includes(x)), [], `${path}: no id in both`)
      t.ok(off.length > 0, `${path}: a retired one is listed as disabled`)
    }
    for (const [path, filter] of [['/professionals', 'location'], ['/locations', 'professional'], ['/services', 'professional']]) {
      t.same(await ok(t, c, `${path}?${filter}=no-such-id`), [], `${path}?${filter}=no-such-id → []`)
    }
  })

  t.test('lookup filters by health insurance or specialty', { skip: NOT_IN_SCHEMA }, async () => {})

  const start = '2027-02-01'
  const end = addDays(start, 6)
  const range = `start=${start}&end=${end}`
  const week = await ok(t, c, `/appointments?${range}`) as any[]

  t.test('appointments: the range is closed, chronological and well-formed', async (t) => {
    t.ok(week.length > 20, `${week.length} appointments that week`)
    const days: any[] = []
    for (let d = start; d <= end; d = addDays(d, 1)) days.push(...await ok(t, c, `/appointments?start=${d}&end=${d}`))
    t.same(ids(days), ids(week), 'seven one-day lists make up the week')
    const keys = week.map((x) => `${x.date} ${x.hour}`)
    t.same(keys, [...keys].sort(), 'chronological')
    const bad: string[] = []
    for (const x of week) {
      if (x.date < start || x.date > end) bad.push(`${x.id}: date ${x.date}`)
      if (!HOUR.test(x.hour) || (x.endHour !== undefined && !(HOUR.test(x.endHour) && x.endHour > x.hour))) bad.push(`${x.id}: hours ${x.hour}–${x.endHour}`)
      if (!STATES.includes(x.state)) bad.push(`${x.id}: state ${x.state}`)
      for (const p of x.client?.allPhones ?? []) if (!E164.test(p)) bad.push(`${x.id}: phone ${p}`)
    }
    t.same(bad, [], 'dates in range, hours, states and phones')
    t.ok(week.every((x) => x.client && x.professional && x.location && x.service), 'each carries client, professional, location and service')
  })

  t.test('appointments: details and nested records equal their own endpoints', async (t) => {
    for (const x of week) {
      const one = await c.get(`/appointments/${x.id}`)
      t.ok(one.status === 200 && same(one.body, x), `appointment ${x.id} equals the list item`) || t.same(one.body, x)
    }
    const seen = new Set<string>()
    for (const x of week) {
      for (const [field, path] of [...Object.entries(LOOKUPS), ['client', '/clients']]) {
        const nested = x[field]
        if (seen.has(`${field}:${nested.id}`)) continue
        seen.add(`${field}:${nested.id}`)
        const own = await ok(t, c, `${path}/${q(nested.id)}`)
        // Nested lookups may leave fields out; what they carry is the record's.
        const agrees = Object.entries(nested).every(([k, v]) => same(v, own[k]))
        t.ok(agrees, `${field} ${nested.id} of appointment ${x.id} = GET ${path}/${nested.id}`) || t.same(nested, own)
      }
    }
    for (const id of ['999999999', 'no-such-id']) isProblem(t, await c.get(`/appointments/${id}`), 404, `GET /appointments/${id}`)
  })

  t.test('appointments: each filter, and filters combined, give exactly the matching ones', async (t) => {
    for (const f of ['professional', 'location', 'service', 'client'] as const) {
      const values = [...new Set(week.map((x) => x[f].id))].slice(0, 6)
      for (const id of [...values, 'no-such-id', '999999']) {
        const got = await ok(t, c, `/appointments?${range}&${f}=${q(id)}`) as any[]
        t.same(ids(got), ids(week.filter((x) => x[f].id === id)), `${f}=${id}`)
      }
    }
    for (const s of STATES) t.same(ids(await ok(t, c, `/appointments?${range}&state=${s}`)), ids(week.filter((x) => x.state === s)), `state=${s}`)
    t.ok(new Set(week.map((x) => x.state)).size >= 2, 'the week holds several states')
    const top = (f: string): string => week[0][f].id
    for (const combo of [{ professional: top('professional'), state: week[0].state }, { location: top('location'), service: top('service') }, { client: top('client'), professional: top('professional') }]) {
      const qs = Object.entries(combo).map(([k, v]) => `${k}=${q(v)}`).join('&')
      const expected = week.filter((x) => Object.entries(combo).every(([k, v]) => k === 'state' ? x.state === v : x[k].id === v))
      t.same(ids(await ok(t, c, `/appointments?${range}&${qs}`)), ids(expected), qs)
    }
  })

  t.test('appointments: minimal=true lists the same, in the same order', async (t) => {
    const min = await ok(t, c, `/appointments?${range}&minimal=true`) as any[]
    t.same(ids(min), ids(week))
    t.ok(min.every((x, i) => x.date === week[i].date && x.hour === week[i].hour && x.state === week[i].state), 'date, hour and state as in the full list')
    const p = week[0].professional.id
    t.same(ids(await ok(t, c, `/appointments?${range}&professional=${p}&minimal=true`)), ids(week.filter((x) => x.professional.id === p)), `professional=${p} minimal`)
  })

  const clients = await ok(t, c, '/clients?limit=200') as any[]

  t.test('clients: pages, details, unknown ids', async (t) => {
    t.ok(clients.length > 100, `${clients.length} clients`)
    const first = await ok(t, c, '/clients') as any[]
    t.equal(first.length, 50, 'a page holds 50 by default')
    t.same(ids(await ok(t, c, '/clients?limit=10&offset=20')), ids(clients.slice(20, 30)), 'limit/offset slice one stable order')
    t.equal(new Set(ids(clients)).size, clients.length, 'ids unique')
    for (const x of [...clients.slice(0, 30), ...clients.slice(-10)]) {
      const one = await c.get(`/clients/${q(x.id)}`)
      t.ok(one.status === 200 && same(one.body, x), `client ${x.id} equals the list item`) || t.same(one.body, x)
      t.ok(typeof x.name === 'string' && x.name === x.name.trim() && x.name !== '', `client ${x.id}: a name`)
      for (const p of x.allPhones ?? []) t.match(p, E164, `client ${x.id}: E.164 phone`)
    }
    for (const id of ['999999999', 'no-such-id', '-1']) isProblem(t, await c.get(`/clients/${id}`), 404, `GET /clients/${id}`)
  })

  t.test('clients: search by phone, in every way it is typed', async (t) => {
    const withPhones = clients.filter((x) => x.phone !== undefined).slice(0, 8)
    t.ok(withPhones.length >= 5, 'clients with phones to try')
    for (const x of withPhones) {
      const holders = sorted(clients.filter((y) => (y.allPhones ?? []).includes(x.phone)).map((y) => y.id))
      const parsed = parsePhoneNumberFromString(x.phone)
      const terms = [x.phone, parsed?.formatInternational() ?? x.phone, parsed?.nationalNumber ?? x.phone, `00${x.phone.slice(1)}`]
      for (const term of terms) {
        const got = await ok(t, c, `/clients/search?term=${q(term)}`) as any[]
        t.same(sorted(ids(got)), holders, `"${term}" finds the ${holders.length} client(s) holding ${x.phone}`)
      }
    }
    t.same(await ok(t, c, `/clients/search?term=${q('+59179999999')}`), [], 'a phone nobody holds → []')
  })

  t.test('clients: search by name, whatever the case and accents', async (t) => {
    for (const name of ['Raúl Choque', 'Óscar Poma', 'Wara Mamani']) {
      const holders = sorted(clients.filter((x) => x.name === name).map((x) => x.id))
      t.equal(holders.length, 1, `one ${name}`)
      for (const term of [name, name.toLowerCase(), name.normalize('NFD').replace(/\p{M}/gu, '').toUpperCase()]) {
        const got = await ok(t, c, `/clients/search?term=${q(term)}`) as any[]
        t.ok(holders.every((h) => ids(got).includes(h)), `"${term}" finds ${name}`)
      }
    }
    isProblem(t, await c.get('/clients/search?term='), 400, 'an empty term')
  })

  t.test('clients: search by CPF or e-mail', { skip: 'the normalised schema holds no CPF and no e-mail' }, async () => {})
})

t.test('writes', async (t) => {
  const c = await normalisedInstallation(t)
  const services = ids(await ok(t, c, '/services?enabled=true'))

  t.test('availability → booking: each offered start books once, then is offered no more', async (t) => {
    const day = '2027-03-17'
    let booked = 0
    let client = 6
    for (const service of services) {
      const offered = await ok(t, c, `/availability?start=${day}&end=${day}&service=${service}`) as any[]
      for (const s of offered) {
        const body = { date: s.date, hour: s.hour, client: String(client++), professional: s.professional.id, location: s.location.id, service }
        const r = await c.call('POST', '/appointments', body)
        if (r.status !== 200) { t.fail(`${s.hour} ${s.professional.id} service ${service}: ${r.status} ${JSON.stringify(r.body)}`); continue }
        booked++
        t.same([r.body.date, r.body.hour, r.body.endHour, r.body.state, r.body.service.id, r.body.client.id], [s.date, s.hour, s.endHour, 'WAITING', service, body.client], 'reads back as offered')
        const again = await c.call('POST', '/appointments', { ...body, client: String(client++) })
        t.equal(again.status, 409, `${s.hour} with ${s.professional.id}: the same slot books once`)
      }
      t.same(await ok(t, c, `/availability?start=${day}&end=${day}&service=${service}`), [], `service ${service}: nothing left`)
    }
    t.ok(booked > 5, `${booked} slots booked`)
  })

  t.test('state moves, a canceled appointment frees its slot, reschedule', async (t) => {
    const day = '2027-03-19'
    const [first, second, third] = await ok(t, c, `/availability?start=${day}&end=${day}&professional=1&service=1`) as any[]
    const booking = await c.call('POST', '/appointments', { date: first.date, hour: first.hour, client: '3', professional: '1', service: '1' })
    t.equal(booking.status, 200, JSON.stringify(booking.body))
    const id = booking.body.id
    for (const state of ['CONFIRMED', 'CONFIRMED', 'DONE', 'CONFIRMED']) {
      const r = await c.call('PATCH', `/appointments/${id}/state`, { state })
      t.equal(r.status, 200, `→ ${state}`)
      t.equal(typeof r.body, 'string', 'text/plain')
      t.equal((await ok(t, c, `/appointments/${id}`)).state, state, `reads back ${state}`)
    }
    isProblem(t, await c.call('PATCH', `/appointments/${id}/state`, { state: 'SLEEPING' }), 400, 'an unknown state')
    isProblem(t, await c.call('PATCH', '/appointments/999999/state', { state: 'CANCELED' }), 404, 'an unknown appointment')

    // Reschedule: to a free slot, back in the initial state; to a taken one, 409; nonsense, 400.
    const other = await c.call('POST', '/appointments', { date: third.date, hour: third.hour, client: '4', professional: '1', service: '1' })
    t.equal(other.status, 200)
    const moved = await c.call('PATCH', `/appointments/${id}/time`, { date: second.date, hour: second.hour })
    t.equal(moved.status, 200, JSON.stringify(moved.body))
    const after = await ok(t, c, `/appointments/${id}`)
    t.same([after.date, after.hour, after.endHour, after.state], [second.date, second.hour, second.endHour, 'WAITING'], 'moved, and WAITING again')
    const offeredNow = (await ok(t, c, `/availability?start=${day}&end=${day}&professional=1&service=1`) as any[]).map((s) => s.hour)
    t.ok(offeredNow.includes(first.hour) && !offeredNow.includes(second.hour), 'the old slot is free again, the new one taken')
    isProblem(t, await c.call('PATCH', `/appointments/${id}/time`, { date: third.date, hour: third.hour }), 409, 'to a taken slot')
    isProblem(t, await c.call('PATCH', `/appointments/${id}/time`, { date: '2027-02-30', hour: '25:00' }), 400, 'to no date at all')
    isProblem(t, await c.call('PATCH', '/appointments/999999/time', { date: second.date, hour: second.hour }), 404, 'an unknown appointment')
    t.same([(await ok(t, c, `/appointments/${id}`)).hour], [second.hour], 'refused moves change nothing')

    t.equal((await c.call('PATCH', `/appointments/${other.body.id}/state`, { state: 'CANCELED' })).status, 200)
    const freed = (await ok(t, c, `/availability?start=${day}&end=${day}&professional=1&service=1`) as any[]).map((s) => s.hour)
    t.ok(freed.includes(third.hour), 'a canceled appointment frees its slot')
    const rebooked = await c.call('POST', '/appointments', { date: third.date, hour: third.hour, client: '5', professional: '1', service: '1' })
    t.equal(rebooked.status, 200, 'and it books again')
    isProblem(t, await c.call('PATCH', `/appointments/${other.body.id}/state`, { state: 'WAITING' }), 409, 'the canceled one cannot come back into the taken slot')
  })

  t.test('bad bookings → 400 or 409, nothing written', async (t) => {
    const before = (await ok(t, c, `/appointments?start=${FIRST_DAY}&end=${addDays(FIRST_DAY, 30)}`)).length
    isProblem(t, await c.call('POST', '/appointments', { date: '2027-03-22', hour: '08:00', client: '999999', professional: '1', service: '1' }), 400, 'an unknown client')
    isProblem(t, await c.call('POST', '/appointments', { date: '2027-03-22', hour: '08:00', client: '3', professional: '1', service: '99' }), 400, 'an unknown service')
    isProblem(t, await c.call('POST', '/appointments', { date: '2027-03-22', hour: '8h', client: '3', professional: '1', service: '1' }), 400, 'an hour that is not one')
    isProblem(t, await c.call('POST', '/appointments', { date: '2027-03-22', hour: '08:07', client: '3', professional: '1', service: '1' }), 409, 'not a slot start')
    isProblem(t, await c.call('POST', '/appointments', { date: '2027-03-22', hour: '14:00', client: '3', professional: '2', location: '4', service: '1' }), 409, 'a block that does not take the service')
    t.equal((await ok(t, c, `/appointments?start=${FIRST_DAY}&end=${addDays(FIRST_DAY, 30)}`)).length, before, 'nothing written')
  })

  t.test('clients: create and patch read back, found by search', async (t) => {
    const created = await c.call('POST', '/clients', { name: 'Teodora Callisaya Nina', phone: '+591 72012345', birthday: '1984-11-30' })
    t.equal(created.status, 200, JSON.stringify(created.body))
    const id = created.body.id
    t.same([created.body.name, created.body.phone, created.body.birthday], ['Teodora Callisaya Nina', '+59172012345', '1984-11-30'])
    t.ok(same(await ok(t, c, `/clients/${id}`), created.body), 'GET equals what POST answered')
    t.ok(ids(await ok(t, c, `/clients/search?term=${q('72012345')}`)).includes(id), 'found by phone')
    t.ok(ids(await ok(t, c, `/clients/search?term=${q('TEODORA callisaya  nina')}`)).includes(id), 'found by name')
    const patched = await c.call('PATCH', `/clients/${id}`, { name: 'Teodora Callisaya' })
    t.equal(patched.status, 200, JSON.stringify(patched.body))
    const read = await ok(t, c, `/clients/${id}`)
    t.same([read.name, read.phone, read.birthday], ['Teodora Callisaya', '+59172012345', '1984-11-30'], 'only the keys sent change')
    isProblem(t, await c.call('PATCH', '/clients/999999', { name: 'Nadie' }), 404, 'an unknown client')
    isProblem(t, await c.call('PATCH', `/clients/${id}`, {}), 400, 'an empty body')
    isProblem(t, await c.call('POST', '/clients', { phone: '+59172012346' }), 400, 'no name')
    const booked = await c.call('POST', '/appointments', { date: '2027-03-24', hour: '08:00', client: id, professional: '1', service: '1' })
    t.ok([200, 409].includes(booked.status), `the new client books (${booked.status})`)
    if (booked.status === 200) t.equal(booked.body.client.name, 'Teodora Callisaya', 'and the appointment names them')
  })

  t.test('clients: writing CPF or e-mail', { skip: 'the normalised schema holds no CPF and no e-mail' }, async () => {})
  t.test('bookings with a health insurance or plan', { skip: NOT_IN_SCHEMA }, async () => {})
})

// The generated range, so a reader sees the week above lies inside it.
t.ok(FIRST_DAY <= '2027-02-01' && LAST_DAY >= '2027-03-24', 'the tests use days the installation has slots on')
