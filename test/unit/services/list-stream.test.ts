// Issue 13: how a streamed appointment list fails. Before its first byte, an error is still a
// problem with its status; after it, the socket is destroyed (never a shorter body that parses
// as JSON) and the log says so without row data; a client that stops reading is cut; stored
// dates out of calendar order are answered whole when seen before the first byte.
import { Writable } from 'node:stream'
import { request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import tap, { type Test } from 'tap'
import { loadConfig } from '../../../src/config.js'
import { createPonte } from '../../../src/ponte.js'
import { buildApp } from '../../../src/app.js'
import { openSample } from '../../../src/installation.js'
import { DatabaseUnavailableError } from '../../../src/errors.js'
import { streamList, StreamOrderError, StreamStalledError } from '../../../src/services/list-stream.js'
import type { AppointmentRow } from '../../../src/mapping/compile/index.js'
import type { Row } from '../../../src/db/database.js'
import { SAMPLES, TEST_KEY } from '../../helpers/app.js'

const LONG = '/appointments?start=2026-10-01&end=2026-12-31'

async function served (t: Test, failAfterBlocks: number): Promise<{ port: number, logs: any[] }> {
  const inst = await openSample(SAMPLES[0])
  const ponte = createPonte(loadConfig({ API_KEYS: TEST_KEY, MAPPING: SAMPLES[0], IDEMPOTENCY_STORE: ':memory:', RATE_LIMIT_PER_MINUTE: '0' }), inst.db, inst.compiled)
  const stream = ponte.db.stream?.bind(ponte.db)
  if (!stream) throw new Error('SQLite streams')
  // The database fails after `failAfterBlocks` blocks (the file gone mid-read).
  ;(ponte.db as { stream: typeof stream }).stream = async function * (statement, args) {
    let n = 0
    for await (const rows of stream(statement, args)) {
      if (n++ >= failAfterBlocks) throw new DatabaseUnavailableError('The database file was removed or moved.')
      yield rows
    }
  }
  const logs: any[] = []
  const logStream = new Writable({ write (chunk, _enc, done) { for (const l of String(chunk).split('\n')) if (l) logs.push(JSON.parse(l)); done() } })
  const app = await buildApp(ponte, { logLevel: 'info', logStream })
  await app.listen({ port: 0, host: '127.0.0.1' })
  t.teardown(async () => { await app.close(); await inst.close() })
  return { port: (app.server.address() as AddressInfo).port, logs }
}

async function fetchRaw (port: number, path: string): Promise<{ status: number, headers: Record<string, unknown>, body: string, error?: string }> {
  return await new Promise((resolve, reject) => {
    const req = httpRequest({ port, host: '127.0.0.1', path, headers: { 'x-api-key': TEST_KEY } }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (c) => { body += c })
      res.on('end', () => { resolve({ status: res.statusCode ?? 0, headers: res.headers, body }) })
      res.on('error', (err) => { resolve({ status: res.statusCode ?? 0, headers: res.headers, body, error: err.message }) })
      res.on('aborted', () => { resolve({ status: res.statusCode ?? 0, headers: res.headers, body, error: 'aborted' }) })
    })
    req.on('error', reject)
    req.end()
  })
}

tap.test('an error after the first bytes destroys the socket and is logged; before them it is a problem', async (t) => {
  const late = await served(t, 1)
  const cut = await fetchRaw(late.port, LONG)
  t.equal(cut.status, 200, 'the headers had gone')
  t.ok(cut.error !== undefined, `the response was cut (${cut.error ?? 'not cut'})`)
  t.ok(cut.body.startsWith('[{'), 'bytes had been sent')
  t.throws(() => JSON.parse(cut.body), 'what arrived does not parse as JSON')
  await new Promise((resolve) => setTimeout(resolve, 100))
  const line = late.logs.find((l) => l.err !== undefined && l.level >= 40)
  t.ok(line, 'the failure is logged')
  t.match(line?.err?.message, /removed or moved/, 'as its error, allow-listed')
  t.notOk(late.logs.some((l) => /"(name|phone|cpf|NOME)"/.test(JSON.stringify(l))), 'no row data logged')
  // The connection is free again: the same server answers a short list.
  const next = await fetchRaw(late.port, '/appointments?start=2026-11-27&end=2026-11-27&minimal=true')
  t.equal(next.status, 200)
  t.doesNotThrow(() => JSON.parse(next.body))

  const early = await served(t, 0)
  const refused = await fetchRaw(early.port, LONG)
  t.equal(refused.status, 503, 'an error before any row is a 503')
  t.match(refused.headers['content-type'], /application\/problem\+json/)
  t.equal(JSON.parse(refused.body).type, 'https://ponte.dev/problems/database-unavailable')
})

// Rows of a synthetic read: each row is its AppointmentRow already.
const row = (id: number, date: string, hour: string): Row => ({ id: String(id), date, hour, state: 'WAITING', refs: {} })
const read = (r: Row): AppointmentRow => r as unknown as AppointmentRow
const text = (items: AppointmentRow[]): string => items.map((a) => JSON.stringify({ id: a.id, date: a.date, hour: a.hour })).join(',')
const whole = async (found: AppointmentRow[]): Promise<string> => `[${[...found].sort((x, y) => x.date < y.date ? -1 : x.date > y.date ? 1 : x.hour < y.hour ? -1 : x.hour > y.hour ? 1 : 0).map((a) => text([a])).join(',')}]`

