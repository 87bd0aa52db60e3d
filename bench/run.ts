// `npm run bench`: Ponte against a hand-written route for the same schema (design notes §5:
// "Ponte stays within 10% of a hand-written route"), on Clínica Sorriso grown into a clinic
// chain (bench/grow.ts). `npm run bench -- --help` lists the options.
//
// How it measures, so that a figure can be trusted on a shared machine:
//  - each server runs in a child process of its own (bench/servers.ts); Ponte in production
//    configuration (NODE_ENV=production, logs at info, the per-key rate limit on), the baseline
//    doing the same per-request work by hand (key check, rate limit, closed query validation,
//    the same log lines);
//  - before measuring a scenario, both answer it once and their JSON must be deep-equal (any
//    difference is printed, and the scenario is marked);
//  - windows are short and interleaved, A B B A A B …, so that load from elsewhere falls on
//    both; each round gives one throughput ratio and one CPU ratio, and rounds go on until the
//    95 % confidence interval of the median ratio is within ±5 % (or the round limit, which the
//    report then says);
//  - CPU time per request is each server process's own (utime + stime from /proc/<pid>/stat,
//    over the windows in which it was loaded): far less sensitive to other processes than
//    wall-clock throughput;
//  - peak RSS is VmHWM from /proc/<pid>/status, after each scenario.
//  - with --database mysql|postgres, the same fixture in the local server (bench/server-database.ts),
//    one database per server, and the database's side of each request from its own counters
//    (rows read, buffers where the server counts them), over the same windows.
// It prints figures and writes them (JSON and Markdown); it never fails on a figure.
import { fork } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir, cpus, loadavg, totalmem } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { isDeepStrictEqual } from 'node:util'
import Database from 'better-sqlite3'
import { Command, InvalidArgumentError } from 'commander'
import { toE164 } from '../src/normalise/phone.js'
import { cachedSqlite, type GrowParams } from './grow.js'
import { quantile, type LoadJob, type LoadResult } from './load.js'
import { allowedCpus, pinToCpu, startHandWritten, startPonte, type ServerProcess } from './servers.js'
import { buildServers } from './build.js'
import { DEFAULT_SERVER_URLS, openServerDatabase, type DbCounters, type ServerDatabase, type ServerKind } from './server-database.js'
import { wireLocks, type LockSpans, type WireLocks } from './wire-locks.js'

const KEY = 'bench-key-0123456789abcdef'
const HEADERS = { authorization: `Bearer ${KEY}` }
const MAPPING = 'mappings/clinica-sorriso.yaml'

// ---------------------------------------------------------------- options
const num = (name: string, min = 0) => (v: string): number => {
  if (!/^\d+(\.\d+)?$/.test(v) || Number(v) < min) throw new InvalidArgumentError(`${name}: "${v}" is not a number ≥ ${min}`)
  return Number(v)
}
const SCENARIOS = ['W1', 'W2', 'W3', 'W4', 'W5', 'by-id']
const scenarioNames = (v: string): string => {
  const unknown = v.split(',').map((s) => s.trim()).filter((s) => !SCENARIOS.includes(s))
  if (unknown.length > 0) throw new InvalidArgumentError(`no scenario ${unknown.map((u) => `"${u}"`).join(', ')}: the names are ${SCENARIOS.join(', ')}`)
  return v
}
const DATABASES = ['sqlite', 'mysql', 'postgres']
const databaseName = (v: string): string => {
  if (!DATABASES.includes(v)) throw new InvalidArgumentError(`"${v}": the databases are ${DATABASES.join(', ')}`)
  return v
}
const cli = new Command('npm run bench --')
  .description('Ponte against the hand-written baseline, interleaved, on grown Clínica Sorriso fixtures; writes JSON and Markdown')
  .option('--quick', 'for CI: a small fixture (3,000 clients, 10,000 appointments), short windows, 3–4 rounds; checks answers, asserts nothing about speed')
  .option('--large', 'also the clinic-chain fixture (--large-clients, --large-appointments): W1, W2, W4 and by-id at that size, and the peak-RSS target')
  .option('--clients <n>', 'clients of the default fixture (W4 "10k")', num('--clients', 1), 10_000)
  .option('--appointments <n>', 'appointments of the default fixture (W1 "100k")', num('--appointments', 1), 100_000)
  .option('--large-clients <n>', 'clients of the --large fixture', num('--large-clients', 1), 1_000_000)
  .option('--large-appointments <n>', 'appointments of the --large fixture', num('--large-appointments', 1), 2_000_000)
  .option('--seed <n>', 'fixture seed', num('--seed', 1), 1)
  .option('--window <ms>', 'length of one measured window (one server, one scenario)', num('--window', 50), 1000)
  .option('--warmup <ms>', 'warm-up per server and scenario before the first window', num('--warmup', 0), 2000)
  .option('--min-requests <n>', 'lengthen a scenario\'s windows (up to 2.5 × --window) so each holds about this many requests', num('--min-requests', 0), 100)
  .option('--min-rounds <n>', 'rounds (one window per server) before the spread is judged', num('--min-rounds', 1), 5)
  .option('--max-rounds <n>', 'give up on the ±spread after this many rounds (and say so)', num('--max-rounds', 1), 15)
  .option('--spread <fraction>', 'stop when the 95 % CI of the median ratio is within ± this', num('--spread', 0), 0.05)
  .option('--connections <n>', 'concurrent keep-alive connections of the load generator', num('--connections', 1), 8)
  .option('--rate-limit <n>', 'RATE_LIMIT_PER_MINUTE for both servers (the default 600 would throttle the bench; Ponte accepts at most 1,000,000)', num('--rate-limit', 1), 1_000_000)
  .option('--pin', 'the default: both servers on the last CPU this process may use, the load generator and this process on the first (taskset), so that on a small or shared machine the scheduler cannot favour one side', true)
  .option('--no-pin', 'leave the scheduler free')
  .option('--only <names>', 'comma-separated scenario names to run (W1,W2,W3,W4,W5,by-id)', scenarioNames)
  .option('--cache <dir>', 'where grown SQLite files are kept between runs', join(tmpdir(), 'ponte-bench-cache'))
  .option('--database <name>', 'where the fixture lives: sqlite (a file per server), mysql (the local MariaDB) or postgres (the local PostgreSQL)', databaseName, 'sqlite')
  .option('--server-url <url>', 'with --database mysql|postgres: the server, as a URL an administrator connects with (default: the local test server)')
  .option('--db-prefix <name>', 'with --database mysql|postgres: the bench\'s databases are <name>_ponte and <name>_hand, dropped and created afresh, dropped at the end', 'ponte_bench')
  .option('--cpu-prof <dir>', 'each server writes a V8 CPU profile of its whole run (start-up and warm-ups included) into <dir> when it stops (node --cpu-prof)')
  .option('--out <dir>', 'where to write bench.json and bench.md (default: bench/results, or bench/results/<database> for mysql and postgres)')
  .addHelpText('after', `
Scenarios (each on every fixture unless said):
  W1     GET /appointments for the busy day (about 1,000 appointments), full nested objects
  W2     GET /appointments over 31 days, minimal=true (8 connections: eight concurrent 31-day lists)
  W3     GET /professionals?service=1, lookups from a warm cache (default fixture only)
  W4     GET /clients/search by a client's phone (10k clients; 1M with --large)
  by-id  GET /appointments/{id}: per-request overhead
  W5     POST /appointments on free slots from /availability of one professional's day, concurrently (default fixture only)
Columns: see docs/performance/README.md.`)
cli.parse(process.argv.slice(2), { from: 'user' })
const opt = cli.opts<{
  quick?: boolean,
  large?: boolean,
  clients: number,
  appointments: number,
  largeClients: number,
  largeAppointments: number,
  seed: number,
  window: number,
  warmup: number,
  minRequests: number,
  minRounds: number,
  maxRounds: number,
  spread: number,
  connections: number,
  rateLimit: number,
  only?: string,
  cache: string,
  out?: string,
  database: string,
  serverUrl?: string,
  dbPrefix: string,
  cpuProf?: string,
  pin: boolean
}>()
const serverKind = opt.database === 'sqlite' ? undefined : opt.database as ServerKind
const outDir = opt.out ?? (serverKind ? `bench/results/${serverKind}` : 'bench/results')
if (opt.quick) Object.assign(opt, { window: 300, warmup: 300, minRequests: 0, minRounds: 3, maxRounds: 4, large: false })
const only = opt.only ? new Set(opt.only.split(',').map((s) => s.trim())) : undefined

