// The interface contract, as checks any running installation can be put through: the same
// rules the contract suite (test/http/) holds the samples to, read only through HTTP.
// Each check records what failed (at most a few lines); ids are printed, never names or phones.
import type { Reply, Send } from './http.js'
import { exampleMobile, homeCountry } from './phone.js'

export type Name = 'professional' | 'location' | 'service' | 'healthInsurance' | 'specialty'
export const NAMES: Name[] = ['professional', 'location', 'service', 'healthInsurance', 'specialty']
export const PATH: Record<Name, string> = {
  professional: '/professionals', location: '/locations', service: '/services', healthInsurance: '/health-insurances', specialty: '/specialties'
}
/** The filters the interface documents on each lookup list. */
export const FILTERS: Record<Name, string[]> = {
  professional: ['location', 'service', 'healthInsurance', 'specialty'],
  location: ['service', 'professional', 'specialty'],
  service: ['location', 'professional', 'healthInsurance', 'specialty'],
  healthInsurance: ['service', 'location', 'professional'],
  specialty: ['healthInsurance', 'location', 'professional']
}
const REQUIRED: Record<Name, string> = { professional: 'name', location: 'address', service: 'name', healthInsurance: 'name', specialty: 'name' }
const SAMPLE = 8

export interface Context {
  send: Send
  /** Filled by the first checks, used by later ones. */
  lists: Partial<Record<Name, any[]>>
  range?: { start: string, end: string, list: any[] }
  clients?: any[]
  today: string
  /** The installation's `phone.defaultCountry`; unset: the country most of its stored phones have. */
  country?: string
}

export interface Check {
  name: string
  writes?: boolean
  run: (c: Context, fail: (message: string) => void) => Promise<void | 'skipped'>
}

const q = encodeURIComponent

async function json (c: Context, path: string, fail: (m: string) => void): Promise<any> {
  const r = await c.send('GET', path)
  if (r.status !== 200) { fail(`GET ${path} → ${r.status}`); return undefined }
  return r.body
}

function isProblem (r: Reply, status: number): string | undefined {
  if (r.status !== status) return `status ${r.status}, expected ${status}`
  if (!r.contentType.startsWith('application/problem+json')) return `content-type ${r.contentType}, expected application/problem+json`
  const b = r.body ?? {}
  if (typeof b.title !== 'string' || b.status !== status || typeof b.detail !== 'string') return 'not a problem body (title, status, detail)'
  return undefined
}

