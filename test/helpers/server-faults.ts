// Faults against a real MariaDB/PostgreSQL server (issue 12), shared by
// test/system/faults/servers-<server>.test.ts. A real Ponte process (src/server.ts) reaches its
// scratch database through a TCP proxy (tcp-proxy.ts), so "the server goes down" is the proxy
// refusing or freezing, never the server itself (other people are testing against it). Load
// runs while each fault happens; every answer is recorded with its time, and the judgement is
// what a caller notices: only 200 or a 503/504 problem, within the configured bounds; lookups
// from the cache; /health fast; recovery within 5 s without a restart; no connection left.
import type tap from 'tap'
import { setTimeout as sleep } from 'node:timers/promises'
import { TEST_KEY } from './app.js'
import { startServer, type ServerProcess } from './server-process.js'
import { tcpProxy, type TcpProxy } from './tcp-proxy.js'
import { urlVia, type RealServer, type Scratch, type SideConnection } from './real-servers.js'

type Test = Parameters<Parameters<typeof tap.test>[0]>[0]

const MAPPING = 'mappings/clinica-sorriso.yaml'
const FIXTURE = 'fixtures/clinica-sorriso/fixture.json'
const APPOINTMENTS_TABLE = 'dbo.AGENDA'

/** The bounds under test, as DATABASE_URL settings. */
export const CONNECT_MS = 1000
export const STATEMENT_MS = 2500
export const POOL_MAX = 4
/** What a loaded machine adds to a bound: scheduling, not seconds. */
const SLACK_MS = 1500
const RECOVERY_MS = 5000
// /health never waits for the database; the bound is the event loop's on a busy shared machine.
const HEALTH_MS = 1000

const PROBLEM = 'https://ponte.dev/problems/'

type Kind = 'db' | 'lookup' | 'health'
interface Sample { kind: Kind, method: string, path: string, status: number, type?: string, retryAfter?: string, contentType: string, text: string, start: number, end: number, ms: number }

interface Route { kind: Kind, method: 'GET' | 'POST', path: string, body?: () => unknown }

let phoneSeq = 0
const nextPhone = (): string => `+551197${String(4_100_000 + (phoneSeq++ * 7919) % 5_000_000).padStart(7, '0')}`

/** Routes that need the database each time (clinica-sorriso), and routes the lookup cache answers. */
const DB_ROUTES: Route[] = [
  { kind: 'db', method: 'GET', path: '/appointments?start=2027-03-01&end=2027-03-07' },
  { kind: 'db', method: 'GET', path: '/clients/search?term=maria' },
  { kind: 'db', method: 'GET', path: '/availability?start=2027-03-01&end=2027-03-02' },
  { kind: 'db', method: 'POST', path: '/clients', body: () => ({ name: 'Paciente Falha', phone: nextPhone() }) }
]
const LOOKUP_ROUTES: Route[] = ['/professionals', '/services', '/locations', '/specialties', '/health-insurances']
  .map((path) => ({ kind: 'lookup', method: 'GET', path }))

async function call (ponte: ServerProcess, route: Route, t0: number): Promise<Sample> {
  const start = performance.now() - t0
  let status = 0
  let text = ''
  let headers = new Headers()
  try {
    const res = await fetch(ponte.url(route.path), {
      method: route.method,
      headers: { authorization: `Bearer ${TEST_KEY}`, ...(route.body ? { 'content-type': 'application/json' } : {}) },
      body: route.body ? JSON.stringify(route.body()) : undefined,
      // Far beyond every bound: a request still open then is reported as "no answer".
      signal: AbortSignal.timeout(20_000)
    })
    status = res.status
    headers = res.headers
    text = await res.text()
  } catch (err) {
    text = `no answer: ${(err as Error).message}`
  }
  const end = performance.now() - t0
  let type: string | undefined
  try { type = JSON.parse(text).type } catch {}
  return { kind: route.kind, method: route.method, path: route.path, status, type, retryAfter: headers.get('retry-after') ?? undefined, contentType: headers.get('content-type') ?? '', text: text.slice(0, 200), start, end, ms: end - start }
}