// ---------------------------------------------------------------- statistics
const median = (xs: number[]): number => { const s = [...xs].sort((a, b) => a - b); return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2 }
/** Distribution-free 95 % confidence interval of the median (binomial order statistics), as ± a fraction of it. */
function medianSpread (xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  const n = s.length
  if (n < 2) return Infinity
  const half = 1.96 * Math.sqrt(n) / 2
  const lo = s[Math.max(0, Math.floor(n / 2 - half))]!
  const hi = s[Math.min(n - 1, Math.ceil(n / 2 + half) - 1)]!
  const m = median(s)
  return Math.max(m - lo, hi - m) / m
}

/** Where two JSON values first differ, for a mismatch report. */
function difference (a: unknown, b: unknown, path = ''): string | undefined {
  if (isDeepStrictEqual(a, b)) return undefined
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return `${path || '/'}: ${JSON.stringify(a)} ≠ ${JSON.stringify(b)}`
  if (Array.isArray(a) && Array.isArray(b) && a.length !== b.length) return `${path || '/'}: ${a.length} items ≠ ${b.length} items`
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const d = difference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}/${k}`)
    if (d) return d
  }
  return `${path || '/'}: differ`
}

// ---------------------------------------------------------------- the load generator
const loader = fork(fileURLToPath(new URL('./load.ts', import.meta.url)), [], { execArgv: ['--import', 'tsx'] })
// Pinned unless --no-pin: the load generator and this process (it asks /health) on the first
// CPU allowed, the servers on the last. Unpinned on a 2-core machine, two processes of one
// build measured 0.93–1.13 of each other's CPU a request; pinned, 0.996–1.02. Done as each
// fixture's servers start, so the build and the grower before them have every CPU.
const cpuSet = opt.pin ? allowedCpus() : []
const [loadCpu, serverCpu] = [cpuSet[0] ?? 0, cpuSet[cpuSet.length - 1] ?? 0]
/** Whether every fixture's servers, the load generator and this process were pinned; undefined before the first. */
let pinned: boolean | undefined
const pin = (servers: ServerProcess[]): void => {
  if (!opt.pin) return
  const done = cpuSet.length >= 2 && pinToCpu(loader.pid!, loadCpu) && pinToCpu(process.pid, loadCpu) && servers.every((s) => pinToCpu(s.pid, serverCpu))
  if (!done && cpuSet.length >= 2) console.log('could not pin (needs Linux and taskset): these figures are unpinned')
  pinned = (pinned ?? true) && done
}
const load = async (job: LoadJob): Promise<LoadResult> => await new Promise((resolve) => {
  loader.once('message', (r) => { resolve(r as LoadResult) })
  loader.send(job)
})

// ---------------------------------------------------------------- scenarios
interface Scenario { name: string, label: string, path: string, connections?: number, bodies?: () => Promise<string[][]> }
interface Side { requests: number, failures: number, seconds: number, cpuMs: number, latencies: number[], statements: number, peakRssMb: number, health: number[], db?: DbSide, failedStatuses?: Record<string, number> }
/** The database's side over a scenario: its counters' growth and every request sent meanwhile (warm-up included). */
interface DbSide { rows: number, buffers?: number, requests: number }
interface Measured {
  fixture: string,
  scenario: string,
  label: string,
  path: string,
  items: number | string,
  sameJson: boolean,
  sameBytes: boolean,
  difference?: string,
  rounds: number,
  windowMs?: number,
  converged: boolean,
  ratio: number,
  ratioSpread: number,
  cpuRatio: number,
  cpuRatioSpread: number,
  ponte: Summary,
  hand: Summary
}
interface Summary {
  rps: number,
  p50: number,
  p99: number,
  cpuMsPerRequest: number,
  statementsPerRequest: number,
  peakRssMb: number,
  requests: number,
  failures: number,
  /** GET /health while the scenario loaded the server: p99 and slowest, ms; how many were asked. */
  health?: { p99: number, max: number, count: number }
  /** Statuses other than 200 and their counts (bookings), when there were any. */
  failedStatuses?: Record<string, number>
  /** --database mysql|postgres: rows the database read (and buffers it touched) per request. */
  db?: { rowsPerRequest: number, buffersPerRequest?: number, requests: number }
  /** W5 on mysql|postgres: how long each booking held its row locks and its claims (application locks), ms, from the wire (wire-locks.ts). */
  locks?: { row: Held, claim: Held }
}
/** Lock holds: how many, and their p50, p99 and longest, ms. */
interface Held { count: number, p50: number, p99: number, max: number }
const held = (ms: number[]): Held => {
  const sorted = [...ms].sort((a, b) => a - b)
  return { count: sorted.length, p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99), max: sorted[sorted.length - 1] ?? NaN }
}

const summary = (s: Side): Summary => {
  const sorted = [...s.latencies].sort((a, b) => a - b)
  return {
    rps: s.requests / s.seconds,
    p50: quantile(sorted, 0.5),
    p99: quantile(sorted, 0.99),
    cpuMsPerRequest: s.cpuMs / s.requests,
    statementsPerRequest: s.statements / s.requests,
    peakRssMb: s.peakRssMb,
    requests: s.requests,
    failures: s.failures,
    ...(s.health.length > 0 ? { health: healthSummary(s.health) } : {}),
    ...(s.failedStatuses && Object.keys(s.failedStatuses).length > 0 ? { failedStatuses: s.failedStatuses } : {}),
    ...(s.db ? { db: { rowsPerRequest: s.db.rows / s.db.requests, ...(s.db.buffers !== undefined ? { buffersPerRequest: s.db.buffers / s.db.requests } : {}), requests: s.db.requests } } : {})
  }
}

const healthSummary = (latencies: number[]): { p99: number, max: number, count: number } => {
  const sorted = [...latencies].sort((a, b) => a - b)
  return { p99: quantile(sorted, 0.99), max: sorted[sorted.length - 1] ?? NaN, count: sorted.length }
}

/**
 * GET /health every 20 ms from this process while a window loads the server: a statement or a
 * list must never hold the event loop (the issue: under 100 ms during W2 and W4 at 1M clients).
 */
function probeHealth (port: number): { stop: () => Promise<number[]> } {
  const latencies: number[] = []
  let running = true
  const loop = (async () => {
    while (running) {
      const t0 = performance.now()
      try {
        const res = await fetch(`http://127.0.0.1:${port}/health`)
        await res.arrayBuffer()
        latencies.push(res.status === 200 ? performance.now() - t0 : Infinity)
      } catch {
        latencies.push(Infinity)
      }
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  })()
  return { stop: async () => { running = false; await loop; return latencies } }
}

