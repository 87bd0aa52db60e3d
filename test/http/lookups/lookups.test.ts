// Contract: the five lookup resources (interface-spec §4). Every relation filter agrees in
// both directions, details equal list items, unknown ids are 404 / [] — checked over HTTP
// against each sample installation.
import t from 'tap'
import { forEachSample, ok, ids, isProblem, sortedIds, sameJson, isAbbreviationOf, findBusyRange, type Test, type TestApp } from '../../helpers/contract.js'
import { legacy } from '../../helpers/writes.js'

type Name = 'professional' | 'location' | 'service' | 'healthInsurance' | 'specialty'
const NAMES: Name[] = ['professional', 'location', 'service', 'healthInsurance', 'specialty']
const PATH: Record<Name, string> = {
  professional: '/professionals', location: '/locations', service: '/services', healthInsurance: '/health-insurances', specialty: '/specialties'
}
// The filters the interface documents for each list.
const FILTERS: Record<Name, string[]> = {
  professional: ['location', 'service', 'healthInsurance', 'specialty', 'enabled'],
  location: ['service', 'professional', 'specialty', 'client'],
  service: ['location', 'professional', 'healthInsurance', 'specialty', 'plan', 'client', 'enabled'],
  healthInsurance: ['service', 'location', 'professional'],
  specialty: ['healthInsurance', 'location', 'plan', 'professional']
}
// Every pair of lookups related by a filter.
const PAIRS: [Name, Name][] = [
  ['professional', 'service'], ['professional', 'location'], ['professional', 'healthInsurance'], ['professional', 'specialty'],
  ['service', 'location'], ['service', 'healthInsurance'], ['service', 'specialty'],
  ['location', 'specialty'], ['location', 'healthInsurance'], ['specialty', 'healthInsurance']
]
// Required fields (interface-spec §2).
const REQUIRED: Record<Name, string[]> = {
  professional: ['id', 'name'], location: ['id', 'address'], service: ['id', 'name'], healthInsurance: ['id', 'name'], specialty: ['id', 'name']
}

type Pairs = Set<string> // "a|b"

/** Related pairs read through the endpoints, with the GETs memoised (a run asks many twice). */
class Relations {
  private readonly cache = new Map<string, Promise<any>>()
  constructor (private readonly t: Test, private readonly a: TestApp, readonly all: Record<Name, any[]>) {}

  get (url: string): Promise<any> {
    let p = this.cache.get(url)
    if (!p) this.cache.set(url, p = ok(this.t, this.a, url))
    return p
  }

  /** Pairs (x of `from`, y of `to`) read from GET /to?from=x for every x. */
  async byFilter (from: Name, to: Name): Promise<Pairs> {
    const out: Pairs = new Set()
    for (const x of this.all[from]) {
      for (const y of await this.get(`${PATH[to]}?${from}=${encodeURIComponent(x.id)}`) as any[]) out.add(`${x.id}|${y.id}`)
    }
    return out
  }

  /** Pairs of (from, to), through whichever direction the interface documents. */
  async pairs (from: Name, to: Name): Promise<Pairs | undefined> {
    if (FILTERS[to].includes(from)) return await this.byFilter(from, to)
    if (FILTERS[from].includes(to)) return flip(await this.byFilter(to, from))
    return undefined
  }
}

const flip = (p: Pairs): Pairs => new Set([...p].map((s) => s.split('|').reverse().join('|')))
const diff = (x: Pairs, y: Pairs): string[] => [...x].filter((s) => !y.has(s))

async function lists (t: Test, a: TestApp): Promise<Record<Name, any[]>> {
  const out = {} as Record<Name, any[]>
  for (const n of NAMES) out[n] = await ok(t, a, PATH[n])
  return out
}

