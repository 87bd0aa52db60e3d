// Issue 13: long appointment lists are streamed, so a process serving several at once does not
// grow with their length. Sample 1 grown to 20,000 clients and ~400,000 appointments, served by
// real Ponte processes (src/server.ts) on that SQLite file, once with STREAM_LISTS=false (each
// list built whole, as before) and once streamed: eight concurrent 92-day `minimal` lists must
// be byte-identical in both, the streamed process's peak RSS (VmHWM) must stay under a bound
// the buffered one exceeds, and a client that goes away mid-list must free the connection.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { request as httpRequest } from 'node:http'
import { fileURLToPath } from 'node:url'
import tap from 'tap'
import { parseDocument } from 'yaml'
import { startServer, type ServerProcess } from '../../helpers/server-process.js'
import { childEnv } from '../../helpers/child-env.js'

const ROOT = fileURLToPath(new URL('../../..', import.meta.url))
const KEY = 'list-stream-test-key-0123456789'
const LONG = '/appointments?start=2026-10-01&end=2026-12-31&minimal=true'
const CONCURRENT = 8
/** Growth of peak RSS over the idle process's that the streamed lists must stay under. */
const BOUND_MB = 200
/**
 * The buffered lists must grow the process this many times more than the streamed ones. Not a
 * fixed figure: how far V8 lets the heap grow past its live data, and the machine's load, move
 * both (figures in docs/performance/log.md).
 */
const BUFFERED_TIMES = 1.4

const peakMb = (pid: number): number => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024
const sha = (s: string): string => createHash('sha256').update(s).digest('hex')

async function grow (out: string): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/grow.ts', '--sample', 'clinica-sorriso', '--clients', '20000', '--appointments', '400000', '--out', out], {
    cwd: ROOT, env: childEnv(), stdio: ['ignore', 'ignore', 'pipe']
  })
  let stderr = ''
  child.stderr.on('data', (c) => { stderr += String(c) })
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
  if (code !== 0) throw new Error(`grow failed (${code}): ${stderr.slice(-2000)}`)
}

async function get (s: ServerProcess, path: string): Promise<{ status: number, type: string | null, length: string | null, body: string }> {
  const r = await fetch(s.url(path), { headers: { 'x-api-key': KEY } })
  return { status: r.status, type: r.headers.get('content-type'), length: r.headers.get('content-length'), body: await r.text() }
}

interface Run { idle: number, peak: number, bodies: string[], others: Record<string, string>, seconds: number }

async function measure (s: ServerProcess, others: string[]): Promise<Run> {
  // Warm: the catalogue loaded, the statements prepared, the code compiled.
  await get(s, '/appointments?start=2026-11-27&end=2026-11-27')
  await get(s, '/appointments?start=2026-11-27&end=2026-11-27&minimal=true')
  const idle = peakMb(s.child.pid as number)
  const started = Date.now()
  const answers = await Promise.all(Array.from({ length: CONCURRENT }, async () => await get(s, LONG)))
  const seconds = (Date.now() - started) / 1000
  const peak = peakMb(s.child.pid as number)
  for (const a of answers) if (a.status !== 200) throw new Error(`status ${a.status}: ${a.body.slice(0, 300)}`)
  const out: Record<string, string> = {}
  for (const p of others) {
    const a = await get(s, p)
    out[p] = `${a.status} ${a.type ?? ''} ${a.body}`
  }
  return { idle, peak, bodies: answers.map((a) => a.body), others: out, seconds }
}

