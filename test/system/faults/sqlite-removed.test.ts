// Issue 7, defect 4: the SQLite file removed, moved or replaced while Ponte runs. Requests
// that need the database get a 503 problem instead of reading on from the orphaned file (or a
// 500 SQLITE_READONLY_DBMOVED on writes), /ready says why it is not ready, lookups already
// read are served from the catalogue, and when a database file is back at the path Ponte
// opens it and recovers, without a restart.
import { copyFileSync, mkdtempSync, renameSync, rmSync, unlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import tap, { type Test } from 'tap'
import { loadConfig } from '../../../src/config.js'
import { createPonte } from '../../../src/ponte.js'
import { buildApp } from '../../../src/app.js'
import { openInstallation, sampleFixture } from '../../../src/installation.js'
import { createSqliteFromFixture } from '../../../src/sql/sqlite/load.js'
import { Catalog } from '../../../src/services/catalog.js'
import { DatabaseUnavailableError } from '../../../src/errors.js'
import { SAMPLES, TEST_KEY } from '../../helpers/app.js'

// The path is checked at most once a second: wait a little longer than that.
const NOTICED_MS = 1100
const pause = async (ms: number): Promise<void> => { await new Promise((resolve) => setTimeout(resolve, ms)) }

async function installation (t: Test) {
  const dir = mkdtempSync(join(tmpdir(), 'ponte-removed-'))
  const file = join(dir, 'clinic.db')
  createSqliteFromFixture(sampleFixture(SAMPLES[0]), file)
  const url = `sqlite:${file}`
  const inst = await openInstallation(SAMPLES[0], url)
  const config = loadConfig({ API_KEYS: TEST_KEY, MAPPING: SAMPLES[0], DATABASE_URL: url, IDEMPOTENCY_STORE: ':memory:', RATE_LIMIT_PER_MINUTE: '0' })
  const app = await buildApp(createPonte(config, inst.db, inst.compiled), { logLevel: false })
  t.teardown(async () => { await app.close(); await inst.close(); rmSync(dir, { recursive: true, force: true }) })
  const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const res = await app.inject({ method, url, payload, headers: { authorization: `Bearer ${TEST_KEY}` } })
    return { status: res.statusCode, body: JSON.parse(res.body), headers: res.headers }
  }
  return { dir, file, inst, call }
}

const APPOINTMENTS = '/appointments?start=2027-03-01&end=2027-03-05'
const clientNamed = (name: string, n: number) => ({ name, phone: `+55119876500${String(n).padStart(2, '0')}` })

for (const how of ['deleted', 'moved'] as const) {
  tap.test(`database file ${how} mid-run: 503 for every request, /ready not ready, back when a file returns`, async (t) => {
    const { dir, file, call } = await installation(t)
    t.equal((await call('GET', APPOINTMENTS)).status, 200, 'reads before')
    const lookups = await call('GET', '/professionals')
    t.equal(lookups.status, 200, 'lookups before')
    t.equal((await call('GET', '/ready')).status, 200, 'ready before')

    const kept = join(dir, 'kept.db')
    if (how === 'deleted') { copyFileSync(file, kept); unlinkSync(file) } else renameSync(file, kept)
    await pause(NOTICED_MS)

    for (const [method, url, body] of [['GET', APPOINTMENTS], ['GET', '/clients/search?term=Maria'], ['POST', '/clients', clientNamed('Ana Removida', 1)]] as const) {
      const r = await call(method, url, body)
      t.equal(r.status, 503, `${method} ${url}: 503, not read from the ${how} file`)
      t.equal(r.body.type, 'https://ponte.dev/problems/database-unavailable', `${method} ${url}: database-unavailable`)
      t.ok(Number(r.headers['retry-after']) > 0, `${method} ${url}: Retry-After`)
      t.notMatch(JSON.stringify(r.body), new RegExp(dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')), `${method} ${url}: no path in the problem`)
    }
    const ready = await call('GET', '/ready')
    t.equal(ready.status, 503, '/ready: 503')
    t.equal(ready.body.title, 'Not ready', '/ready: not ready')
    t.match(ready.body.detail, /removed or moved/, '/ready: with the reason')
    const cached = await call('GET', '/professionals')
    t.equal(cached.status, 200, 'lookups already read: served from the catalogue')
    t.same(cached.body, lookups.body, 'the same lookups')

    // A database file is back at the path (a copy: another inode): Ponte opens it.
    copyFileSync(kept, file)
    await pause(NOTICED_MS)
    t.equal((await call('GET', APPOINTMENTS)).status, 200, 'reads again')
    t.equal((await call('GET', '/ready')).status, 200, 'ready again')
    const created = await call('POST', '/clients', clientNamed('Ana Restaurada', 2))
    t.equal(created.status, 200, 'writes again')
    const restored = new BetterSqlite3(file, { readonly: true })
    t.teardown(() => restored.close())
    const found = await call('GET', `/clients/${encodeURIComponent(created.body.id)}`)
    t.equal(found.status, 200, 'the new client reads back')
    t.equal(found.body.name, 'Ana Restaurada', 'from the file now at the path')
  })
}

tap.test('a file replaced by one that is not a database: 503, and /ready says not ready', async (t) => {
  const { file, call } = await installation(t)
  t.equal((await call('GET', APPOINTMENTS)).status, 200, 'reads before')
  unlinkSync(file)
  copyFileSync(new URL(import.meta.url).pathname, file) // this test's own source: not SQLite
  await pause(NOTICED_MS)
  const r = await call('GET', APPOINTMENTS)
  t.equal(r.status, 503, 'reads: 503')
  t.equal((await call('POST', '/clients', clientNamed('Ana Estranha', 3))).status, 503, 'writes: 503')
  t.equal((await call('GET', '/ready')).status, 503, '/ready: 503')
})

tap.test('the lookup catalogue: stale lookups while the database is gone, a typed 503 when it never had any', async (t) => {
  const { dir, file, inst } = await installation(t)
  const warm = new Catalog(inst.compiled, inst.db, 50)
  const before = await warm.snapshot(undefined)
  renameSync(file, join(dir, 'away.db'))
  await pause(NOTICED_MS) // past the TTL too: a refresh is due, and fails
  t.equal(await warm.snapshot(undefined), before, 'the stale snapshot is served')
  const cold = new Catalog(inst.compiled, inst.db, 50)
  const failure = await cold.snapshot(undefined).then(() => undefined, (err: unknown) => err)
  t.ok(failure instanceof DatabaseUnavailableError, 'a cold catalogue fails with the database\'s 503, not a plain Error')
})
