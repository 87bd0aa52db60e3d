// The hostile generator: from the app's own OpenAPI document and values found through the
// API, a seeded stream of near-valid requests with one hostile change each (an injection
// string, a huge or deeply nested body, a bad encoding, an impossible date, a padded id, a
// wrong method, content type or key), and what issue 7 says each one must get back.
// Nothing here talks to a server (test/helpers/hostile-run.ts does).
import { readFileSync } from 'node:fs'
import { sampleFixture } from '../../src/installation.js'

// ---------- seed ----------

/** HOSTILE_SEED=<n> replays a run; HOSTILE_SEED=random draws a fresh one; default fixed, so `npm test` is repeatable. */
export function hostileSeed (env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.HOSTILE_SEED?.trim()
  if (raw === 'random') return Math.floor(Math.random() * 2 ** 32)
  if (raw && /^\d+$/.test(raw)) return Number(raw) >>> 0
  return 20261122
}

/** mulberry32: small, fast, and the same sequence on every machine for one seed. */
export function prng (seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6D2B79F5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export class Dice {
  constructor (readonly next: () => number) {}
  int (n: number): number { return Math.floor(this.next() * n) }
  pick<T> (xs: readonly T[]): T { return xs[this.int(xs.length)] }
  chance (p: number): boolean { return this.next() < p }
}

/** A per-sample seed, so the two installations do not get the same stream. */
export function seedFor (seed: number, name: string): number {
  let h = seed >>> 0
  for (const c of name) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0
  return h
}

// ---------- routes, from /openapi.json ----------

export interface Param { name: string, required: boolean, schema: Record<string, any> }
export interface Route {
  method: string
  /** As documented: /clients/{id} */
  path: string
  query: Param[]
  /** JSON schema of the body, when the route takes one. */
  body?: Record<string, any>
}

export const METHODS = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE']

export function readRoutes (doc: any): Route[] {
  const routes: Route[] = []
  for (const [path, ops] of Object.entries<any>(doc.paths ?? {})) {
    for (const [method, op] of Object.entries<any>(ops)) {
      if (!METHODS.includes(method.toUpperCase())) continue
      const query = (op.parameters ?? []).filter((p: any) => p.in === 'query')
        .map((p: any) => ({ name: p.name, required: p.required === true, schema: p.schema ?? {} }))
      routes.push({ method: method.toUpperCase(), path, query, body: op.requestBody?.content?.['application/json']?.schema })
    }
  }
  return routes
}

/** Does a concrete path (its {x} kept as is) fall under a route's template? /clients/search is also /clients/{id}. */
function underTemplate (path: string, template: string): boolean {
  const [have, want] = [path.split('/'), template.split('/')]
  return have.length === want.length && want.every((segment, i) => /^\{.+\}$/.test(segment) || segment === have[i])
}

/** The methods some documented route answers on this path. */
export function methodsOn (routes: Route[], path: string): string[] {
  return METHODS.filter((m) => routes.some((r) => r.method === m && underTemplate(path, r.path)))
}

/** Each documented path with the methods no route answers there: 405 territory. */
export function missingMethods (routes: Route[]): Array<{ path: string, method: string, allowed: string[] }> {
  return [...new Set(routes.map((r) => r.path))].flatMap((path) => {
    const allowed = methodsOn(routes, path)
    return METHODS.filter((m) => !allowed.includes(m)).map((method) => ({ path, method, allowed }))
  })
}

/** The resource a path or parameter names: /clients/{id} → clients; healthInsurance → health-insurances. */
const RESOURCE_OF_PARAM: Record<string, string> = {
  client: 'clients',
  professional: 'professionals',
  location: 'locations',
  service: 'services',
  healthInsurance: 'health-insurances',
  specialty: 'specialties',
  plan: 'plans',
  appointment: 'appointments'
}
export const resourceOf = (path: string): string => path.split('/')[1]
const isIdName = (name: string): boolean => name in RESOURCE_OF_PARAM

// ---------- values found through the API ----------

export interface Pools {
  /** Real ids per resource (clients, appointments, professionals, …). */
  ids: Record<string, string[]>
  /** A closed range of days around the fixture's today, with appointments in it. */
  start: string
  end: string
  /** Appointment states seen in the data. */
  states: string[]
  /** Real client names, for search terms. */
  names: string[]
  /** Free slots (date, hour, professional, location) from /availability, for bookings. */
  slots: Array<Record<string, string>>
}

const DAY_MS = 86_400_000
export const addDays = (day: string, n: number): string => new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10)

/** The "today" a sample fixture is written around (its description says so). */
export function fixtureToday (mapping: string): string {
  const description = (JSON.parse(readFileSync(sampleFixture(mapping), 'utf8')) as { description?: string }).description ?? ''
  return /today"?\s+is\s+(\d{4}-\d{2}-\d{2})/i.exec(description)?.[1] ?? new Date().toISOString().slice(0, 10)
}

