// Shared pieces of the write-path contract tests (test/contract/writes-*.test.ts and
// concurrency.test.ts): requests with bodies, direct reads of the legacy tables (what the
// clinic's own system would see), expected stored formats, and test data that the fixtures
// do not already hold.
import type tap from 'tap'
import { TEST_KEY, type TestApp } from './app.js'
import type { MappingModel } from '../../src/mapping/model.js'
import { isProblem, tableNames } from './contract.js'

export type Test = Parameters<Parameters<typeof tap.test>[0]>[0]
export type { TestApp }

export { forEachSample } from './contract.js'

export interface Reply { status: number, body: any, text: string, headers: Record<string, unknown> }

/** A request with the API key; JSON bodies are sent as given (a string is sent raw). */
export async function send (a: TestApp, method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> {
  const res = await a.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${TEST_KEY}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    ...(body !== undefined ? { payload: typeof body === 'string' ? body : JSON.stringify(body) } : {})
  })
  let parsed: any
  try { parsed = res.body === '' ? undefined : JSON.parse(res.body) } catch { parsed = undefined }
  return { status: res.statusCode, body: parsed, text: res.body, headers: res.headers }
}

/**
 * A 400/404/409 answer in the problem format (no SQL, no table names); a 400 about the
 * body's content lists `errors[].path` (a body that is not JSON at all has no fields to name).
 */
export function problem (t: Test, a: TestApp, r: Reply, status: number, what: string, fieldErrors = status === 400): any {
  if (r.status !== status) t.comment(`${what}: ${r.status} ${r.text.slice(0, 400)}`)
  const b = isProblem(t, r, status, what, tableNames(a))
  if (fieldErrors) {
    t.ok(Array.isArray(b.errors) && b.errors.length > 0, `${what}: errors listed`)
    for (const e of b.errors ?? []) t.ok(typeof e.path === 'string' && e.path.startsWith('/') && typeof e.message === 'string', `${what}: error ${JSON.stringify(e)} has path and message`)
  }
  return b
}

// ---------- the legacy tables, read directly ----------

/** SQLite drops the schema: `dbo.PACIENTE` → `PACIENTE`. */
export const bare = (table: string): string => table.replace(/^.*\./, '')

export interface Legacy {
  raw: any
  row: (table: string, keyColumn: string, id: string | number) => Record<string, unknown> | undefined
  count: (table: string) => number
  max: (table: string, column: string) => number
  /** Columns declared NOT NULL (PRAGMA table_info). */
  notNull: (table: string) => string[]
  /** The whole table, for before/after comparisons. */
  dump: (table: string) => string
}

export function legacy (a: TestApp): Legacy {
  const raw = (a.inst.db as any).raw
  const q = (name: string): string => `"${bare(name).replace(/"/g, '""')}"`
  return {
    raw,
    row: (table, keyColumn, id) => raw.prepare(`SELECT * FROM ${q(table)} WHERE ${q(keyColumn)} = ?`).get(Number.isNaN(Number(id)) ? id : Number(id)),
    count: (table) => (raw.prepare(`SELECT COUNT(*) AS n FROM ${q(table)}`).get() as { n: number }).n,
    max: (table, column) => Number((raw.prepare(`SELECT MAX(${q(column)}) AS m FROM ${q(table)}`).get() as { m: unknown }).m ?? 0),
    notNull: (table) => (raw.prepare(`PRAGMA table_info(${q(table)})`).all() as { name: string, notnull: number }[]).filter((c) => c.notnull === 1).map((c) => c.name),
    dump: (table) => JSON.stringify(raw.prepare(`SELECT * FROM ${q(table)} ORDER BY rowid`).all())
  }
}

type KeyGen = { generate: 'identity' } | { generate: 'max' } | { generate: 'sequence', sequence: string } |
  { generate: 'keyTable', table: string, nameColumn: string, name: string, valueColumn: string }

/** What the installation's key generation holds now (key table value, or the table's max key). */
export function keyState (a: TestApp, resource: 'client' | 'appointment'): { gen: KeyGen, value: number } {
  const model = a.inst.model
  const r = resource === 'client' ? model.client : model.appointment
  const gen = ((r.write as any)?.key ?? { generate: 'identity' }) as KeyGen
  const db = legacy(a)
  if (gen.generate === 'keyTable') {
    const row = db.raw.prepare(`SELECT "${gen.valueColumn}" AS v FROM "${bare(gen.table)}" WHERE "${gen.nameColumn}" = ?`).get(gen.name) as { v: number }
    return { gen, value: Number(row.v) }
  }
  return { gen, value: db.max(r.table, r.key.column) }
}

