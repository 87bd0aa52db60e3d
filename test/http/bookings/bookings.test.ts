// Contract: POST /appointments, PATCH /appointments/{id}/state and /time (interface-spec §4,
// design notes §1, issue 3). Slots come from GET /availability, as the caller takes them; the
// legacy rows are read directly to check they look as the clinic's own system writes them.
import t from 'tap'
import {
  forEachSample, send, problem, legacy, keyState, allNotNullFilled, holdsWriteValues, clinicToday, storedSlot, slotColumns,
  slotPool, bookingBody, mobile, plusMinutes, bare, type FreeSlot, type Test, type TestApp
} from '../../helpers/writes.js'

const q = encodeURIComponent

/** The legacy column an appointment ref is written to, or the join that reaches it. */
function refColumn (a: TestApp, ref: string): { column: string } | { local: string, table: string, remote: string, remoteKey: string } | undefined {
  const v = (a.inst.model.appointment.refs as Record<string, any>)[ref]
  if (!v) return undefined
  const column: string | undefined = v.column ?? v.rules?.at(-1)?.column
  if (column === undefined) return undefined
  if (!column.includes('.')) return { column }
  const [alias, remote] = column.split('.')
  const join = a.inst.model.appointment.joins[alias]
  const [local, remoteKey] = Object.entries(join.on)[0] as [string, string]
  return { local, table: join.table, remote, remoteKey }
}

/** What the legacy row says a ref is (through the join when there is one). */
async function refInRow (a: TestApp, row: Record<string, unknown>, ref: string): Promise<string | undefined> {
  const c = refColumn(a, ref)
  if (!c) return undefined
  if ('column' in c) return row[c.column] === null ? undefined : String(row[c.column]).trim()
  const [joined] = await legacy(a).rows(c.table, { [c.remoteKey]: row[c.local] }, [c.remote])
  const v = joined?.[c.remote]
  return v === undefined || v === null ? undefined : String(v).trim()
}