function blocks (rows: Row[], size = 500): { iterable: AsyncIterable<Row[]>, returned: () => boolean } {
  let returned = false
  return {
    returned: () => returned,
    iterable: {
      [Symbol.asyncIterator] () {
        let i = 0
        return {
          async next () { if (i >= rows.length) return { done: true, value: undefined }; const b = rows.slice(i, i + size); i += size; return { done: false, value: b } },
          async return () { returned = true; return { done: true, value: undefined } }
        }
      }
    }
  }
}

async function drain (r: unknown): Promise<string> {
  if (typeof r === 'string') return r
  let out = ''
  for await (const c of r as AsyncIterable<string | Buffer>) out += String(c)
  return out
}

tap.test('order: days sorted by hour, the same text as the whole list; dates out of order', async (t) => {
  // 3,000 rows over 6 days, hours out of text order within each day ('8:30' after '09:00' as stored).
  const rows: Row[] = []
  let id = 1
  for (let d = 1; d <= 6; d++) for (let i = 0; i < 500; i++) rows.push(row(id++, `2026-11-0${d}`, i % 2 === 0 ? `1${i % 10}:00` : `0${i % 10}:30`))
  const streamed = await drain(await streamList(blocks(rows).iterable, read, () => true, text, whole))
  t.equal(streamed, await whole(rows.map(read)), 'streamed text equals the whole list sorted')

  const early = [...rows]
  early.splice(100, 0, row(9999, '2026-10-31', '08:00'))
  const b1 = blocks(early)
  const r1 = await streamList(b1.iterable, read, () => true, text, whole)
  t.type(r1, 'string', 'an earlier date within the first 1,000 rows: answered whole')
  t.equal(r1, await whole(early.map(read)))

  const late = [...rows]
  late.splice(2500, 0, row(9999, '2026-10-31', '08:00'))
  const b2 = blocks(late)
  const r2 = await streamList(b2.iterable, read, () => true, text, whole)
  await t.rejects(drain(r2), StreamOrderError, 'later: the stream fails (the socket is then destroyed)')
  t.ok(b2.returned(), 'and leaves the read loop')
})

tap.test('text beyond ASCII: the streamed bytes are the whole list\'s UTF-8, whatever the chunks', async (t) => {
  // Each block is encoded from its pieces straight into one Buffer: a piece's bytes counted
  // wrong would shift or cut the next one. Two-byte (ã), three-byte (€, 中) and four-byte (😀) characters.
  const rows: Row[] = []
  for (let i = 0; i < 3000; i++) {
    const r = row(i, `2026-11-${String(1 + Math.floor(i / 150)).padStart(2, '0')}`, `${String(8 + (i % 10)).padStart(2, '0')}:00`)
    r.id = `${['São', '€', '中文', '😀', 'a'][i % 5]}-${i}`
    rows.push(r)
  }
  const r = await streamList(blocks(rows).iterable, read, () => true, text, whole)
  if (typeof r === 'string') { t.fail('streamed'); return }
  const chunks: Buffer[] = []
  for await (const c of r as AsyncIterable<Buffer>) chunks.push(c)
  t.ok(chunks.length > 1, `several chunks (${chunks.length})`)
  const expected = Buffer.from(await whole(rows.map(read)), 'utf8')
  t.ok(Buffer.concat(chunks).equals(expected), 'byte for byte the whole list\'s UTF-8')
})

tap.test('a client that reads nothing is cut after the stall bound, and the read loop is left', async (t) => {
  const rows: Row[] = []
  for (let i = 0; i < 3000; i++) rows.push(row(i, `2026-11-${String(1 + Math.floor(i / 200)).padStart(2, '0')}`, '09:00'))
  const b = blocks(rows)
  const r = await streamList(b.iterable, read, () => true, text, whole, 200)
  if (typeof r === 'string') { t.fail('streamed'); return }
  // The stall timer is unref'd (it never keeps a server alive): this one keeps the test alive.
  const alive = setTimeout(() => {}, 5000)
  const err = await new Promise<Error>((resolve) => { r.once('error', resolve); r.read(0) })
  clearTimeout(alive)
  t.type(err, StreamStalledError)
  await new Promise((resolve) => setTimeout(resolve, 20))
  t.ok(b.returned(), 'the read loop was left')
})

tap.test('other requests get a turn within every block: rows taken between two turns of the event loop are bounded', async (t) => {
  // Blocks of 1,000 rows, as MariaDB's and SQL Server's streamed reads give them. Eight long
  // lists at once, each taking a whole block in one piece, held /health (and every other
  // request) behind them on MariaDB. A stall detector, not a speed figure: it counts the rows
  // read between two turns of the event loop (an I/O callback such as /health's runs in every
  // turn), here while two lists stream at once.
  const rows: Row[] = []
  for (let i = 0; i < 6000; i++) rows.push(row(i, `2026-11-${String(1 + Math.floor(i / 200)).padStart(2, '0')}`, '09:00'))
  let sinceTurn = 0
  let most = 0
  let turning = true
  const turn = (): void => { most = Math.max(most, sinceTurn); sinceTurn = 0; if (turning) setImmediate(turn) }
  setImmediate(turn)
  const counted = (r: Row): AppointmentRow => { sinceTurn++; return read(r) }
  const lists = await Promise.all([0, 1].map(async () => await streamList(blocks(rows, 1000).iterable, counted, () => true, text, whole)))
  const bodies = await Promise.all(lists.map(drain))
  turning = false
  most = Math.max(most, sinceTurn)
  for (const body of bodies) t.equal(body, await whole(rows.map(read)), 'the same text as the whole list')
  t.ok(most <= 500, `at most half a block between two turns, over both lists (${most} rows)`)
})
