// POST /appointments: every id in the body is checked against its column's type and, where
// the mapping lets Ponte know, against what exists — a 400 naming the field, before any SQL
// writes, and nothing written. (issue 7, defect 15)
import t from 'tap'
import { forEachSample, send, problem, legacy, slotPool, bookingBody, type FreeSlot } from '../../helpers/writes.js'
import { scratchInstallation } from '../../helpers/scratch.js'

forEachSample(t, async (t, a) => {
  const model = a.inst.model
  const appt = model.appointment
  const db = legacy(a)
  const pool = await slotPool(t, a, [['2027-03-01', '2027-03-31']], 4)
  const slot = pool.slots[0] as FreeSlot
  const client = ((await send(a, 'GET', '/clients?limit=1')).body as any[])[0].id as string
  const base = bookingBody(slot, client)

  t.test('an id the column cannot hold, or that names nothing, is a 400 naming the field; nothing written', async (t) => {
    const before = await db.dump(appt.table)
    const fields = ['client', 'professional', 'service', 'location', 'healthInsurance', 'plan'].filter((f) => (appt.refs as any)[f])
    for (const field of fields) {
      const real = typeof base[field] === 'string' ? base[field] as string : undefined
      const bad = ['abc', '999999', '-1', ...(real && /^\d+$/.test(real) ? [`0${real}`, `${real}.0`] : real ? [real.toLowerCase(), `${real} `] : [])]
      for (const value of bad) {
        if (value === real) continue
        const r = await send(a, 'POST', '/appointments', { ...base, [field]: value })
        const b = problem(t, a, r, 400, `${field}: "${value}"`)
        t.ok((b.errors ?? []).some((e: any) => e.path === `/body/${field}`), `${field}: "${value}" → the error names /body/${field}`)
      }
    }
    t.equal(await db.dump(appt.table), before, 'the appointment table is unchanged')
  })

  t.test('plans: known from the mapping\'s relations, and of the insurance sent', { skip: appt.refs.plan ? false : 'this mapping holds no plan' }, async (t) => {
    // clinica-sorriso relates plans to convênios (dbo.PLANO): the plans Ponte knows.
    const plans = (await db.rows('dbo.PLANO', {}, ['ID_PLANO', 'ID_CONVENIO']))
      .filter((p) => p.ID_CONVENIO !== null).map((p) => ({ plan: Number(p.ID_PLANO), insurer: Number(p.ID_CONVENIO) }))
      .sort((x, y) => x.plan - y.plan)
    const taken = new Set(((await send(a, 'GET', `/health-insurances?professional=${slot.professional}`)).body as any[]).map((h) => h.id))
    const mine = plans.find((p) => taken.has(String(p.insurer)))
    const other = plans.find((p) => mine && p.insurer !== mine.insurer)
    t.ok(mine && other, 'the fixture has a plan of an insurance the professional takes, and one of another')
    if (!mine || !other) return
    const wrong = await send(a, 'POST', '/appointments', { ...bookingBody(slot, client), healthInsurance: String(mine.insurer), plan: String(other.plan) })
    const b = problem(t, a, wrong, 400, 'a plan of another insurance')
    t.ok(b.errors.some((e: any) => e.path === '/body/plan'), 'names /body/plan')
    const right = await send(a, 'POST', '/appointments', { ...bookingBody(pool.slots[1] as FreeSlot, client), healthInsurance: String(mine.insurer), plan: String(mine.plan) })
    t.equal(right.status, 200, `plan ${mine.plan} of insurance ${mine.insurer} → 200`)
    t.equal((await db.row(appt.table, appt.key.column, right.body.id))?.PLANO, mine.plan, 'stored as the integer it is')
  })
})

t.test('a plan the mapping writes but cannot look up: its form is checked, its existence cannot be', async (t) => {
  const { call, raw } = await scratchInstallation(t, `
    CREATE TABLE visits (id INTEGER PRIMARY KEY, starts_at TEXT NOT NULL, status TEXT NOT NULL, patient INTEGER NOT NULL, plan_no INTEGER, cover TEXT);
    CREATE TABLE patients (id INTEGER PRIMARY KEY, name TEXT, mobile TEXT);
    INSERT INTO patients VALUES (1, 'Ana Lima', '(21) 99876-5432');
  `, `
version: 1
installation: plans-unmapped
phone: { defaultCountry: BR, defaultAreaCode: '21' }
resources:
  appointment:
    table: visits
    key: id
    start: { datetime: { column: starts_at, format: text } }
    state: { column: status, map: { A: WAITING } }
    refs:
      client: patient
      plan: { column: plan_no, type: int }
      healthInsurance: { column: cover, type: text }
    write:
      key: { generate: identity }
      states: { WAITING: { status: { value: A } } }
  client:
    table: patients
    key: id
    fields: { name: name }
    phones: [mobile]
`)
  const body = { date: '2099-01-05', hour: '09:00', client: '1' }
  for (const plan of ['abc', '01', '1.5', '99999999999', ' 7']) {
    const r = await call('POST', '/appointments', { ...body, plan })
    t.equal(r.status, 400, `plan "${plan}" → 400`)
    t.ok(r.body.errors?.some((e: any) => e.path === '/body/plan'), `plan "${plan}": names /body/plan`)
  }
  const padded = await call('POST', '/appointments', { ...body, healthInsurance: 'UNI ' })
  t.equal(padded.status, 400, 'a text id with surrounding spaces → 400')
  t.same(raw.prepare('SELECT COUNT(*) AS n FROM visits').get(), { n: 0 }, 'nothing written')
  const ok = await call('POST', '/appointments', { ...body, plan: '999999' })
  t.equal(ok.status, 200, 'a well-formed plan is taken: this mapping has no plan table to check it against')
  t.same(raw.prepare('SELECT plan_no, typeof(plan_no) AS type FROM visits').get(), { plan_no: 999999, type: 'integer' })
  const noClient = await call('POST', '/appointments', { ...body, hour: '10:00', client: '01' })
  t.equal(noClient.status, 400, 'client "01" is not client 1')
  t.ok(noClient.body.errors?.some((e: any) => e.path === '/body/client'))
})
