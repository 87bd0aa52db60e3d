// Contract: GET /appointments and GET /appointments/{id} (interface-spec §4): the closed
// range, every filter as "the appointments that have that relation", minimal lists, details,
// formats, nested objects equal to their own endpoints, and no query per row.
import t from 'tap'
import {
  forEachSample, ok, ids, isProblem, sameJson, isAbbreviationOf, findBusyRange, addDays, E164, type Test, type TestApp
} from '../../helpers/contract.js'
import { legacy } from '../../helpers/writes.js'

const DATE = /^\d{4}-\d{2}-\d{2}$/
const HOUR = /^([01]\d|2[0-3]):[0-5]\d$/
const REFS = ['location', 'service', 'professional', 'client'] as const
const LOOKUP_PATH: Record<string, string> = {
  location: '/locations', service: '/services', professional: '/professionals', healthInsurance: '/health-insurances', specialty: '/specialties'
}

const isCalendarDate = (d: string): boolean => DATE.test(d) && new Date(`${d}T00:00:00Z`).toISOString().slice(0, 10) === d
const setOf = (xs: { id: string }[]): string[] => ids(xs).sort()

/** Ids of a relation in a list, most frequent first. */
function byFrequency (list: any[], field: string): string[] {
  const n = new Map<string, number>()
  for (const x of list) if (x[field]?.id !== undefined) n.set(x[field].id, (n.get(x[field].id) ?? 0) + 1)
  return [...n.entries()].sort((p, q) => q[1] - p[1] || p[0].localeCompare(q[0])).map(([id]) => id)
}

/** Statements one request costs, after whatever it needs cached is loaded. */
async function cost (t: Test, a: TestApp, url: string): Promise<{ statements: number, body: any[] }> {
  const before = a.inst.db.stats.statements
  const body = await ok(t, a, url)
  return { statements: a.inst.db.stats.statements - before, body }
}

