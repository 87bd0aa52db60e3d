// GET /metrics as Prometheus scrapes it during a contract-like run: the run's requests by
// route pattern and status, its SQL statements by compiled name, idempotency and rate-limit
// counters, database and catalogue gauges. Guarded by its own key, never a caller's.
import t from 'tap'
import { buildApp } from '../../../src/app.js'
import { loadConfig } from '../../../src/config.js'
import { createPonte } from '../../../src/ponte.js'
import { openSample } from '../../../src/installation.js'
import { metricsServer } from '../../../src/plugins/metrics.js'
import type { Test } from '../../helpers/contract.js'

const KEY = 'caller-key-0123456789abcdef'
const METRICS_KEY = 'metrics-key-0123456789abcdef'

/** `name{labels} value` lines of a Prometheus text exposition, labels as an object. */
function samples (text: string, name: string): { labels: Record<string, string>, value: number }[] {
  const out: { labels: Record<string, string>, value: number }[] = []
  for (const line of text.split('\n')) {
    const m = /^([a-z_:]+)(?:\{(.*)\})? (\S+)$/.exec(line)
    if (!m || m[1] !== name) continue
    const labels: Record<string, string> = {}
    for (const [, k, v] of (m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)) labels[k] = v
    out.push({ labels, value: Number(m[3]) })
  }
  return out
}

async function ponteApp (t: Test, env: Record<string, string>) {
  const inst = await openSample('mappings/clinica-sorriso.yaml')
  const ponte = createPonte(loadConfig({ API_KEYS: KEY, IDEMPOTENCY_STORE: ':memory:', RATE_LIMIT_PER_MINUTE: '0', ...env }), inst.db, inst.compiled)
  const app = await buildApp(ponte, { logLevel: false })
  t.teardown(async () => { await app.close(); await inst.close() })
  return { app, ponte }
}

t.test('a scrape during a run shows its requests by route and status and its statements by name', async (t) => {
  const { app } = await ponteApp(t, { METRICS_KEY, RATE_LIMIT_PER_MINUTE: '40', BASE_PATH: '/v1' })
  const auth = { authorization: `Bearer ${KEY}` }
  const get = async (url: string) => await app.inject({ url, headers: auth })
  for (const url of ['/v1/professionals', '/v1/services', '/v1/appointments?start=2024-03-01&end=2024-03-07', '/v1/clients/1', '/v1/clients/nope', '/v1/clients/search?term=11999990000']) await get(url)
  const body = { name: 'Metric Person', phone: '11987650001' }
  const post = async () => await app.inject({ method: 'POST', url: '/v1/clients', payload: body, headers: { ...auth, 'idempotency-key': 'm-1' } })
  t.equal((await post()).statusCode, 200)
  t.equal((await post()).headers['idempotent-replayed'], 'true')
  t.equal((await app.inject({ method: 'POST', url: '/v1/clients', payload: { ...body, name: 'Other' }, headers: { ...auth, 'idempotency-key': 'm-1' } })).statusCode, 422)
  let limited = 0
  for (let i = 0; i < 40 && limited === 0; i++) if ((await get('/v1/locations')).statusCode === 429) limited++
  t.equal(limited, 1, 'the run went over the rate limit')

  t.equal((await app.inject({ url: '/metrics' })).statusCode, 401, 'no key, no metrics')
  t.equal((await app.inject({ url: '/metrics', headers: auth })).statusCode, 401, 'a caller\'s API key does not open /metrics')
  const res = await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${METRICS_KEY}` } })
  t.equal(res.statusCode, 200)
  t.match(res.headers['content-type'], /^text\/plain; version=0\.0\.4/)
  const text = res.body

  const http = samples(text, 'ponte_http_request_duration_seconds_count')
  const count = (route: string, status: string, method = 'GET') => http.find((s) => s.labels.route === route && s.labels.status === status && s.labels.method === method)?.value ?? 0
  t.equal(count('/v1/professionals', '200'), 1)
  t.equal(count('/v1/appointments', '200'), 1)
  t.equal(count('/v1/clients/:id', '200'), 1, 'by route pattern, not URL')
  t.equal(count('/v1/clients/:id', '404'), 1)
  t.equal(count('/v1/clients', '200', 'POST'), 2)
  t.equal(count('/v1/clients', '422', 'POST'), 1)
  t.equal(count('/v1/locations', '429'), 1)
  t.notOk(http.some((s) => s.labels.route?.includes('nope') || s.labels.route?.includes('term=')), 'no URL in a label')

  const sql = samples(text, 'ponte_sql_statement_duration_seconds_count')
  const names = new Set(sql.filter((s) => s.labels.outcome === 'ok').map((s) => s.labels.statement))
  t.comment(`statements: ${[...names].sort().join(', ')}`)
  for (const name of ['professional.all', 'service.all', 'appointment.list', 'client.byId', 'client.search', 'client.insert']) {
    t.ok([...names].some((n) => n === name || n.startsWith(`${name}`)), `statement ${name} timed`)
  }
  const idem = samples(text, 'ponte_idempotency_total')
  t.same(Object.fromEntries(idem.map((s) => [s.labels.result, s.value])), { new: 1, replay: 1, mismatch: 1 })
  t.equal(samples(text, 'ponte_rate_limited_requests_total')[0]?.value, 1)
  t.equal(samples(text, 'ponte_database_up')[0]?.value, 1)
  const age = samples(text, 'ponte_catalogue_age_seconds')[0]?.value
  t.ok(age !== undefined && age >= 0 && age < 60, `catalogue age ${age}`)
  t.equal(samples(text, 'ponte_catalogue_refresh_failures')[0]?.value, 0)
  const lookups = Object.fromEntries(samples(text, 'ponte_catalogue_lookups').map((s) => [s.labels.result, s.value]))
  t.equal(lookups.miss, 1, 'one read of the catalogue waited for its load (the first)')
  t.ok(lookups.hit >= 2, `the others were served from memory (${lookups.hit} hits)`)
  const pool = Object.fromEntries(samples(text, 'ponte_db_pool_connections').map((s) => [s.labels.state, s.value]))
  t.ok(pool['in-use'] === 0 || pool['in-use'] === 1, `SQLite's one connection: in use ${pool['in-use']}`)
  t.equal(pool.waiting, 0, 'nobody waiting once the run is over')
  t.ok(samples(text, 'ponte_process_resident_memory_bytes').length === 1, 'process metrics')
})

