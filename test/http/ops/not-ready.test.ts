// STRUCTURAL_CHECK: a mapping that does not fit the database either stops the start (refuse,
// the default) or starts the server not ready — /ready answers 503 with the places to fix in
// the mapping's words, and every route that would touch the database answers a 503 problem
// saying the installation is not ready: never a 500, never SQL, never a patient's value.
import t from 'tap'
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { loadConfig } from '../../../src/config.js'
import { openInstallation } from '../../../src/installation.js'
import { createPonte } from '../../../src/ponte.js'
import { buildApp } from '../../../src/app.js'
import { childEnv } from '../../helpers/child-env.js'
import { startServer } from '../../helpers/server-process.js'
import { CLINIC_MAPPING, CLINIC_SQL } from '../../helpers/scratch-clinic.js'

// Days ahead of the wall clock: availability answers a range in the past with [] and no statement.
const AHEAD = [10, 11].map((n) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10))

const ROOT = new URL('../../..', import.meta.url).pathname
const KEY = 'not-ready-test-key-0123456789'
const BAD = CLINIC_MAPPING.replace('end: { column: FIM', 'end: { column: FINAL')
const badLine = BAD.split('\n').findIndex((l) => l.includes('column: FINAL')) + 1

function scratch (mapping: string): { MAPPING: string, DATABASE_URL: string } {
  const dir = mkdtempSync(join(tmpdir(), 'ponte-not-ready-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const db = new BetterSqlite3(join(dir, 'legacy.db'))
  db.exec(CLINIC_SQL)
  db.close()
  writeFileSync(join(dir, 'mapping.yaml'), mapping)
  return { MAPPING: join(dir, 'mapping.yaml'), DATABASE_URL: `sqlite:${join(dir, 'legacy.db')}` }
}

const common = { API_KEYS: KEY, IDEMPOTENCY_STORE: ':memory:', NODE_ENV: 'development' }

t.test('default (refuse): the start stops with exit 1 and the place to fix', async (t) => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: ROOT, env: childEnv({ ...common, ...scratch(BAD), PORT: '0', STRUCTURAL_CHECK: 'refuse' }), stdio: ['ignore', 'pipe', 'pipe']
  })
  let out = ''
  child.stdout.on('data', (d) => { out += String(d) })
  child.stderr.on('data', (d) => { out += String(d) })
  t.equal(await new Promise<number | null>((resolve) => child.on('exit', resolve)), 1)
  t.match(out, new RegExp(`mapping\\.yaml:${badLine}:\\d+: availability weekly\\.end: column \`FINAL\` does not exist in table \`TB_GRADE\``))
})

t.test('the setting: refuse by default, not-ready on request, anything else a configuration error', async (t) => {
  t.equal(loadConfig({}).structuralCheck, 'refuse')
  t.equal(loadConfig({ STRUCTURAL_CHECK: 'not-ready' }).structuralCheck, 'not-ready')
  t.throws(() => loadConfig({ STRUCTURAL_CHECK: 'not_ready' }), /STRUCTURAL_CHECK="not_ready": expected refuse or not-ready/)
})