forEachSample(t, async (t, a) => {
  const model = a.inst.model
  const appt = model.appointment
  const table = appt.table
  const key = appt.key.column
  const write = (appt.write ?? {}) as { set?: Record<string, any>, states?: Record<string, Record<string, any>>, reschedule?: Record<string, any> }
  const { values: states, moves, initial, onReschedule } = model.states
  const db = legacy(a)
  const days = [clinicToday(model.timezone)]
  const slotCols = slotColumns(model)
  const pool = await slotPool(t, a, [['2027-01-04', '2027-01-31'], ['2027-02-01', '2027-02-26']], 45)
  const take = (): FreeSlot => {
    const s = pool.slots.shift()
    if (!s) throw new Error('out of free slots')
    return s
  }
  let n = 0
  const newClient = async (): Promise<string> => {
    n++
    const r = await send(a, 'POST', '/clients', { name: `Paciente Agenda ${n}`, phone: mobile(model.phone.defaultAreaCode ?? '11', 5_170_000 + n * 613) })
    if (r.status !== 200) throw new Error(`POST /clients → ${r.status} ${r.text}`)
    return r.body.id
  }
  const book = async (t: Test, slot: FreeSlot, extra: Record<string, unknown> = {}): Promise<any> => {
    const r = await send(a, 'POST', '/appointments', bookingBody(slot, await newClient(), extra))
    t.equal(r.status, 200, `POST /appointments ${slot.date} ${slot.hour} → 200`)
    if (r.status !== 200) t.comment(r.text)
    return r.body
  }
  const row = async (id: string): Promise<Record<string, unknown>> => await db.row(table, key, id) as Record<string, unknown>
  const unchanged = async (): Promise<{ count: number, key: number }> => ({ count: await db.count(table), key: (await keyState(a, 'appointment')).value })
  const moveState = async (id: string, state: string) => await send(a, 'PATCH', `/appointments/${q(id)}/state`, { state })
  /** A shortest path of allowed moves from the initial state. */
  const pathTo = (target: string): string[] | undefined => {
    const prev = new Map<string, string>([[initial, '']])
    const queue = [initial]
    while (queue.length > 0) {
      const s = queue.shift() as string
      if (s === target) break
      for (const next of moves[s] ?? []) if (!prev.has(next)) { prev.set(next, s); queue.push(next) }
    }
    if (!prev.has(target)) return undefined
    const path: string[] = []
    for (let s = target; s !== initial; s = prev.get(s) as string) path.unshift(s)
    return path
  }

  t.ok(pool.slots.length >= 45, `free slots of professional ${pool.professional} for service ${pool.service} (${pool.slots.length})`)

  t.test('POST /appointments: reads back WAITING with what was sent; the legacy row is complete', async (t) => {
    const slot = take()
    const client = await newClient()
    const before = await unchanged()
    const r = await send(a, 'POST', '/appointments', bookingBody(slot, client))
    t.equal(r.status, 200, 'POST /appointments → 200')
    const created = r.body
    t.match(created, { id: String, date: slot.date, hour: slot.hour, state: initial, client: { id: client }, professional: { id: slot.professional } }, 'the answer: WAITING, the slot, the client and the professional')
    t.equal(initial, 'WAITING', 'the initial state is WAITING')
    t.equal(created.service?.id, slot.service, 'the service sent')
    if (slot.location !== undefined) t.equal(created.location?.id, slot.location, 'the location sent')
    if (created.endHour !== undefined) t.equal(created.endHour, slot.endHour, `endHour from the service's ${pool.duration} minutes`)

    const back = await send(a, 'GET', `/appointments/${q(created.id)}`)
    t.equal(back.status, 200, 'GET /appointments/{id} → 200')
    t.same(back.body, created, 'reads back equal to the POST answer')
    const listed = await send(a, 'GET', `/appointments?start=${slot.date}&end=${slot.date}&client=${q(client)}`)
    t.same((listed.body ?? []).map((x: any) => x.id), [created.id], 'GET /appointments?client=… lists it (and only it)')
    const byPro = await send(a, 'GET', `/appointments?start=${slot.date}&end=${slot.date}&professional=${q(slot.professional)}&state=WAITING`)
    t.ok((byPro.body ?? []).some((x: any) => x.id === created.id), 'and under its professional, state=WAITING')

    const legacyRow = await row(created.id)
    t.ok(legacyRow, 'the row is in the legacy table')
    await allNotNullFilled(t, a, table, legacyRow, 'the new appointment')
    t.match(legacyRow, storedSlot(model, slot.date, slot.hour, created.endHour), 'the slot in the stored formats')
    holdsWriteValues(t, model, legacyRow, write.set, days, 'write.set', slotCols)
    holdsWriteValues(t, model, legacyRow, write.states?.[initial], days, `write.states.${initial}`, slotCols)
    for (const ref of ['client', 'professional', 'service', 'location'] as const) {
      const sent = ref === 'client' ? client : slot[ref]
      if (sent !== undefined && refColumn(a, ref)) t.equal(await refInRow(a, legacyRow, ref), sent, `the legacy row points at the ${ref} sent`)
    }
    const after = await keyState(a, 'appointment')
    t.equal(await db.count(table), before.count + 1, 'exactly one row added')
    if (after.gen.generate === 'keyTable') {
      t.equal(after.value, before.key + 1, `key table ${after.gen.name} went up by exactly 1`)
      t.equal(created.id, String(after.value), 'the new id is the key table value')
    } else {
      t.equal(Number(created.id), before.key + 1, `the new id follows the highest (${after.gen.generate})`)
    }
    const free = await send(a, 'GET', `/availability?start=${slot.date}&end=${slot.date}&professional=${q(slot.professional)}&service=${q(pool.service)}`)
    t.notOk((free.body ?? []).some((x: any) => x.hour === slot.hour), 'the slot is no longer offered')
  })

  t.test('POST /appointments without a location: the professional\'s workplace at that hour', async (t) => {
    const slot = take()
    const { location, ...body } = bookingBody(slot, await newClient())
    const r = await send(a, 'POST', '/appointments', body)
    t.equal(r.status, 200, 'POST without location → 200')
    if (r.status !== 200) { t.comment(r.text); return }
    t.equal(r.body.location?.id, location, 'the location of the working window the slot lies in')
    const legacyRow = await row(r.body.id)
    await allNotNullFilled(t, a, table, legacyRow, 'the appointment without location')
    if (refColumn(a, 'location')) t.equal(await refInRow(a, legacyRow, 'location'), location, 'the legacy row points at it')
  })

  t.test('POST /appointments without a professional: never a 500, never half a row', async (t) => {
    const slot = take()
    const { professional, ...body } = bookingBody(slot, await newClient())
    const before = await unchanged()
    const r = await send(a, 'POST', '/appointments', body)
    const proColumn = refColumn(a, 'professional')
    const required = proColumn !== undefined && 'column' in proColumn && (await db.notNull(table)).includes(proColumn.column)
    if (required) {
      problem(t, a, r, 400, `POST without professional (${bare(table)}.${(proColumn as { column: string }).column} is NOT NULL)`)
      t.same(await unchanged(), before, 'nothing written')
    } else {
      t.equal(r.status, 200, 'POST without professional → 200 (the legacy column allows it)')
      if (r.status === 200) await allNotNullFilled(t, a, table, await row(r.body.id), 'the appointment without professional')
    }
  })

  t.test('the same slot again → 409, and one row', async (t) => {
    const slot = take()
    const first = await book(t, slot)
    const count = await db.count(table)
    problem(t, a, await send(a, 'POST', '/appointments', bookingBody(slot, first.client.id)), 409, 'the same booking again')
    problem(t, a, await send(a, 'POST', '/appointments', bookingBody(slot, await newClient())), 409, 'the same slot for another client')
    problem(t, a, await send(a, 'POST', '/appointments', { ...bookingBody(slot, await newClient()), hour: plusMinutes(slot.hour, 10) }), 409, 'a slot overlapping it')
    t.equal(await db.count(table), count, 'no row added')
    const day = await send(a, 'GET', `/appointments?start=${slot.date}&end=${slot.date}&professional=${q(slot.professional)}`)
    t.same((day.body ?? []).filter((x: any) => x.hour === slot.hour && x.state !== 'CANCELED').map((x: any) => x.id), [first.id], 'one appointment at that hour')
  })

  t.test('bad bookings → 400 and nothing written (outside the hours: outside-hours.test.ts)', async (t) => {
    const slot = pool.slots[0] // left free: every request here must fail
    const client = await newClient()
    const ok = bookingBody(slot, client)
    const allServices = (await send(a, 'GET', '/services')).body as any[]
    const offered = new Set(((await send(a, 'GET', `/services?professional=${q(slot.professional)}`)).body as any[]).map((s) => s.id))
    const notOffered = allServices.find((s) => !offered.has(s.id))
    t.ok(notOffered, 'a service the professional does not offer')
    const cases: [string, unknown, number, string | undefined][] = [
      ['an unknown client', { ...ok, client: '987654321' }, 400, 'client'],
      ['a client id that is not one', { ...ok, client: 'nobody' }, 400, 'client'],
      ['an unknown professional', { ...ok, professional: '987654' }, 400, 'professional'],
      ['an unknown service', { ...ok, service: '987654' }, 400, 'service'],
      ['an unknown location', { ...ok, location: 'NO-SUCH-PLACE' }, 400, 'location'],
      ['an unknown health insurance', { ...ok, healthInsurance: '987654' }, 400, 'healthInsurance'],
      ['a service the professional does not offer', { ...ok, service: notOffered?.id }, 400, 'service'],
      ['a date in the past', { ...ok, date: '2026-11-02', hour: '10:00' }, 400, 'date'],
      ['2026-02-30', { ...ok, date: '2026-02-30' }, 400, 'date'],
      ['2027-02-30', { ...ok, date: '2027-02-30' }, 400, 'date'],
      ['25:61', { ...ok, hour: '25:61' }, 400, 'hour'],
      ['24:00', { ...ok, hour: '24:00' }, 400, 'hour'],
      ['an hour like 9h30', { ...ok, hour: '9h30' }, 400, 'hour'],
      ['no client', { date: slot.date, hour: slot.hour, professional: slot.professional }, 400, 'client'],
      ['no date', { hour: slot.hour, client, professional: slot.professional }, 400, 'date'],
      ['no hour', { date: slot.date, client, professional: slot.professional }, 400, 'hour'],
      ['an unknown property', { ...ok, room: '3' }, 400, undefined],
      ['a date that is a number', { ...ok, date: 20270104 }, 400, 'date']
    ]
    for (const [what, body, status, field] of cases) {
      const before = await unchanged()
      const b = problem(t, a, await send(a, 'POST', '/appointments', body), status, `POST /appointments with ${what}`)
      if (field) t.ok((b.errors ?? []).some((e: any) => String(e.path).includes(field)), `${what}: an error's path names ${field}`)
      t.same(await unchanged(), before, `${what}: nothing written (rows, key generation)`)
    }
    const free = await send(a, 'GET', `/availability?start=${slot.date}&end=${slot.date}&professional=${q(slot.professional)}&service=${q(pool.service)}`)
    t.ok((free.body ?? []).some((x: any) => x.hour === slot.hour), 'the slot is still free')
  })

  t.test('PATCH state: allowed moves → 200 text/plain; forbidden moves and unknown states change nothing', async (t) => {
    const triedForbidden = new Set<string>()
    const reach = async (t: Test, target: string): Promise<string | undefined> => {
      const path = pathTo(target)
      if (!path) return undefined
      const created = await book(t, take())
      if (!created?.id) return undefined
      for (const s of path) {
        const r = await moveState(created.id, s)
        t.equal(r.status, 200, `${created.id} → ${s} on the way to ${target}`)
      }
      return created.id
    }
    const tryForbidden = async (t: Test, id: string, from: string): Promise<void> => {
      if (triedForbidden.has(from)) return
      triedForbidden.add(from)
      for (const to of states.filter((s) => s !== from && !(moves[from] ?? []).includes(s))) {
        const before = await row(id)
        problem(t, a, await moveState(id, to), 409, `${from} → ${to} (forbidden)`)
        t.same(await row(id), before, `${from} → ${to}: the legacy row is unchanged`)
        t.equal((await send(a, 'GET', `/appointments/${q(id)}`)).body?.state, from, `${from} → ${to}: still ${from}`)
      }
    }
    for (const from of states) {
      const targets = moves[from] ?? []
      if (!pathTo(from)) { t.comment(`${from} cannot be reached from ${initial}`); continue }
      if (targets.length === 0) {
        const id = await reach(t, from)
        if (id) await tryForbidden(t, id, from)
        continue
      }
      for (const to of targets) {
        const id = await reach(t, from)
        if (!id) continue
        await tryForbidden(t, id, from)
        const r = await moveState(id, to)
        t.equal(r.status, 200, `${from} → ${to} → 200`)
        t.match(String(r.headers['content-type']), /^text\/plain/, `${from} → ${to}: text/plain`)
        t.ok(r.text.length > 0 && r.text.length < 300, `${from} → ${to}: a short text (${JSON.stringify(r.text)})`)
        const back = (await send(a, 'GET', `/appointments/${q(id)}`)).body
        t.equal(back?.state, to, `${from} → ${to}: reads back ${to}`)
        const listed = await send(a, 'GET', `/appointments?start=${back?.date}&end=${back?.date}&state=${to}&professional=${q(pool.professional)}`)
        t.ok((listed.body ?? []).some((x: any) => x.id === id), `${from} → ${to}: listed under state=${to}`)
        holdsWriteValues(t, model, await row(id), write.states?.[to], days, `${from} → ${to}: write.states.${to}`)
      }
    }
    if (states.includes('CANCELED') && !(moves.CANCELED ?? []).includes('WAITING')) {
      t.ok(triedForbidden.has('CANCELED'), 'CANCELED → WAITING was refused above (the mapping forbids it)')
    }

    const id = await reach(t, initial) as string
    const before = await row(id)
    for (const [what, body] of [['an unknown state', { state: 'PENDING' }], ['a blank state', { state: '' }], ['no state', {}], ['a number', { state: 7 }], ['an extra property', { state: 'CONFIRMED', why: 'x' }]] as const) {
      problem(t, a, await send(a, 'PATCH', `/appointments/${q(id)}/state`, body), 400, `PATCH state with ${what}`)
    }
    t.same(await row(id), before, 'the legacy row is unchanged')
    for (const unknown of ['987654321', 'no-such-appointment']) {
      problem(t, a, await moveState(unknown, 'CONFIRMED'), 404, `PATCH /appointments/${unknown}/state`)
    }
  })

  t.test('a cancelled appointment frees its slot', async (t) => {
    if (!(moves[initial] ?? []).includes('CANCELED')) return
    const slot = take()
    const created = await book(t, slot)
    t.equal((await moveState(created.id, 'CANCELED')).status, 200, 'cancelled')
    const again = await book(t, slot)
    t.not(again?.id, created.id, 'the slot is booked again by another appointment')
  })

  t.test('PATCH time: to a free slot, with the configured state after', async (t) => {
    const from = take()
    const created = await book(t, from)
    const id = created.id
    const confirm = (moves[initial] ?? []).includes('CONFIRMED')
    if (confirm) t.equal((await moveState(id, 'CONFIRMED')).status, 200, 'confirmed first')
    const stateBefore = confirm ? 'CONFIRMED' : initial
    const to = take()
    const others = await db.count(table)
    const r = await send(a, 'PATCH', `/appointments/${q(id)}/time`, { date: to.date, hour: to.hour })
    t.equal(r.status, 200, 'PATCH time → 200')
    t.match(String(r.headers['content-type']), /^text\/plain/, 'text/plain')
    const back = (await send(a, 'GET', `/appointments/${q(id)}`)).body
    const expectedState = onReschedule === 'keep' ? stateBefore : onReschedule
    t.match(back, { id, date: to.date, hour: to.hour, state: expectedState, client: { id: created.client.id }, professional: { id: created.professional.id } }, `reads back at ${to.date} ${to.hour}, ${expectedState}`)
    if (created.endHour !== undefined) t.equal(back.endHour, plusMinutes(to.hour, pool.duration), 'the end hour moved with it')
    t.equal(await db.count(table), others, 'no row added')
    const legacyRow = await row(id)
    t.match(legacyRow, storedSlot(model, to.date, to.hour, back.endHour), 'the new slot in the stored formats')
    holdsWriteValues(t, model, legacyRow, write.reschedule, days, 'write.reschedule', slotCols)
    if (onReschedule !== 'keep') holdsWriteValues(t, model, legacyRow, write.states?.[onReschedule], days, `write.states.${onReschedule}`, slotCols)
    await allNotNullFilled(t, a, table, legacyRow, 'the rescheduled appointment')
    const fromDay = await send(a, 'GET', `/availability?start=${from.date}&end=${from.date}&professional=${q(from.professional)}&service=${q(pool.service)}`)
    t.ok((fromDay.body ?? []).some((x: any) => x.hour === from.hour), 'the old slot is offered again')
    const toDay = await send(a, 'GET', `/availability?start=${to.date}&end=${to.date}&professional=${q(to.professional)}&service=${q(pool.service)}`)
    t.notOk((toDay.body ?? []).some((x: any) => x.hour === to.hour), 'the new slot is no longer offered')
  })

  t.test('PATCH time: to a taken slot → 409, bad input → 400, unknown id → 404; nothing changes', async (t) => {
    const mine = await book(t, take())
    const theirs = await book(t, take())
    const whole = await db.dump(table)
    problem(t, a, await send(a, 'PATCH', `/appointments/${q(mine.id)}/time`, { date: theirs.date, hour: theirs.hour }), 409, 'onto another appointment')
    problem(t, a, await send(a, 'PATCH', `/appointments/${q(mine.id)}/time`, { date: theirs.date, hour: plusMinutes(theirs.hour, 10) }), 409, 'overlapping another appointment')
    const bad: [string, unknown, string | undefined][] = [
      ['2026-02-30', { date: '2026-02-30', hour: '10:00' }, 'date'],
      ['25:61', { date: theirs.date, hour: '25:61' }, 'hour'],
      ['a date in the past', { date: '2026-11-02', hour: '10:00' }, 'date'],
      ['no hour', { date: theirs.date }, 'hour'],
      ['an extra property', { date: theirs.date, hour: '10:00', professional: '1' }, undefined]
    ]
    for (const [what, body, field] of bad) {
      const b = problem(t, a, await send(a, 'PATCH', `/appointments/${q(mine.id)}/time`, body), 400, `PATCH time with ${what}`)
      if (field) t.ok((b.errors ?? []).some((e: any) => String(e.path).includes(field)), `${what}: an error's path names ${field}`)
    }
    for (const unknown of ['987654321', 'no-such-appointment']) {
      problem(t, a, await send(a, 'PATCH', `/appointments/${unknown}/time`, { date: '2027-02-10', hour: '10:00' }), 404, `PATCH /appointments/${unknown}/time`)
    }
    t.equal(await db.dump(table), whole, 'the legacy table is byte-identical')
    t.match((await send(a, 'GET', `/appointments/${q(mine.id)}`)).body, { date: mine.date, hour: mine.hour, state: mine.state }, 'it reads as before')
  })
})