/** Workers sending requests one after another until stopped; /health polled every 100 ms. */
function load (ponte: ServerProcess, t0: number): { stop: () => Promise<Sample[]> } {
  const samples: Sample[] = []
  let running = true
  const worker = async (routes: Route[], offset: number, pauseMs: number): Promise<void> => {
    for (let i = offset; running; i++) {
      samples.push(await call(ponte, routes[i % routes.length], t0))
      if (pauseMs > 0) await sleep(pauseMs)
    }
  }
  const workers = [
    ...Array.from({ length: 6 }, (_, i) => worker(DB_ROUTES, i, 20)),
    ...Array.from({ length: 2 }, (_, i) => worker(LOOKUP_ROUTES, i, 20)),
    worker([{ kind: 'health', method: 'GET', path: '/health' }], 0, 100)
  ]
  return { async stop () { running = false; await Promise.all(workers); return samples } }
}

const describe = (s: Sample): string => `${s.method} ${s.path} at ${Math.round(s.start)} ms → ${s.status} in ${Math.round(s.ms)} ms ${s.text.slice(0, 120)}`
const ms = (n: number): string => `${Math.round(n)} ms`
const max = (xs: number[]): number => xs.length === 0 ? 0 : Math.max(...xs)
const p95 = (xs: number[]): number => xs.length === 0 ? 0 : [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))]

/** A 503/504 problem of ours, as a caller receives it. */
function faultAnswerIssues (s: Sample): string[] {
  const issues: string[] = []
  if (!/^application\/problem\+json/.test(s.contentType)) issues.push('not problem+json')
  if (s.status === 503 && s.type !== `${PROBLEM}database-unavailable`) issues.push(`503 of type ${s.type}`)
  if (s.status === 503 && !(Number(s.retryAfter) > 0)) issues.push('503 without Retry-After')
  if (s.status === 504 && s.type !== `${PROBLEM}database-timeout`) issues.push(`504 of type ${s.type}`)
  if (/ECONN|ETIMEDOUT|ER_|SQLSTATE|mysql|mariadb|postgres|pg_|127\.0\.0\.1|SELECT|AGENDA/i.test(s.text)) issues.push('driver or SQL text in the body')
  return issues
}

interface Fault {
  name: string
  /** Requests sent after the fault began and answered before it ended must all fail (the fault really happened). */
  total: boolean
  begin: () => Promise<void>
  holdMs: number
  end: () => Promise<void>
}

