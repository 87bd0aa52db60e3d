// Shared pieces of the contract suite (test/http/): run a test body once per sample
// installation, read problem+json answers, and find data to test with through the
// endpoints themselves, the way an outside judge would.
import { readFileSync } from 'node:fs'
import { connect } from 'node:net'
import { sampleApp, SAMPLES, DIALECTS, TEST_KEY, type TestApp, type TestDialect } from './app.js'
import { sampleFixture } from '../../src/installation.js'

import type tap from 'tap'

export type Test = Parameters<Parameters<typeof tap.test>[0]>[0]

export { TEST_KEY, type TestApp, type TestDialect }

/**
 * Dialects the contract suite runs on: env `PONTE_TEST_DIALECTS` (comma list), by default
 * all three. A server left out here is the only way a dialect is not tested.
 */
export function testDialects (): TestDialect[] {
  const asked = (process.env.PONTE_TEST_DIALECTS ?? DIALECTS.join(',')).split(',').map((s) => s.trim().toLowerCase()).filter((s) => s !== '')
  const unknown = asked.filter((d) => !(DIALECTS as readonly string[]).includes(d))
  if (unknown.length > 0) throw new Error(`PONTE_TEST_DIALECTS names ${unknown.join(', ')}: known dialects are ${DIALECTS.join(', ')}`)
  return asked as TestDialect[]
}

const SERVERS: Record<Exclude<TestDialect, 'sqlite'>, { label: string, env: string, fallback: string, start: string }> = {
  mysql: {
    label: 'MariaDB',
    env: 'PONTE_TEST_MYSQL_URL',
    fallback: 'mysql://root@127.0.0.1:3306/',
    start: 'start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd'
  },
  postgres: {
    label: 'PostgreSQL',
    env: 'PONTE_TEST_POSTGRES_URL',
    fallback: 'postgres://postgres@127.0.0.1:5432/postgres',
    start: 'pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start'
  }
}

const reachability = new Map<TestDialect, Promise<string | undefined>>()

/** Why the dialect's local server cannot be used (undefined: it answers on its port). */
function unreachable (dialect: TestDialect): Promise<string | undefined> {
  if (dialect === 'sqlite') return Promise.resolve(undefined)
  let known = reachability.get(dialect)
  if (known === undefined) {
    const server = SERVERS[dialect]
    const at = new URL(process.env[server.env] ?? server.fallback)
    const host = at.hostname
    const port = Number(at.port || (dialect === 'mysql' ? 3306 : 5432))
    const others = testDialects().filter((d) => d !== dialect).join(',') || 'sqlite'
    known = new Promise((resolve) => {
      const socket = connect({ host, port })
      const done = (why: string | undefined): void => { socket.destroy(); resolve(why) }
      socket.setTimeout(3000, () => done('no answer within 3 s'))
      socket.once('connect', () => done(undefined))
      socket.once('error', (err: NodeJS.ErrnoException) => done(err.code ?? err.message))
    }).then((why) => why === undefined
      ? undefined
      : `${server.label} cannot be reached at ${host}:${port} (${String(why)}). Start it with \`${server.start}\`, ` +
        `point ${server.env} at a running server, or leave ${dialect} out: PONTE_TEST_DIALECTS=${others}`)
    reachability.set(dialect, known)
  }
  return known
}

/**
 * One subtest per sample installation and dialect (named `<sample> [<dialect>]`), each
 * sharing one fresh app, opened once and closed at the end. A dialect whose server is down
 * fails its subtests, saying how to start it or leave it out: it never skips silently.
 */