/** Ids, states and names through the list routes themselves, as an outsider finds them. */
export async function findPools (get: (url: string) => Promise<{ status: number, body: any }>, routes: Route[], today: string): Promise<Pools> {
  const start = addDays(today, 1)
  const end = addDays(today, 7)
  const pools: Pools = { ids: {}, start, end, states: [], names: [], slots: [{ date: end, hour: '10:00' }, { date: end, hour: '11:00' }] }
  for (const r of routes) {
    const required = r.query.filter((p) => p.required).map((p) => p.name)
    if (r.method !== 'GET' || r.path.includes('{') || !required.every((n) => n === 'start' || n === 'end')) continue
    const { status, body } = await get(`${r.path}${required.length > 0 ? `?start=${start}&end=${end}` : ''}`)
    if (status !== 200 || !Array.isArray(body)) continue
    pools.ids[resourceOf(r.path)] = [...new Set(body.map((x: any) => x?.id).filter((id: unknown) => typeof id === 'string'))].slice(0, 50) as string[]
    for (const x of body) {
      if (typeof x?.state === 'string' && !pools.states.includes(x.state)) pools.states.push(x.state)
      if (resourceOf(r.path) === 'clients' && typeof x?.name === 'string') pools.names.push(x.name)
    }
  }
  const free = (await get(`/availability?start=${start}&end=${end}`)).body
  // Two slots far apart, so that a booking wrongly accepted does not make the next one a 409.
  if (Array.isArray(free) && free.length > 1) {
    pools.slots = [free[free.length >> 2], free[(3 * free.length) >> 2]].map((slot) =>
      ({ date: slot.date, hour: slot.hour, ...(slot.professional?.id ? { professional: slot.professional.id } : {}), ...(slot.location?.id ? { location: slot.location.id } : {}) }))
  }
  if (pools.states.length === 0) pools.states.push('CONFIRMED')
  if (pools.names.length === 0) pools.names.push('Maria')
  return pools
}

function validValue (name: string, route: Route, pools: Pools, dice: Dice): string | undefined {
  if (isIdName(name) || name === 'id') {
    const ids = pools.ids[name === 'id' ? resourceOf(route.path) : RESOURCE_OF_PARAM[name]] ?? []
    return ids.length > 0 ? dice.pick(ids) : '1'
  }
  switch (name) {
    case 'start': return pools.start
    case 'end': return pools.end
    case 'date': return pools.end
    case 'hour': return dice.pick(['08:00', '10:30', '14:00'])
    case 'term': return dice.pick(pools.names)
    case 'limit': return '10'
    case 'offset': return '0'
    case 'minimal': case 'enabled': return 'true'
    case 'state': return dice.pick(pools.states)
    case 'name': return 'Teste Hostil da Silva'
    case 'phone': return '+5511955550000'
    case 'email': return 'teste.hostil@example.com'
    case 'birthday': return '1990-05-17'
    case 'cpf': return '52998224725'
    default: return undefined
  }
}

// ---------- hostile values ----------

/* eslint-disable no-template-curly-in-string -- template injection probes, meant literally */
export const INJECTIONS = ["'", "''", "' OR '1'='1", "1' OR '1'='1' --", "'; DROP TABLE users; --", "%' OR 1=1 --", '1 OR 1=1',
  '1; SELECT * FROM sqlite_master', "' UNION SELECT name, sql FROM sqlite_master --", '") OR ("1"="1', '\\', '%', '_', '*',
  '{{7*7}}', '${7*7}', '#{7*7}', '<script>alert(1)</script>', '../../../etc/passwd', '$where', '[$ne]', 'null', 'undefined', 'NaN']
/* eslint-enable no-template-curly-in-string */
/** Outside 1900-01-01 … 2199-12-31, or not a day at all: a 400 wherever a date is taken (issue 7, defect 1). */
export const BAD_DATES = ['0001-01-01', '1899-12-31', '9999-12-31', '10000-01-01', '2026-02-30', '2025-02-29', '2026-13-01',
  '2026-00-10', '2026-04-31', '+002026-01-01', '9999-12-31T23:59:59Z', '0001-01-01T00:00:00Z', '2026-02-30T10:00:00-03:00']
