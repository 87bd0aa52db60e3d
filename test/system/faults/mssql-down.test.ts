// Issue 7, defect 2: SQL Server down. Against a closed port and against a port that accepts
// and never answers, every route answers a 503 problem with Retry-After within the configured
// connect time, the process goes on serving (/health), a later request tries the server again
// (no restart needed), concurrent first requests share one connection attempt, and no socket
// is left open.
import { once } from 'node:events'
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net'
import tap, { type Test } from 'tap'
import type { FastifyInstance } from 'fastify'
import { loadConfig } from '../../../src/config.js'
import { createPonte } from '../../../src/ponte.js'
import { buildApp } from '../../../src/app.js'
import { openInstallation, type Installation } from '../../../src/installation.js'
import { SAMPLES, TEST_KEY } from '../../helpers/app.js'

const CONNECT_MS = 300
const POOL_MAX = 2
// Generous: the bound is CONNECT_MS; a loaded CI machine adds scheduling delays, not seconds.
const WITHIN_MS = CONNECT_MS + 1500

/** Every route that needs the database, lookups and writes included. */
const ROUTES: Array<{ method: 'GET' | 'POST', url: string, payload?: object }> = [
  { method: 'GET', url: '/professionals' },
  { method: 'GET', url: '/professionals/1' },
  { method: 'GET', url: '/locations' },
  { method: 'GET', url: '/services' },
  { method: 'GET', url: '/health-insurances' },
  { method: 'GET', url: '/specialties' },
  { method: 'GET', url: '/availability?start=2027-03-01&end=2027-03-05' },
  { method: 'POST', url: '/appointments', payload: { date: '2027-03-01', hour: '09:00', client: '1', professional: '1' } },
  { method: 'GET', url: '/appointments?start=2027-03-01&end=2027-03-02' },
  { method: 'GET', url: '/appointments/1' },
  { method: 'GET', url: '/clients/1' },
  { method: 'GET', url: '/clients/search?term=Maria' },
  { method: 'POST', url: '/clients', payload: { name: 'Ana Souza', phone: '+5511987654321' } }
]

interface Silent { server: Server, port: number, open: () => number, accepted: () => number }

/** A port that accepts connections, reads what it is sent and never answers. */
async function silentServer (port = 0): Promise<Silent> {
  const sockets = new Set<Socket>()
  let accepted = 0
  const server = createServer((s) => {
    accepted++
    sockets.add(s)
    s.resume() // read (so a close from Ponte is seen), never write
    s.on('error', () => undefined)
    s.on('close', () => sockets.delete(s))
  })
  server.listen(port, '127.0.0.1')
  await once(server, 'listening')
  return { server, port: (server.address() as AddressInfo).port, open: () => sockets.size, accepted: () => accepted }
}

async function closedPort (): Promise<number> {
  const s = await silentServer()
  s.server.close()
  await once(s.server, 'close')
  return s.port
}

async function ponteOn (port: number): Promise<{ app: FastifyInstance, inst: Installation }> {
  const url = `mssql://u:p@127.0.0.1:${port}/clinic?encrypt=false&connectTimeoutMs=${CONNECT_MS}&requestTimeoutMs=${CONNECT_MS}&poolMax=${POOL_MAX}`
  // Requests' connection attempts are counted here, not the start-up structural check's.
  const inst = await openInstallation(SAMPLES[0], url, undefined, { structural: 'skip' })
  const config = loadConfig({ API_KEYS: TEST_KEY, MAPPING: SAMPLES[0], DATABASE_URL: url, IDEMPOTENCY_STORE: ':memory:', RATE_LIMIT_PER_MINUTE: '0' })
  const app = await buildApp(createPonte(config, inst.db, inst.compiled), { logLevel: false })
  return { app, inst }
}

async function call (app: FastifyInstance, route: typeof ROUTES[number]): Promise<{ status: number, body: any, headers: Record<string, unknown>, ms: number }> {
  const started = performance.now()
  const res = await app.inject({ ...route, headers: { authorization: `Bearer ${TEST_KEY}` } })
  return { status: res.statusCode, body: JSON.parse(res.body), headers: res.headers, ms: performance.now() - started }
}

function unavailable (t: Test, r: Awaited<ReturnType<typeof call>>, what: string): void {
  t.equal(r.status, 503, `${what}: 503`)
  t.match(String(r.headers['content-type']), /^application\/problem\+json/, `${what}: problem+json`)
  t.equal(r.body.type, 'https://ponte.dev/problems/database-unavailable', `${what}: database-unavailable`)
  t.ok(Number(r.headers['retry-after']) > 0, `${what}: Retry-After`)
  t.ok(r.ms < WITHIN_MS, `${what}: within the bound (${Math.round(r.ms)} ms)`)
  t.notMatch(JSON.stringify(r.body), /127\.0\.0\.1|ECONN|ESOCKET|ETIMEOUT|tedious|Failed to connect/, `${what}: no driver text`)
}

tap.test('closed port: every route 503 + Retry-After, /ready 503, /health 200', async (t) => {
  const port = await closedPort()
  const { app, inst } = await ponteOn(port)
  t.teardown(async () => { await app.close(); await inst.close() })
  for (const route of ROUTES) unavailable(t, await call(app, route), `${route.method} ${route.url}`)
  const ready = await app.inject({ method: 'GET', url: '/ready' })
  t.equal(ready.statusCode, 503, '/ready: 503')
  t.equal(JSON.parse(ready.body).title, 'Not ready', '/ready: says not ready')
  t.match(JSON.parse(ready.body).detail, /cannot be reached/, '/ready: with the reason')
  t.equal((await app.inject({ method: 'GET', url: '/health' })).statusCode, 200, '/health answers')

  // The server "comes back" on that port (here: accepts without answering): the next request
  // tries it again, with no restart of Ponte.
  const back = await silentServer(port)
  t.teardown(() => { back.server.close() })
  unavailable(t, await call(app, ROUTES[0]), 'after the port opens')
  t.equal(back.accepted(), 1, 'Ponte connected again on its own')
})

tap.test('silent port: 503 within connectTimeoutMs, one attempt shared, no socket leaked', async (t) => {
  const silent = await silentServer()
  t.teardown(() => { silent.server.close() })
  const { app, inst } = await ponteOn(silent.port)
  let mostOpen = 0
  const watch = setInterval(() => { mostOpen = Math.max(mostOpen, silent.open()) }, 5)
  t.teardown(() => { clearInterval(watch) })

  // Twenty-six concurrent first requests, every route twice.
  const replies = await Promise.all([...ROUTES, ...ROUTES].map(async (route) => ({ route, r: await call(app, route) })))
  for (const { route, r } of replies) unavailable(t, r, `${route.method} ${route.url} (concurrent)`)
  t.equal(silent.accepted(), 1, 'concurrent first requests share one connection attempt')

  // And again, one after another: each tries again, none leaves its socket open.
  for (const route of ROUTES.slice(0, 4)) unavailable(t, await call(app, route), `${route.method} ${route.url} (again)`)
  const ready = await app.inject({ method: 'GET', url: '/ready' })
  t.equal(ready.statusCode, 503, '/ready: 503 while the server is silent')
  t.ok(mostOpen <= POOL_MAX, `never more than the pool's ${POOL_MAX} sockets open (most: ${mostOpen})`)
  t.ok(silent.accepted() >= 5, `later requests tried again (${silent.accepted()} attempts)`)

  await app.close()
  await inst.close()
  await new Promise((resolve) => setTimeout(resolve, 100))
  t.equal(silent.open(), 0, 'no socket left open after close')
})
