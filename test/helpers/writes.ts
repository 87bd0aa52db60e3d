// Shared pieces of the write-path tests (test/http/bookings/, test/http/clients/writes):
// requests with bodies, direct reads of the legacy tables (what the
// clinic's own system would see), expected stored formats, and test data that the fixtures
// do not already hold.
import type tap from 'tap'
import { TEST_KEY, type TestApp } from './app.js'
import type { MappingModel } from '../../src/mapping/model.js'
import { isProblem } from './contract.js'
import type { LiveCatalog, LiveColumn } from '../../src/db/columns.js'
import type { Row } from '../../src/db/database.js'
import { ParamList, type Statement } from '../../src/sql/statement.js'
import type { SqlTypeName } from '../../src/mapping/schema.js'

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
  const b = isProblem(t, r, status, what, a.tables)
  if (fieldErrors) {
    t.ok(Array.isArray(b.errors) && b.errors.length > 0, `${what}: errors listed`)
    for (const e of b.errors ?? []) t.ok(typeof e.path === 'string' && e.path.startsWith('/') && typeof e.message === 'string', `${what}: error ${JSON.stringify(e)} has path and message`)
  }
  return b
}

// ---------- the legacy tables, read directly ----------

/** The table's name without its schema: `dbo.PACIENTE` → `PACIENTE`. */
export const bare = (table: string): string => table.replace(/^.*\./, '')

/** Equality conditions on columns; an array value means IN (…). */
export type Where = Record<string, unknown>

/**
 * What the clinic's own system sees: direct reads of the legacy tables through the
 * installation's Database, in its dialect's SQL (quoting, placeholders, parameters typed
 * from the live catalog). Tables are named as the mapping does (`dbo.X`) or bare (`X`).
 */
export interface Legacy {
  /** Rows matching `where`, in a stable order (every column, ascending); `columns` defaults to all. */
  rows: (table: string, where?: Where, columns?: string[]) => Promise<Row[]>
  row: (table: string, keyColumn: string, id: string | number) => Promise<Row | undefined>
  count: (table: string) => Promise<number>
  max: (table: string, column: string) => Promise<number>
  /** Columns declared NOT NULL, as the catalog reads them. */
  notNull: (table: string) => Promise<string[]>
  /** The whole table, for before/after comparisons. */
  dump: (table: string) => Promise<string>
  /** Renames a table in place (to simulate a database broken under Ponte). */
  rename: (table: string, to: string) => Promise<void>
}

const legacies = new WeakMap<TestApp, Legacy>()

export function legacy (a: TestApp): Legacy {
  let db = legacies.get(a)
  if (db === undefined) {
    db = openLegacy(a)
    legacies.set(a, db)
  }
  return db
}

/** The type a value compared with a column binds as, from what the column declares. */
function paramType (c: LiveColumn | undefined, value: unknown): SqlTypeName {
  if (c === undefined) return typeof value === 'number' ? (Number.isInteger(value) ? 'bigint' : 'decimal') : 'text'
  const declared = c.declared.toLowerCase()
  switch (c.kind) {
    case 'number': return /dec|num|real|float|double|money/.test(declared) ? 'decimal' : /bit|bool/.test(declared) ? 'bit' : 'bigint'
    case 'date': return /time/.test(declared) ? (/date|stamp/.test(declared) ? 'datetime' : 'time') : 'date'
    default: return declared.startsWith('n') ? 'ntext' : 'text'
  }
}

