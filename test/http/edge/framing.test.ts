// Contract: every error Ponte sends is an RFC 9457 problem of our own types, whoever produced
// it: the router (bad percent-encoding, an overlong id, an unknown method), Node's HTTP parser
// (headers too large, a request that is not HTTP, one too slow to arrive) on the raw socket, or
// the body parser. And the connection keeps its promises: requests pipelined behind an answer
// that closes it are not run unanswered, and a refused body's answer is not lost to a reset.
// Over a real socket: some of these never reach fastify's inject().
import t from 'tap'
import net from 'node:net'
import { sampleApp, SAMPLES, TEST_KEY } from '../../helpers/app.js'
import { Hosted } from '../../helpers/hostile-run.js'
import { MAX_ID_LENGTH } from '../../../src/schemas/queries.js'

const TYPE = /^https:\/\/ponte\.dev\/problems\/[a-z-]+$/

interface Raw { status: number, headers: Record<string, string>, body: any, text: string }

/** Sends bytes as they are and reads until the server closes (every request here says Connection: close). */
async function exchange (port: number, bytes: string | Buffer): Promise<Raw> {
  return parse(await converse(port, bytes))
}

/** The first answer in a connection's text. */
function parse (text: string): Raw {
  const [head, ...rest] = text.split('\r\n\r\n')
  const [statusLine, ...lines] = head.split('\r\n')
  const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]))
  let body: any
  try { body = JSON.parse(rest.join('\r\n\r\n')) } catch { body = undefined }
  return { status: Number(statusLine.split(' ')[1]), headers, body, text }
}

/** Writes `bytes` in one go, or `parts` one every `everyMs`, and reads until the server closes. */
async function converse (port: number, bytes: string | Buffer | string[], everyMs = 0): Promise<string> {
  const socket = net.connect(port, '127.0.0.1')
  let text = ''
  socket.on('data', (d: Buffer) => { text += d.toString() })
  const parts = Array.isArray(bytes) ? [...bytes] : []
  const timer = everyMs > 0 ? setInterval(() => { if (parts.length > 0 && socket.writable) socket.write(parts.shift() as string) }, everyMs) : undefined
  await new Promise((resolve) => { socket.once('close', resolve); socket.once('error', resolve); if (timer === undefined) socket.write(Array.isArray(bytes) ? bytes.join('') : bytes) })
  clearInterval(timer)
  return text
}

/** The status of every answer in a connection's text, in order (each answer has a Content-Length). */
function statuses (received: string): number[] {
  // One character a byte, as Content-Length counts.
  const text = Buffer.from(received).toString('latin1')
  const out: number[] = []
  for (let at = 0; at < text.length;) {
    const end = text.indexOf('\r\n\r\n', at)
    if (end < 0) break
    const head = text.slice(at, end)
    out.push(Number(/^HTTP\/1\.1 (\d{3}) /.exec(head)?.[1]))
    at = end + 4 + Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0)
  }
  return out
}

const get = (path: string, extra = ''): string =>
  `GET ${path} HTTP/1.1\r\nHost: ponte.test\r\nAuthorization: Bearer ${TEST_KEY}\r\nConnection: close\r\n${extra}\r\n`

function isOurProblem (t: any, r: Raw, status: number, what: string): any {
  t.equal(r.status, status, `${what}: ${status}`, { text: r.text.slice(0, 300) })
  t.match(r.headers['content-type'] ?? '', /^application\/problem\+json/, `${what}: problem+json`)
  t.match(r.body?.type, TYPE, `${what}: one of our types (${r.body?.type})`)
  t.equal(r.body?.status, status, `${what}: body.status`)
  t.equal(typeof r.body?.detail, 'string', `${what}: a detail`)
  t.notMatch(r.text, /FST_|"statusCode"|Client Error/, `${what}: no framework code or body`)
  t.equal(r.headers['ponte-interface-version'], '1', `${what}: the interface version header`)
  return r.body
}

