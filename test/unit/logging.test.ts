// Logs never hold patient data or keys: checked on what pino really writes, at trace level,
// for requests that put personal data where the log would look (path, parameters, headers,
// a malformed packet).
import t from 'tap'
import net from 'node:net'
import { Writable } from 'node:stream'
import Fastify from 'fastify'
import pino from 'pino'
import { loggerOptions, looksLikeId, safeError } from '../../src/logging.js'
import { buildApp } from '../../src/app.js'
import { sampleApp, TEST_KEY } from '../helpers/app.js'
import type { Test } from '../helpers/contract.js'

const NAME = 'Maria Silva'
const PHONE = '5511955554444'
const CPF = '52998224725'
const EMAIL = 'maria.silva@example.com'
const SECRETS = ['Maria', 'Silva', PHONE, '955554444', '95555-4444', CPF, '529.982.247-25', EMAIL, TEST_KEY]

function sink (): { stream: Writable, lines: () => any[], text: () => string } {
  const chunks: string[] = []
  const stream = new Writable({ write (chunk, _enc, done) { chunks.push(String(chunk)); done() } })
  const text = () => chunks.join('')
  return { stream, text, lines: () => text().split('\n').filter(Boolean).map((l) => JSON.parse(l)) }
}

function noSecrets (t: Test, text: string): void {
  for (const secret of SECRETS) t.notOk(text.includes(secret), `"${secret}" is not in the log`)
}

/** Sends raw bytes on a socket and waits for the server to answer or close. */
async function raw (port: number, bytes: string): Promise<string> {
  return await new Promise((resolve) => {
    let answer = ''
    const socket = net.connect(port, '127.0.0.1', () => socket.write(bytes))
    socket.on('data', (d) => { answer += String(d) })
    socket.on('close', () => resolve(answer))
    socket.on('error', () => resolve(answer))
    setTimeout(() => socket.destroy(), 2000).unref()
  })
}

const MALFORMED = [
  // Content-Length that is no number: the parser refuses after reading the headers.
  `GET /clients/search?term=Maria%20Silva HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\nX-Phone: +${PHONE}\r\nContent-Length: abc\r\n\r\n`,
  // A control character in a header name, after the key and before a body with a patient.
  `POST /clients HTTP/1.1\r\nHost: x\r\nX-API-Key: ${TEST_KEY}\r\nX-Bad\u0001: ${NAME}\r\nContent-Type: application/json\r\n\r\n{"name":"${NAME}","phone":"+${PHONE}","cpf":"${CPF}","email":"${EMAIL}"}`
]

t.test('the err serializer keeps type, code, number and a scrubbed message; nothing else an error carries', async (t) => {
  const err = Object.assign(new Error(`Parse Error: bad header from ${EMAIL}`), {
    code: 'HPE_INVALID_HEADER_TOKEN',
    rawPacket: Buffer.from(`GET / HTTP/1.1\r\nAuthorization: Bearer ${TEST_KEY}\r\nX-Name: ${NAME}\r\n\r\n`),
    bytesParsed: 12,
    request: { headers: { authorization: `Bearer ${TEST_KEY}` }, body: { name: NAME } }
  })
  const s = sink()
  pino(loggerOptions('trace'), s.stream).trace({ err }, 'client error')
  const [line] = s.lines()
  t.same(Object.keys(line.err).sort(), ['code', 'message', 'stack', 'type'])
  t.match(line.err, { type: 'Error', code: 'HPE_INVALID_HEADER_TOKEN', message: /^Parse Error: bad header from …@…$/ })
  noSecrets(t, s.text())
  // Already safe objects (problems.ts logs safeError(...)) pass unchanged.
  t.same(safeError(safeError(err)), safeError(err))
})

t.test('database errors are logged without the values they quote', async (t) => {
  const err = Object.assign(new Error("Conversion failed when converting the varchar value 'Maria da Silva' to data type int."), { number: 245 })
  const logged = safeError(err)
  t.notMatch(JSON.stringify(logged), 'Maria')
  t.match(logged, { type: 'Error', number: 245, message: /converting the varchar value '…' to data type int/ })
  t.notMatch(safeError(new Error(`no client with phone +55 (11) 95555-4444 or cpf ${CPF}`)).message, /5555|4444|982/)
})