t.test('the pool gauge of SQLite: its one connection in use, and the calls queued for it', async (t) => {
  const inst = await openSample('mappings/clinica-sorriso.yaml')
  t.teardown(async () => { await inst.close() })
  const db = inst.db
  t.same(db.pool?.(), { inUse: 0, waiting: 0 }, 'idle')
  let release = (): void => {}
  const gate = new Promise<void>((resolve) => { release = resolve })
  const [statement] = inst.compiled.lookups.map((l) => l.all)
  const held = db.transaction(async (tx) => { await tx.query(statement); await gate })
  const queued = [db.query(statement), db.query(statement)]
  await new Promise((resolve) => setTimeout(resolve, 20))
  t.same(db.pool?.(), { inUse: 1, waiting: 2 }, 'a transaction holds the connection, two reads wait for it')
  release()
  await Promise.all([held, ...queued])
  t.same(db.pool?.(), { inUse: 0, waiting: 0 }, 'idle again')
})

t.test('without METRICS_KEY there is no /metrics on the interface listener; METRICS_PORT serves it alone', async (t) => {
  const { app, ponte } = await ponteApp(t, {})
  t.equal((await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${KEY}` } })).statusCode, 404)
  await app.inject({ url: '/professionals', headers: { authorization: `Bearer ${KEY}` } })
  const side = await metricsServer(ponte.metrics)
  t.teardown(() => side.close())
  const res = await side.inject({ url: '/metrics' })
  t.equal(res.statusCode, 200)
  t.match(res.body, /ponte_http_request_duration_seconds_count\{method="GET",route="\/professionals",status="200"\} 1/)
  t.equal((await side.inject({ url: '/professionals' })).statusCode, 404, 'the metrics listener serves nothing else')
})

t.test('database_up is 0 while the database is gone; statements that fail are counted as errors', async (t) => {
  const { app, ponte } = await ponteApp(t, { METRICS_KEY })
  await app.inject({ url: '/professionals', headers: { authorization: `Bearer ${KEY}` } })
  await ponte.db.close()
  await app.inject({ url: '/clients/1', headers: { authorization: `Bearer ${KEY}` } })
  const text = (await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${METRICS_KEY}` } })).body
  t.equal(samples(text, 'ponte_database_up')[0]?.value, 0)
  t.ok(samples(text, 'ponte_sql_statement_duration_seconds_count').some((s) => s.labels.outcome === 'error'), 'a failed statement counted')
})