/** Every NOT NULL column of the row holds a value. */
export function allNotNullFilled (t: Test, a: TestApp, table: string, row: Record<string, unknown>, what: string): void {
  const missing = legacy(a).notNull(table).filter((c) => row[c] === null || row[c] === undefined)
  t.same(missing, [], `${what}: every NOT NULL column of ${bare(table)} is filled`)
}

type WriteValue = { value: unknown } | { now: 'date' | 'time' | 'datetime' } | { setting: string }

/**
 * The row holds what the mapping's `set`/`states`/`reschedule` entries say: constants,
 * settings, and the clinic's `now` (today's date, at the clinic). Columns in `skip` are
 * owned by something else (the slot) and left out.
 */
export function holdsWriteValues (t: Test, model: MappingModel, row: Record<string, unknown>, entries: Record<string, WriteValue> | undefined, days: string[], what: string, skip: string[] = []): void {
  for (const [column, w] of Object.entries(entries ?? {})) {
    if (skip.includes(column)) continue
    const got = row[column]
    if ('now' in w) {
      const shape = w.now === 'date' ? /^\d{4}-\d{2}-\d{2}$/ : w.now === 'time' ? /^\d{2}:\d{2}(:\d{2})?$/ : /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2})?/
      t.match(String(got), shape, `${what}: ${column} is a ${w.now}`)
      if (w.now !== 'time') t.ok(days.includes(String(got).slice(0, 10)), `${what}: ${column} (${String(got)}) is today at the clinic (${days.join(' or ')})`)
    } else if ('setting' in w) {
      t.equal(got, model.settings[w.setting], `${what}: ${column} = settings.${w.setting}`)
    } else {
      t.equal(got, w.value, `${what}: ${column} = ${JSON.stringify(w.value)}`)
    }
  }
}

/** The clinic's date now (a test may run across midnight: call before and after). */
export function clinicToday (timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date())
}

// ---------- stored formats (written here independently of src/normalise) ----------

/** A Brazilian E.164 number as the installation stores it (`write.phoneFormat`). */
export function storedPhone (e164: string, format: string | undefined): string {
  const m = /^\+55(\d{2})(\d{4,5})(\d{4})$/.exec(e164)
  if (!m) throw new Error(`test helper: not a Brazilian E.164 number: ${e164}`)
  switch (format ?? 'digits') {
    case 'e164': return e164
    case 'masked': return `(${m[1]}) ${m[2]}-${m[3]}`
    default: return `${m[1]}${m[2]}${m[3]}`
  }
}

export function storedCpf (digits: string, format: string | undefined): string {
  return format === 'masked' ? `${digits.slice(0, 3)}.${digits.slice(3, 6)}.${digits.slice(6, 9)}-${digits.slice(9)}` : digits
}

/** Start (and end) columns of a slot as the mapping stores them. */
export function storedSlot (model: MappingModel, date: string, hour: string, endHour?: string): Record<string, unknown> {
  const { start, end } = model.appointment
  const out: Record<string, unknown> = {}
  const hourAs = (h: string, format: string | undefined): unknown => {
    switch (format ?? 'text') {
      case 'hhmm': return Number(h.replace(':', ''))
      case 'minutes': return Number(h.slice(0, 2)) * 60 + Number(h.slice(3))
      case 'text': return h
      case 'datetime': return `${date} ${h}:00`
      default: return `${h}:00`
    }
  }
  if (start.datetime?.column) out[start.datetime.column] = `${date} ${hour}:00`
  else {
    const df = start.date?.format ?? 'date'
    if (start.date?.column) out[start.date.column] = df === 'int' ? Number(date.replace(/-/g, '')) : df === 'datetime' ? `${date} 00:00:00` : date
    if (start.hour?.column) out[start.hour.column] = hourAs(hour, start.hour.format)
  }
  if (endHour !== undefined) {
    if (end?.datetime?.column) out[end.datetime.column] = `${date} ${endHour}:00`
    else if (end?.hour?.column) out[end.hour.column] = hourAs(endHour, end.hour.format)
    else if (end?.duration?.column) {
      const minutes = (Number(endHour.slice(0, 2)) * 60 + Number(endHour.slice(3))) - (Number(hour.slice(0, 2)) * 60 + Number(hour.slice(3)))
      const per = { minutes: 1, seconds: 60, hours: 1 / 60 }[(end.duration.unit ?? 'minutes') as 'minutes' | 'seconds' | 'hours']
      out[end.duration.column] = minutes * per
    }
  }
  return out
}

