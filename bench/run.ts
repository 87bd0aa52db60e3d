// `npm run bench`: Ponte against a hand-written route for the same schema (design notes §5:
// "Ponte stays within 10% of a hand-written route"). Both serve the same fresh SQLite copy of
// sample installation 1 on 127.0.0.1; the load comes from a forked process (bench/load.ts).
// Prints figures and exits 0: it measures, it does not judge.
//   BENCH_SECONDS (default 3), BENCH_WARMUP_SECONDS (2: Ponte's JIT needs ~2-3 s to settle), BENCH_CONNECTIONS (8)
import { fork } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { isDeepStrictEqual } from 'node:util'
import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { openSample } from '../src/installation.js'
import { loadConfig } from '../src/config.js'
import { createPonte } from '../src/context.js'
import { buildApp } from '../src/app.js'
import { buildHandWritten } from './hand-written.js'
import type { LoadJob, LoadResult } from './load.js'

const seconds = Number(process.env.BENCH_SECONDS ?? 3)
const warmup = Number(process.env.BENCH_WARMUP_SECONDS ?? 2)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 8)
const key = 'bench-key-0123456789abcdef'
const headers = { authorization: `Bearer ${key}` }

// Busy days of the fixture ("today" is 2026-11-22); the ids exist in fixture.json.
const SCENARIOS: [string, string][] = [
  ['appointments, 1 day', '/appointments?start=2026-11-27&end=2026-11-27'],
  ['appointments, 7 days', '/appointments?start=2026-11-23&end=2026-11-29'],
  ['appointments, 7 days, professional=3', '/appointments?start=2026-11-23&end=2026-11-29&professional=3'],
  ['clients/search, phone (3 clients)', '/clients/search?term=%2B5511960420123'],
  ['professionals?service=1', '/professionals?service=1'],
  ['appointments/{id}', '/appointments/191066']
]

const listen = async (app: FastifyInstance): Promise<number> => {
  await app.listen({ host: '127.0.0.1', port: 0 })
  return (app.server.address() as AddressInfo).port
}

/** Where two JSON values first differ, for a mismatch report. */
function difference (a: unknown, b: unknown, path = ''): string | undefined {
  if (isDeepStrictEqual(a, b)) return undefined
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return `${path || '/'}: ${JSON.stringify(a)} ≠ ${JSON.stringify(b)}`
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const d = difference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}/${k}`)
    if (d) return d
  }
  return `${path || '/'}: differ`
}

const inst = await openSample('mappings/clinica-sorriso.yaml')
const ponte = await buildApp(createPonte(loadConfig({ API_KEYS: key, IDEMPOTENCY_STORE: ':memory:', LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: '0' }), inst.db, inst.compiled), { logLevel: false })
const hand = await buildHandWritten(inst.file, key)
const loader = fork(fileURLToPath(new URL('./load.ts', import.meta.url)), [], { execArgv: ['--import', 'tsx'] })
try {
  const servers = { ponte: await listen(ponte), hand: await listen(hand) }

  console.log('Same responses?')
  let allMatch = true
  for (const [name, path] of SCENARIOS) {
    const [a, b] = await Promise.all([servers.ponte, servers.hand].map(async (port) => {
      const res = await fetch(`http://127.0.0.1:${port}${path}`, { headers })
      return { status: res.status, body: await res.json() as unknown }
    }))
    const diff = a.status !== 200 || b.status !== 200 ? `status ${a.status} / ${b.status}` : difference(a.body, b.body)
    const size = Array.isArray(a.body) ? `${a.body.length} items` : 'one object'
    allMatch &&= diff === undefined
    console.log(`  ${diff === undefined ? 'match   ' : 'MISMATCH'}  ${name} (${size})${diff ? `: ${diff}` : ''}`)
  }

  const run = async (job: LoadJob): Promise<LoadResult> => await new Promise((resolve) => {
    loader.once('message', (r) => resolve(r as LoadResult))
    loader.send(job)
  })
  const measure = async (port: number, path: string): Promise<LoadResult & { statements: number }> => {
    await run({ port, path, headers, connections, durationMs: warmup * 1000 })
    const before = inst.db.stats.statements
    const r = await run({ port, path, headers, connections, durationMs: seconds * 1000 })
    return { ...r, statements: (inst.db.stats.statements - before) / r.requests }
  }

  console.log(`\n${connections} connections, ${warmup} s warm-up + ${seconds} s per server and scenario; latencies in ms\n`)
  const rows = [['scenario', 'Ponte req/s', 'hand req/s', 'Ponte/hand', 'Ponte p50', 'hand p50', 'Ponte p99', 'hand p99', 'SQL/req', 'errors']]
  for (const [name, path] of SCENARIOS) {
    const p = await measure(servers.ponte, path)
    const h = await measure(servers.hand, path)
    const ratio = p.rps / h.rps
    rows.push([name, p.rps.toFixed(0), h.rps.toFixed(0), `${ratio.toFixed(2)}${ratio < 0.9 ? ' !' : ''}`,
      p.p50.toFixed(2), h.p50.toFixed(2), p.p99.toFixed(2), h.p99.toFixed(2), p.statements.toFixed(2), String(p.failures + h.failures)])
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)))
  for (const [i, r] of rows.entries()) {
    console.log(r.map((c, j) => j === 0 ? c.padEnd(widths[j]) : c.padStart(widths[j])).join('  '))
    if (i === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '))
  }
  console.log(`\nPonte/hand = requests/s ratio ("!" when Ponte is more than 10% slower). SQL/req: Ponte's statements per request.`)
  console.log(allMatch ? 'Responses matched in every scenario.' : 'Some responses differed: see above.')
} finally {
  loader.kill()
  await hand.close()
  await ponte.close()
  await inst.close()
}