/** Valid forms at the edges: no promise about the answer beyond the generic ones. */
export const EDGE_DATES = ['1900-01-01', '2199-12-31', '2026-12-01T10:00:00-03:00', '2026-12-01T23:30:00+14:00', '2026-12-01T00:30:00Z', '2026-12-01T10:00:00.000-12:00']
export const BAD_HOURS = ['24:00', '9:7', '23:60', '99:99', '-1:00', '12:5', '1:000', '12:00:00', '12h00', '']
/** Percent-encodings that are malformed, overlong, a lone surrogate, or control characters. */
export const BAD_URL_TEXT = ['%ZZ', '%', '%C3%28', '%C0%AF', '%E0%80%AF', '%ED%A0%80', '%FF%FE', '%00', 'a%00b', '%01', '%1B', '%7F', 'a%0Ab']
/** The same, as JSON text (escapes, so the body stays ASCII) — and raw bytes that are not UTF-8. */
export const BAD_JSON_TEXT = ['"\\ud800"', '"a\\udfffb"', '"\\u0000"', '"a\\u0000b"', '"a\\u0001b"', '"\\u001b[31m"', '"a\\u007fb"', '"\\ufffe"']
export const BAD_BODY_BYTES = [Buffer.from([0xC3, 0x28]), Buffer.from([0xC0, 0xAF]), Buffer.from([0xED, 0xA0, 0x80]), Buffer.from([0xFF])]
export const UNKNOWN_PARAMS = ['client[]', 'TERM', 'q', 'term[]', 'limit[]', 'foo', 'Start', 'start[gte]', 'api_key', '']
export const PROTO_KEYS = ['__proto__', 'constructor', 'prototype', '__proto__[admin]', 'constructor[prototype][admin]']

export function paddedIds (id: string): string[] {
  const numeric = /^\d+$/.test(id)
  return [`0${id}`, `00${id}`, ` ${id}`, `${id} `, `+${id}`, `${id}.0`, `${id}\t`, id.toLowerCase() === id ? id.toUpperCase() : id.toLowerCase(),
    ...(numeric ? ['1e3', `0x${Number(id).toString(16)}`, `${id}e0`, `-${id}`] : [`${id}%`]), 'x'.repeat(300), '1'.repeat(300)]
    .filter((v) => v !== id)
}

export const AUTH_VARIANTS: Array<[string, string] | null> = [null, ['authorization', 'Bearer wrong-key-0123456789abcdef'],
  ['authorization', 'Bearer '], ['authorization', 'Basic dGVzdDp0ZXN0'], ['x-api-key', 'wrong-key'], ['x-api-key', ''],
  ['authorization', 'Token test-key-0123456789abcdef'], ['authorization', 'test-key-0123456789abcdef'],
  ['authorization', 'Bearer test-key-0123456789abcdeF'], ['authorization', 'Bearer test-key-0123456789abcde']]

/** Content types a JSON route must refuse (415 or 400), and ones it must not choke on. */
/** [Content-Type (null: none), Content-Encoding] */
export const BAD_CONTENT: Array<[string | null, string?]> = [['text/plain'], ['application/json; charset=utf-16'], ['application/json; charset=latin1'],
  ['application/x-www-form-urlencoded'], ['multipart/form-data; boundary=x'], ['application/xml'], [null],
  ['application/json', 'gzip'], ['application/json', 'br']]
export const ODD_CONTENT = ['Application/JSON', 'application/json;charset=UTF-8', 'application/json; charset="utf-8"', 'application/problem+json', 'application/json, text/plain']

// ---------- requests ----------

/** What a request must get back, beyond the generic checks. */
export interface Expect {
  why: string
  /** Allowed statuses; 'refused' = any 4xx. */
  status: number[] | 'refused'
  /** A 200 is allowed if its body is an empty list (a filter or search nobody matches). */
  emptyOk?: boolean
  /** …or a list whose every item holds this very text (search is exact; an earlier write may have stored the value). */
  heldBy?: string
  /** Text the answer must contain (an unknown parameter's name). */
  names?: string
  /** 405: the methods `Allow` must list. */
  allow?: string[]
}

export interface Hostile {
  n: number
  category: string
  /** 'GET /clients/{id}' */
  route: string
  method: string
  /** The request target as sent: a string of ASCII, or raw bytes. */
  target: string | Buffer
  headers: Record<string, string>
  body?: string | Buffer
  /** The whole request as bytes, for what only a raw socket can send (then target is a label). */
  raw?: Buffer
  /** The hostile value itself (echoing it back is not a leak). */
  payload?: string
  expect?: Expect
}

const refused = (why: string, status: Expect['status'] = 'refused', more: Partial<Expect> = {}): Expect => ({ why, status, ...more })
const enc = encodeURIComponent
export const KEY_HEADER = { authorization: 'Bearer test-key-0123456789abcdef' }

interface Draft {
  route: Route
  id?: string
  /** [name, value, value is already encoded] */
  query: Array<[string, string, boolean?]>
  body?: Record<string, unknown>
  rawBody?: string | Buffer
  headers: Record<string, string>
  /** undefined: application/json when there is a body; null: no Content-Type at all. */
  contentType?: string | null
  method?: string
  rawTarget?: Buffer
}

