// Issue 13: long appointment lists are streamed on MariaDB and PostgreSQL too, not only on
// SQLite: a portal read 8,000 rows at a time (PostgreSQL) or a paused socket (MariaDB) holds the rows on the server while
// a block waits to be sent. Sample 1 grown to 20,000 appointments and loaded into a scratch
// database on each local server; two apps on it, one streaming (the default) and one building
// each list whole (STREAM_LISTS=false): the bytes must be the same, a client that leaves
// mid-list must give its connection back, and a connection the server kills mid-list must cut
// the answer (never a shorter body that parses), after which the next request is served.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import tap from 'tap'
import { grown } from '../../../bench/grow.js'
import { toFixture } from '../../../bench/grow/kit.js'
import { loadConfig } from '../../../src/config.js'
import { createPonte, type Ponte } from '../../../src/ponte.js'
import { buildApp } from '../../../src/app.js'
import { openInstallation } from '../../../src/installation.js'
import type { Database } from '../../../src/db/database.js'
import { REAL_SERVERS, type ServerName } from '../../helpers/real-servers.js'
import { SAMPLES, TEST_KEY } from '../../helpers/app.js'

const MAPPING = SAMPLES[0]
/** The longest range a list may span (92 days). */
const LONG = '/appointments?start=2026-10-01&end=2026-12-31'

interface Served { port: number, ponte: Ponte, db: Database, close: () => Promise<void> }

async function serve (url: string, env: Record<string, string>): Promise<Served> {
  const inst = await openInstallation(MAPPING, url)
  const ponte = createPonte(loadConfig({ API_KEYS: TEST_KEY, MAPPING, IDEMPOTENCY_STORE: ':memory:', RATE_LIMIT_PER_MINUTE: '0', ...env }), inst.db, inst.compiled)
  const app = await buildApp(ponte, { logLevel: false })
  await app.listen({ port: 0, host: '127.0.0.1' })
  return { port: (app.server.address() as AddressInfo).port, ponte, db: inst.db, close: async () => { await app.close(); await inst.close() } }
}

interface Answer { status: number, headers: Record<string, unknown>, body: string, error?: string }

/** GET; `pauseAfterFirst`: stop reading after the first chunk, run it, then read on. */
async function get (port: number, path: string, pauseAfterFirst?: () => Promise<void>): Promise<Answer> {
  return await new Promise((resolve, reject) => {
    const req = httpRequest({ port, host: '127.0.0.1', path, headers: { 'x-api-key': TEST_KEY } }, (res) => {
      let body = ''
      let first = true
      const done = (error?: string): void => { resolve({ status: res.statusCode ?? 0, headers: res.headers, body, ...(error ? { error } : {}) }) }
      res.setEncoding('utf8')
      res.on('data', (c: string) => {
        body += c
        if (first && pauseAfterFirst) {
          first = false
          res.pause()
          void pauseAfterFirst().then(() => res.resume(), reject)
        }
      })
      res.on('end', () => { done() })
      res.on('error', (err) => { done(err.message) })
      res.on('aborted', () => { done('aborted') })
    })
    req.on('error', reject)
    req.end()
  })
}

/** Reads the first chunk of a long list, then goes away. */
async function leaveEarly (port: number, path: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const req = httpRequest({ port, host: '127.0.0.1', path, headers: { 'x-api-key': TEST_KEY } }, (res) => {
      res.once('data', () => { req.destroy(); resolve() })
    })
    req.on('error', (err) => { if (!req.destroyed) reject(err) })
    req.end()
  })
}

const parses = (text: string): boolean => { try { JSON.parse(text); return true } catch { return false } }

