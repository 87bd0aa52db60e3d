// Issue 7, defect 1: `GET /availability?start=9999-12-31&end=9999-12-31` hung the whole
// process (a loop over dates as text stepped to '+010000-01-01', which sorts before the end).
// Every route that takes a date answers at once: a 400 problem naming the field outside
// 1900-01-01 … 2199-12-31 (src/normalise/date-window.ts), its normal answer inside; refused
// writes write nothing; and the process still answers /health afterwards.
import t from 'tap'
import { findBusyRange } from '../../helpers/contract.js'
import { forEachSample, legacy, mobile, problem, send, type Reply, type Test } from '../../helpers/writes.js'

/** Outside the window, impossible, or without a four-digit year at the clinic. */
const REFUSED = [
  '0001-01-01', '1899-12-31', '2200-01-01', '9999-12-31', '10000-01-01', '+010000-01-01', '0000-01-01',
  '9999-12-31T23:59:59Z', '0001-01-01T00:00:00-03:00', '1899-12-31T00:00:00Z', '2200-01-01T12:00:00Z', '10000-01-01T00:00:00Z',
  '2026-02-30', '2026-02-30T10:00:00Z', '2025-02-29'
]
/** The window's own ends (both samples' clinics are in São Paulo: 2199-12-31T12:00Z is 09:00 there). */
const ACCEPTED = ['1900-01-01', '2199-12-31', '2199-12-31T12:00:00Z']

const q = encodeURIComponent
// Generous: the defect was a request that never answered at all.
const PROMPT_MS = 5000

