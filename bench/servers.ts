// The two servers the bench compares, each in a child process of its own so that its CPU
// time (/proc/<pid>/stat) and peak memory (VmHWM in /proc/<pid>/status) are its own.
//  - Ponte exactly as `npm run serve` runs it in production: compiled (bench/build.ts) on node
//    with `serve`'s own options (bench/serve-flags.ts), NODE_ENV=production, API_KEYS
//    holding only the key's SHA-256, LOG_LEVEL=info, the per-key
//    rate limit on (RATE_LIMIT_PER_MINUTE raised: at the default 600 a minute the bench's own
//    key would be throttled within a second), METRICS_KEY so the bench can read how many SQL
//    statements it ran (/metrics, read between windows only).
//  - the hand-written baseline (bench/hand-written.ts) through bench/baseline-server.ts,
//    compiled the same way, on plain node with node's defaults (what such a service would ship).
// Both write their log lines to a file in the bench's scratch folder, as a production process
// writes to its log collector.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { createHash } from 'node:crypto'
import { openSync, readFileSync, closeSync, statSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { BUILT } from './build.js'
import { serveOptions } from './serve-flags.js'

const root = fileURLToPath(new URL('..', import.meta.url))
const TICKS_PER_SECOND = 100 // getconf CLK_TCK on Linux

export interface ServerProcess {
  name: 'ponte' | 'hand'
  pid: number
  port: number
  logFile: string
  /** user + system CPU time of the process so far, ms. */
  cpuMs: () => number
  /** Peak resident memory so far (VmHWM), MB. */
  peakRssMb: () => number
  rssMb: () => number
  /** SQL statements run so far. */
  statements: () => Promise<number>
  logBytes: () => number
  stop: () => Promise<void>
}

export async function freePort (): Promise<number> {
  return await new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port
      s.close(() => { resolve(port) })
    })
  })
}

function procCpuMs (pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  // Fields after the command (which may hold spaces) in parentheses: utime is the 14th field, stime the 15th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 1000 / TICKS_PER_SECOND
}

function procStatusMb (pid: number, field: string): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return m ? Number(m[1]) / 1024 : NaN
}

async function waitHealthy (port: number, child: ChildProcess, stderr: () => string, timeoutMs = 120_000): Promise<void> {
  const until = Date.now() + timeoutMs
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`the server exited (code ${child.exitCode}):\n${stderr()}`)
    try {
      const res = await fetch(`http://127.0.0.1:${port}/health`)
      if (res.status === 200) return
    } catch { /* not listening yet */ }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(`the server did not answer /health within ${timeoutMs / 1000} s:\n${stderr()}`)
}

async function launch (name: 'ponte' | 'hand', argv: string[], env: Record<string, string>, port: number, logFile: string, statements: () => Promise<number>): Promise<ServerProcess> {
  const log = openSync(logFile, 'w')
  const child = spawn(process.execPath, argv, {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', log, 'pipe']
  })
  closeSync(log)
  let err = ''
  child.stderr!.on('data', (b: Buffer) => { err = (err + b.toString()).slice(-4000) })
  await waitHealthy(port, child, () => err)
  const pid = child.pid!
  return {
    name,
    pid,
    port,
    logFile,
    cpuMs: () => procCpuMs(pid),
    peakRssMb: () => procStatusMb(pid, 'VmHWM'),
    rssMb: () => procStatusMb(pid, 'VmRSS'),
    statements,
    logBytes: () => statSync(logFile).size,
    stop: async () => {
      if (child.exitCode !== null) return
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000)
      await exited
      clearTimeout(timer)
    }
  }
}

/**
 * The CPUs this process may run on (Linux's Cpus_allowed_list: a container may allow `2,3` or
 * `4-7` only), ascending; empty where that cannot be read.
 */
export function allowedCpus (): number[] {
  let list: string | undefined
  try {
    list = /^Cpus_allowed_list:\s*(\S+)/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]
  } catch {
    return []
  }
  const out: number[] = []
  for (const part of list?.split(',') ?? []) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part)
    if (!m) return []
    const [from, to] = [Number(m[1]), Number(m[2] ?? m[1])]
    // Bounded: a range is at most the machine's CPUs (4,096 here at the very most).
    for (let cpu = from; cpu <= to && out.length < 4096; cpu++) out.push(cpu)
  }
  return out
}

/**
 * Keeps a process and all its threads (those it starts later inherit it) on one CPU, with
 * Linux's taskset; false where that cannot be done (no taskset, one CPU, not Linux).
 */
export function pinToCpu (pid: number, cpu: number): boolean {
  try {
    execFileSync('taskset', ['-a', '-cp', String(cpu), String(pid)], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex')

export interface ServerOptions {
  /** A SQLite file, or a DATABASE_URL (mysql:, postgres:) for Ponte and the baseline alike. */
  database: { file: string } | { url: string }
  mapping: string
  key: string
  scratch: string
  rateLimitPerMinute: number
  /** Each server writes a V8 CPU profile of its whole run here when it stops (`--cpu-prof`). */
  cpuProfDir?: string
}

const profiling = (o: ServerOptions, name: string): string[] =>
  o.cpuProfDir === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${o.cpuProfDir}`, `--cpu-prof-name=${name}-${Date.now()}.cpuprofile`]

export async function startPonte (o: ServerOptions): Promise<ServerProcess> {
  const port = await freePort()
  const metricsKey = 'bench-metrics-key-0123456789'
  const statements = async (): Promise<number> => {
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: `Bearer ${metricsKey}` } })).text()
    let n = 0
    for (const m of text.matchAll(/^ponte_sql_statement_duration_seconds_count\{[^}]*\} (\d+)/gm)) n += Number(m[1])
    return n
  }
  return await launch('ponte', [...profiling(o, 'ponte'), ...serveOptions(), BUILT.ponte], {
    NODE_ENV: 'production',
    DATABASE_URL: 'url' in o.database ? o.database.url : `sqlite:${o.database.file}`,
    MAPPING: o.mapping,
    API_KEYS: `bench:write:sha256:${sha256(o.key)}`,
    LOG_LEVEL: 'info',
    RATE_LIMIT_PER_MINUTE: String(o.rateLimitPerMinute),
    IDEMPOTENCY_STORE: join(o.scratch, 'ponte-idempotency.sqlite'),
    // A store of its own per start: fingerprints taken of another fixture at the same path
    // would be compared with this one's rows (every appointment an event, hundreds of MB).
    EVENTS_STORE: join(o.scratch, `ponte-events-${port}.sqlite`),
    METRICS_KEY: metricsKey
  }, port, join(o.scratch, 'ponte.log'), statements)
}

export async function startHandWritten (o: ServerOptions): Promise<ServerProcess> {
  const port = await freePort()
  const statements = async (): Promise<number> => {
    const res = await fetch(`http://127.0.0.1:${port}/_bench/statements`, { headers: { authorization: `Bearer ${o.key}` } })
    return Number(await res.text())
  }
  return await launch('hand', [...profiling(o, 'hand'), BUILT.hand], {
    ...('url' in o.database ? { DATABASE_URL: o.database.url } : { DATABASE_FILE: o.database.file }),
    KEY_SHA256: sha256(o.key),
    LOG_LEVEL: 'info',
    RATE_LIMIT_PER_MINUTE: String(o.rateLimitPerMinute)
  }, port, join(o.scratch, 'hand.log'), statements)
}