/** Columns a slot is stored in (start, end), which `set`/`reschedule` constants do not own. */
export function slotColumns (model: MappingModel): string[] {
  const { start, end } = model.appointment
  return [start.datetime?.column, start.date?.column, start.hour?.column, end?.datetime?.column, end?.hour?.column, end?.duration?.column]
    .filter((c): c is string => typeof c === 'string')
}

// ---------- test data the fixtures do not hold ----------

/** A CPF with correct check digits, from a 9-digit seed. */
export function validCpf (seed: number): string {
  const base = String(seed).padStart(9, '0').slice(-9).split('').map(Number)
  const check = (nums: number[]): number => {
    const sum = nums.reduce((acc, d, i) => acc + d * (nums.length + 1 - i), 0)
    const rest = (sum * 10) % 11
    return rest === 10 ? 0 : rest
  }
  const d1 = check(base)
  const d2 = check([...base, d1])
  return [...base, d1, d2].join('')
}

/** The same CPF with its last check digit wrong. */
export function badCpf (seed: number): string {
  const ok = validCpf(seed)
  return ok.slice(0, 10) + String((Number(ok[10]) + 1) % 10)
}

/** A Brazilian mobile in the clinic's area, as E.164; `n` makes it unique. */
export function mobile (areaCode: string, n: number): string {
  return `+55${areaCode}97${String(n).padStart(7, '0').slice(-7)}`
}

/** Minutes arithmetic on 'HH:MM'. */
export function plusMinutes (hour: string, minutes: number): string {
  const m = Number(hour.slice(0, 2)) * 60 + Number(hour.slice(3)) + minutes
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`
}

// ---------- slots, through the interface itself ----------

export interface FreeSlot { date: string, hour: string, endHour: string, professional: string, location?: string, service?: string }

/**
 * Free slots of one professional and service (in future months), none overlapping another,
 * taken in turn by the tests. Picks the first professional with a service that has a
 * duration and enough free slots.
 */
export async function slotPool (t: Test, a: TestApp, ranges: [string, string][], need = 30): Promise<{ professional: string, service: string, duration: number, slots: FreeSlot[] }> {
  const pros = (await send(a, 'GET', '/professionals?enabled=true')).body as any[]
  for (const p of pros) {
    const services = (await send(a, 'GET', `/services?professional=${encodeURIComponent(p.id)}&enabled=true`)).body as any[]
    const s = services.find((x) => typeof x.duration === 'number' && x.duration > 0)
    if (!s) continue
    const all: any[] = []
    for (const [start, end] of ranges) {
      const r = await send(a, 'GET', `/availability?start=${start}&end=${end}&professional=${encodeURIComponent(p.id)}&service=${encodeURIComponent(s.id)}`)
      if (r.status !== 200) { t.fail(`GET /availability → ${r.status}`, { body: r.body }); continue }
      all.push(...r.body)
    }
    const slots: FreeSlot[] = []
    for (const x of all) {
      const clash = slots.some((y) => y.date === x.date && y.hour < x.endHour && x.hour < y.endHour)
      if (clash) continue
      slots.push({ date: x.date, hour: x.hour, endHour: x.endHour, professional: x.professional.id, location: x.location?.id, service: x.service?.id })
    }
    if (slots.length >= need) return { professional: p.id, service: s.id, duration: s.duration, slots }
  }
  throw new Error('no professional with enough free slots')
}

/** The body of POST /appointments for a slot (location as the availability gave it). */
export function bookingBody (slot: FreeSlot, client: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    date: slot.date,
    hour: slot.hour,
    client,
    professional: slot.professional,
    ...(slot.service !== undefined ? { service: slot.service } : {}),
    ...(slot.location !== undefined ? { location: slot.location } : {}),
    ...extra
  }
}