forEachSample(t, async (t, a) => {
  const model = a.inst.model
  const db = legacy(a)
  const busy = await findBusyRange(t, a)
  const [appointment] = (await a.get(`/appointments?start=${busy.start}&end=${busy.end}`)).body as any[]
  let slowest = 0
  const timed = async (what: () => Promise<Reply>): Promise<Reply> => {
    const started = performance.now()
    const r = await what()
    slowest = Math.max(slowest, performance.now() - started)
    return r
  }
  const get = async (url: string): Promise<Reply> => await timed(async () => await send(a, 'GET', url))
  const write = async (method: 'POST' | 'PATCH', url: string, body: unknown): Promise<Reply> => await timed(async () => await send(a, method, url, body))
  const paths = (r: Reply): string[] => (r.body?.errors ?? []).map((e: { path: string }) => e.path).sort()
  const refused = (t: Test, r: Reply, fields: string[], what: string): void => {
    problem(t, a, r, 400, what)
    t.same(paths(r), fields, `${what}: names ${fields.join(', ')}`)
  }
  /** Counts of the tables a refused write must leave alone. */
  const rows = async (): Promise<number[]> => [await db.count(model.client.table), await db.count(model.appointment.table)]

  let n = 0
  const newClient = async (): Promise<string> => {
    n++
    const r = await send(a, 'POST', '/clients', { name: `Paciente Datas ${n}`, phone: mobile(model.phone.defaultAreaCode ?? '11', 6_230_000 + n * 911) })
    if (r.status !== 200) throw new Error(`POST /clients → ${r.status} ${r.text}`)
    return r.body.id
  }

  for (const route of ['/appointments', '/availability']) {
    t.test(`GET ${route}: start and end outside the window are 400 naming each`, async (t) => {
      for (const d of REFUSED) {
        refused(t, await get(`${route}?start=${q(d)}&end=${q(d)}`), ['/querystring/end', '/querystring/start'], `${route} ${d}…${d}`)
        refused(t, await get(`${route}?start=2026-01-01&end=${q(d)}`), ['/querystring/end'], `${route} 2026-01-01…${d}`)
        refused(t, await get(`${route}?start=${q(d)}&end=2026-01-31`), ['/querystring/start'], `${route} ${d}…2026-01-31`)
      }
      const r = await get(`${route}?start=9999-12-31&end=9999-12-31`)
      t.match(r.body?.errors?.[0]?.message, /1900-01-01 to 2199-12-31/, 'the problem says which dates are accepted')
      refused(t, await get(`${route}?start=1900-01-01&end=2199-12-31`), ['/querystring/end'], `${route} the whole window is more than one range`)
    })

    t.test(`GET ${route}: the window's own ends answer 200`, async (t) => {
      for (const d of ACCEPTED) {
        const r = await get(`${route}?start=${q(d)}&end=${q(d)}`)
        t.equal(r.status, 200, `${route} ${d} → 200`)
        t.ok(Array.isArray(r.body), `${route} ${d}: a list`)
      }
      const r = await get(`${route}?start=2199-12-01&end=2199-12-31`)
      t.equal(r.status, 200, `${route}: the window's last month → 200`)
      for (const x of r.body as any[]) t.ok(x.date >= '2199-12-01' && x.date <= '2199-12-31', `${x.date} is inside the range asked`)
    })
  }

  const slotBody = (date: string, client: string): Record<string, unknown> => {
    const body: Record<string, unknown> = { date, hour: '10:00', client }
    for (const ref of ['professional', 'service', 'location', 'healthInsurance'] as const) if (appointment[ref]?.id !== undefined) body[ref] = appointment[ref].id
    return body
  }

  t.test('POST /appointments and PATCH /appointments/{id}/time: a date outside the window is a 400 on /body/date and writes nothing', async (t) => {
    const client = await newClient()
    const before = await rows()
    const dump = await db.dump(model.appointment.table)
    for (const d of REFUSED) {
      refused(t, await write('POST', '/appointments', slotBody(d, client)), ['/body/date'], `POST /appointments ${d}`)
      refused(t, await write('PATCH', `/appointments/${q(appointment.id)}/time`, { date: d, hour: '10:00' }), ['/body/date'], `PATCH time ${d}`)
    }
    t.same(await rows(), before, 'no row added')
    t.equal(await db.dump(model.appointment.table), dump, 'no appointment changed')
  })

  t.test('POST /appointments and PATCH time inside the window: the date is read, other rules decide', async (t) => {
    const client = await newClient()
    const past = await write('POST', '/appointments', slotBody('1900-01-01', client))
    refused(t, past, ['/body/date'], 'POST /appointments 1900-01-01')
    t.match(past.body?.errors?.[0]?.message, /in the past/, '1900-01-01 is a date, in the past')
    const moved = await write('PATCH', `/appointments/${q(appointment.id)}/time`, { date: '1900-01-01', hour: '10:00' })
    refused(t, moved, ['/body/date'], 'PATCH time 1900-01-01')
    t.match(moved.body?.errors?.[0]?.message, /in the past/, 'PATCH: in the past')
    for (const d of ['2199-12-31', '2199-12-31T12:00:00Z']) {
      for (const r of [await write('POST', '/appointments', slotBody(d, client)), await write('PATCH', `/appointments/${q(appointment.id)}/time`, { date: d, hour: '10:00' })]) {
        t.ok([200, 400, 409].includes(r.status), `${d} → ${r.status}`)
        // A 409 names the date and hour of the slot it cannot give; only a 400 would refuse the date itself.
        if (r.status === 400) t.notOk(paths(r).includes('/body/date'), `${d}: the date itself is accepted`)
        else t.pass(`${d}: not refused as a date`)
      }
    }
  })

  t.test('POST /clients and PATCH /clients/{id}: a birthday outside the window (or in the future) is a 400 and writes nothing', async (t) => {
    const id = await newClient()
    const before = await rows()
    const dump = await db.dump(model.client.table)
    for (const d of [...REFUSED, '2199-12-31']) {
      refused(t, await write('POST', '/clients', { name: 'Paciente Sem Data', phone: mobile(model.phone.defaultAreaCode ?? '11', 6_990_001), birthday: d }), ['/body/birthday'], `POST /clients birthday ${d}`)
      refused(t, await write('PATCH', `/clients/${q(id)}`, { birthday: d }), ['/body/birthday'], `PATCH /clients birthday ${d}`)
    }
    t.same(await rows(), before, 'no row added')
    t.equal(await db.dump(model.client.table), dump, 'no client changed')
  })

  t.test('a birthday on the window\'s first day is refused by name (it reads as a legacy "no date"); the next day is kept', async (t) => {
    // Zero dates of legacy systems all sort at or before 1900-01-01, so Ponte reads that day as
    // none (normalise/datetime.ts): stored, it would vanish, so it is a 400 before anything is written.
    const created = await write('POST', '/clients', { name: 'Paciente Antiga', phone: mobile(model.phone.defaultAreaCode ?? '11', 6_990_002), birthday: '1900-01-01' })
    t.equal(created.status, 400, 'POST /clients birthday 1900-01-01 → 400')
    t.same(paths(created), ['/body/birthday'], 'the refusal names the birthday')
    const kept = await write('POST', '/clients', { name: 'Paciente Antiga', phone: mobile(model.phone.defaultAreaCode ?? '11', 6_990_003), birthday: '1900-01-02' })
    t.equal(kept.status, 200, 'POST /clients birthday 1900-01-02 → 200')
    t.equal(kept.body.birthday, '1900-01-02', 'read back as sent')
    const patched = await write('PATCH', `/clients/${q(kept.body.id)}`, { birthday: '1900-01-03T12:00:00Z' })
    t.equal(patched.status, 200, 'PATCH /clients birthday 1900-01-03T12:00:00Z → 200')
    t.equal(patched.body.birthday, '1900-01-03', 'read back as the date sent')
  })

  t.test('every answer came promptly and the process still answers', async (t) => {
    t.ok(slowest < PROMPT_MS, `slowest answer ${Math.round(slowest)} ms (bound ${PROMPT_MS} ms)`)
    const health = await a.app.inject({ method: 'GET', url: '/health' })
    t.equal(health.statusCode, 200, '/health → 200')
  })
})
