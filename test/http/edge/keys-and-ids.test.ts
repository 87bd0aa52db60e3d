// Request ids, audit lines and key scopes, as an operator and a caller see them: headers on
// the wire and the lines pino really writes.
import t from 'tap'
import { Writable } from 'node:stream'
import { buildApp } from '../../../src/app.js'
import { loadConfig, parseKeyEntry, sha256 } from '../../../src/config.js'
import { createPonte } from '../../../src/ponte.js'
import { openSample } from '../../../src/installation.js'
import type { Test } from '../../helpers/contract.js'

const READER = 'reader-key-0123456789abcdef'
const WRITER = 'writer-key-0123456789abcdef'
const LEGACY = 'plain-key-0123456789abcdef'
const NAME = 'Josefina Quaresma'
const PHONE = '11987651234'

async function loggedApp (t: Test) {
  const inst = await openSample('mappings/clinica-sorriso.yaml')
  const chunks: string[] = []
  const stream = new Writable({ write (chunk, _enc, done) { chunks.push(String(chunk)); done() } })
  const config = loadConfig({
    API_KEYS: `reader:read:${READER},writer:write:sha256:${sha256(WRITER)},${LEGACY}`,
    IDEMPOTENCY_STORE: ':memory:',
    RATE_LIMIT_PER_MINUTE: '0'
  })
  const app = await buildApp(createPonte(config, inst.db, inst.compiled), { logLevel: 'info', logStream: stream })
  t.teardown(async () => { await app.close(); await inst.close() })
  const text = () => chunks.join('')
  return { app, text, lines: () => text().split('\n').filter(Boolean).map((l) => JSON.parse(l)) }
}

t.test('API_KEYS entries: name:scope:key, name:scope:sha256:<hex>, and plain keys still work as write keys', async (t) => {
  t.same(parseKeyEntry(`ops:read:${READER}`), { name: 'ops', scope: 'read', hash: sha256(READER) })
  t.same(parseKeyEntry(`ops:write:sha256:${sha256(WRITER).toUpperCase()}`), { name: 'ops', scope: 'write', hash: sha256(WRITER) })
  t.same(parseKeyEntry(LEGACY), { name: `key-${sha256(LEGACY).slice(0, 8)}`, scope: 'write', hash: sha256(LEGACY) })
  t.same(parseKeyEntry(`sha256:${sha256(LEGACY)}`), { name: `key-${sha256(LEGACY).slice(0, 8)}`, scope: 'write', hash: sha256(LEGACY) })
  // A key that happens to hold colons but no scope word is a plain key.
  t.equal((parseKeyEntry('a:b:c-0123456789abcdef') as { scope: string }).scope, 'write')
  t.match(parseKeyEntry('ops:read:short'), /16 characters/)
  t.match(parseKeyEntry('bad name:read:0123456789abcdef0'), /key name/)
  t.throws(() => loadConfig({ API_KEYS: `a:read:${READER},a:write:${WRITER}` }), /given to two keys/)
})

t.test('a read key reads and gets a 403 problem on every write; a write key writes', async (t) => {
  const { app } = await loggedApp(t)
  const as = (key: string) => ({ authorization: `Bearer ${key}` })
  t.equal((await app.inject({ url: '/professionals', headers: as(READER) })).statusCode, 200)
  for (const [method, url, payload] of [['POST', '/clients', { name: NAME, phone: PHONE }], ['PATCH', '/clients/1', { name: NAME }],
    ['PATCH', '/appointments/1/state', { state: 'CONFIRMED' }], ['POST', '/appointments', { date: '2030-01-01', hour: '10:00', client: '1' }]] as const) {
    const res = await app.inject({ method, url, payload, headers: as(READER) })
    t.equal(res.statusCode, 403, `${method} ${url} with a read key`)
    t.match(res.headers['content-type'], /application\/problem\+json/)
    t.match(JSON.parse(res.body), { status: 403, type: /forbidden$/ })
  }
  const created = await app.inject({ method: 'POST', url: '/clients', payload: { name: NAME, phone: PHONE }, headers: as(WRITER) })
  t.equal(created.statusCode, 200, 'the write key writes')
  t.equal((await app.inject({ method: 'POST', url: '/clients', payload: { name: 'Outra Pessoa', phone: '11987650000' }, headers: as(LEGACY) })).statusCode, 200, 'a plain key is a write key')
  t.equal((await app.inject({ url: '/professionals', headers: { authorization: 'Bearer nope-0123456789abcdef' } })).statusCode, 401)
})