function openLegacy (a: TestApp): Legacy {
  const db = a.inst.db
  const d = db.dialect
  let catalog: Promise<LiveCatalog> | undefined
  const table = async (name: string): Promise<{ ref: string, qualified: string, columns: Map<string, LiveColumn> }> => {
    catalog ??= db.introspect.catalog()
    const found = (await catalog).table(name)
    if (found === undefined) throw new Error(`test helper: no table ${name} in the ${a.dialect} catalog`)
    const qualified = found.schema !== undefined ? `${found.schema}.${found.name}` : found.name
    return { ref: d.table(qualified), qualified, columns: found.columns }
  }
  const column = (columns: Map<string, LiveColumn>, name: string): LiveColumn | undefined =>
    columns.get(name) ?? columns.get(name.toLowerCase()) ?? [...columns.values()].find((c) => c.name.toLowerCase() === name.toLowerCase())
  // Statements are kept per text: drivers may prepare them once.
  const statements = new Map<string, Statement>()
  const run = async (name: string, build: (p: ParamList) => string, values: unknown[] = []): Promise<Row[]> => {
    const params = new ParamList(d)
    const sql = build(params)
    let statement = statements.get(sql)
    if (statement === undefined) {
      statement = { name: `test.legacy.${name}`, sql, params: params.params }
      statements.set(sql, statement)
    }
    return await db.query(statement, Object.fromEntries(values.map((v, i) => [`v${i}`, v])))
  }
  const rows = async (name: string, where: Where = {}, columns?: string[]): Promise<Row[]> => {
    const t = await table(name)
    const all = [...t.columns.values()].map((c) => c.name)
    const values: unknown[] = []
    return await run('rows', (p) => {
      const input = (c: LiveColumn | undefined, v: unknown): string => {
        const type = paramType(c, v)
        values.push(['int', 'bigint', 'smallint', 'decimal'].includes(type) && typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v)) ? Number(v) : v)
        return p.input(`v${values.length - 1}`, type)
      }
      const conditions = Object.entries(where).map(([col, v]) => {
        const c = column(t.columns, col)
        const ref = d.ident(c?.name ?? col)
        if (Array.isArray(v)) return v.length === 0 ? '1 = 0' : `${ref} IN (${v.map((x) => input(c, x)).join(', ')})`
        return v === null ? `${ref} IS NULL` : `${ref} = ${input(c, v)}`
      })
      const selected = (columns ?? all).map((c) => d.ident(column(t.columns, c)?.name ?? c)).join(', ')
      return `SELECT ${selected} FROM ${t.ref}${conditions.length > 0 ? ` WHERE ${conditions.join(' AND ')}` : ''} ORDER BY ${all.map(d.ident).join(', ')}`
    }, values)
  }
  const scalar = async (name: string, expr: (ref: string) => string, tableName: string, column?: string): Promise<unknown> => {
    const t = await table(tableName)
    const ref = column !== undefined ? d.ident(column) : ''
    const [r] = await run(name, () => `SELECT ${expr(ref)} AS ${d.ident('v')} FROM ${t.ref}`)
    return r?.v
  }
  return {
    rows,
    row: async (name, keyColumn, id) => (await rows(name, { [keyColumn]: id }))[0],
    count: async (name) => Number(await scalar('count', () => 'COUNT(*)', name)),
    max: async (name, column) => Number(await scalar('max', (ref) => `MAX(${ref})`, name, column) ?? 0),
    notNull: async (name) => [...(await table(name)).columns.values()].filter((c) => c.notNull).map((c) => c.name),
    dump: async (name) => JSON.stringify(await rows(name)),
    rename: async (name, to) => {
      const t = await table(name)
      const schema = t.qualified.includes('.') ? `${t.qualified.slice(0, t.qualified.lastIndexOf('.'))}.` : ''
      // MariaDB spells it RENAME TABLE; SQLite and PostgreSQL rename in place, to a bare name.
      await run('rename', () => d.name === 'mysql'
        ? `RENAME TABLE ${t.ref} TO ${d.table(schema + to)}`
        : `ALTER TABLE ${t.ref} RENAME TO ${d.ident(to)}`)
      catalog = undefined
    }
  }
}

type KeyGen = { generate: 'identity' } | { generate: 'max' } | { generate: 'sequence', sequence: string } |
  { generate: 'keyTable', table: string, nameColumn: string, name: string, valueColumn: string }

/** What the installation's key generation holds now (key table value, or the table's max key). */
export async function keyState (a: TestApp, resource: 'client' | 'appointment'): Promise<{ gen: KeyGen, value: number }> {
  const model = a.inst.model
  const r = resource === 'client' ? model.client : model.appointment
  const gen = ((r.write as any)?.key ?? { generate: 'identity' }) as KeyGen
  const db = legacy(a)
  if (gen.generate === 'keyTable') {
    const [row] = await db.rows(gen.table, { [gen.nameColumn]: gen.name }, [gen.valueColumn])
    return { gen, value: Number(row?.[gen.valueColumn]) }
  }
  return { gen, value: await db.max(r.table, r.key.column) }
}

/** Every NOT NULL column of the row holds a value. */
export async function allNotNullFilled (t: Test, a: TestApp, table: string, row: Record<string, unknown>, what: string): Promise<void> {
  const missing = (await legacy(a).notNull(table)).filter((c) => row[c] === null || row[c] === undefined)
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