async function answer (server: ServerProcess, path: string): Promise<{ status: number, text: string, body: unknown }> {
  const res = await fetch(`http://127.0.0.1:${server.port}${path}`, { headers: HEADERS })
  const text = await res.text()
  let body: unknown
  try { body = JSON.parse(text) } catch { body = text }
  return { status: res.status, text, body }
}

function printMeasured (m: Measured): void {
  const pct = (x: number): string => Number.isFinite(x) ? `±${(x * 100).toFixed(1)} %` : '±?'
  console.log(`    ratio ${m.ratio.toFixed(2)} ${pct(m.ratioSpread)} over ${m.rounds} rounds${m.converged ? '' : ` (could not get within ±${opt.spread * 100} % in ${opt.maxRounds} rounds)`}; ` +
    `CPU ms/req Ponte ${m.ponte.cpuMsPerRequest.toFixed(3)} hand ${m.hand.cpuMsPerRequest.toFixed(3)} (ratio ${m.cpuRatio.toFixed(2)} ${pct(m.cpuRatioSpread)}); ` +
    `p50 ${m.ponte.p50.toFixed(2)}/${m.hand.p50.toFixed(2)} ms, p99 ${m.ponte.p99.toFixed(2)}/${m.hand.p99.toFixed(2)} ms; SQL/req ${m.ponte.statementsPerRequest.toFixed(2)}/${m.hand.statementsPerRequest.toFixed(2)}; ` +
    `peak RSS ${m.ponte.peakRssMb.toFixed(0)}/${m.hand.peakRssMb.toFixed(0)} MB` +
    `${m.ponte.db && m.hand.db ? `; DB rows/req ${m.ponte.db.rowsPerRequest.toFixed(1)}/${m.hand.db.rowsPerRequest.toFixed(1)} (ratio ${(m.ponte.db.rowsPerRequest / m.hand.db.rowsPerRequest).toFixed(2)})` : ''}` +
    `${m.ponte.db?.buffersPerRequest !== undefined && m.hand.db?.buffersPerRequest !== undefined ? `, buffers/req ${m.ponte.db.buffersPerRequest.toFixed(1)}/${m.hand.db.buffersPerRequest.toFixed(1)} (ratio ${(m.ponte.db.buffersPerRequest / m.hand.db.buffersPerRequest).toFixed(2)})` : ''}` +
    `${m.ponte.health ? `; Ponte /health p99 ${m.ponte.health.p99.toFixed(1)} ms, slowest ${m.ponte.health.max.toFixed(1)} ms of ${m.ponte.health.count}` : ''}` +
    `${m.hand.health ? ` (hand ${m.hand.health.p99.toFixed(1)}, ${m.hand.health.max.toFixed(1)} ms)` : ''}${m.ponte.failures + m.hand.failures > 0 ? `; FAILURES ${m.ponte.failures}/${m.hand.failures}${m.ponte.failedStatuses || m.hand.failedStatuses ? ` (statuses ${JSON.stringify(m.ponte.failedStatuses ?? {})}/${JSON.stringify(m.hand.failedStatuses ?? {})})` : ''}` : ''}`)
}

// ---------------------------------------------------------------- the database's side (--database mysql|postgres)
let serverDb: ServerDatabase | undefined
/** The last reading of both databases' counters, taken once the load had stopped: where the next scenario starts from. */
let lastReading: Record<string, DbCounters> | undefined
/** What the counters count (kept for the report after the databases are dropped). */
let dbCounters: string | undefined
/** Drops the bench's databases (once, whatever failed). */
async function closeServerDb (): Promise<void> {
  const db = serverDb
  serverDb = undefined
  await db?.close()
}
const DATABASE_LABEL: Record<string, string> = { sqlite: 'SQLite', mysql: 'MariaDB', postgres: 'PostgreSQL' }
async function readDatabases (): Promise<Record<string, DbCounters> | undefined> {
  if (!serverDb) return undefined
  await new Promise((resolve) => setTimeout(resolve, serverDb!.settleMs))
  return { ponte: await serverDb.read('ponte'), hand: await serverDb.read('hand') }
}
/** Each side's growth of its database's counters between two readings, over the requests sent in between. */
function databaseSides (before: Record<string, DbCounters> | undefined, after: Record<string, DbCounters> | undefined, sent: Record<string, number>, sides: Record<string, Side>): void {
  if (!before || !after) return
  for (const name of Object.keys(sides)) {
    const [b, a] = [before[name]!, after[name]!]
    sides[name]!.db = { rows: a.rows - b.rows, ...(a.buffers !== undefined && b.buffers !== undefined ? { buffers: a.buffers - b.buffers } : {}), requests: sent[name]! }
  }
}