/** Runs load, applies the fault, lifts it, and judges every answer. */
async function underLoad (t: Test, ctx: Context, fault: Fault): Promise<void> {
  const t0 = performance.now()
  const running = load(ctx.ponte, t0)
  await sleep(1000)
  const faultAt = performance.now() - t0
  await fault.begin()
  await sleep(fault.holdMs)
  const restoreAt = performance.now() - t0
  await fault.end()
  await sleep(RECOVERY_MS + 1000)
  const samples = await running.stop()
  // A crash makes every later judgement a consequence of it: it is reported alone, with its log.
  if (ctx.ponte.child.exitCode !== null || ctx.ponte.child.signalCode !== null) {
    const at = ctx.exitedAt === undefined ? '?' : ms(ctx.exitedAt - (t0 + faultAt))
    t.comment(`${ctx.label} · ${fault.name}: Ponte EXITED ${at} after the fault began (exit code ${String(ctx.ponte.child.exitCode)})`)
    stillRunning(t, ctx, fault.name)
    return
  }

  const db = samples.filter((s) => s.kind === 'db')
  const before = db.filter((s) => s.end < faultAt)
  t.ok(before.length > 0, `${fault.name}: load ran before the fault (${before.length} requests)`)
  t.same(before.filter((s) => s.status !== 200).map(describe), [], `${fault.name}: before the fault every request succeeds`)

  // Answers that overlap the fault: 200, or a 503/504 problem, within the bounds.
  const during = db.filter((s) => s.end >= faultAt && s.start <= restoreAt)
  const failed = during.filter((s) => s.status !== 200)
  t.same(db.filter((s) => ![200, 503, 504].includes(s.status)).map(describe), [], `${fault.name}: only 200, 503 or 504 (${failed.length} of ${during.length} requests during the fault failed)`)
  t.same(failed.flatMap((s) => faultAnswerIssues(s).map((i) => `${describe(s)}: ${i}`)), [], `${fault.name}: every failure is our 503/504 problem`)
  const bound = CONNECT_MS + STATEMENT_MS + SLACK_MS
  t.same(during.filter((s) => s.ms > bound).map(describe), [], `${fault.name}: every request overlapping the fault answered within ${ms(bound)} (slowest ${ms(max(during.map((s) => s.ms)))})`)
  const unavailable = failed.filter((s) => s.status === 503)
  const timedOut = failed.filter((s) => s.status === 504)
  if (fault.total) {
    const inside = db.filter((s) => s.start > faultAt + 200 && s.end < restoreAt)
    t.ok(inside.length >= 3, `${fault.name}: requests were sent while the server was away (${inside.length})`)
    t.same(inside.filter((s) => s.status === 200).map(describe), [], `${fault.name}: none of them succeeded (the fault was real)`)
  }

  const lookups = samples.filter((s) => s.kind === 'lookup')
  const lookupsDuring = lookups.filter((s) => s.end >= faultAt && s.start <= restoreAt)
  t.same(lookups.filter((s) => s.status !== 200).map(describe), [], `${fault.name}: lookups answer 200 throughout (${lookupsDuring.length} during the fault, from the cache)`)
  const health = samples.filter((s) => s.kind === 'health')
  t.same(health.filter((s) => s.status !== 200 || s.ms > HEALTH_MS).map(describe), [], `${fault.name}: /health answers 200 within ${HEALTH_MS} ms throughout`)

  // Recovery: from the moment the server is back, how long until requests succeed again.
  const after = db.filter((s) => s.start >= restoreAt)
  const firstOk = after.find((s) => s.status === 200)
  const lastFailure = after.filter((s) => s.status !== 200).at(-1)
  const recoveredAt = lastFailure ? lastFailure.end - restoreAt : 0
  t.ok(firstOk !== undefined, `${fault.name}: requests succeed again after the fault`)
  t.ok(recoveredAt <= RECOVERY_MS, `${fault.name}: every request succeeds from ${ms(recoveredAt)} after the server is back (bound ${RECOVERY_MS} ms)`, { lastFailure: lastFailure && describe(lastFailure) })
  t.ok(after.filter((s) => s.start > restoreAt + RECOVERY_MS).length >= 3, `${fault.name}: load kept running after the recovery bound`)
  stillRunning(t, ctx, fault.name)

  const median = (xs: number[]): number => xs.length === 0 ? 0 : [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
  const baseline = DB_ROUTES.map((r) => `${r.method} ${r.path.split('?')[0]} ${ms(median(before.filter((s) => s.path === r.path).map((s) => s.ms)))}`).join(', ')
  t.comment([
    `${ctx.label} · ${fault.name}: before the fault, median per route: ${baseline}`,
    `  ${db.length} database requests, ${during.length} overlapping the fault (${fault.holdMs} ms): ` +
      `${during.length - failed.length} × 200, ${unavailable.length} × 503 (max ${ms(max(unavailable.map((s) => s.ms)))}), ${timedOut.length} × 504 (max ${ms(max(timedOut.map((s) => s.ms)))})`,
    `  lookups during the fault: ${lookupsDuring.length} × 200, max ${ms(max(lookupsDuring.map((s) => s.ms)))}; /health max ${ms(max(health.map((s) => s.ms)))}, p95 ${ms(p95(health.map((s) => s.ms)))}`,
    `  recovery: first success ${firstOk ? ms(firstOk.end - restoreAt) : 'never'} after the server was back, all succeed from ${ms(recoveredAt)}`
  ].join('\n'))
}

interface Context { label: string, server: RealServer, scratch: Scratch, admin: SideConnection, proxy: TcpProxy, ponte: ServerProcess, stderr: string[], exitedAt?: number }

function stillRunning (t: Test, ctx: Context, what: string): void {
  const { exitCode, signalCode } = ctx.ponte.child
  t.ok(exitCode === null && signalCode === null, `${what}: the Ponte process is still running (no restart)`,
    exitCode === null && signalCode === null ? {} : { exitCode, signalCode, stderr: ctx.stderr.join('').slice(-1500), log: ctx.ponte.lines().slice(-5) })
}

/** Ponte's connections once it has been idle a moment: at most the pool, none busy or waiting. */
async function noLeak (t: Test, ctx: Context, what: string): Promise<void> {
  let conns = await ctx.server.connections(ctx.admin, ctx.scratch.database)
  for (const until = Date.now() + 3000; Date.now() < until && (conns.length > POOL_MAX || conns.some((c) => c.busy)); await sleep(100)) {
    conns = await ctx.server.connections(ctx.admin, ctx.scratch.database)
  }
  t.ok(conns.length <= POOL_MAX, `${what}: Ponte holds ${conns.length} connection(s) to its database on the server (pool max ${POOL_MAX})`, { connections: conns.map((c) => c.detail) })
  t.same(conns.filter((c) => c.busy).map((c) => c.detail), [], `${what}: none of them busy (no statement or transaction left running)`)
  t.ok(ctx.proxy.open() <= POOL_MAX, `${what}: ${ctx.proxy.open()} socket(s) through the proxy`)
  t.comment(`${ctx.label} · ${what}: ${conns.length} server connection(s), ${ctx.proxy.open()} proxied socket(s)`)
}

async function send (ctx: Context, route: Route): Promise<Sample> {
  return await call(ctx.ponte, route, performance.now())
}

/** Polls `route` until it answers 200; the time it took, or undefined after `within`. */
async function recovers (ctx: Context, route: Route, within = RECOVERY_MS): Promise<number | undefined> {
  const started = performance.now()
  while (performance.now() - started < within + SLACK_MS) {
    const s = await send(ctx, route)
    if (s.status === 200) return performance.now() - started
    await sleep(50)
  }
  return undefined
}

export async function faultSuite (t: Test, server: RealServer): Promise<void> {
  await server.reachable()
  const scratch = await server.scratch(FIXTURE)
  t.teardown(async () => { await scratch.drop() })
  const admin = await server.side(scratch.database)
  t.teardown(async () => { await admin.close() })
  const proxy = await tcpProxy({ host: server.host, port: server.port })
  t.teardown(async () => { await proxy.close() })
  const url = urlVia(scratch.url, proxy.port, { connectTimeoutMs: CONNECT_MS, statementTimeoutMs: STATEMENT_MS, poolMax: POOL_MAX })
  const ctx: Context = { label: server.label, server, scratch, admin, proxy, ponte: undefined as unknown as ServerProcess, stderr: [] }
  t.teardown(async () => { await ctx.ponte?.stop() })
  const launch = async (): Promise<void> => {
    ctx.ponte = await startServer({ DATABASE_URL: url, MAPPING, API_KEYS: TEST_KEY, IDEMPOTENCY_STORE: ':memory:', EVENTS_STORE: ':memory:', RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'warn' })
    ctx.stderr = []
    ctx.exitedAt = undefined
    ctx.ponte.child.once('exit', () => { ctx.exitedAt = performance.now() })
    ctx.ponte.child.stderr?.on('data', (c) => { ctx.stderr.push(String(c)) })
    t.comment(`${server.label}: Ponte pid ${ctx.ponte.child.pid ?? '?'} on ${scratch.database} via proxy :${proxy.port}, connectTimeoutMs=${CONNECT_MS} statementTimeoutMs=${STATEMENT_MS} poolMax=${POOL_MAX}`)
    // The cache is filled before any fault: a lookup is then served however the server fares.
    for (const route of [...LOOKUP_ROUTES, ...DB_ROUTES]) {
      const s = await send(ctx, route)
      if (s.status !== 200) throw new Error(`${server.label}: Ponte does not serve ${route.method} ${route.path} before any fault (${s.status} ${s.text}); the driver is not ready for fault tests`)
    }
  }
  await launch()
  // A scenario that crashed Ponte has failed; the next one still gets a Ponte of its own, so
  // each fault is judged on its own (the report says which ones needed it).
  const alive = async (t: Test): Promise<void> => {
    if (ctx.ponte.child.exitCode === null && ctx.ponte.child.signalCode === null) return
    t.comment(`${server.label}: Ponte had exited in an earlier scenario; started again for this one`)
    await launch()
  }

  await t.test('server stopped mid-load (proxy refuses and resets), then back', async (t) => {
    await alive(t)
    await underLoad(t, ctx, { name: 'stopped', total: true, holdMs: 3000, begin: async () => { await proxy.stop() }, end: async () => { await proxy.start() } })
    await noLeak(t, ctx, 'after the stop')
  })

  await t.test('server silent mid-load (accepts, never answers), then back', async (t) => {
    await alive(t)
    await underLoad(t, ctx, { name: 'silent', total: true, holdMs: 4000, begin: async () => { await proxy.silent() }, end: async () => { await proxy.start() } })
    await noLeak(t, ctx, 'after the silence')
  })

  await t.test('connections killed on the server mid-load', async (t) => {
    await alive(t)
    let killed = 0
    await underLoad(t, ctx, {
      name: 'killed',
      total: false,
      holdMs: 1500,
      begin: async () => {
        killed += await server.kill(admin, scratch.database)
        for (let i = 0; i < 2; i++) { await sleep(500); killed += await server.kill(admin, scratch.database) }
      },
      end: async () => undefined
    })
    t.ok(killed > 0, `${killed} of Ponte's connections were killed`)
    t.comment(`${server.label} · killed: ${killed} connection(s) killed in three rounds 500 ms apart`)
    await noLeak(t, ctx, 'after the kills')
  })

  await t.test('a statement past the timeout (a read blocked by a table lock) → 504 within the bound', async (t) => {
    await alive(t)
    const lock = await server.lockTable(scratch.database, APPOINTMENTS_TABLE)
    let released = false
    t.teardown(async () => { if (!released) await lock.release() })
    const slow: Route = { kind: 'db', method: 'GET', path: '/appointments?start=2027-03-08&end=2027-03-12' }
    const blocked = Promise.all([send(ctx, slow), send(ctx, slow)])
    await sleep(300)
    const lookup = await send(ctx, LOOKUP_ROUTES[0])
    const health = await send(ctx, { kind: 'health', method: 'GET', path: '/health' })
    const replies = await blocked
    for (const r of replies) {
      t.equal(r.status, 504, `blocked read: 504 (${describe(r)})`)
      t.same(faultAnswerIssues(r), [], 'blocked read: our database-timeout problem')
      t.ok(r.ms >= STATEMENT_MS * 0.8 && r.ms <= STATEMENT_MS + SLACK_MS, `blocked read answered in ${ms(r.ms)} (statement timeout ${STATEMENT_MS} ms)`)
    }
    t.equal(lookup.status, 200, `a lookup meanwhile: 200 in ${ms(lookup.ms)}`)
    t.ok(health.status === 200 && health.ms < HEALTH_MS, `/health meanwhile: ${health.status} in ${ms(health.ms)}`)
    // While the lock is still held: the timed-out statements must be gone from the server,
    // not still queued behind the lock holding a pooled connection.
    await sleep(500)
    const waiting = (await server.connections(admin, scratch.database)).filter((c) => c.waitingForLock || c.busy)
    t.same(waiting.map((c) => c.detail), [], 'the timed-out statements were cancelled on the server (none still waiting for the lock)')
    await lock.release()
    released = true
    const back = await recovers(ctx, slow)
    t.ok(back !== undefined, `after the lock is released the read succeeds (${back === undefined ? 'never' : ms(back)})`)
    t.comment(`${server.label} · statement timeout: 504 after ${replies.map((r) => ms(r.ms)).join(', ')}; lookup meanwhile ${ms(lookup.ms)}; /health ${ms(health.ms)}; read succeeds ${back === undefined ? 'never' : ms(back)} after release`)
    await noLeak(t, ctx, 'after the statement timeout')
  })

  await t.test('the pool exhausted by slow statements → 503 within the acquire bound, then recovery', async (t) => {
    await alive(t)
    const lock = await server.lockTable(scratch.database, APPOINTMENTS_TABLE)
    let released = false
    t.teardown(async () => { if (!released) await lock.release() })
    const slow: Route = { kind: 'db', method: 'GET', path: '/appointments?start=2027-03-15&end=2027-03-19' }
    const other: Route = { kind: 'db', method: 'GET', path: '/clients/search?term=silva' }
    // Every pooled connection taken by a read that waits for the lock…
    const slowReplies = Promise.all(Array.from({ length: POOL_MAX }, async () => await send(ctx, slow)))
    await sleep(400)
    // …so a request on another table finds no connection.
    const starved = await Promise.all(Array.from({ length: 3 }, async () => await send(ctx, other)))
    const lookup = await send(ctx, LOOKUP_ROUTES[1])
    for (const r of starved) {
      t.equal(r.status, 503, `no free connection: 503 (${describe(r)})`)
      t.same(faultAnswerIssues(r), [], 'no free connection: our database-unavailable problem with Retry-After')
      t.ok(r.ms <= CONNECT_MS + SLACK_MS, `no free connection: answered in ${ms(r.ms)} (acquire bound ${CONNECT_MS} ms)`)
    }
    t.equal(lookup.status, 200, `a lookup meanwhile: 200 in ${ms(lookup.ms)}`)
    const slowDone = await slowReplies
    t.same(slowDone.filter((r) => r.status !== 504).map(describe), [], `the ${POOL_MAX} blocked reads: 504`)
    await lock.release()
    released = true
    const backOther = await recovers(ctx, other)
    const backSlow = await recovers(ctx, slow)
    t.ok(backOther !== undefined && backSlow !== undefined, `after release both succeed (${backOther === undefined ? 'never' : ms(backOther)}, ${backSlow === undefined ? 'never' : ms(backSlow)})`)
    t.comment(`${server.label} · pool exhausted: starved requests 503 after ${starved.map((r) => ms(r.ms)).join(', ')}; blocked reads ${slowDone.map((r) => `${r.status} ${ms(r.ms)}`).join(', ')}; recovered in ${backOther === undefined ? 'never' : ms(backOther)} / ${backSlow === undefined ? 'never' : ms(backSlow)}`)
    await noLeak(t, ctx, 'after the pool was exhausted')
  })

  await t.test('no connection left once Ponte stops', async (t) => {
    stillRunning(t, ctx, 'through the last fault')
    const start = performance.now()
    await ctx.ponte.stop()
    let left = await server.connections(admin, scratch.database)
    for (const until = Date.now() + 5000; Date.now() < until && left.length > 0; await sleep(100)) left = await server.connections(admin, scratch.database)
    t.same(left.map((c) => c.detail), [], 'the server lists no connection of Ponte\'s')
    t.equal(proxy.open(), 0, 'and no socket is open through the proxy')
    t.comment(`${server.label} · after SIGTERM: ${left.length} connection(s) left, ${ms(performance.now() - start)} to exit and close`)
  })
}