t.test('ids are logged only when they look like ids', async (t) => {
  for (const id of ['1', '189340', 'CLN-01', '3-1205']) t.ok(looksLikeId(id), `${id} is logged`)
  for (const id of ['+5511955554444', '5511955554444', '95555444', CPF, '529.982.247-25', 'Maria Silva', 'Maria', EMAIL, 'x'.repeat(41)]) {
    t.notOk(looksLikeId(id), `${id} is withheld`)
  }
})

t.test('a served app at trace: route patterns, ids and known parameters only, whatever the request holds', async (t) => {
  const a = await sampleApp('mappings/clinica-sorriso.yaml')
  t.teardown(() => a.close())
  const s = sink()
  const app = await buildApp(a.ponte, { logLevel: 'trace', logStream: s.stream })
  t.teardown(() => app.close())
  await app.listen({ port: 0, host: '127.0.0.1' })
  const port = (app.server.address() as net.AddressInfo).port
  const key = { authorization: `Bearer ${TEST_KEY}`, 'x-name': NAME, 'x-phone': `+${PHONE}` }
  const urls = [
    '/clients/+5511955554444',
    '/clients/Maria%20Silva',
    '/clients/Maria',
    `/clients/${CPF}`,
    '/clients/search?term=%2B5511955554444',
    '/clients/search?TERM=Maria%20Silva',
    '/clients/search?term[]=Maria%20Silva',
    `/clients/search?q=${encodeURIComponent(EMAIL)}`,
    '/appointments?start=2026-03-02&end=2026-03-06&client=1&professional=Maria%20Silva',
    '/appointments?start=Maria%20Silva&end=2026-03-06',
    '/no-such-route/Maria%20Silva/5511955554444?start=2026-03-02',
    '/clients/7'
  ]
  for (const url of urls) await app.inject({ url, headers: key })
  await app.inject({ method: 'POST', url: '/clients', headers: key, payload: { name: NAME, phone: `+${PHONE}`, cpf: CPF, email: EMAIL } })
  for (const bytes of MALFORMED) await raw(port, bytes)

  const text = s.text()
  noSecrets(t, text)
  const reqs = s.lines().filter((l) => l.req).map((l) => l.req)
  t.ok(reqs.length >= urls.length, 'every request has its line')
  t.ok(reqs.every((r) => r.url === undefined && r.headers === undefined && r.body === undefined), 'no URL, header or body in any request line')
  t.ok(reqs.some((r) => r.route === '/clients/:id' && r.params?.id === '7'), 'an id that looks like one is logged')
  t.ok(reqs.some((r) => r.route === '/clients/:id' && r.params?.id === '[withheld]'), 'a phone or name where an id goes is withheld')
  t.ok(reqs.some((r) => r.route === '[unmatched]' && r.params === undefined), 'an unmatched path is a fixed marker')
  t.ok(reqs.some((r) => r.route === '/appointments' && r.query?.start === '2026-03-02' && r.query?.professional === '[withheld]' && r.otherParams === 1),
    'known parameters with their values (withheld when not the expected shape), the others counted')
  t.ok(reqs.some((r) => r.route === '/clients/search' && r.otherParams === 1 && r.query === undefined), 'term (and TERM, term[], q) only counted')
})

t.test('the framework\'s own client-error log line (rawPacket and all) goes through the allow-list', async (t) => {
  // Fastify's default clientErrorHandler logs the parser's error, raw bytes included, at trace.
  const s = sink()
  const app = Fastify({ logger: { ...loggerOptions('trace'), stream: s.stream } })
  app.get('/clients/search', async () => [])
  t.teardown(() => app.close())
  await app.listen({ port: 0, host: '127.0.0.1' })
  for (const bytes of MALFORMED) await raw((app.server.address() as net.AddressInfo).port, bytes)
  const errors = s.lines().filter((l) => l.err)
  t.ok(errors.length >= 2, 'each malformed request is logged')
  t.ok(errors.every((l) => l.err.rawPacket === undefined && typeof l.err.code === 'string'), 'with its code, without its raw bytes')
  noSecrets(t, s.text())
})