async function measureScenario (fixture: string, sc: Scenario, servers: ServerProcess[]): Promise<Measured> {
  const [ponte, hand] = servers as [ServerProcess, ServerProcess]
  // Every request from here to the closing reading counts for the database's side (warm-up included: its reads are in the counters too).
  const db0 = lastReading ?? await readDatabases()
  const sent: Record<string, number> = { ponte: 1, hand: 1 }
  const [a, b] = [await answer(ponte, sc.path), await answer(hand, sc.path)]
  const diff = a.status !== 200 || b.status !== 200 ? `status ${a.status} / ${b.status}` : difference(a.body, b.body)
  const items = Array.isArray(a.body) ? a.body.length : 'one object'
  console.log(`  ${diff === undefined ? 'same JSON' : 'DIFFERENT'}  ${sc.name} ${sc.label} (${items}${typeof items === 'number' ? ' items' : ''})${diff ? `: ${diff}` : ''}${diff === undefined && a.text !== b.text ? ' (same values, other key order or spacing)' : ''}`)
  const connections = sc.connections ?? opt.connections
  const sides: Record<string, Side> = {}
  for (const s of servers) sides[s.name] = { requests: 0, failures: 0, seconds: 0, cpuMs: 0, latencies: [], statements: 0, peakRssMb: 0, health: [] }
  const window = async (s: ServerProcess, ms: number, record: boolean): Promise<{ rps: number, cpuPerRequest: number }> => {
    // Statement counts are read outside the CPU span: reading Ponte's /metrics costs it CPU.
    const st0 = record ? await s.statements() : 0
    const cpu0 = s.cpuMs()
    const t0 = performance.now()
    // Both servers are asked alike: each probe is work that lands in the window's CPU time.
    const health = record ? probeHealth(s.port) : undefined
    const r = await load({ port: s.port, path: sc.path, headers: HEADERS, connections, durationMs: ms })
    sent[s.name]! += r.requests + r.failures
    const seconds = (performance.now() - t0) / 1000
    const cpu = s.cpuMs() - cpu0
    const healthLatencies = await health?.stop() ?? []
    if (record) {
      const side = sides[s.name]!
      for (const l of healthLatencies) side.health.push(l)
      side.statements += await s.statements() - st0
      side.requests += r.requests; side.failures += r.failures; side.seconds += seconds; side.cpuMs += cpu
      for (const l of r.latencies) side.latencies.push(l)
    }
    return { rps: r.requests / seconds, cpuPerRequest: cpu / Math.max(1, r.requests) }
  }
  let slowest = Infinity
  for (const s of servers) slowest = Math.min(slowest, (await window(s, opt.warmup, false)).rps)
  const windowMs = Math.round(Math.min(2.5 * opt.window, Math.max(opt.window, 1000 * opt.minRequests / slowest)))
  const ratios: number[] = []
  const cpuRatios: number[] = []
  let converged = false
  for (let round = 0; round < opt.maxRounds; round++) {
    // A B, then B A: whoever a drift in the machine's load favours, it favours both in turn.
    const order = round % 2 === 0 ? [ponte, hand] : [hand, ponte]
    const got: Record<string, { rps: number, cpuPerRequest: number }> = {}
    for (const s of order) got[s.name] = await window(s, windowMs, true)
    ratios.push(got.ponte!.rps / got.hand!.rps)
    // CPU per request is 10 ms-granular per window: a ratio only from windows long enough to tell.
    if (got.ponte!.cpuPerRequest > 0 && got.hand!.cpuPerRequest > 0) cpuRatios.push(got.hand!.cpuPerRequest / got.ponte!.cpuPerRequest)
    if (ratios.length >= opt.minRounds && medianSpread(ratios) <= opt.spread) { converged = true; break }
  }
  for (const s of servers) sides[s.name]!.peakRssMb = s.peakRssMb()
  lastReading = await readDatabases()
  databaseSides(db0, lastReading, sent, sides)
  const m: Measured = {
    fixture,
    scenario: sc.name,
    label: sc.label,
    path: sc.path,
    items,
    sameJson: diff === undefined,
    sameBytes: a.text === b.text,
    ...(diff ? { difference: diff } : {}),
    rounds: ratios.length,
    windowMs,
    converged,
    ratio: median(ratios),
    ratioSpread: medianSpread(ratios),
    cpuRatio: median(cpuRatios),
    cpuRatioSpread: medianSpread(cpuRatios),
    ponte: summary(sides.ponte!),
    hand: summary(sides.hand!)
  }
  printMeasured(m)
  return m
}

// ---------------------------------------------------------------- W5: bookings
const BOOKED_COLUMNS = 'DATA, HORA, DURACAO, ID_PACIENTE, ID_PROFISSIONAL, ID_HIGIENISTA, ID_PROCEDIMENTO, ID_CONVENIO, PLANO, ID_SALA, FL_HIGIENE, ' +
  'TIPO_ATEND, EXCLUIDO, USUARIO, SITUACAO, CONFIRMADO, DT_CONFIRMACAO, USUARIO_ALT, DT_CADASTRO IS NOT NULL AS CADASTRO, DT_ALTERACAO IS NOT NULL AS ALTERACAO'
interface Slot { date: string, hour: string, professional: { id: string }, location?: { id: string } }

/**
 * Rounds of concurrent bookings: each round takes one future day, the professional with the
 * most free slots that day (GET /availability from Ponte: both copies have booked the same
 * slots so far), and books every one of them for distinct clients, on each server in turn.
 * Afterwards the rows both wrote must be the same (ids and timestamps aside).
 */