t.test('router and HTTP-parser refusals are problems', async (t) => {
  const a = await sampleApp(SAMPLES[0])
  t.teardown(async () => { await a.close() })
  await a.app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = a.app.server.address() as net.AddressInfo

  t.test('a path that is not valid percent-encoded UTF-8 → 400', async (t) => {
    for (const path of ['/clients/%E0%A4%A', '/clients/%', '/professionals/%C0%AF']) isOurProblem(t, await exchange(port, get(path)), 400, `GET ${path}`)
  })

  t.test(`ids up to ${MAX_ID_LENGTH} characters are looked up; longer ones are a 400`, async (t) => {
    const fits = await exchange(port, get(`/clients/${'1'.repeat(MAX_ID_LENGTH)}`))
    isOurProblem(t, fits, 404, `a ${MAX_ID_LENGTH}-character id`)
    for (const n of [MAX_ID_LENGTH + 1, 5000]) {
      const b = isOurProblem(t, await exchange(port, get(`/appointments/${'1'.repeat(n)}`)), 400, `a ${n}-character id`)
      t.equal(b.type, 'https://ponte.dev/problems/invalid-input', 'invalid input')
    }
  })

  t.test('headers over 16 KB → 431 problem, connection closed', async (t) => {
    const r = await exchange(port, get('/professionals', `X-Padding: ${'a'.repeat(17 * 1024)}\r\n`))
    isOurProblem(t, r, 431, 'a 17 KB header')
    t.equal(r.headers.connection, 'close', 'Connection: close')
    t.equal(Number(r.headers['content-length']), Buffer.byteLength(JSON.stringify(r.body)), 'Content-Length is the body\'s')
  })

  t.test('bytes that are not an HTTP request → 400 problem, connection closed', async (t) => {
    for (const [bytes, what] of [
      ['GET /health HTTP/1.1\r\nHost\r\n\r\n', 'a header without a colon'],
      ['BLAH\r\n\r\n', 'no request line'],
      ['GET /health HTTP/9.9\r\nHost: x\r\n\r\n', 'an unknown HTTP version'],
      ['POST /clients HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello', 'two Content-Lengths'],
      ['GET /health HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0000b\r\n\r\n', 'NUL in a header']
    ] as const) {
      const r = await exchange(port, bytes)
      const b = isOurProblem(t, r, 400, what)
      t.equal(b.type, 'https://ponte.dev/problems/malformed-request', `${what}: malformed-request`)
      t.equal(r.headers.connection, 'close', `${what}: Connection: close`)
    }
  })

  t.test('a wrong method on an existing route → 405 with Allow', async (t) => {
    for (const [method, path, allow] of [
      ['DELETE', '/clients/1', ['GET', 'HEAD', 'PATCH']],
      ['PUT', '/clients', ['GET', 'HEAD', 'POST']],
      ['POST', '/professionals', ['GET', 'HEAD']],
      ['DELETE', '/appointments/1', ['GET', 'HEAD']],
      ['GET', '/appointments/1/state', ['PATCH']]
    ] as const) {
      const r = await exchange(port, `${method} ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`)
      isOurProblem(t, r, 405, `${method} ${path}`)
      t.same(r.headers.allow?.split(', '), allow, `${method} ${path}: Allow: ${allow.join(', ')}`)
    }
    // Every method Allow names is one the route answers (not a 404/405).
    for (const method of ['GET', 'HEAD', 'PATCH']) {
      const r = await a.app.inject({ method: method as 'GET', url: '/clients/1', headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' }, ...(method === 'PATCH' ? { payload: '{}' } : {}) })
      t.notOk([404, 405].includes(r.statusCode), `${method} /clients/1 is routed (${r.statusCode})`)
    }
    isOurProblem(t, await exchange(port, get('/nope')), 404, 'an unknown path is still 404')
    isOurProblem(t, await exchange(port, 'DELETE /nope HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'), 404, 'an unknown path with any method is 404')
  })

  t.test('body parser refusals are problems', async (t) => {
    const post = (type: string, body: string): string => `POST /clients HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\nConnection: close\r\nContent-Type: ${type}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
    isOurProblem(t, await exchange(port, post('application/json', '{"name":')), 400, 'truncated JSON')
    isOurProblem(t, await exchange(port, post('application/json', '{"__proto__":{"x":1}}')), 400, 'a prototype key')
    for (const [body, path] of [
      ['{"name":"Ana Repetida","name":"Bia Repetida","phone":"+5511955557101"}', '/body/name'],
      ['{"name":"Ana Repetida","phone":"+5511955557102","n\\u0061me":"Bia"}', '/body/name'],
      ['{"name":"Ana Repetida","phone":"+5511955557103","x":[{"a":1},{"a":2,"b":{"c":1,"c":2}}]}', '/body/x/1/b/c']
    ]) {
      const b = isOurProblem(t, await exchange(port, post('application/json', body)), 400, `a repeated key at ${path}`)
      t.same(b.errors, [{ path, message: 'must appear once' }], `errors[] names ${path}`)
      t.match(b.detail, path, 'so does the detail')
      const phone = (JSON.parse(body) as { phone: string }).phone
      t.same((await a.get(`/clients/search?term=${encodeURIComponent(phone)}`)).body, [], 'no client was created')
    }
    isOurProblem(t, await exchange(port, post('application/xml', '<a/>')), 415, 'XML')
    isOurProblem(t, await exchange(port, post('application/json', `{"name":"${'a'.repeat(70 * 1024)}"}`)), 413, 'a 70 KB body')
  })
})

t.test('what Node would answer by itself: an HTTP/1.1 request without Host, and CONNECT', async (t) => {
  const a = await sampleApp(SAMPLES[0])
  t.teardown(async () => { await a.close() })
  await a.app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = a.app.server.address() as net.AddressInfo

  const noHost = isOurProblem(t, await exchange(port, `GET /clients/1 HTTP/1.1\r\nAuthorization: Bearer ${TEST_KEY}\r\nConnection: close\r\n\r\n`), 400, 'HTTP/1.1 without Host')
  t.same(noHost.errors, [{ path: '/headers/host', message: 'is required' }], 'names the missing header')
  const http10 = await exchange(port, `GET /clients/1 HTTP/1.0\r\nAuthorization: Bearer ${TEST_KEY}\r\n\r\n`)
  t.equal(http10.status, 200, 'HTTP/1.0 has no Host to require: answered')

  const connect = isOurProblem(t, await exchange(port, 'CONNECT evil.example:443 HTTP/1.1\r\nHost: evil.example:443\r\n\r\n'), 405, 'CONNECT')
  t.equal(connect.type, 'https://ponte.dev/problems/method-not-allowed', 'method not allowed')
})

t.test('a request pipelined behind an answer that closes the connection is answered or not run', async (t) => {
  const a = await sampleApp(SAMPLES[0])
  t.teardown(async () => { await a.close() })
  await a.app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = a.app.server.address() as net.AddressInfo
  const post = (body: string, extra = ''): string => `POST /clients HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\nContent-Type: application/json\r\n${extra}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  const cases: Array<[string, string]> = [
    ['a body that is not JSON', post('{"name":')],
    ['a body over the limit', post(`{"name":"${'a'.repeat(70 * 1024)}"}`)],
    ['a request that asked to close', get('/professionals')],
    ['a body that repeats a key', post('{"name":"A","name":"B"}')]
  ]
  for (const [i, [what, first]] of cases.entries()) {
    const phone = `+55119555571${String(10 + i)}`
    const second = post(JSON.stringify({ name: 'Pipelined Client', phone }), 'Connection: close\r\n')
    const answers = statuses(await converse(port, first + second))
    const created = (await a.get(`/clients/search?term=${encodeURIComponent(phone)}`)).body as unknown[]
    if (answers.length === 2) {
      t.equal(answers[1], 200, `behind ${what}: both answered, the POST with its client`)
      t.equal(created.length, 1, `behind ${what}: one client`)
    } else {
      t.equal(answers.length, 1, `behind ${what}: only the first answered (${answers.join(', ')})`)
      t.same(created, [], `behind ${what}: the unanswered POST did not run`)
    }
  }

  // Pipelining itself still works: every request answered, in the order sent.
  const three = await converse(port, get('/professionals').replace('Connection: close\r\n', '') + get('/clients/999999999').replace('Connection: close\r\n', '') + get('/locations'))
  t.same(statuses(three), [200, 404, 200], 'three pipelined GETs: three answers, in order')
  // What Node's parser refuses is answered after the answers due before it.
  t.same(statuses(await converse(port, get('/professionals').replace('Connection: close\r\n', '') + 'BLAH\r\n\r\n')), [200, 400], 'a GET, then bytes that are not HTTP: 200, then 400')
})

t.test('a request that arrives too slowly is cut with a 408 problem', async (t) => {
  const a = await sampleApp(SAMPLES[0], { HEADERS_TIMEOUT_MS: '300', REQUEST_TIMEOUT_MS: '600' })
  t.teardown(async () => { await a.close() })
  await a.app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = a.app.server.address() as net.AddressInfo

  // One byte every 50 ms: the head would take about 5 s in all.
  const head = await converse(port, get('/clients/1').split(''), 50)
  const r1 = isOurProblem(t, parse(head), 408, 'headers one byte at a time')
  t.equal(r1.type, 'https://ponte.dev/problems/request-timeout', 'request-timeout')

  // The head at once, then the body one byte every 100 ms: about 5 s in all.
  const phone = '+5511955557201'
  const body = JSON.stringify({ name: 'Slow Body', phone })
  const slow = await converse(port, [`POST /clients HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`, ...body.split('')], 100)
  isOurProblem(t, parse(slow), 408, 'a body one byte at a time')
  t.same((await a.get(`/clients/search?term=${encodeURIComponent(phone)}`)).body, [], 'the cut request created nothing')
})

t.test('a refused 50 MB body: the 413 reaches the caller every time', async (t) => {
  // Its own process, as in production: a server in the test's process reads in step with the client.
  const server = await Hosted.start(SAMPLES[0])
  t.teardown(async () => { await server.stop() })
  const size = 50 * 1024 * 1024
  // One asks to close the connection, which Node handles apart; every other try sends it.
  const requests = ['Connection: close\r\n', ''].map((close) => Buffer.concat([
    Buffer.from(`POST /clients HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\n${close}Content-Type: application/json\r\nContent-Length: ${size}\r\n\r\n`),
    Buffer.alloc(size, 'a')
  ]))
  const got: number[] = []
  for (let i = 0; i < 10; i++) {
    const text = await converse(server.port, requests[i % 2])
    got.push(statuses(text)[0] ?? 0)
    if (i === 0) isOurProblem(t, parse(text), 413, 'a 50 MB body')
  }
  t.same(got, Array(10).fill(413), '10 tries, 10 answers 413')
})