forEachSample(t, async (t, a) => {
  const busy = await findBusyRange(t, a)
  const range = `start=${busy.start}&end=${busy.end}`
  const week = await ok(t, a, `/appointments?${range}`) as any[]
  const states = a.inst.model.states.values
  const tables = a.tables
  t.ok(week.length >= 20, `a busy week (${busy.start}…${busy.end}) has appointments (${week.length})`)

  t.test('the range is closed: seven one-day lists make up the week', async (t) => {
    const union: string[] = []
    for (let i = 0; i < 7; i++) {
      const day = addDays(busy.start, i)
      const list = await ok(t, a, `/appointments?start=${day}&end=${day}`) as any[]
      t.same(list.filter((x) => x.date !== day).map((x) => x.id), [], `${day}: only appointments of that day`)
      if (i === 0 || i === 6) t.ok(list.length > 0, `${day} (${i === 0 ? 'start' : 'end'} day) is included: ${list.length} appointments`)
      union.push(...ids(list))
    }
    t.same(union.slice().sort(), setOf(week), 'the union of the days equals the week')
    t.equal(new Set(ids(week)).size, week.length, 'no appointment twice')
    t.same(week.filter((x) => x.date < busy.start || x.date > busy.end).map((x) => x.id), [], 'nothing outside the range')
    // The days around the range are not pulled in.
    const before = await ok(t, a, `/appointments?start=${addDays(busy.start, -1)}&end=${addDays(busy.start, -1)}`) as any[]
    const weekIds = new Set(ids(week))
    t.same(ids(before).filter((id) => weekIds.has(id)), [], 'the day before start is not in the week')
  })

  t.test('a full ISO date-time selects its local date', async (t) => {
    const day = busy.start
    const plain = await ok(t, a, `/appointments?start=${day}&end=${day}`) as any[]
    const iso = await ok(t, a, `/appointments?start=${day}T12:00:00Z&end=${day}T12:00:00Z`) as any[]
    t.same(ids(iso), ids(plain), `${day}T12:00:00Z … = ${day}`)
  })

  t.test('the list is chronological', async (t) => {
    const key = (x: any): string => `${x.date} ${x.hour}`
    const out = week.filter((x, i) => i > 0 && key(week[i - 1]) > key(x)).map((x) => `${x.id} ${key(x)}`)
    t.same(out, [], 'no appointment before the one listed ahead of it')
  })

  t.test('date and hour are the legacy wall-clock values, never shifted', async (t) => {
    // Ground truth from the legacy row, for the start shapes this check can read.
    const m = a.inst.model.appointment
    const cols = m.start.datetime ? [m.start.datetime.column] : [m.start.date?.column, m.start.hour?.column]
    if (cols.some((c) => c === undefined || c.includes('.'))) return
    const rows = (await legacy(a).rows(m.table, { [m.key.column]: week.map((x) => x.id) }, [m.key.column, ...cols as string[]]))
      .map((r) => ({ id: String(r[m.key.column]).trim(), ...Object.fromEntries(cols.map((c, i) => [`c${i}`, r[c as string]])) })) as any[]
    const byId = new Map(rows.map((r) => [String(r.id), r]))
    let checked = 0
    for (const x of week) {
      const r = byId.get(x.id)
      if (!r) { t.fail(`appointment ${x.id} is a legacy row`); continue }
      const text = cols.length === 1 ? String(r.c0) : `${String(r.c0).slice(0, 10)} ${String(r.c1).trim()}`
      const mm = /^(\d{4}-\d{2}-\d{2})[ T](\d{1,2}):(\d{2})/.exec(text)
      if (!mm) continue
      checked++
      t.same([x.date, x.hour], [mm[1], `${mm[2].padStart(2, '0')}:${mm[3]}`], `appointment ${x.id}: ${JSON.stringify(text)}`)
    }
    t.ok(checked > week.length / 2, `${checked} appointments checked against their rows`)
  })

  t.test('every appointment is well-formed', async (t) => {
    for (const x of week) {
      const bad: string[] = []
      if (typeof x.id !== 'string' || x.id === '') bad.push('id')
      if (!isCalendarDate(x.date)) bad.push(`date ${x.date}`)
      if (!HOUR.test(x.hour)) bad.push(`hour ${x.hour}`)
      if (!states.includes(x.state)) bad.push(`state ${x.state}`)
      // An endHour earlier than hour is the next day's (docs/decisions/overnight.md): any hour is a window.
      if (x.endHour !== undefined && !HOUR.test(x.endHour)) bad.push(`endHour ${x.endHour} (hour ${x.hour})`)
      if (x.classification !== undefined && (typeof x.classification !== 'string' || x.classification === '')) bad.push('classification')
      const c = x.client
      if (c !== undefined) {
        if (typeof c.id !== 'string' || typeof c.name !== 'string' || c.name === '') bad.push('client id/name')
        if (c.phone !== undefined && !E164.test(c.phone)) bad.push(`client phone ${c.phone}`)
        for (const p of c.allPhones ?? []) if (!E164.test(p)) bad.push(`client allPhones ${p}`)
        if (c.phone !== undefined && c.allPhones !== undefined && !c.allPhones.includes(c.phone)) bad.push('client phone not in allPhones')
        if (c.allPhones !== undefined && new Set(c.allPhones).size !== c.allPhones.length) bad.push('client allPhones repeats a number')
      }
      t.same(bad, [], `appointment ${x.id}`)
    }
    t.ok(week.some((x) => x.client?.phone !== undefined), 'appointments carry clients with phones')
  })

  t.test('GET /appointments/{id} equals the list item', async (t) => {
    for (const x of week.slice(0, 150)) {
      const r = await a.get(`/appointments/${encodeURIComponent(x.id)}`)
      t.equal(r.status, 200, `appointment ${x.id} → 200`)
      t.ok(sameJson(r.body, x), `appointment ${x.id} equals the list item`) || t.same(r.body, x)
    }
    for (const id of ['999999999', 'no-such-id']) isProblem(t, await a.get(`/appointments/${id}`), 404, `GET /appointments/${id}`, tables)
  })

  t.test('nested objects are the records of their own endpoints', async (t) => {
    const seen = new Set<string>()
    for (const x of week) {
      for (const [field, path] of Object.entries(LOOKUP_PATH)) {
        const nested = x[field]
        if (nested === undefined || seen.has(`${field}:${nested.id}`)) continue
        seen.add(`${field}:${nested.id}`)
        const r = await a.get(`${path}/${encodeURIComponent(nested.id)}`)
        t.equal(r.status, 200, `${field} ${nested.id} of appointment ${x.id} exists`)
        t.ok(r.status === 200 && isAbbreviationOf(nested, r.body), `${field} ${nested.id}: nested = GET ${path}/${nested.id}`)
      }
      if (x.client !== undefined && !seen.has(`client:${x.client.id}`) && seen.size < 400) {
        seen.add(`client:${x.client.id}`)
        const r = await a.get(`/clients/${encodeURIComponent(x.client.id)}`)
        t.equal(r.status, 200, `client ${x.client.id} of appointment ${x.id} exists`)
        t.ok(sameJson(x.client, r.body), `client ${x.client.id}: nested = GET /clients/${x.client.id}`) || t.same(x.client, r.body)
      }
    }
    for (const field of ['client', 'professional', 'location', 'service']) {
      t.ok(week.some((x) => x[field] !== undefined), `appointments carry a ${field}`)
    }
  })

  t.test('each filter returns exactly the appointments with that relation', async (t) => {
    for (const f of REFS) {
      const freq = byFrequency(week, f)
      t.ok(freq.length > 0, `appointments of the week have a ${f}`)
      // Every lookup id (including ones with no appointment that week); for clients a few busy and a rare one.
      const all = await ok(t, a, f === 'client' ? '/clients?limit=200' : LOOKUP_PATH[f]) as any[]
      const idle = all.find((r) => !freq.includes(r.id))
      const chosen = f === 'client' ? [...new Set([...freq.slice(0, 3), freq[freq.length - 1]])] : ids(all)
      for (const id of [...new Set([...chosen, ...(idle ? [idle.id] : []), 'no-such-id', '999999'])]) {
        const got = await ok(t, a, `/appointments?${range}&${f}=${encodeURIComponent(id)}`) as any[]
        const expected = week.filter((x) => x[f]?.id === id)
        t.same(ids(got), ids(expected), `${f}=${id}: ${expected.length} appointments`)
      }
      if (idle) t.pass(`${f} ${idle.id} has no appointment that week`)
    }
  })

  t.test('the state filter returns exactly the appointments in that state', async (t) => {
    let nonEmpty = 0
    for (const s of states) {
      const got = await ok(t, a, `/appointments?${range}&state=${s}`) as any[]
      const expected = week.filter((x) => x.state === s)
      t.same(ids(got), ids(expected), `state=${s}: ${expected.length} appointments`)
      if (expected.length > 0) nonEmpty++
    }
    t.ok(nonEmpty >= 2, 'the week holds appointments in several states')
  })

  t.test('combined filters give the intersection', async (t) => {
    const top = (f: string): string => byFrequency(week, f)[0]
    const topState = states.map((s) => [s, week.filter((x) => x.state === s).length] as const).sort((p, q) => q[1] - p[1])[0][0]
    const combos: Record<string, string>[] = [
      { professional: top('professional'), state: topState },
      { location: top('location'), service: top('service') },
      { location: top('location'), professional: top('professional'), state: topState },
      { client: top('client'), state: topState },
      { service: top('service'), professional: top('professional') }
    ]
    for (const c of combos) {
      const qs = Object.entries(c).map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&')
      const got = await ok(t, a, `/appointments?${range}&${qs}`) as any[]
      const expected = week.filter((x) => Object.entries(c).every(([k, v]) => k === 'state' ? x.state === v : x[k]?.id === v))
      t.same(ids(got), ids(expected), `${qs}: ${expected.length} appointments`)
    }
  })

  t.test('minimal=true lists the same appointments in the same order', async (t) => {
    const min = await ok(t, a, `/appointments?${range}&minimal=true`) as any[]
    t.same(ids(min), ids(week), 'same ids, same order')
    for (const x of min) {
      const full = week.find((w) => w.id === x.id)
      t.ok(full && x.date === full.date && x.hour === full.hour && x.state === full.state, `minimal ${x.id}: date, hour and state as in the full list`)
    }
    const p = byFrequency(week, 'professional')[0]
    const minP = await ok(t, a, `/appointments?${range}&professional=${p}&minimal=true`) as any[]
    const fullP = await ok(t, a, `/appointments?${range}&professional=${p}&minimal=false`) as any[]
    t.same(ids(minP), ids(fullP), `professional=${p}: minimal=true and minimal=false list the same`)
    t.ok(fullP.length > 0, 'and it is not empty')
  })

  t.test('no query per row: a day and sixty days cost the same statements', async (t) => {
    const day = busy.start
    await ok(t, a, `/appointments?start=${day}&end=${day}`) // warm-up: loads the lookup catalogue
    for (const extra of ['', '&minimal=true', `&professional=${byFrequency(week, 'professional')[0]}`, '&state=' + states[0]]) {
      const one = await cost(t, a, `/appointments?start=${day}&end=${day}${extra}`)
      const sixty = await cost(t, a, `/appointments?start=${day}&end=${addDays(day, 59)}${extra}`)
      t.ok(sixty.body.length > one.body.length, `${extra || 'unfiltered'}: sixty days list more (${one.body.length} → ${sixty.body.length})`)
      t.equal(sixty.statements, one.statements, `${extra || 'unfiltered'}: ${one.statements} statement(s) either way`)
    }
    const detail = await cost(t, a, `/appointments/${week[0].id}`)
    t.ok(detail.statements <= 1, `GET /appointments/{id} costs ${detail.statements} statement`)
  })
})