async function measureBookings (fixture: string, servers: ServerProcess[], files: { ponte: string, hand: string }, clientIds: number[], relays?: Record<'ponte' | 'hand', WireLocks>): Promise<Measured> {
  const [ponte, hand] = servers as [ServerProcess, ServerProcess]
  const maxId = async (side: 'ponte' | 'hand'): Promise<number> => {
    if (serverDb) return await serverDb.maxAppointmentId(side)
    const db = new Database(files[side], { readonly: true })
    try { return (db.prepare('SELECT MAX(ID_AGENDA) m FROM AGENDA').get() as { m: number }).m } finally { db.close() }
  }
  const before = { ponte: await maxId('ponte'), hand: await maxId('hand') }
  let nextClient = 0
  let day = '2026-12-01'
  const nextDay = (d: string): string => new Date(Date.parse(`${d}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)
  const bodiesForADay = async (): Promise<string[]> => {
    for (let tries = 0; tries < 30; tries++) {
      day = nextDay(day)
      const res = await fetch(`http://127.0.0.1:${ponte.port}/availability?start=${day}&end=${day}`, { headers: HEADERS })
      if (res.status !== 200) throw new Error(`GET /availability: ${res.status} ${await res.text()}`)
      const slots = await res.json() as Slot[]
      const byProf = new Map<string, Slot[]>()
      for (const s of slots) if (s.location) byProf.set(s.professional.id, [...(byProf.get(s.professional.id) ?? []), s])
      const best = [...byProf.values()].sort((a, b) => b.length - a.length)[0]
      if (best && best.length >= 4) {
        return best.map((s) => JSON.stringify({ date: s.date, hour: s.hour, client: String(clientIds[nextClient++ % clientIds.length]), professional: s.professional.id, location: s.location!.id }))
      }
    }
    throw new Error('no day with free slots found for W5')
  }
  // Same answer from both for the first booking, made one at a time.
  const [first] = await bodiesForADay()
  const post = async (s: ServerProcess): Promise<{ status: number, text: string, body: unknown }> => {
    const res = await fetch(`http://127.0.0.1:${s.port}/appointments`, { method: 'POST', headers: { ...HEADERS, 'content-type': 'application/json' }, body: first })
    const text = await res.text()
    return { status: res.status, text, body: JSON.parse(text) as unknown }
  }
  const [a, b] = [await post(ponte), await post(hand)]
  let diff = a.status !== 200 || b.status !== 200 ? `status ${a.status} / ${b.status}: ${a.text.slice(0, 200)} / ${b.text.slice(0, 200)}` : difference(a.body, b.body)
  console.log(`  ${diff === undefined ? 'same JSON' : 'DIFFERENT'}  W5 bookings, first booking${diff ? `: ${diff}` : ''}`)
  const sides: Record<string, Side> = {}
  for (const s of servers) sides[s.name] = { requests: 0, failures: 0, seconds: 0, cpuMs: 0, latencies: [], statements: 0, peakRssMb: 0, health: [] }
  const ratios: number[] = []
  const cpuRatios: number[] = []
  let converged = false
  const spans: Record<string, LockSpans> = { ponte: { row: [], claim: [] }, hand: { row: [], claim: [] } }
  for (let round = 0; round < opt.maxRounds; round++) {
    const bodies = await bodiesForADay()
    const order = round % 2 === 0 ? [ponte, hand] : [hand, ponte]
    const got: Record<string, { rps: number, cpu: number }> = {}
    for (const s of order) {
      const st0 = await s.statements()
      relays?.[s.name].take()
      const cpu0 = s.cpuMs()
      const t0 = performance.now()
      const r = await load({ port: s.port, path: '/appointments', headers: HEADERS, connections: opt.connections, durationMs: 0, bodies })
      const seconds = (performance.now() - t0) / 1000
      const cpu = s.cpuMs() - cpu0
      const locked = relays?.[s.name].take()
      if (locked) for (const k of ['row', 'claim'] as const) spans[s.name]![k].push(...locked[k])
      const side = sides[s.name]!
      side.statements += await s.statements() - st0
      side.requests += r.requests; side.failures += r.failures; side.seconds += seconds; side.cpuMs += cpu
      for (const l of r.latencies) side.latencies.push(l)
      for (const [status, n] of Object.entries(r.statuses)) if (status !== '200') (side.failedStatuses ??= {})[status] = (side.failedStatuses[status] ?? 0) + n
      got[s.name] = { rps: r.requests / seconds, cpu }
    }
    ratios.push(got.ponte!.rps / got.hand!.rps)
    if (got.ponte!.cpu > 0 && got.hand!.cpu > 0) cpuRatios.push(got.hand!.cpu / got.ponte!.cpu)
    if (ratios.length >= opt.minRounds && medianSpread(ratios) <= opt.spread) { converged = true; break }
  }
  for (const s of servers) sides[s.name]!.peakRssMb = s.peakRssMb()
  // The legacy rows: what each wrote, ids and timestamps aside, in slot order.
  const written = async (side: 'ponte' | 'hand', after: number): Promise<unknown[]> => {
    if (serverDb) return await serverDb.booked(side, after)
    const db = new Database(files[side], { readonly: true })
    try { return db.prepare(`SELECT ${BOOKED_COLUMNS} FROM AGENDA WHERE ID_AGENDA > ? ORDER BY DATA, HORA, ID_PROFISSIONAL, ID_PACIENTE`).all(after) } finally { db.close() }
  }
  const rows = { ponte: await written('ponte', before.ponte), hand: await written('hand', before.hand) }
  const rowDiff = difference(rows.ponte, rows.hand)
  if (rowDiff) console.log(`  DIFFERENT  W5 legacy rows written: ${rowDiff}`)
  else console.log(`  same rows  W5: ${rows.ponte.length} AGENDA rows written alike by both`)
  diff ??= rowDiff === undefined ? undefined : `rows: ${rowDiff}`
  const m: Measured = {
    fixture,
    scenario: 'W5',
    label: 'concurrent bookings on one professional\'s day',
    path: 'POST /appointments',
    items: `${rows.ponte.length} rows`,
    sameJson: diff === undefined,
    sameBytes: a.text === b.text,
    ...(diff ? { difference: diff } : {}),
    rounds: ratios.length,
    converged,
    ratio: median(ratios),
    ratioSpread: medianSpread(ratios),
    cpuRatio: median(cpuRatios),
    cpuRatioSpread: medianSpread(cpuRatios),
    ponte: { ...summary(sides.ponte!), ...relays ? { locks: { row: held(spans.ponte!.row), claim: held(spans.ponte!.claim) } } : {} },
    hand: { ...summary(sides.hand!), ...relays ? { locks: { row: held(spans.hand!.row), claim: held(spans.hand!.claim) } } : {} }
  }
  printMeasured(m)
  if (relays) console.log(`  W5 locks held, ms p50/p99 (count): row Ponte ${lockText(m.ponte.locks!.row)}, hand ${lockText(m.hand.locks!.row)}; claims Ponte ${lockText(m.ponte.locks!.claim)}, hand ${lockText(m.hand.locks!.claim)}`)
  return m
}
const lockText = (h: Held): string => h.count === 0 ? '–' : `${h.p50.toFixed(2)}/${h.p99.toFixed(2)} (${h.count})`

// ---------------------------------------------------------------- fixtures
interface FixtureRun { name: string, params: GrowParams, scenarios: (file: string, facts: Record<string, unknown>) => Scenario[], bookings: boolean }
const W3: Scenario = { name: 'W3', label: 'professionals?service=1 (warm cache)', path: '/professionals?service=1' }
const perFixture = (label: string, withDefaultOnly: boolean) => (file: string, facts: Record<string, unknown>): Scenario[] => {
  const db = new Database(file, { readonly: true, fileMustExist: true })
  try {
    const busy = (facts.busyDay as { day: string }).day
    const byId = db.prepare("SELECT ID_AGENDA id FROM AGENDA WHERE DATA = ? AND EXCLUIDO <> 'S' AND ID_PACIENTE IS NOT NULL ORDER BY ID_AGENDA LIMIT 1 OFFSET 10").get(busy) as { id: number }
    // The newest client with a mobile in the commonest mask: a grown row when the fixture is grown.
    const phone = db.prepare("SELECT CELULAR p FROM PACIENTE WHERE TIPO = 'P' AND DT_EXCLUSAO IS NULL AND CELULAR LIKE '(11) 9%' ORDER BY ID_PACIENTE DESC LIMIT 1").get() as { p: string }
    const term = toE164(phone.p, { defaultCountry: 'BR', defaultAreaCode: '11' })!
    const list: Scenario[] = [
      { name: 'W1', label: `busy day ${busy}, nested`, path: `/appointments?start=${busy}&end=${busy}` },
      { name: 'W2', label: '31 days, minimal', path: '/appointments?start=2026-11-01&end=2026-12-01&minimal=true' },
      ...(withDefaultOnly ? [W3] : []),
      { name: 'W4', label: `phone search, ${label} clients`, path: `/clients/search?term=${encodeURIComponent(term)}` },
      { name: 'by-id', label: 'GET /appointments/{id}', path: `/appointments/${byId.id}` }
    ]
    return list.filter((s) => only === undefined || only.has(s.name))
  } finally {
    db.close()
  }
}
const short = (n: number): string => n >= 1e6 ? `${n / 1e6}M` : n >= 1e3 ? `${n / 1e3}k` : String(n)
const fixtures: FixtureRun[] = opt.quick
  ? [{ name: 'quick', params: { sample: 'clinica-sorriso', clients: 3000, appointments: 10_000, professionals: 20, busyDayAppointments: 100, seed: opt.seed }, scenarios: perFixture('3k', true), bookings: true }]
  : [
      { name: `${short(opt.clients)} clients / ${short(opt.appointments)} appts`, params: { sample: 'clinica-sorriso', clients: opt.clients, appointments: opt.appointments, seed: opt.seed }, scenarios: perFixture(short(opt.clients), true), bookings: true },
      ...(opt.large ? [{ name: `${short(opt.largeClients)} clients / ${short(opt.largeAppointments)} appts`, params: { sample: 'clinica-sorriso', clients: opt.largeClients, appointments: opt.largeAppointments, seed: opt.seed }, scenarios: perFixture(short(opt.largeClients), false), bookings: false }] : [])
    ]