tap.test('streamed lists on the database servers', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ponte-stream-servers-'))
  t.teardown(() => { rmSync(dir, { recursive: true, force: true }) })
  const fixture = join(dir, 'grown.json')
  writeFileSync(fixture, JSON.stringify(toFixture(grown({ sample: 'clinica-sorriso', clients: 2000, appointments: 60_000, professionals: 40, busyDayAppointments: 120, seed: 5 }))))

  for (const name of ['postgres', 'mysql'] as ServerName[]) {
    await t.test(REAL_SERVERS[name].label, async (t) => {
      const server = REAL_SERVERS[name]
      await server.reachable()
      const scratch = await server.scratch(fixture)
      t.teardown(async () => { await scratch.drop() })
      const streamed = await serve(scratch.url, {})
      t.teardown(streamed.close)
      const whole = await serve(scratch.url, { STREAM_LISTS: 'false' })
      t.teardown(whole.close)
      t.ok(streamed.ponte.db.stream, 'the driver streams')

      const paths = [
        LONG,
        `${LONG}&minimal=true`,
        '/appointments?start=2026-10-01&end=2026-12-31&professional=3&minimal=true',
        '/appointments?start=2026-01-01&end=2026-06-30&state=CONFIRMED&minimal=true',
        '/appointments?start=2026-11-27&end=2026-11-27',
        '/appointments?start=2030-01-01&end=2030-01-31'
      ]
      for (const path of paths) {
        const [a, b] = [await get(streamed.port, path), await get(whole.port, path)]
        t.equal(a.status, b.status, `${path}: same status`)
        t.ok(a.body === b.body, `${path}: same bytes (${a.body.length})`)
      }
      const year = await get(streamed.port, LONG)
      t.equal(year.headers['transfer-encoding'], 'chunked', '92 days of appointments are streamed')
      t.equal(year.headers['content-length'], undefined)
      const items = JSON.parse(year.body) as unknown[]
      t.ok(items.length > 5000, `${items.length} appointments in 92 days`)
      t.ok(JSON.parse((await get(whole.port, LONG)).body).length === items.length)

      // More clients leaving mid-list than the pool has connections (5): each gave its own back.
      for (let i = 0; i < 7; i++) await leaveEarly(streamed.port, LONG)
      const after = await get(streamed.port, '/appointments?start=2026-11-27&end=2026-11-27')
      t.equal(after.status, 200, 'served after seven clients left mid-list')
      for (let i = 0; i < 50 && (streamed.db.pool?.().inUse ?? 0) > 0; i++) await new Promise((resolve) => setTimeout(resolve, 20))
      t.equal(streamed.db.pool?.().inUse, 0, 'no connection is still held')

      // The server kills Ponte's connections while a list is being sent.
      const admin = await server.side(scratch.database)
      t.teardown(async () => { await admin.close() })
      let killed = 0
      const cut = await get(streamed.port, LONG, async () => {
        // Long enough for the socket's buffers to fill: Ponte is then waiting to send the next block.
        await new Promise((resolve) => setTimeout(resolve, 300))
        killed = await server.kill(admin, scratch.database)
      })
      t.ok(killed >= 1, `${killed} connection(s) killed mid-list`)
      t.equal(cut.status, 200, 'the headers had gone')
      const wholeBody = (await get(whole.port, LONG)).body
      t.ok(cut.error !== undefined || !parses(cut.body) || cut.body === wholeBody,
        `${cut.error !== undefined ? `cut (${cut.error})` : parses(cut.body) ? 'whole' : 'cut'}, never a shorter list that parses (${cut.body.length} of ${wholeBody.length} bytes)`)
      // PostgreSQL keeps the rows behind its portal, so the kill always falls mid-list there;
      // MariaDB pushes a result into the sockets' buffers, which may already hold all of it.
      if (name === 'postgres') t.ok(cut.error !== undefined && cut.body.length < wholeBody.length, 'PostgreSQL: the answer was cut')
      const next = await get(streamed.port, `${LONG}&minimal=true`)
      t.equal(next.status, 200, 'the next list is served')
      t.ok(next.body === (await get(whole.port, `${LONG}&minimal=true`)).body, 'whole and the same')
    })
  }
})