function addDays (day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`)
  d.setUTCDate(d.getUTCDate() + n)
  return d.toISOString().slice(0, 10)
}

const canon = (x: unknown): string => JSON.stringify(x, (_, v) => v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v)

export const CHECKS: Check[] = [
  {
    name: 'lookup lists are arrays of records with unique string ids and their required field',
    async run (c, fail) {
      for (const n of NAMES) {
        const r = await c.send('GET', PATH[n])
        if (r.status === 404 || r.status === 501) continue // not mapped here
        if (r.status !== 200 || !Array.isArray(r.body)) { fail(`GET ${PATH[n]} → ${r.status}`); continue }
        c.lists[n] = r.body
        const ids = new Set<string>()
        for (const x of r.body) {
          if (typeof x.id !== 'string' || x.id === '') fail(`${PATH[n]}: an item without a string id`)
          else if (ids.has(x.id)) fail(`${PATH[n]}: id ${x.id} listed twice`)
          ids.add(x.id)
          if (typeof x[REQUIRED[n]] !== 'string' || x[REQUIRED[n]] === '') fail(`${PATH[n]} ${x.id}: no ${REQUIRED[n]}`)
        }
      }
    }
  },
  {
    name: 'lookup details equal their list items; unknown ids are 404 problems',
    async run (c, fail) {
      for (const n of NAMES) {
        for (const x of (c.lists[n] ?? []).slice(0, SAMPLE)) {
          const one = await json(c, `${PATH[n]}/${q(x.id)}`, fail)
          if (one !== undefined && canon(one) !== canon(x)) fail(`${PATH[n]}/${x.id} differs from its list item`)
        }
        if (c.lists[n]) {
          const why = isProblem(await c.send('GET', `${PATH[n]}/no-such-id-0`), 404)
          if (why) fail(`${PATH[n]}/no-such-id-0: ${why}`)
        }
      }
    }
  },
  {
    name: 'relation filters agree in both directions',
    async run (c, fail) {
      for (const a of NAMES) {
        for (const b of FILTERS[a]) {
          const bName = b as Name
          if (!FILTERS[bName]?.includes(a) || a > bName || !c.lists[a] || !c.lists[bName]) continue
          // x in GET /a?b=y  ⇔  y in GET /b?a=x, over a sample of both sides.
          for (const y of (c.lists[bName] ?? []).slice(0, SAMPLE)) {
            const xs = await json(c, `${PATH[a]}?${b}=${q(y.id)}`, fail) as any[] | undefined
            for (const x of (xs ?? []).slice(0, SAMPLE)) {
              const back = await json(c, `${PATH[bName]}?${a}=${q(x.id)}`, fail) as any[] | undefined
              if (back && !back.some((z) => z.id === y.id)) fail(`${PATH[a]}?${b}=${y.id} lists ${a} ${x.id}, but ${PATH[bName]}?${a}=${x.id} does not list ${bName} ${y.id}`)
            }
          }
        }
      }
    }
  },
  {
    name: 'appointments: a closed range, well-formed, details equal list items',
    async run (c, fail) {
      for (const shift of [0, -92, 92, -184, 184, -365, 365]) {
        const start = addDays(c.today, shift - 45)
        const end = addDays(start, 60)
        const list = await json(c, `/appointments?start=${start}&end=${end}`, fail) as any[] | undefined
        if (!list) return
        if (list.length === 0) continue
        c.range = { start, end, list }
        break
      }
      if (!c.range) return 'skipped'
      const { list } = c.range
      const days = [...new Set(list.map((x) => x.date))].sort()
      const [first, last] = [days[0], days[days.length - 1]]
      const closed = await json(c, `/appointments?start=${first}&end=${last}`, fail) as any[] | undefined
      if (closed && !(closed.some((x) => x.date === first) && closed.some((x) => x.date === last))) fail(`start=${first}&end=${last}: the first or the last day is missing (the range is closed)`)
      const ids = new Set<string>()
      for (const x of list) {
        if (ids.has(x.id)) fail(`appointment ${x.id} listed twice`)
        ids.add(x.id)
        if (!/^\d{4}-\d{2}-\d{2}$/.test(x.date) || !/^\d{2}:\d{2}$/.test(x.hour) || typeof x.state !== 'string') fail(`appointment ${x.id}: date, hour or state malformed`)
        if (x.date < c.range.start || x.date > c.range.end) fail(`appointment ${x.id} on ${x.date}, outside ${c.range.start}…${c.range.end}`)
      }
      for (const x of list.slice(0, SAMPLE)) {
        const one = await json(c, `/appointments/${q(x.id)}`, fail)
        if (one && (one.id !== x.id || one.date !== x.date || one.hour !== x.hour || one.state !== x.state)) fail(`/appointments/${x.id} differs from its list item`)
      }
    }
  },
  {
    name: 'appointment filters are exact; minimal lists the same appointments',
    async run (c, fail) {
      if (!c.range) return 'skipped'
      const { start, end, list } = c.range
      const base = `/appointments?start=${start}&end=${end}`
      for (const f of ['professional', 'location', 'service', 'client'] as const) {
        const values = [...new Set(list.flatMap((x) => x[f]?.id ? [x[f].id as string] : []))].slice(0, 3)
        for (const v of values) {
          const got = await json(c, `${base}&${f}=${q(v)}`, fail) as any[] | undefined
          if (!got) continue
          const want = list.filter((x) => x[f]?.id === v).map((x) => x.id).sort()
          const have = got.map((x) => x.id).sort()
          if (canon(want) !== canon(have)) fail(`${f}=${v}: ${have.length} appointments, the unfiltered list has ${want.length} with that ${f}`)
        }
      }
      for (const s of [...new Set(list.map((x) => x.state))]) {
        const got = await json(c, `${base}&state=${q(s)}`, fail) as any[] | undefined
        if (got && got.some((x) => x.state !== s)) fail(`state=${s} lists appointments in another state`)
      }
      const minimal = await json(c, `${base}&minimal=true`, fail) as any[] | undefined
      if (minimal && canon(minimal.map((x) => x.id).sort()) !== canon(list.map((x) => x.id).sort())) fail('minimal=true lists other appointments than the full list')
    }
  },
  {
    name: 'clients: pages, details equal list items, search is exact',
    async run (c, fail) {
      const clients = await json(c, '/clients?limit=20&offset=0', fail) as any[] | undefined
      if (!clients) return
      c.clients = clients
      const next = await json(c, '/clients?limit=20&offset=20', fail) as any[] | undefined
      if (next?.some((x) => clients.some((y) => y.id === x.id))) fail('the second page repeats clients of the first')
      for (const x of clients.slice(0, SAMPLE)) {
        if (typeof x.name !== 'string') fail(`client ${x.id}: no name`)
        const one = await json(c, `/clients/${q(x.id)}`, fail)
        if (one && canon(one) !== canon(x)) fail(`/clients/${x.id} differs from its list item`)
      }
      const withPhone = clients.find((x) => typeof x.phone === 'string')
      if (withPhone) {
        const found = await json(c, `/clients/search?term=${q(withPhone.phone)}`, fail) as any[] | undefined
        if (found && !found.some((x) => x.id === withPhone.id)) fail(`searching client ${withPhone.id}'s phone does not find them`)
        if (found?.some((x) => !(x.allPhones ?? [x.phone]).includes(withPhone.phone))) fail(`searching client ${withPhone.id}'s phone finds clients without that phone`)
      }
    }
  },
  {
    name: 'errors are problem details (401, 400, 404)',
    async run (c, fail) {
      const cases: [string, Reply, number][] = [
        ['no API key', await c.send('GET', '/professionals', undefined, {}), 401],
        ['a malformed date', await c.send('GET', '/appointments?start=2026-13-45&end=2026-01-01'), 400],
        ['an unknown appointment', await c.send('GET', '/appointments/no-such-id-0'), 404],
        ['an unknown client', await c.send('GET', '/clients/no-such-id-0'), 404]
      ]
      for (const [what, r, status] of cases) {
        const why = isProblem(r, status)
        if (why) fail(`${what}: ${why}`)
      }
    }
  },
  {
    name: 'writes: every field of a new client reads back as sent; each patch changes only its field',
    writes: true,
    async run (c, fail) {
      const country = c.country ?? homeCountry((c.clients ?? []).flatMap((x) => x.allPhones ?? [x.phone]))
      const phone = exampleMobile(country)
      if (phone === undefined) { fail(`no example mobile number for country ${country}`); return }
      const sent: Record<string, string> = { name: 'Maria das Graças Conformância', phone, email: 'Probe.Conformance@Example.org', birthday: '1985-04-12', cpf: '529.982.247-25' }
      // Every optional field, so the answers' Ponte-Ignored-Fields (and the summary) name all that is not stored.
      for (const ref of ['healthInsurance', 'location'] as const) {
        const first = (c.lists[ref] ?? [])[0]?.id
        if (typeof first === 'string') sent[ref] = first
      }
      let r = await c.send('POST', '/clients', sent)
      // Fields this installation cannot store are refused by name (501): the required ones alone must then register.
      const refused = r.status === 501 ? problemPaths(r) : []
      if (r.status === 501) {
        if (refused.length === 0) { fail('POST /clients → 501 without naming the fields it cannot store'); return }
        for (const f of refused) delete sent[f]
        if (sent.name === undefined || sent.phone === undefined) return 'skipped'
        r = await c.send('POST', '/clients', sent)
      }
      if (r.status !== 200) { fail(`POST /clients → ${r.status}${refused.length > 0 ? ` (after leaving out ${refused.join(', ')}, refused by name)` : ''}`); return }
      const id = r.body?.id as string
      // A client's insurance and location read back through the relations, not on the client.
      const stored = Object.fromEntries(Object.entries(sent).filter(([f]) => !(r.ignored ?? []).includes(f) && f !== 'healthInsurance' && f !== 'location'))
      for (const f of differing(stored, r.body)) fail(`POST /clients: ${f} in the answer differs from what was sent`)
      const back = await json(c, `/clients/${q(id)}`, fail)
      if (back) for (const f of differing(stored, back)) fail(`client ${id}: ${f} read back differs from what was sent`)
      const patches: Record<string, string> = { name: 'José Antônio Conformância', email: 'probe2@example.org', birthday: '1990-12-31', cpf: '111.444.777-35' }
      let expected = { ...stored }
      for (const [field, value] of Object.entries(patches)) {
        const p = await c.send('PATCH', `/clients/${q(id)}`, { [field]: value })
        if (p.status === 501 && problemPaths(p).includes(field)) continue
        if (p.status !== 200) { fail(`PATCH /clients/${id} {${field}} → ${p.status}`); continue }
        if (!(p.ignored ?? []).includes(field)) expected = { ...expected, [field]: value }
        const after = await json(c, `/clients/${q(id)}`, fail)
        if (after) for (const f of differing(expected, after)) fail(`client ${id}: after PATCH {${field}}, ${f} reads back differently`)
      }
      c.clients = [back ?? { id }, ...(c.clients ?? [])]
    }
  },
  {
    name: 'writes: a free slot books with and without each optional ref, every ref reads back; a forbidden move changes nothing',
    writes: true,
    async run (c, fail) {
      const client = c.clients?.[0]
      const professionals = c.lists.professional ?? []
      if (!client || professionals.length === 0) return 'skipped'
      let booked = 0
      for (const p of professionals.slice(0, SAMPLE)) {
        const slots = await c.send('GET', `/availability?start=${addDays(c.today, 1)}&end=${addDays(c.today, 14)}&professional=${q(p.id)}`)
        if (slots.status === 404) return 'skipped'
        const free = Array.isArray(slots.body) ? slots.body as any[] : []
        if (free.length < 2) continue
        // The slot's own refs: booked once with all of them, once with only the professional.
        const refs: Record<string, string> = { professional: p.id }
        for (const name of ['location', 'service'] as const) { const v = free[0][name]?.id ?? free[0][name]; if (typeof v === 'string') refs[name] = v }
        const variants = [refs, { professional: p.id }]
        for (const [i, variant] of variants.entries()) {
          const slot = free[i * Math.max(1, Math.floor(free.length / 2))] ?? free[i]
          const body = { date: slot.date, hour: slot.hour, client: client.id, ...variant }
          const made = await c.send('POST', '/appointments', body)
          if (made.status === 501) {
            if (problemPaths(made).length === 0) fail('POST /appointments → 501 without naming the fields it cannot store')
            continue
          }
          if (made.status !== 200) { fail(`POST /appointments for a free slot of professional ${p.id} (${Object.keys(variant).join(', ')}) → ${made.status}`); return }
          booked++
          const id = made.body?.id as string
          const back = await json(c, `/appointments/${q(id)}`, fail)
          if (!back) return
          if (back.date !== slot.date || back.hour !== slot.hour) fail(`appointment ${id} reads back at another date or hour`)
          if (back.client?.id !== undefined && back.client.id !== client.id) fail(`appointment ${id} reads back with client ${String(back.client.id)}, not ${String(client.id)}`)
          for (const [name, value] of Object.entries(variant)) {
            if ((made.ignored ?? []).includes(name)) continue
            if (back[name]?.id !== value) fail(`appointment ${id}: ${name} reads back as ${String(back[name]?.id)}, not ${value}`)
          }
          if (i > 0) continue
          const again = await c.send('POST', '/appointments', body)
          if (again.status < 400) fail(`the same slot booked twice (appointment ${String(again.body?.id)})`)
          const cancel = await c.send('PATCH', `/appointments/${q(id)}/state`, { state: 'CANCELED' })
          if (cancel.status !== 200) continue
          const back2 = await c.send('PATCH', `/appointments/${q(id)}/state`, { state: 'DONE' })
          if (back2.status >= 400) {
            const still = await json(c, `/appointments/${q(id)}`, fail)
            if (still && still.state !== 'CANCELED') fail(`a refused move changed appointment ${id} to ${String(still.state)}`)
          }
        }
        if (booked > 0) return
      }
      return booked > 0 ? undefined : 'skipped'
    }
  }
]

/** The request fields a problem names (`errors[].path` under /body/). */
function problemPaths (r: Reply): string[] {
  return ((r.body?.errors ?? []) as { path?: string }[]).flatMap((e) => e.path?.startsWith('/body/') === true ? [e.path.slice(6)] : [])
}

/** The client fields whose value read back differs from the one sent, compared as the interface normalises them. */
function differing (sent: Record<string, string>, got: any): string[] {
  const fold = (x: unknown): string => String(x ?? '').normalize('NFD').replace(/\p{M}/gu, '').replace(/\s+/g, ' ').trim().toLowerCase()
  const digits = (x: unknown): string => String(x ?? '').replace(/\D/g, '')
  return Object.entries(sent).filter(([field, value]) => {
    switch (field) {
      case 'name': return fold(got?.name) !== fold(value)
      case 'email': return String(got?.email ?? '').toLowerCase() !== value.toLowerCase()
      case 'cpf': return digits(got?.cpf) !== digits(value)
      case 'phone': return ![got?.phone, ...(got?.allPhones ?? [])].some((p) => digits(p) === digits(value))
      default: return got?.[field] !== value
    }
  }).map(([field]) => field)
}