// ---------------------------------------------------------------- run
const POLL_SECONDS = 3600
/**
 * The sample mapping with its change poll (a 92-day range read every 30 s, docs/operations.md)
 * once an hour, on every database: Ponte's CPU, memory and the database's counters then hold
 * the requests' work, not a poll that lands in one scenario and not another (on the 1M-client
 * fixture a pass reads ~200,000 appointments and runs longer than the 30 s between passes).
 */
function quietPollMapping (dir: string): string {
  const text = readFileSync(MAPPING, 'utf8')
  const quiet = text.replace(/^(\s+pollSeconds:) 30$/m, `$1 ${POLL_SECONDS}`)
  if (quiet === text) throw new Error(`${MAPPING}: no "pollSeconds: 30" to slow down for the database's counters`)
  // Beside the sample, so that its relative $schema still resolves.
  const file = join(dir, 'clinica-sorriso.bench.yaml')
  writeFileSync(file, quiet.replace(/^\$schema: \.\.\//m, `$schema: ${resolve('.')}/`))
  return file
}
/**
 * Waits for Ponte's change detection to finish its start-up passes: a fresh events store is
 * primed before the server listens, and the first poll starts as it listens; the next is an
 * hour away (quietPollMapping). Seconds waited, or undefined where the mapping polls nothing.
 */
async function startUpPolls (ponte: ServerProcess, timeoutMs = 30 * 60_000): Promise<number | undefined> {
  const t0 = Date.now()
  for (;;) {
    const ready = await (await fetch(`http://127.0.0.1:${ponte.port}/ready`)).json() as { changes?: { polls: number } }
    if (ready.changes === undefined) return undefined
    if (ready.changes.polls >= 2) return (Date.now() - t0) / 1000
    if (Date.now() - t0 > timeoutMs) throw new Error(`Ponte's start-up change-detection passes did not end within ${timeoutMs / 60_000} min`)
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
}
const started = Date.now()
const scratch = mkdtempSync(join(tmpdir(), 'ponte-bench-'))
const results: Measured[] = []
const fixtureInfo: Record<string, unknown>[] = []
const peaks: Record<string, { ponte: number, hand: number }> = {}
console.log(`Ponte vs hand-written on ${DATABASE_LABEL[opt.database]}, ${cpus().length} cores, load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}; windows ${opt.window} ms, ${opt.connections} connections, rounds ${opt.minRounds}–${opt.maxRounds} until ±${opt.spread * 100} %`)
try {
  await buildServers()
  for (const fx of fixtures) {
    const t0 = Date.now()
    const grown = await cachedSqlite(fx.params, opt.cache, (line) => { process.stderr.write(`  ${line}\n`) })
    const growSeconds = (Date.now() - t0) / 1000
    console.log(`\nFixture ${fx.name}: ${grown.cached ? 'cached' : `grown in ${growSeconds.toFixed(1)} s`} (${grown.file})`)
    fixtureInfo.push({ name: fx.name, params: fx.params, file: grown.file, cached: grown.cached, growSeconds, facts: grown.facts })
    const files = { ponte: join(scratch, 'ponte.sqlite'), hand: join(scratch, 'hand.sqlite') }
    // The SQLite file is grown either way: the scenarios' ids and terms are read from it (same seed, same rows).
    if (serverKind) {
      serverDb = await openServerDatabase(serverKind, opt.serverUrl ?? DEFAULT_SERVER_URLS[serverKind], opt.dbPrefix, fx.params, (line) => { process.stderr.write(`  ${line}\n`) })
      dbCounters = serverDb.counters
    } else {
      copyFileSync(grown.file, files.ponte)
      copyFileSync(grown.file, files.hand)
    }
    const database = (side: 'ponte' | 'hand'): { file: string } | { url: string } => serverDb ? { url: serverDb.url(side) } : { file: files[side] }
    const common = { mapping: quietPollMapping(scratch), key: KEY, scratch, rateLimitPerMinute: opt.rateLimit, cpuProfDir: opt.cpuProf }
    lastReading = undefined
    let servers: ServerProcess[] = []
    let relays: Record<'ponte' | 'hand', WireLocks> | undefined
    const start = async (): Promise<void> => {
      const url = (side: 'ponte' | 'hand'): { file: string } | { url: string } => relays ? { url: relays[side].url } : database(side)
      servers = [await startPonte({ ...common, database: url('ponte') }), await startHandWritten({ ...common, database: url('hand') })]
      pin(servers)
      const polled = await startUpPolls(servers[0]!)
      if (polled !== undefined) console.log(`  Ponte's start-up change-detection passes (priming, then the first poll) ended ${polled.toFixed(1)} s after it answered /health; measured from here`)
    }
    const scenarios = fx.scenarios(grown.file, grown.facts)
    const bookings = fx.bookings && (only === undefined || only.has('W5'))
    try {
      // On a server database W5's servers reach it through relays that time each booking's locks
      // (wire-locks.ts): started afresh for W5, so that no other scenario's round trips take the extra hop.
      const w5Relays = async (): Promise<void> => {
        if (!serverDb || !serverKind) return
        relays = { ponte: await wireLocks(serverKind, serverDb.url('ponte')), hand: await wireLocks(serverKind, serverDb.url('hand')) }
      }
      const viaRelays = bookings && serverDb !== undefined
      if (scenarios.length > 0 || !viaRelays) await start()
      for (const sc of scenarios) results.push(await measureScenario(fx.name, sc, servers))
      if (bookings) {
        if (viaRelays) {
          if (servers.length > 0) peaks[fx.name] = { ponte: servers[0]!.peakRssMb(), hand: servers[1]!.peakRssMb() }
          for (const s of servers) await s.stop()
          await w5Relays()
          await start()
        }
        const db = new Database(grown.file, { readonly: true })
        const clientIds = (db.prepare("SELECT ID_PACIENTE id FROM PACIENTE WHERE TIPO = 'P' AND DT_EXCLUSAO IS NULL ORDER BY ID_PACIENTE DESC LIMIT 5000").all() as { id: number }[]).map((r) => r.id)
        db.close()
        results.push(await measureBookings(fx.name, servers, files, clientIds, relays))
      }
      const earlier = peaks[fx.name]
      peaks[fx.name] = { ponte: Math.max(earlier?.ponte ?? 0, servers[0]!.peakRssMb()), hand: Math.max(earlier?.hand ?? 0, servers[1]!.peakRssMb()) }
    } finally {
      for (const s of servers) await s.stop()
      for (const r of Object.values(relays ?? {})) await r.close()
      for (const f of Object.values(files)) rmSync(f, { force: true })
      await closeServerDb()
    }
  }
} finally {
  await closeServerDb()
  loader.kill()
  rmSync(scratch, { recursive: true, force: true })
}

// ---------------------------------------------------------------- report
const f2 = (x: number): string => Number.isFinite(x) ? x.toFixed(2) : '–'
const f3 = (x: number): string => Number.isFinite(x) ? x.toFixed(3) : '–'
const spreadText = (x: number): string => Number.isFinite(x) ? `±${(x * 100).toFixed(0)} %` : '±?'
const f1 = (x: number | undefined): string => x !== undefined && Number.isFinite(x) ? x.toFixed(1) : '–'
/** Ponte's per-request figure over the baseline's. */
const dbRatio = (m: Measured, k: 'rowsPerRequest' | 'buffersPerRequest'): number => {
  const [p, h] = [m.ponte.db?.[k] ?? NaN, m.hand.db?.[k] ?? NaN]
  return p === 0 && h === 0 ? 1 : p / h // W3 reads nothing on either side: the same work
}
const DB_HEADER = ['DB rows/req Ponte', 'DB rows/req hand', 'DB rows ratio', 'DB buffers/req Ponte', 'DB buffers/req hand', 'DB buffers ratio']
const databaseCells = (m: Measured): string[] => [f1(m.ponte.db?.rowsPerRequest), f1(m.hand.db?.rowsPerRequest), f2(dbRatio(m, 'rowsPerRequest')),
  f1(m.ponte.db?.buffersPerRequest), f1(m.hand.db?.buffersPerRequest), f2(dbRatio(m, 'buffersPerRequest'))]
const header = ['fixture', 'scenario', 'items', 'same JSON', 'Ponte/hand req/s', 'rounds', 'CPU ratio', 'CPU ms/req Ponte', 'CPU ms/req hand',
  'window ms', 'p50 Ponte', 'p50 hand', 'p99 Ponte', 'p99 hand', 'SQL/req Ponte', 'SQL/req hand', 'peak RSS Ponte', 'peak RSS hand', 'Ponte /health slowest', 'hand /health slowest',
  ...(serverKind ? DB_HEADER : [])]
const rows = results.map((m) => [m.fixture, `${m.scenario} ${m.label}`, String(m.items), m.sameJson ? (m.sameBytes ? 'yes (bytes)' : 'yes') : 'NO',
  `${f2(m.ratio)} ${spreadText(m.ratioSpread)}${m.converged ? '' : ' ✗'}`, String(m.rounds), `${f2(m.cpuRatio)} ${spreadText(m.cpuRatioSpread)}`,
  f3(m.ponte.cpuMsPerRequest), f3(m.hand.cpuMsPerRequest), m.windowMs === undefined ? 'batch' : String(m.windowMs), f2(m.ponte.p50), f2(m.hand.p50), f2(m.ponte.p99), f2(m.hand.p99),
  f2(m.ponte.statementsPerRequest), f2(m.hand.statementsPerRequest), `${m.ponte.peakRssMb.toFixed(0)} MB`, `${m.hand.peakRssMb.toFixed(0)} MB`,
  m.ponte.health ? `${f2(m.ponte.health.max)} ms` : '–', m.hand.health ? `${f2(m.hand.health.max)} ms` : '–',
  ...(serverKind ? databaseCells(m) : [])])

/** W5's locks as the database saw them (--database mysql|postgres): one row per side. */
function lockTable (): string[] {
  const w5 = results.filter((m) => m.ponte.locks && m.hand.locks)
  if (w5.length === 0) return []
  const cells = (h: Held): string[] => h.count === 0 ? ['–', '–', '–'] : [f2(h.p50), f2(h.p99), f2(h.max)]
  return ['', 'W5 locks held per booking, ms, timed on the wire between each server and its database (bench/wire-locks.ts): row locks from the answer to the transaction\'s first locking statement to the answer to its COMMIT; claims (Ponte\'s application locks) from the first taken to the release sent.', '',
    '| fixture | server | SQL/booking | row locks p50 | row locks p99 | row locks max | claims p50 | claims p99 | claims max |', '|---|---|--:|--:|--:|--:|--:|--:|--:|',
    ...w5.flatMap((m) => (['ponte', 'hand'] as const).map((side) => `| ${m.fixture} | ${side === 'ponte' ? 'Ponte' : 'hand'} | ${f2(m[side].statementsPerRequest)} | ${[...cells(m[side].locks!.row), ...cells(m[side].locks!.claim)].join(' | ')} |`))]
}
const find = (fixture: number, scenario: string): Measured | undefined => results.find((m) => m.fixture === fixtures[fixture]?.name && m.scenario === scenario)
const targets: { target: string, figure: string, met: boolean | null }[] = []
// Judged on CPU per request (hand ÷ Ponte): the issue's "0.9× the requests/s, equivalently at
// most 1.1× the CPU per request". Throughput on a shared machine rarely settles within ±5 %;
// CPU time per request does, and is what a clinic's server pays. W2 and by-id may go lower
// since every SQLite read takes the worker thread's round trip (issue 26).
// On MariaDB and PostgreSQL (issue 29): 0.9 for W1–W4 and by-id.
const FLOOR: Record<string, number> = serverKind ? { W1: 0.9, W2: 0.9, W3: 0.9, W4: 0.9, 'by-id': 0.9 } : { W1: 0.9, W2: 0.85, W3: 0.9, 'by-id': 0.8 }
for (const [s, floor] of Object.entries(FLOOR)) {
  for (const m of results.filter((x) => x.scenario === s)) {
    targets.push({ target: `${s} CPU ratio ≥ ${floor} (${m.fixture}; req/s ratio in brackets)`, figure: `${f2(m.cpuRatio)} ${spreadText(m.cpuRatioSpread)} (${f2(m.ratio)} ${spreadText(m.ratioSpread)})`, met: m.cpuRatio >= floor })
  }
}
// The database's work a request: what the hand-written statement reads is the practical limit (issue 29: ≤ 1.05×).
for (const m of results.filter((x) => x.ponte.db && x.hand.db)) {
  targets.push({ target: `${m.scenario} DB rows read per request ≤ 1.05× the baseline's (${m.fixture})`, figure: `${f1(m.ponte.db!.rowsPerRequest)} / ${f1(m.hand.db!.rowsPerRequest)} = ${f2(dbRatio(m, 'rowsPerRequest'))}×`, met: dbRatio(m, 'rowsPerRequest') <= 1.05 })
  if (m.ponte.db!.buffersPerRequest !== undefined) targets.push({ target: `${m.scenario} DB buffers per request ≤ 1.05× the baseline's (${m.fixture})`, figure: `${f1(m.ponte.db!.buffersPerRequest)} / ${f1(m.hand.db!.buffersPerRequest)} = ${f2(dbRatio(m, 'buffersPerRequest'))}×`, met: dbRatio(m, 'buffersPerRequest') <= 1.05 })
}
for (const m of results.filter((x) => (x.scenario === 'W2' || x.scenario === 'W4') && x.ponte.health)) {
  targets.push({ target: `/health < 100 ms during ${m.scenario} (${m.fixture}; slowest of ${m.ponte.health!.count})`, figure: `${f2(m.ponte.health!.max)} ms`, met: m.ponte.health!.max < 100 })
}
// Bookings hold their locks no longer than the baseline's (issue 29): the row locks, p50 and p99.
for (const m of results.filter((x) => x.ponte.locks && x.hand.locks && x.hand.locks.row.count > 0)) {
  const [p, h] = [m.ponte.locks!.row, m.hand.locks!.row]
  targets.push({ target: `W5 row locks held no longer than the baseline's, p50 and p99 (${m.fixture}; ms, Ponte / hand)`, figure: `${f2(p.p50)} / ${f2(h.p50)}, ${f2(p.p99)} / ${f2(h.p99)}`, met: p.p50 <= h.p50 && p.p99 <= h.p99 })
}
const w4small = find(0, 'W4')
const w4large = find(1, 'W4')
if (w4large) {
  targets.push({ target: 'W4 p99 < 10 ms at the large size', figure: `${f2(w4large.ponte.p99)} ms`, met: w4large.ponte.p99 < 10 })
  if (w4small) targets.push({ target: 'W4 p99 at the large size ≤ 2× the default size\'s', figure: `${f2(w4large.ponte.p99)} / ${f2(w4small.ponte.p99)} ms = ${f2(w4large.ponte.p99 / w4small.ponte.p99)}×`, met: w4large.ponte.p99 <= 2 * w4small.ponte.p99 })
}
const w1small = find(0, 'W1')
const w1large = find(1, 'W1')
// CPU time per request, not latency: on a loaded machine p50 mostly measures the queue.
if (w1small && w1large) targets.push({ target: 'W1 on the large fixture within 1.5× of the default one (Ponte CPU ms/req; p50 in brackets)', figure: `${f2(w1large.ponte.cpuMsPerRequest)} / ${f2(w1small.ponte.cpuMsPerRequest)} ms = ${f2(w1large.ponte.cpuMsPerRequest / w1small.ponte.cpuMsPerRequest)}× (p50 ${f2(w1large.ponte.p50 / w1small.ponte.p50)}×)`, met: w1large.ponte.cpuMsPerRequest <= 1.5 * w1small.ponte.cpuMsPerRequest })
// Judged only when the run held W2's eight concurrent 31-day lists, the peak the target is about.
if (fixtures[1] && peaks[fixtures[1].name] && find(1, 'W2')) targets.push({ target: 'Ponte peak RSS < 250 MB on the large fixture (whole run, W2 = eight concurrent 31-day lists)', figure: `${peaks[fixtures[1].name]!.ponte.toFixed(0)} MB`, met: peaks[fixtures[1].name]!.ponte < 250 })

const machine = { cores: cpus().length, cpu: cpus()[0]?.model, memoryGb: Math.round(totalmem() / 2 ** 30), loadAverageAtEnd: loadavg(), node: process.version }
const report = {
  date: new Date().toISOString(),
  seconds: (Date.now() - started) / 1000,
  machine,
  database: opt.database,
  changePollSeconds: POLL_SECONDS,
  ...(dbCounters ? { databaseCounters: dbCounters } : {}),
  settings: { quick: opt.quick === true, windowMs: opt.window, warmupMs: opt.warmup, minRounds: opt.minRounds, maxRounds: opt.maxRounds, spread: opt.spread, connections: opt.connections, rateLimitPerMinute: opt.rateLimit, pinned: pinned === true },
  fixtures: fixtureInfo,
  peaks,
  results,
  targets,
  allSameJson: results.every((m) => m.sameJson)
}
const md = [
  `Measured ${report.date.slice(0, 16).replace('T', ' ')} UTC, ${machine.cores} cores (${machine.cpu}), Node ${machine.node}, load average at the end ${machine.loadAverageAtEnd.map((x) => x.toFixed(1)).join(' ')}; ` +
  `${opt.window} ms windows, ${opt.connections} connections${pinned === true ? `, both servers pinned to CPU ${serverCpu} and the load to CPU ${loadCpu}` : ''}, ${report.seconds.toFixed(0)} s in all.` +
  (dbCounters ? ` Database: ${DATABASE_LABEL[opt.database]} on this machine, one database per server; its side from ${dbCounters}, over every request of a scenario (warm-up included).` : '') +
  ' Ponte\'s change poll once an hour, measured after its start-up passes (the sample\'s 30 s would land in some scenarios and not others; its peak memory is in the peak RSS).',
  '',
  `| ${header.join(' | ')} |`,
  `|${header.map((_, i) => i < 2 ? '---' : '--:').join('|')}|`,
  ...rows.map((r) => `| ${r.join(' | ')} |`),
  ...lockTable(),
  '',
  '| target | figure | met |',
  '|---|--:|:-:|',
  ...targets.map((t) => `| ${t.target} | ${t.figure} | ${t.met === null ? '–' : t.met ? 'yes' : 'no'} |`)
].join('\n')
const out = resolve(outDir)
mkdirSync(out, { recursive: true })
writeFileSync(join(out, 'bench.json'), JSON.stringify(report, null, 2) + '\n')
writeFileSync(join(out, 'bench.md'), md + '\n')
console.log(`\n${md}\n\n${report.allSameJson ? 'Ponte and the baseline answered the same JSON in every scenario.' : 'Some answers differed: see above.'}`)
console.log(`Wrote ${join(out, 'bench.json')} and ${join(out, 'bench.md')}.`)