tap.test('long lists: streamed bytes equal the buffered ones, memory stays bounded, an abort frees the connection', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ponte-list-stream-'))
  t.teardown(() => { rmSync(dir, { recursive: true, force: true }) })
  t.setTimeout(240_000)
  const file = join(dir, 'grown.sqlite')
  const t0 = Date.now()
  await grow(file)
  t.comment(`grown in ${((Date.now() - t0) / 1000).toFixed(1)} s`)
  // The sample's mapping without change detection: this measures lists alone, and a poll
  // priming its window over the grown fixture would share the CPU and memory it measures.
  const mapping = parseDocument(readFileSync('mappings/clinica-sorriso.yaml', 'utf8'))
  mapping.deleteIn(['resources', 'appointment', 'changes'])
  const mappingFile = join(dir, 'lists-only.yaml')
  writeFileSync(mappingFile, mapping.toString())
  const env = { DATABASE_URL: `sqlite:${file}`, MAPPING: mappingFile, API_KEYS: KEY, RATE_LIMIT_PER_MINUTE: '0', IDEMPOTENCY_STORE: ':memory:', EVENTS_STORE: join(dir, 'events.sqlite'), LOG_LEVEL: 'info' }
  // Nested objects, an id filter (kept row by row), a state filter, a list within one block, an
  // empty one, and problems decided before any byte.
  const others = [
    '/appointments?start=2026-11-01&end=2026-11-30',
    '/appointments?start=2026-01-01&end=2026-03-31&professional=3',
    '/appointments?start=2026-11-01&end=2026-11-30&state=CONFIRMED&minimal=true',
    '/appointments?start=2026-11-27&end=2026-11-27&minimal=true',
    '/appointments?start=2026-11-23&end=2026-11-29&professional=3&minimal=true',
    '/appointments?start=2030-01-01&end=2030-01-31',
    '/appointments?start=2026-01-01&end=2026-12-31',
    '/appointments?start=2026-11-01&end=2026-11-30&state=nope'
  ]

  const buffered = await startServer({ ...env, STREAM_LISTS: 'false' })
  let b: Run
  try { b = await measure(buffered, others) } finally { await buffered.stop() }

  const streamed = await startServer(env)
  t.teardown(async () => { await streamed.stop() })
  const s = await measure(streamed, others)

  const items = (JSON.parse(b.bodies[0]) as unknown[]).length
  t.comment(`${CONCURRENT} concurrent ${items}-item lists (${(b.bodies[0].length / 1e6).toFixed(1)} MB each): peak RSS buffered ${b.peak.toFixed(0)} MB (idle ${b.idle.toFixed(0)}, +${(b.peak - b.idle).toFixed(0)}) in ${b.seconds.toFixed(1)} s; streamed ${s.peak.toFixed(0)} MB (idle ${s.idle.toFixed(0)}, +${(s.peak - s.idle).toFixed(0)}) in ${s.seconds.toFixed(1)} s`)
  t.ok(items > 20_000, `a long list (${items} items)`)

  // (a) the same bytes
  t.equal(new Set(s.bodies.map(sha)).size, 1, 'the concurrent streamed lists are identical')
  t.equal(sha(s.bodies[0]), sha(b.bodies[0]), 'streamed list byte-identical to the buffered one')
  for (const p of others) t.equal(sha(s.others[p]), sha(b.others[p]), `same status, type and bytes: ${p}`)
  t.match(s.others[others[7]], /^400 application\/problem\+json/, 'an invalid state is still a 400 problem')
  const streamedHead = await fetch(streamed.url(LONG), { headers: { 'x-api-key': KEY } })
  t.equal(streamedHead.headers.get('content-length'), null, 'the long list is streamed (chunked)')
  t.match(streamedHead.headers.get('content-type'), /^application\/json; charset=utf-8$/)
  t.equal(streamedHead.headers.get('ponte-interface-version'), '1')
  await streamedHead.body?.cancel()
  for (const p of [others[3], others[4]]) {
    const small = await get(streamed, p)
    t.not(small.length, null, `a day, or a list of fewer than 1,000 rows, is sent whole with its Content-Length: ${p}`)
  }

  // (b) memory
  t.ok(s.peak - s.idle < BOUND_MB, `streamed: peak RSS grew ${(s.peak - s.idle).toFixed(0)} MB < ${BOUND_MB} MB`)
  t.ok(b.peak - b.idle > BUFFERED_TIMES * (s.peak - s.idle), `buffered: peak RSS grew ${(b.peak - b.idle).toFixed(0)} MB, more than ${BUFFERED_TIMES}× the streamed growth (streaming is what bounds it)`)

  // (c) a client that goes away after the first bytes: the SQLite connection is released
  await new Promise<void>((resolve, reject) => {
    const req = httpRequest(streamed.url(LONG), { headers: { 'x-api-key': KEY } }, (res) => {
      res.once('data', () => { req.destroy(); resolve() })
      res.once('error', () => {})
    })
    req.on('error', () => {})
    req.setTimeout(30_000, () => { reject(new Error('no first bytes')) })
    req.end()
  })
  const after = Date.now()
  const next = await get(streamed, '/appointments?start=2026-11-27&end=2026-11-27&minimal=true')
  const waited = Date.now() - after
  t.equal(next.status, 200, 'the next request is answered')
  t.ok(waited < 3000, `promptly, after ${waited} ms (the aborted list left the database's read loop)`)
  // Several aborted at once, then the full list again, whole and identical.
  await Promise.all(Array.from({ length: 4 }, async () => {
    const c = new AbortController()
    const r = await fetch(streamed.url(LONG), { headers: { 'x-api-key': KEY }, signal: c.signal })
    const reader = r.body?.getReader()
    await reader?.read()
    c.abort()
  }))
  const again = await get(streamed, LONG)
  t.equal(sha(again.body), sha(b.bodies[0]), 'after aborted lists, a long list is whole again')
  await new Promise((resolve) => setTimeout(resolve, 200))
  const lines = streamed.lines()
  t.ok(lines.some((l) => l.msg === 'stream closed prematurely'), 'the abort is logged')
  t.notOk(lines.some((l) => /Paciente|NOME/.test(JSON.stringify(l))), 'no row data in the log')
})
