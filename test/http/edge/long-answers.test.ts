// Contract: a long answer is sent as its UTF-8 bytes (services/json.ts encodedOnce), and what
// arrives is exactly what a short answer would have been: Content-Length counts bytes, not
// characters, accented names arrive intact, and the body is the same JSON. Over a real
// socket, reading bytes: inject() would hide a Content-Length that counted characters.
import t from 'tap'
import net from 'node:net'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sampleApp, SAMPLES, TEST_KEY } from '../../helpers/app.js'
import { ENCODE_FROM_CHARS } from '../../../src/services/json.js'

interface Answer { status: number, headers: Record<string, string>, body: Buffer }

async function fetchBytes (port: number, path: string): Promise<Answer> {
  const socket = net.connect(port, '127.0.0.1')
  const chunks: Buffer[] = []
  socket.on('data', (d: Buffer) => chunks.push(d))
  await new Promise((resolve) => {
    socket.once('close', resolve)
    socket.once('error', resolve)
    socket.write(`GET ${path} HTTP/1.1\r\nHost: ponte.test\r\nAuthorization: Bearer ${TEST_KEY}\r\nConnection: close\r\n\r\n`)
  })
  const all = Buffer.concat(chunks)
  const end = all.indexOf('\r\n\r\n')
  const [statusLine, ...lines] = all.subarray(0, end).toString('latin1').split('\r\n')
  const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]))
  return { status: Number(statusLine.split(' ')[1]), headers, body: all.subarray(end + 4) }
}

t.test('a long answer with accented text: Content-Length is its UTF-8 bytes, the JSON is intact', async (t) => {
  // Captured as well (CAPTURE_DIR, as an operator turns it on): the recording keeps the long answer's body.
  const dir = mkdtempSync(join(tmpdir(), 'ponte-long-capture-'))
  const a = await sampleApp(SAMPLES[0], { CAPTURE_DIR: dir })
  t.teardown(async () => { await a.close(); rmSync(dir, { recursive: true, force: true }) })
  await a.app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = a.app.server.address() as net.AddressInfo

  // One day is answered whole (never streamed): the sample's busiest days are tens of KB.
  let long: { path: string, answer: Answer } | undefined
  for (let day = 1; day <= 30 && long === undefined; day++) {
    const path = `/appointments?start=2026-11-${String(day).padStart(2, '0')}&end=2026-11-${String(day).padStart(2, '0')}`
    const answer = await fetchBytes(port, path)
    const text = answer.body.toString('utf8')
    // Accented text makes bytes and characters differ: the case a character count gets wrong.
    if (answer.status === 200 && text.length >= ENCODE_FROM_CHARS && /[^\x00-\x7f]/.test(text)) long = { path, answer } // eslint-disable-line no-control-regex
  }
  if (long === undefined) { t.fail('the sample has a day whose list is long and holds accented text'); return }
  const { answer, path } = long
  const text = answer.body.toString('utf8')
  t.comment(`${path}: ${text.length} characters, ${answer.body.length} bytes`)
  t.ok(answer.body.length > text.length, 'more bytes than characters (accented text)')
  t.equal(Number(answer.headers['content-length']), answer.body.length, 'Content-Length is the bytes sent')
  t.match(answer.headers['content-type'], /^application\/json; charset=utf-8$/, 'JSON, UTF-8')
  t.equal(answer.headers['ponte-interface-version'], '1', 'the interface version header')
  const items = JSON.parse(text) as Array<{ id: string }>
  t.same(items, (await a.app.inject({ url: path, headers: { authorization: `Bearer ${TEST_KEY}` } })).json(), 'the same items as fastify\'s inject sees')

  // A short answer is still a string on the way out: the same framing.
  const short = await fetchBytes(port, `/appointments/${items[0].id}`)
  t.equal(short.status, 200, 'one appointment → 200')
  t.ok(short.body.length < ENCODE_FROM_CHARS, 'a short answer')
  t.equal(Number(short.headers['content-length']), short.body.length, 'its Content-Length is its bytes too')
  t.same(JSON.parse(short.body.toString('utf8')), items[0], 'and it is the same appointment as in the list')

  await a.app.close()
  const recorded = readdirSync(dir).flatMap((f) => readFileSync(join(dir, f), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { url: string, response?: unknown }))
  const exchange = recorded.find((e) => e.url === path)
  t.ok(exchange, 'the long answer\'s exchange is recorded')
  t.ok(Array.isArray(exchange?.response) && (exchange.response as unknown[]).length === items.length, 'with its body, every item')
})

t.test('a list of more than a hundred items answered whole: the same bytes over a socket', async (t) => {
  const a = await sampleApp(SAMPLES[0])
  t.teardown(async () => { await a.close() })
  await a.app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = a.app.server.address() as net.AddressInfo
  // A few days: more than 100 items, fewer than the 1,000 rows a list is read before it may stream.
  const path = '/appointments?start=2026-11-23&end=2026-11-27'
  const answer = await fetchBytes(port, path)
  t.equal(answer.status, 200)
  t.equal(answer.headers['transfer-encoding'], undefined, 'answered whole (not streamed)')
  t.equal(Number(answer.headers['content-length']), answer.body.length, 'Content-Length is the bytes sent')
  t.match(answer.headers['content-type'], /^application\/json; charset=utf-8$/, 'JSON, UTF-8')
  const items = JSON.parse(answer.body.toString('utf8')) as unknown[]
  t.ok(items.length > 100, `more than 100 items (${items.length})`)
  t.ok(/[^\x00-\x7f]/.test(answer.body.toString('utf8')), 'with accented text') // eslint-disable-line no-control-regex
  // Against the list the service builds itself: every item, once, in order, each byte as JSON.stringify writes it.
  const built = await a.ponte.appointments.list({ start: '2026-11-23', end: '2026-11-27' }, undefined)
  t.ok(answer.body.equals(Buffer.from(JSON.stringify(built), 'utf8')), 'byte for byte JSON.stringify of the list the service builds')
  const head = await a.app.inject({ method: 'HEAD', url: path, headers: { authorization: `Bearer ${TEST_KEY}` } })
  t.equal(Number(head.headers['content-length']), answer.body.length, 'HEAD gives the same Content-Length')
})