function baseDraft (route: Route, pools: Pools, dice: Dice): Draft {
  const d: Draft = { route, query: [], headers: { ...KEY_HEADER } }
  if (route.path.includes('{id}')) d.id = enc(validValue('id', route, pools, dice) ?? '1')
  for (const p of route.query) {
    if (!p.required && !dice.chance(0.25)) continue
    const v = validValue(p.name, route, pools, dice)
    if (v !== undefined) d.query.push([p.name, v])
  }
  if (route.body) {
    d.body = {}
    const required = new Set<string>(route.body.required ?? [])
    for (const name of Object.keys(route.body.properties ?? {})) {
      if (!required.has(name) && !dice.chance(0.7)) continue
      const v = validValue(name, route, pools, dice)
      if (v !== undefined) d.body[name] = v
    }
    // A PATCH needs something to change: one fault at a time.
    for (const name of Object.keys(route.body.properties ?? {})) {
      if (Object.keys(d.body).length >= (route.body.minProperties ?? 0)) break
      const v = validValue(name, route, pools, dice)
      if (v !== undefined) d.body[name] = v
    }
  }
  return d
}

function render (d: Draft, n: number, category: string, payload?: string, expect?: Expect): Hostile {
  const path = d.route.path.replace('{id}', d.id === undefined ? '1' : d.id)
  const qs = d.query.map(([k, v, raw]) => raw ? `${k}=${v}` : `${enc(k)}=${enc(v)}`).join('&')
  const headers = { ...d.headers }
  const body = d.rawBody ?? (d.body === undefined ? undefined : JSON.stringify(d.body))
  const contentType = d.contentType === undefined && body !== undefined ? 'application/json' : d.contentType
  if (typeof contentType === 'string') headers['content-type'] = contentType
  return {
    n,
    category,
    route: `${d.route.method} ${d.route.path}`,
    method: d.method ?? d.route.method,
    target: d.rawTarget ?? (qs ? `${path}?${qs}` : path),
    headers,
    body,
    payload,
    expect
  }
}

/** Where a hostile value can go in this route: the path id, a query parameter, a body field. */
type Slot = { at: 'id' } | { at: 'query', name: string } | { at: 'body', name: string }
function slots (route: Route): Slot[] {
  return [
    ...(route.path.includes('{id}') ? [{ at: 'id' as const }] : []),
    ...route.query.map((p) => ({ at: 'query' as const, name: p.name })),
    ...Object.keys(route.body?.properties ?? {}).map((name) => ({ at: 'body' as const, name }))
  ]
}
function put (d: Draft, slot: Slot, value: string, encoded = false): void {
  if (slot.at === 'id') d.id = encoded ? value : enc(value)
  else if (slot.at === 'query') { d.query = d.query.filter(([k]) => k !== slot.name); d.query.push([slot.name, value, encoded]) } else d.body = { ...d.body, [slot.name]: value }
}
const slotName = (s: Slot): string => s.at === 'id' ? 'id' : s.name
const DATE_NAMES = new Set(['start', 'end', 'date', 'birthday'])
const isList = (route: Route): boolean => route.method === 'GET' && !route.path.includes('{id}')

/** Expectation for a value that names no record (padded id, injection string) in a given slot. */
function noSuchId (route: Route, slot: Slot, why: string): Expect | undefined {
  if (slot.at === 'id') return refused(why, [400, 404])
  const name = slotName(slot)
  if (slot.at === 'query' && name === 'term') return refused(why, 'refused', { emptyOk: true })
  if (slot.at === 'query' && isIdName(name) && isList(route)) return refused(why, 'refused', { emptyOk: true })
  if (slot.at === 'body' && isIdName(name)) return refused(why)
  return undefined
}

const FORMATTED = new Set(['email', 'phone', 'cpf', 'birthday', 'date', 'hour', 'start', 'end'])
const schemaOf = (route: Route, slot: Slot): Record<string, any> | undefined =>
  slot.at === 'query' ? route.query.find((p) => p.name === slot.name)?.schema : slot.at === 'body' ? route.body?.properties?.[slot.name] : undefined

/** Expectation for a value that is nothing the slot can hold: a number, a date, a known format, an id. */
function notAValue (route: Route, slot: Slot, why: string): Expect | undefined {
  const type = schemaOf(route, slot)?.type
  if (type === 'integer' || type === 'number' || type === 'boolean' || FORMATTED.has(slotName(slot))) return refused(why, [400])
  if (slotName(slot) === 'state') return refused(why)
  return noSuchId(route, slot, why)
}

/** Numbers written loosely (issue 7, defect 9): a 400, not a guess. */
export const LAX_INTEGERS = ['0x10', ' 5', '5 ', '+5', '1e1', '5.0', '5,6', '０５', 'Infinity', '-0', '9'.repeat(30)]
export const WRONG_JSON_TYPES: unknown[] = [[], ['1'], {}, { id: '1' }, 5, 1.5, true, false, null]