export function forEachSample (t: Test | typeof tap, body: (t: Test, a: TestApp, name: string) => Promise<void>): void {
  for (const dialect of testDialects()) {
    for (const mapping of SAMPLES) {
      const name = mapping.replace(/^.*\//, '').replace(/\.ya?ml$/, '')
      t.test(`${name} [${dialect}]`, async (t) => {
        const down = await unreachable(dialect)
        if (down !== undefined) {
          t.fail(down)
          return
        }
        const a = await sampleApp(mapping, {}, dialect)
        t.teardown(async () => { await a.close() })
        await body(t, a, name)
      })
    }
  }
}

export interface Reply { status: number, body: any, headers: Record<string, unknown>, text: string }

/** A request with full control of the headers (no key unless given). */
export async function request (a: TestApp, url: string, headers: Record<string, string> = {}, method: 'GET' | 'POST' | 'PATCH' = 'GET'): Promise<Reply> {
  const res = await a.app.inject({ method, url, headers })
  let body: any
  try { body = res.body === '' ? undefined : JSON.parse(res.body) } catch { body = undefined }
  return { status: res.statusCode, body, headers: res.headers, text: res.body }
}

export const withKey = { authorization: `Bearer ${TEST_KEY}` }

/** GET that must answer 200 with a JSON body. */
export async function ok (t: Test, a: TestApp, url: string): Promise<any> {
  const r = await a.get(url)
  if (r.status !== 200) t.fail(`GET ${url} → ${r.status}`, { body: r.body })
  return r.body
}

// Words that would show SQL or the legacy schema leaking through an error.
const LEAKS = /\b(SELECT|INSERT|UPDATE|DELETE|FROM|WHERE|JOIN|SQLITE_\w+|SqliteError|sqlite|mssql|dbo\.|no such (table|column)|syntax error|ER_[A-Z_]+|mysql|mariadb|postgres(ql)?|relation "|column "|Unknown column|doesn't exist|SQLSTATE)\b/

// Table names that are also words of the interface itself (a sample may name its tables so).
const INTERFACE_WORDS = new Set(['appointments', 'appointment', 'clients', 'client', 'professionals', 'professional', 'locations', 'location',
  'services', 'service', 'specialties', 'specialty', 'health_insurances', 'plans', 'plan', 'state', 'id'])

/** Asserts an RFC 9457 problem answer with the given status; returns its body. */
export function isProblem (t: Test, r: Reply | { status: number, body: any, headers: Record<string, unknown> }, status: number, what: string, tables: string[] = []): any {
  t.equal(r.status, status, `${what}: status ${status}`)
  t.match(String(r.headers['content-type']), /^application\/problem\+json/, `${what}: problem+json`)
  const b = r.body ?? {}
  t.equal(typeof b.type, 'string', `${what}: has type`)
  t.equal(typeof b.title, 'string', `${what}: has title`)
  t.equal(b.status, status, `${what}: body.status`)
  t.equal(typeof b.detail, 'string', `${what}: has detail`)
  // `instance` echoes the request URL, which may well say "appointments": leave it out.
  const text = JSON.stringify({ ...b, instance: undefined })
  t.notMatch(text, LEAKS, `${what}: no SQL in the problem`)
  const leaked = tables.filter((table) => !INTERFACE_WORDS.has(table.toLowerCase()) && new RegExp(`\\b${table}\\b`).test(text))
  t.same(leaked, [], `${what}: no legacy table names in the problem`)
  return b
}

export const ids = (xs: { id: string }[]): string[] => xs.map((x) => x.id)
export const sortedIds = (xs: { id: string }[]): string[] => ids(xs).sort()

// ---------- dates ----------
const DAY = 86_400_000
export function addDays (day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10)
}

/** The "today" a fixture is written around (its description says so), else the clock's. */
function anchorDay (a: TestApp): string {
  try {
    const fx = JSON.parse(readFileSync(sampleFixture(a.inst.model.file), 'utf8')) as { description?: string }
    const m = /today"?\s+is\s+(\d{4}-\d{2}-\d{2})/i.exec(fx.description ?? '')
    if (m) return m[1]
  } catch {}
  return new Date().toISOString().slice(0, 10)
}

export interface BusyRange {
  /** Appointments per day over the surveyed 92-day window (minimal list). */
  perDay: Map<string, number>
  /** A 7-day closed range, as busy as possible, whose first and last days both have appointments. */
  start: string
  end: string
  /** Days in the survey window, in order. */
  days: string[]
}

/** Finds appointments through GET /appointments itself: 92-day windows around the fixture's today. */
export async function findBusyRange (t: Test, a: TestApp): Promise<BusyRange> {
  const anchor = anchorDay(a)
  for (const shift of [0, -92, 92, -184, 184, -276, 276, -368, 368]) {
    const from = addDays(anchor, shift - 45)
    const to = addDays(from, 91)
    const list = await ok(t, a, `/appointments?start=${from}&end=${to}&minimal=true`) as any[]
    if (list.length === 0) continue
    const perDay = new Map<string, number>()
    for (const x of list) perDay.set(x.date, (perDay.get(x.date) ?? 0) + 1)
    const days = Array.from({ length: 92 }, (_, i) => addDays(from, i))
    let best: { start: string, n: number } | undefined
    for (let i = 0; i + 6 < days.length; i++) {
      const [s, e] = [days[i], days[i + 6]]
      if (!perDay.get(s) || !perDay.get(e)) continue
      const n = days.slice(i, i + 7).reduce((sum, d) => sum + (perDay.get(d) ?? 0), 0)
      if (!best || n > best.n) best = { start: s, n }
    }
    if (best) return { perDay, start: best.start, end: addDays(best.start, 6), days }
  }
  throw new Error('no appointments found around the fixture\'s today')
}

// ---------- phones ----------
/** E.164, as the interface promises for phones. */
export const E164 = /^\+[1-9]\d{7,14}$/

/**
 * One key for the equivalent E.164 forms of a number: a Brazilian mobile with and without
 * its ninth digit is the same number (design notes §1).
 */
export function phoneKey (e164: string): string {
  const m = /^\+55(\d{2})9([6-9]\d{7})$/.exec(e164)
  return m ? `+55${m[1]}${m[2]}` : e164
}

export function phonesOf (c: any): string[] {
  return [...new Set<string>([...(c.allPhones ?? []), ...(c.phone ? [c.phone] : [])])]
}

export function holdsPhone (c: any, e164: string): boolean {
  return phonesOf(c).some((p) => phoneKey(p) === phoneKey(e164))
}

// ---------- text ----------
export const fold = (s: string): string => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim()
export const stripAccents = (s: string): string => s.normalize('NFD').replace(/\p{M}/gu, '')

/** Deep equality of JSON values, order of keys ignored. */
export function sameJson (x: unknown, y: unknown): boolean {
  return JSON.stringify(canon(x)) === JSON.stringify(canon(y))
}
function canon (v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canon)
  if (v && typeof v === 'object') return Object.fromEntries(Object.keys(v).sort().map((k) => [k, canon((v as any)[k])]))
  return v
}

/** Every field of `part` is present in `whole` with the same value (nested objects may be abbreviated). */
export function isAbbreviationOf (part: Record<string, unknown>, whole: Record<string, unknown>): boolean {
  return Object.keys(part).every((k) => sameJson(part[k], whole[k]))
}