t.test('X-Request-Id: a safe token comes back and is on every log line of that request; anything else gets a UUID', async (t) => {
  const { app, lines } = await loggedApp(t)
  const id = 'caller-trace.42:abc_DEF'
  const res = await app.inject({ url: '/professionals', headers: { authorization: `Bearer ${READER}`, 'x-request-id': id } })
  t.equal(res.headers['x-request-id'], id)
  const mine = lines().filter((l) => l.reqId === id)
  t.ok(mine.length >= 2, 'the request logged its lines under the id')
  t.ok(mine.some((l) => l.msg === 'incoming request') && mine.some((l) => l.msg === 'request completed'), 'both ends of the request')

  for (const unsafe of ['has space', 'x'.repeat(129), 'semi;colon', '']) {
    const r = await app.inject({ url: '/professionals', headers: { authorization: `Bearer ${READER}`, 'x-request-id': unsafe } })
    t.match(r.headers['x-request-id'], /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, `"${unsafe.slice(0, 20)}" replaced by a UUID`)
  }
  const a = await app.inject({ url: '/professionals', headers: { authorization: `Bearer ${READER}` } })
  const b = await app.inject({ url: '/professionals', headers: { authorization: `Bearer ${READER}` } })
  t.not(a.headers['x-request-id'], b.headers['x-request-id'], 'generated ids differ')
  // Every answer, whoever gives it: no key, unknown route, wrong method, bad URL, /health.
  for (const [method, url] of [['GET', '/professionals'], ['GET', '/nowhere'], ['DELETE', '/professionals'], ['GET', '/clients/%E0%A4%A'], ['GET', '/health']] as const) {
    const r = await app.inject({ method, url, headers: { 'x-request-id': 'edge-1' } })
    t.equal(r.headers['x-request-id'], 'edge-1', `${method} ${url} (${r.statusCode}) returns the id`)
  }
})

t.test('one audit line per write: route, record id, outcome and key name; never the key or patient data', async (t) => {
  const { app, lines, text } = await loggedApp(t)
  const writer = { authorization: `Bearer ${WRITER}` }
  const created = await app.inject({ method: 'POST', url: '/clients', payload: { name: NAME, phone: PHONE }, headers: { ...writer, 'x-request-id': 'w-1', 'idempotency-key': 'k1' } })
  const id = JSON.parse(created.body).id
  await app.inject({ method: 'POST', url: '/clients', payload: { name: NAME, phone: PHONE }, headers: { ...writer, 'x-request-id': 'w-2', 'idempotency-key': 'k1' } })
  await app.inject({ method: 'PATCH', url: `/clients/${id}`, payload: { name: `${NAME} Neta` }, headers: { ...writer, 'x-request-id': 'w-3' } })
  await app.inject({ method: 'PATCH', url: '/clients/999999', payload: { name: NAME }, headers: { ...writer, 'x-request-id': 'w-4' } })
  await app.inject({ method: 'POST', url: '/clients', payload: { name: NAME, phone: PHONE }, headers: { authorization: `Bearer ${READER}`, 'x-request-id': 'w-5' } })
  await app.inject({ url: '/clients/1', headers: { ...writer, 'x-request-id': 'r-1' } })

  const audits = lines().filter((l) => l.audit !== undefined)
  t.same(audits.map((l) => [l.reqId, l.audit.method, l.audit.route, l.audit.record, l.audit.outcome, l.audit.key]), [
    ['w-1', 'POST', '/clients', id, 'done', 'writer'],
    ['w-2', 'POST', '/clients', undefined, 'replayed', 'writer'],
    ['w-3', 'PATCH', '/clients/:id', id, 'done', 'writer'],
    ['w-4', 'PATCH', '/clients/:id', '999999', 'refused', 'writer'],
    ['w-5', 'POST', '/clients', undefined, 'refused', 'reader']
  ], 'one line per write, none for the read')
  t.same(audits.map((l) => l.audit.status), [200, 200, 200, 404, 403])
  for (const secret of [WRITER, READER, sha256(WRITER), 'Josefina', 'Quaresma', PHONE, '987651234']) t.notOk(text().includes(secret), `log free of ${secret.slice(0, 12)}…`)
})