t.test('not-ready: listens; /ready and every database route answer 503 with the reasons, never 500', async (t) => {
  const server = await startServer({ ...common, ...scratch(BAD), STRUCTURAL_CHECK: 'not-ready' })
  t.teardown(() => server.stop())
  const ready = await fetch(server.url('/ready'))
  t.equal(ready.status, 503)
  const body = await ready.json() as { type: string, findings: { line: number, column: number, subject: string, message: string }[] }
  t.match(body.type, /installation-not-ready$/)
  t.same(body.findings.map((f) => [f.line, f.subject]), [[badLine, 'availability weekly.end']], 'one finding, at its line, in the mapping\'s words')
  t.match(body.findings[0].message, /column `FINAL` does not exist in table `TB_GRADE`/)
  t.equal(typeof body.findings[0].column, 'number')
  t.equal((await fetch(server.url('/health'))).status, 200, 'alive: an orchestrator does not restart it in a loop')

  const auth = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }
  for (const [method, path, payload] of [
    ['GET', '/professionals', undefined], ['GET', '/locations', undefined], ['GET', '/appointments?start=2026-11-23&end=2026-11-24', undefined],
    ['GET', `/availability?start=${AHEAD[0]}&end=${AHEAD[1]}&professional=10`, undefined], ['GET', '/clients/search?term=11988881111', undefined],
    ['GET', '/clients/1', undefined],
    ['POST', '/appointments', { date: '2026-11-23', hour: '08:00', client: '1', professional: '10', location: '100' }]
  ] as const) {
    const res = await fetch(server.url(path), { method, headers: auth, body: payload ? JSON.stringify(payload) : undefined })
    const text = await res.text()
    t.equal(res.status, 503, `${method} ${path}: 503, not 500`)
    t.match(res.headers.get('content-type'), /application\/problem\+json/)
    t.match(JSON.parse(text), { type: /installation-not-ready$/, status: 503, detail: /not ready/ }, `${method} ${path}: says not ready`)
    // `instance` echoes the caller's own URL; the rest is Ponte's.
    const { instance: _, ...said } = JSON.parse(text) as Record<string, unknown>
    t.notMatch(JSON.stringify(said), /SELECT|FROM|TB_|FINAL|Ana|Souza|98888/, 'no SQL, schema or patient data in a route\'s answer')
  }
  t.notMatch(JSON.stringify(server.lines()), /Ana Souza|98888/, 'no patient data in the log')
})

t.test('not-ready with a mapping that fits: ready as usual', async (t) => {
  const server = await startServer({ ...common, ...scratch(CLINIC_MAPPING), STRUCTURAL_CHECK: 'not-ready' })
  t.teardown(() => server.stop())
  t.equal((await fetch(server.url('/ready'))).status, 200)
  const res = await fetch(server.url('/professionals'), { headers: { authorization: `Bearer ${KEY}` } })
  t.equal(res.status, 200)
})

t.test('/ready bounds what it echoes of the mapping: 20 findings at most, each cut short', async (t) => {
  // Thirty columns that do not exist, each named by 5,000 characters of the mapping (YAML's
  // explicit `? key` form: an implicit key is at most 1,024).
  const names = Array.from({ length: 30 }, (_, i) => `C${i}_${'X'.repeat(5000)}`)
  const mapping = CLINIC_MAPPING.replace('        ORIGEM: { value: ponte }\n', `        ORIGEM: { value: ponte }\n${names.map((n) => `        ? ${n}\n        : { value: x }\n`).join('')}`)
  const { MAPPING, DATABASE_URL } = scratch(mapping)
  const inst = await openInstallation(MAPPING, DATABASE_URL, undefined, { structural: 'not-ready' })
  t.equal(inst.mismatch?.length, 30, 'thirty findings')
  const app = await buildApp(createPonte(loadConfig({ ...common, MAPPING, DATABASE_URL }), inst.db, inst.compiled), { logLevel: false })
  t.teardown(async () => { await app.close(); await inst.close() })
  const res = await app.inject({ method: 'GET', url: '/ready' })
  t.equal(res.statusCode, 503)
  const body = res.json() as { findings: { subject: string, message: string }[], moreFindings: number }
  t.equal(body.findings.length, 20, 'twenty findings listed')
  t.equal(body.moreFindings, 10, 'and how many more')
  t.ok(body.findings.every((f) => f.subject.length <= 200 && f.message.length <= 200), 'each text at most 200 characters')
  t.match(body.findings[0].message, /^column `C0_XXX.*…$/, 'cut short where it is long')
  t.ok(res.body.length < 20 * 600, `the answer stays small (${res.body.length} bytes)`)
})