type Maker = (d: Draft, dice: Dice) => { payload?: string, expect?: Expect } | undefined

const MAKERS: Record<string, Maker> = {
  injection (d, dice) {
    const all = slots(d.route)
    if (all.length === 0) { d.query.push(['term', dice.pick(INJECTIONS)]); return { payload: d.query[d.query.length - 1][1], expect: refused('an unknown parameter is a 400 naming it', [400], { names: 'term' }) } }
    const slot = dice.pick(all)
    const value = dice.pick(INJECTIONS)
    put(d, slot, value)
    const expect = notAValue(d.route, slot, 'an injection string is no id, number, date or known format; search is exact')
    return { payload: value, expect: expect && slotName(slot) === 'term' ? { ...expect, heldBy: value } : expect }
  },
  types (d, dice) {
    const numbers = slots(d.route).filter((s) => s.at === 'query' && schemaOf(d.route, s)?.type === 'integer')
    const fields = slots(d.route).filter((s) => s.at === 'body')
    if (numbers.length > 0 && (fields.length === 0 || dice.chance(0.5))) {
      const v = dice.pick(LAX_INTEGERS)
      put(d, dice.pick(numbers), v)
      return { payload: v.trim() || undefined, expect: refused('a number written loosely is a 400', [400]) }
    }
    if (fields.length === 0) return undefined
    const slot = dice.pick(fields) as { at: 'body', name: string }
    // An array field (allPhones) takes arrays: only the other kinds are wrong for it.
    const array = schemaOf(d.route, slot)?.type === 'array'
    d.body = { ...d.body, [slot.name]: dice.pick(WRONG_JSON_TYPES.filter((v) => !array || !Array.isArray(v))) }
    return { expect: refused('a body field of the wrong JSON type', [400]) }
  },
  huge (d, dice) {
    const size = dice.pick([60_000, 1_000_000])
    if (d.route.body && dice.chance(0.7)) {
      const field = dice.pick(Object.keys(d.route.body.properties ?? { name: 1 }))
      d.rawBody = size > 100_000 && dice.chance(0.5)
        ? `[${'1,'.repeat(size / 2)}1]`
        : JSON.stringify({ ...d.body, [field]: 'a'.repeat(size) })
      return { expect: refused(`a ${size}-byte body is refused`, [400, 413]) }
    }
    if (dice.chance(0.5)) { d.headers['x-padding'] = 'p'.repeat(20_000); return { expect: refused('headers over 16 KB', [431]) } }
    d.query.push([dice.pick(d.route.query.map((p) => p.name).concat('term')), 'a'.repeat(Math.min(size, 60_000))])
    return { expect: refused('a 60 KB query string', [400, 414, 431]) }
  },
  nested (d, dice) {
    if (!d.route.body) return undefined
    const depth = 10_000
    const field = dice.pick(Object.keys(d.route.body.properties ?? { name: 1 }))
    d.rawBody = dice.chance(0.5)
      ? `{"${field}":${'['.repeat(depth)}${']'.repeat(depth)}}`
      : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`
    return { expect: refused('a body nested 10,000 deep', [400, 413]) }
  },
  proto (d, dice) {
    const key = dice.pick(PROTO_KEYS)
    if (d.route.body && dice.chance(0.7)) {
      const inner = key.startsWith('__proto__') ? '{"admin":true,"name":"x"}' : key.startsWith('constructor') ? '{"prototype":{"admin":true}}' : '{"admin":true}'
      const text = JSON.stringify(d.body ?? {})
      const bare = key.replace(/\[.*$/, '')
      d.rawBody = dice.chance(0.5) ? `{"${bare}":${inner},${text.slice(1)}` : `${text.slice(0, -1)}${text.length > 2 ? ',' : ''}"${bare}":${inner}}`
      return { payload: bare, expect: refused('a prototype key in a body', [400]) }
    }
    d.query.push([key, '1'])
    return { payload: key, expect: refused('an unknown parameter is a 400 naming it', [400], { names: key.replace(/\[.*$/, '') }) }
  },
  params (d, dice) {
    const known = d.route.query.map((p) => p.name)
    if (known.length > 0 && dice.chance(0.35)) {
      const name = dice.pick(known)
      const present = d.query.find(([k]) => k === name)
      d.query.push([name, present?.[1] ?? '1'])
      if (!present) d.query.push([name, '2'])
      return { payload: name, expect: refused('a parameter given twice is malformed', [400], { names: name }) }
    }
    const name = dice.pick(UNKNOWN_PARAMS)
    d.query.push([name, dice.pick(['5', '', 'x', d.id ?? '1'])])
    return { payload: name, expect: name === '' ? refused('a parameter without a name', [400]) : refused('an unknown parameter is a 400 naming it', [400], { names: name }) }
  },
  encoding (d, dice) {
    const all = slots(d.route)
    const slot = all.length > 0 ? dice.pick(all) : { at: 'query' as const, name: 'term' }
    if (slot.at === 'body') {
      if (dice.chance(0.3)) {
        const text = JSON.stringify({ ...d.body, [slot.name]: '\u0001' })
        const [before, after] = text.split('"\\u0001"')
        d.rawBody = Buffer.concat([Buffer.from(before + '"a'), dice.pick(BAD_BODY_BYTES), Buffer.from('b"' + after)])
        return { expect: refused('a body that is not UTF-8', [400]) }
      }
      const bad = dice.pick(BAD_JSON_TEXT)
      const text = JSON.stringify({ ...d.body, [slot.name]: '\u0001' })
      d.rawBody = text.replace('"\\u0001"', bad)
      return { expect: refused('a lone surrogate, NUL or control character in a body', [400]) }
    }
    if (dice.chance(0.15)) {
      // Raw bytes in the target itself, as a careless client would send them.
      const path = d.route.path.replace('{id}', d.id ?? '1')
      d.rawTarget = Buffer.concat([Buffer.from(`${path}${slot.at === 'id' ? '' : `?${slotName(slot)}=`}`), dice.pick(BAD_BODY_BYTES)])
      return { expect: refused('raw bytes that are not UTF-8 in the target') }
    }
    const bad = dice.pick(BAD_URL_TEXT)
    put(d, slot, bad, true)
    return { expect: slot.at === 'id' ? refused('a malformed id in the path', [400, 404]) : refused('a malformed parameter value', [400]) }
  },
  dates (d, dice) {
    const all = slots(d.route).filter((s) => DATE_NAMES.has(slotName(s)) || slotName(s) === 'hour')
    if (all.length === 0) return undefined
    const slot = dice.pick(all)
    if (slotName(slot) === 'hour') { const v = dice.pick(BAD_HOURS); put(d, slot, v); return { payload: v, expect: refused('an hour that is not HH:MM in 00:00–23:59', [400]) } }
    if (dice.chance(0.25)) { const v = dice.pick(EDGE_DATES); put(d, slot, v); return { payload: v } }
    const v = dice.pick(BAD_DATES)
    put(d, slot, v)
    // Both ends of a range on the same far day: the request that used to spin forever.
    if (slot.at === 'query' && dice.chance(0.5)) for (const other of ['start', 'end']) if (d.route.query.some((p) => p.name === other)) put(d, { at: 'query', name: other }, v)
    return { payload: v, expect: refused('a date outside 1900-01-01 … 2199-12-31 or not a day', [400]) }
  },
  ids (d, dice) {
    const all = slots(d.route).filter((s) => s.at === 'id' || isIdName(slotName(s)))
    if (all.length === 0) return undefined
    const slot = dice.pick(all)
    const real = slot.at === 'id' ? d.id ?? '1' : String((slot.at === 'query' ? d.query.find(([k]) => k === slot.name)?.[1] : d.body?.[slot.name]) ?? '1')
    const v = dice.pick(paddedIds(decodeURIComponent(real)))
    put(d, slot, v)
    return { payload: v, expect: noSuchId(d.route, slot, 'an id matches only its canonical form') ?? refused('an id that is not canonical') }
  },
  method (d, dice) {
    const missing = METHODS.filter((m) => m !== d.route.method)
    d.method = dice.pick(missing)
    return undefined // the expectation (405 + Allow) needs every route of the path: set by generate()
  },
  'content-type' (d, dice) {
    if (!d.route.body) return undefined
    if (dice.chance(0.2)) { d.contentType = dice.pick(ODD_CONTENT); return {} }
    const [contentType, contentEncoding] = dice.pick(BAD_CONTENT)
    d.contentType = contentType
    if (contentEncoding) d.headers['content-encoding'] = contentEncoding
    return { expect: refused('a body that is not JSON in UTF-8, as declared', [400, 415]) }
  },
  auth (d, dice) {
    delete d.headers.authorization
    const variant = dice.pick(AUTH_VARIANTS)
    if (variant) d.headers[variant[0]] = variant[1]
    return { expect: refused('a missing or wrong API key', [401]) }
  }
}
export const CATEGORIES = Object.keys(MAKERS)

/**
 * `count` requests: categories in turn, each on a route drawn at random among those it applies
 * to; then every documented path once with each method it lacks (405).
 */
export function generate (routes: Route[], pools: Pools, dice: Dice, count: number): Hostile[] {
  const out: Hostile[] = []
  for (let i = 0; out.length < count; i++) {
    const category = CATEGORIES[i % CATEGORIES.length]
    for (let attempt = 0; attempt < 30; attempt++) {
      const d = baseDraft(dice.pick(routes), pools, dice)
      const made = MAKERS[category](d, dice)
      if (category === 'method') {
        const allow = methodsOn(routes, d.route.path)
        if (allow.includes(d.method ?? '')) continue
        out.push(render(d, out.length, category, d.method, refused('a method the route does not have', [405], { allow })))
        break
      }
      if (made === undefined) continue
      out.push(render(d, out.length, category, made.payload, made.expect))
      break
    }
  }
  for (const { path, method, allowed } of missingMethods(routes)) {
    const d = baseDraft(routes.find((r) => r.path === path) as Route, pools, dice)
    d.method = method
    out.push(render(d, out.length, 'method', method, refused('a method the route does not have', [405], { allow: allowed })))
  }
  return out
}

/** Malformed requests only a raw socket can send (issue 7, defects 5 and 6). */
export function rawCases (firstN: number): Hostile[] {
  const key = KEY_HEADER.authorization
  const cases: Array<[string, string]> = [
    ['header line without a colon', `GET /professionals HTTP/1.1\r\nHost: x\r\nAuthorization: ${key}\r\nThis is not a header\r\n\r\n`],
    ['unknown HTTP version', `GET /professionals HTTP/9.9\r\nHost: x\r\nAuthorization: ${key}\r\n\r\n`],
    ['space inside the target', `GET /clients/1 2 HTTP/1.1\r\nHost: x\r\nAuthorization: ${key}\r\n\r\n`],
    ['Content-Length and Transfer-Encoding together', `POST /clients HTTP/1.1\r\nHost: x\r\nAuthorization: ${key}\r\nContent-Type: application/json\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`],
    ['negative Content-Length', `POST /clients HTTP/1.1\r\nHost: x\r\nAuthorization: ${key}\r\nContent-Type: application/json\r\nContent-Length: -1\r\n\r\n{}`],
    ['malformed chunk size', `POST /clients HTTP/1.1\r\nHost: x\r\nAuthorization: ${key}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n{}\r\n0\r\n\r\n`],
    ['NUL in a header value', `GET /professionals HTTP/1.1\r\nHost: x\r\nAuthorization: ${key}\r\nX-Note: a\u0000b\r\n\r\n`],
    ['headers over 16 KB', `GET /professionals HTTP/1.1\r\nHost: x\r\nAuthorization: ${key}\r\nX-Padding: ${'p'.repeat(20_000)}\r\n\r\n`],
    ['request line over 16 KB', `GET /clients/search?term=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\nAuthorization: ${key}\r\n\r\n`],
    ['bare LF line endings', `GET /professionals HTTP/1.1\nHost: x\nAuthorization: ${key}\n\n`],
    ['absolute-form target with a bad percent', `GET http://x/clients/%E0%A4%A HTTP/1.1\r\nHost: x\r\nAuthorization: ${key}\r\n\r\n`]
  ]
  return cases.map(([why, text], i) => ({
    n: firstN + i,
    category: 'raw',
    route: 'raw socket',
    method: text.slice(0, text.indexOf(' ')),
    target: why,
    raw: Buffer.from(text, 'latin1'),
    headers: {},
    expect: refused(`a malformed request (${why}) gets a problem, not a framework body`, 'refused')
  }))
}