forEachSample(t, async (t, a) => {
  const all = await lists(t, a)
  const rel = new Relations(t, a, all)
  const tables = a.tables

  t.test('lists are arrays of well-formed records with unique string ids', async (t) => {
    for (const n of NAMES) {
      t.ok(all[n].length > 0, `${PATH[n]} is not empty`)
      const seen = new Set<string>()
      for (const x of all[n]) {
        for (const f of REQUIRED[n]) t.ok(typeof x[f] === 'string' && x[f] !== '', `${PATH[n]} ${x.id}: ${f} is a non-empty string`)
        t.notOk(seen.has(x.id), `${PATH[n]}: id ${x.id} once`)
        seen.add(x.id)
        if (n === 'service' && x.duration !== undefined) t.ok(Number.isInteger(x.duration) && x.duration > 0, `service ${x.id}: duration ${x.duration} is a positive integer`)
        if (n === 'service' && x.price !== undefined) t.equal(typeof x.price, 'number', `service ${x.id}: price is a number`)
        if (n === 'location') for (const f of ['lat', 'long']) if (x[f] !== undefined) t.equal(typeof x[f], 'number', `location ${x.id}: ${f} is a number`)
        if (n === 'professional' && x.specialties !== undefined) t.ok(Array.isArray(x.specialties), `professional ${x.id}: specialties is an array`)
      }
    }
  })

  t.test('GET /x/{id} equals the item of GET /x', async (t) => {
    for (const n of NAMES) {
      for (const x of all[n]) {
        const one = await a.get(`${PATH[n]}/${encodeURIComponent(x.id)}`)
        t.equal(one.status, 200, `${PATH[n]}/${x.id} → 200`)
        t.ok(sameJson(one.body, x), `${PATH[n]}/${x.id} equals the list item`) || t.same(one.body, x)
      }
    }
  })

  t.test('unknown id → 404 problem+json', async (t) => {
    for (const n of NAMES) {
      for (const id of ['999999', 'no-such-id']) {
        isProblem(t, await a.get(`${PATH[n]}/${id}`), 404, `GET ${PATH[n]}/${id}`, tables)
      }
    }
  })

  t.test('every relation filter agrees in both directions', async (t) => {
    for (const [x, y] of PAIRS) {
      const forward = FILTERS[y].includes(x) ? await rel.byFilter(x, y) : undefined // GET /y?x=…
      const backward = FILTERS[x].includes(y) ? flip(await rel.byFilter(y, x)) : undefined // GET /x?y=…
      if (forward && backward) {
        t.same(diff(forward, backward), [], `${PATH[y]}?${x}=X holds Y ⇒ ${PATH[x]}?${y}=Y holds X`)
        t.same(diff(backward, forward), [], `${PATH[x]}?${y}=Y holds X ⇒ ${PATH[y]}?${x}=X holds Y`)
      }
      // Each filtered list is a subset of the full list.
      for (const [pairs, side] of [[forward, y], [backward, y]] as const) {
        if (!pairs) continue
        const known = new Set(all[side].map((r) => r.id))
        t.same([...pairs].map((s) => s.split('|')[1]).filter((id) => !known.has(id)), [], `${x}→${y}: only known ${side} ids`)
      }
    }
  })

  t.test('a relation composed through a third resource equals the composition of its two parts', async (t) => {
    const throughs = a.inst.model.relations.filter((r) => r.kind === 'through' && NAMES.includes(r.between[0] as Name) && NAMES.includes(r.between[1] as Name) && NAMES.includes((r as any).through))
    for (const r of throughs) {
      const [x, y] = r.between as [Name, Name]
      const via = (r as any).through as Name
      const xv = await rel.pairs(x, via)
      const vy = await rel.pairs(via, y)
      const xy = await rel.pairs(x, y)
      if (!xv || !vy || !xy) continue
      const byVia = new Map<string, string[]>()
      for (const s of vy) { const [v, yid] = s.split('|'); byVia.set(v, [...(byVia.get(v) ?? []), yid]) }
      const composed: Pairs = new Set()
      for (const s of xv) { const [xid, v] = s.split('|'); for (const yid of byVia.get(v) ?? []) composed.add(`${xid}|${yid}`) }
      t.same(diff(composed, xy), [], `${x}↔${y} holds every pair through ${via}`)
      t.same(diff(xy, composed), [], `${x}↔${y} holds only pairs through ${via}`)
    }
  })

  t.test('a relation documented one way only agrees with its link table', async (t) => {
    // service↔specialty (and the like): no reverse filter, so compare with the legacy rows.
    for (const [x, y] of PAIRS) {
      if (FILTERS[y].includes(x) && FILTERS[x].includes(y)) continue
      const r = a.inst.model.relations.find((r) => r.kind === 'table' && r.between.includes(x) && r.between.includes(y))
      if (!r || r.kind !== 'table' || Object.keys(r.joins).length > 0) continue
      // Rows whose id is NULL relate nothing; any other condition is more than this check reads.
      if (!r.where.every((w: any) => w.isNull === false)) continue
      const [cx, cy] = r.between[0] === x ? r.columns : [r.columns[1], r.columns[0]]
      if (!cx.column || !cy.column) continue
      const known = { x: new Set(all[x].map((v) => v.id)), y: new Set(all[y].map((v) => v.id)) }
      const truth: Pairs = new Set()
      for (const row of await legacy(a).rows(r.table, {}, [cx.column, cy.column])) {
        const [ix, iy] = [String(row[cx.column] ?? '').trim(), String(row[cy.column] ?? '').trim()]
        if (known.x.has(ix) && known.y.has(iy)) truth.add(`${ix}|${iy}`)
      }
      const served = await rel.pairs(x, y)
      if (!served) continue
      t.ok(truth.size > 0, `${x}↔${y}: the fixture relates some`)
      t.same(diff(served, truth), [], `${x}↔${y}: no pair the database lacks`)
      t.same(diff(truth, served), [], `${x}↔${y}: every pair the database holds`)
    }
  })

  t.test('enabled=true and enabled=false partition the list', async (t) => {
    for (const n of ['professional', 'service'] as const) {
      const on = await ok(t, a, `${PATH[n]}?enabled=true`) as any[]
      const off = await ok(t, a, `${PATH[n]}?enabled=false`) as any[]
      const both = [...sortedIds(on), ...sortedIds(off)].sort()
      t.same(both, sortedIds(all[n]), `${PATH[n]}: enabled=true ∪ enabled=false = all, without overlap`)
      t.ok(on.length > 0, `${PATH[n]}: some are enabled`)
      // Combined with a relation filter: the intersection.
      const other = n === 'professional' ? 'service' : 'professional'
      for (const o of all[other].slice(0, 6)) {
        const related = await rel.get(`${PATH[n]}?${other}=${o.id}`) as any[]
        const onIds = new Set(ids(on))
        const combined = await ok(t, a, `${PATH[n]}?${other}=${o.id}&enabled=true`) as any[]
        t.same(sortedIds(combined), sortedIds(related.filter((r) => onIds.has(r.id))), `${PATH[n]}?${other}=${o.id}&enabled=true = intersection`)
      }
    }
  })

  t.test('two relation filters together give the intersection', async (t) => {
    const combos: [Name, Name, Name][] = [['professional', 'service', 'location'], ['service', 'professional', 'healthInsurance'], ['professional', 'specialty', 'healthInsurance']]
    for (const [target, f1, f2] of combos) {
      let nonEmpty = 0
      for (const v1 of all[f1].slice(0, 5)) {
        for (const v2 of all[f2].slice(0, 4)) {
          const l1 = new Set(ids(await rel.get(`${PATH[target]}?${f1}=${v1.id}`)))
          const l2 = await rel.get(`${PATH[target]}?${f2}=${v2.id}`) as any[]
          const expected = l2.filter((x) => l1.has(x.id))
          const got = await ok(t, a, `${PATH[target]}?${f1}=${v1.id}&${f2}=${v2.id}`) as any[]
          t.same(sortedIds(got), sortedIds(expected), `${PATH[target]}?${f1}=${v1.id}&${f2}=${v2.id}`)
          if (expected.length > 0) nonEmpty++
        }
      }
      t.ok(nonEmpty > 0, `${PATH[target]} ${f1}&${f2}: some combination is not empty`)
    }
  })

  t.test('a filter with an unknown id → 200 []', async (t) => {
    const plans = new Set(a.inst.model.relations.filter((r) => r.between.includes('plan')).flatMap((r) => r.between))
    for (const n of NAMES) {
      for (const f of FILTERS[n]) {
        if (f === 'enabled') continue
        if (f === 'plan' && !plans.has(n)) continue // no plans mapped for it: the filter cannot restrict
        for (const id of ['999999', 'no-such-id']) {
          const r = await a.get(`${PATH[n]}?${f}=${id}`)
          t.equal(r.status, 200, `${PATH[n]}?${f}=${id} → 200`)
          t.same(r.body, [], `${PATH[n]}?${f}=${id} → []`)
        }
      }
    }
  })

  t.test('professionals carry the specialties that specialties?professional=P lists', async (t) => {
    const byId = new Map(all.specialty.map((s) => [s.id, s]))
    for (const p of all.professional) {
      const listed = await rel.get(`/specialties?professional=${p.id}`) as any[]
      t.same(sortedIds(p.specialties ?? []), sortedIds(listed), `professional ${p.id}: specialties = specialties?professional=${p.id}`)
      for (const s of p.specialties ?? []) {
        t.ok(byId.has(s.id) && isAbbreviationOf(s, byId.get(s.id)), `professional ${p.id}: nested specialty ${s.id} agrees with /specialties`)
      }
    }
  })

  t.test('client filters: the locations and services of a client\'s appointments', async (t) => {
    const busy = await findBusyRange(t, a)
    const week = await ok(t, a, `/appointments?start=${busy.start}&end=${busy.end}`) as any[]
    const clients = [...new Set(week.flatMap((x) => x.client?.id ?? []))].slice(0, 8)
    t.ok(clients.length > 0, 'appointments carry clients')
    for (const c of clients) {
      const theirs = week.filter((x) => x.client?.id === c)
      for (const [n, field] of [['location', 'location'], ['service', 'service']] as const) {
        const listed = new Set(ids(await ok(t, a, `${PATH[n]}?client=${c}`)))
        const seen = [...new Set(theirs.flatMap((x) => x[field]?.id ?? []))]
        t.same(seen.filter((id) => !listed.has(id)), [], `${PATH[n]}?client=${c} holds the ${field}s of that client's appointments`)
      }
    }
  })
})