/**
 * The reproductions listed in issue 7, pinned so every run sends them whatever the seed draws
 * (only those whose route the document has).
 */
export function issueCases (routes: Route[], pools: Pools, firstN: number): Hostile[] {
  const has = (route: string): boolean => routes.some((r) => `${r.method} ${r.path}` === route)
  const first = (resource: string): string => pools.ids[resource]?.[0] ?? '1'
  const range = `start=${pools.start}&end=${pools.end}`
  const client = first('clients')
  const booking = (i: number): Record<string, string> => ({ ...pools.slots[i % pools.slots.length], client })
  const person = { name: 'Teste Hostil da Silva', phone: '+5511955550000' }
  const onlyEmpty = (why: string): Expect => ({ why, status: [], emptyOk: true })
  const cases: Array<[string, string, string, unknown, Record<string, string> | undefined, Expect]> = [
    // [route, method, target, body (a string is sent as is), extra headers, expectation]
    ['GET /availability', 'GET', '/availability?start=9999-12-31&end=9999-12-31', undefined, undefined, refused('defect 1: a far date is a 400, at once', [400])],
    ['GET /availability', 'GET', '/availability?start=9999-12-31T00:00:00Z&end=9999-12-31T23:59:59Z', undefined, undefined, refused('defect 1: a far date-time is a 400, at once', [400])],
    ['GET /appointments', 'GET', '/appointments?start=9999-12-31&end=9999-12-31', undefined, undefined, refused('defect 1: a far date is a 400', [400])],
    ['GET /clients/{id}', 'GET', '/clients/x%ZZ', undefined, undefined, refused('defect 5: a malformed path is a 400 problem', [400])],
    ['GET /clients/{id}', 'GET', `/clients/${'1'.repeat(101)}`, undefined, undefined, refused('defect 5: an id over 100 characters is a problem', [400, 404, 414])],
    ['GET /clients', 'PUT', '/clients', '{}', undefined, refused('defect 5: a wrong method is a 405 with Allow', [405], { allow: ['GET', 'POST'] })],
    ['GET /appointments', 'GET', `/appointments?${range}&client[]=5`, undefined, undefined, refused('defect 7: an unknown parameter is a 400 naming it', [400], { names: 'client[]' })],
    ['GET /clients/{id}', 'GET', `/clients/0${client}`, undefined, undefined, refused('defect 8: a zero-padded id reaches nothing', [400, 404])],
    ['GET /appointments/{id}', 'GET', `/appointments/0${first('appointments')}`, undefined, undefined, refused('defect 8: a zero-padded id reaches nothing', [400, 404])],
    ['GET /professionals/{id}', 'GET', `/professionals/0${first('professionals')}`, undefined, undefined, refused('defect 8: a zero-padded id reaches nothing', [400, 404])],
    ['PATCH /clients/{id}', 'PATCH', `/clients/0${client}`, JSON.stringify({ name: 'Teste Hostil' }), undefined, refused('defect 8: a zero-padded id changes nothing', [400, 404])],
    ['POST /clients', 'POST', '/clients', '{"name":"\\ud800","phone":"+5511955550000"}', undefined, refused('defect 9: a lone surrogate is a 400', [400])],
    ['POST /clients', 'POST', '/clients', '{"name":"Ana\\u0000Maria","phone":"+5511955550000"}', undefined, refused('defect 9: NUL is a 400', [400])],
    ...[[], {}, 5].map((v): [string, string, string, unknown, undefined, Expect] => ['POST /clients', 'POST', '/clients', JSON.stringify({ ...person, healthInsurance: v }), undefined, refused(`defect 9: healthInsurance ${JSON.stringify(v)} is a 400`, [400])]),
    ...[[], {}, 5].map((v): [string, string, string, unknown, undefined, Expect] => ['POST /clients', 'POST', '/clients', JSON.stringify({ ...person, location: v }), undefined, refused(`defect 9: location ${JSON.stringify(v)} is a 400`, [400])]),
    ...['0x10', '%205', '%2B5'].map((v): [string, string, string, unknown, undefined, Expect] => ['GET /clients', 'GET', `/clients?limit=${v}`, undefined, undefined, refused(`defect 9: limit=${v} is a 400`, [400])]),
    ['POST /clients', 'POST', '/clients', JSON.stringify(person), { 'content-encoding': 'gzip' }, refused('defect 9: a plain body marked gzip is refused', [400, 415])],
    ['POST /clients', 'POST', '/clients', JSON.stringify(person), { 'content-type': 'application/json; charset=utf-16' }, refused('defect 9: charset=utf-16 is refused', [400, 415])],
    ['GET /clients/search', 'GET', '/clients/search?term=%2B5511998246', undefined, undefined, onlyEmpty('defect 10: a term nobody holds is 200 []')],
    ['GET /clients/search', 'GET', '/clients/search?term=a%00b', undefined, undefined, refused('defect 17: a control character in a term is a 400', [400])],
    ['POST /appointments', 'POST', '/appointments', JSON.stringify({ ...booking(0), plan: 'abc' }), undefined, refused('defect 15: a plan id its column cannot hold is a 400', [400], { names: 'plan' })],
    ['POST /appointments', 'POST', '/appointments', JSON.stringify({ ...booking(1), plan: '999999' }), undefined, refused('defect 15: a plan nobody has is a 400', [400], { names: 'plan' })],
    ['GET /clients/{id}', 'GET', '/clients/+5511955554444', undefined, undefined, refused('defect 6: a phone is no id', [400, 404])]
  ]
  const location = first('locations')
  if (/[a-z]/i.test(location)) {
    for (const v of [location.toLowerCase(), `${location} `]) {
      cases.push(['GET /appointments', 'GET', `/appointments?${range}&location=${encodeURIComponent(v)}`, undefined, undefined, onlyEmpty('defect 14: a text id matches only its exact form')])
    }
  }
  return cases.filter(([route]) => has(route)).map(([route, method, target, body, headers, expect], i) => ({
    n: firstN + i,
    category: 'issue 7',
    route,
    method,
    target,
    headers: { ...KEY_HEADER, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body as string | undefined,
    expect
  }))
}
