// A catalogue Ponte cannot read when a write needs it: the write fails with the database's
// 503 and writes nothing (never goes in unfitted), and once the catalogue can be read again the
// next write is fitted to its columns. Started as the server starts (openInstallation, then
// the catalogue its structural check read, here none). PostgreSQL: the login loses its
// privilege on the catalogue (pg_index) while writes still work — the case where an unfitted
// write would have gone in. Every test database: the database is down at start and at the
// first write (a stopped proxy; SQLite locked by another process), then back.
import t, { type Test } from 'tap'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import { testDialects } from '../../helpers/contract.js'
import { scratchOn, type ServerScratch } from '../../helpers/scratch-servers.js'
import { narrowCodeMapping, narrowCodeSchema } from '../../helpers/narrow-code-clinic.js'
import { tcpProxy } from '../../helpers/tcp-proxy.js'
import { holdLock } from '../../helpers/sqlite-lock.js'
import { openInstallation } from '../../../src/installation.js'
import { createPonte } from '../../../src/ponte.js'
import { buildApp } from '../../../src/app.js'
import { loadConfig } from '../../../src/config.js'

const KEY = 'catalogue-key-0123456789abcdef'
const DAY = '2031-03-04'
// The professional's id is kept in a one-character text column: 10 does not fit, 7 does.
const SCHEMA = narrowCodeSchema([[7, 'Dr. Seven'], [10, 'Dr. Ten']])
const MAPPING = narrowCodeMapping('catalogue-unreadable')

const paths = (body: any): string[] => (body.errors ?? []).map((e: { path: string }) => e.path)

/** Ponte over `url` as src/server.ts starts it: `catalogRead` says whether start-up could read the catalogue. */
async function serve (t: Test, url: string): Promise<{ catalogRead: boolean, book: (professional: string, hour: string) => Promise<{ status: number, body: any }> }> {
  const dir = mkdtempSync(join(tmpdir(), 'ponte-catalogue-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  writeFileSync(join(dir, 'mapping.yaml'), MAPPING)
  const inst = await openInstallation(join(dir, 'mapping.yaml'), url)
  const config = loadConfig({ API_KEYS: KEY, IDEMPOTENCY_STORE: ':memory:', RATE_LIMIT_PER_MINUTE: '0', STATEMENT_TIMEOUT_MS: '2000' })
  const app = await buildApp(createPonte(config, inst.db, inst.compiled, undefined, inst.catalog), { logLevel: false })
  t.teardown(async () => { await app.close(); await inst.close() })
  return {
    catalogRead: inst.catalog !== undefined,
    book: async (professional, hour) => {
      const res = await app.inject({ method: 'POST', url: '/appointments', headers: { 'x-api-key': KEY }, payload: { date: DAY, hour, client: '1', professional } })
      return { status: res.statusCode, body: JSON.parse(res.body) }
    }
  }
}

/** After recovery: 10 refused by the fitted length naming the professional, 7 stored; `s` read directly. */
async function fittedAgain (t: Test, s: ServerScratch, book: (professional: string, hour: string) => Promise<{ status: number, body: any }>): Promise<void> {
  const long = await book('10', '09:00')
  t.equal(long.status, 400, 'after recovery: the id too long for its column is refused')
  t.same(paths(long.body), ['/body/professional'], 'naming the professional alone')
  t.match(long.body.errors?.[0]?.message, /at most 1 characters/, 'by the column\'s length: the write was fitted')
  const fits = await book('7', '09:30')
  t.equal(fits.status, 200, `and one that fits is stored (${JSON.stringify(fits.body)})`)
  t.same(await s.rows('SELECT dcode, ahour FROM appt'), [{ dcode: '7', ahour: '09:30' }], 'only that one, as its digits')
}

if (testDialects().includes('postgres')) {
  t.test('postgres: the login loses its catalogue privilege; writes still work, yet none goes in unfitted', async (t) => {
    const s = await scratchOn(t, 'postgres', SCHEMA, MAPPING)
    const role = `ponte_cat_${randomBytes(4).toString('hex')}`
    await s.rows(`CREATE ROLE ${role} LOGIN`)
    t.teardown(async () => { await s.rows(`DROP OWNED BY ${role}`); await s.rows(`DROP ROLE ${role}`) })
    await s.rows(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${role}`)
    await s.rows('REVOKE SELECT ON pg_catalog.pg_index FROM PUBLIC')
    const url = new URL(s.url)
    url.username = role
    const { catalogRead, book } = await serve(t, url.toString())
    t.notOk(catalogRead, 'start-up could not read the catalogue (and started anyway, as with a database down)')
    for (const hour of ['09:00', '09:30']) {
      const refused = await book('10', hour)
      t.equal(refused.status, 503, `a write needing it: 503 (${String(refused.body.detail)})`)
      t.match(refused.body.detail, /catalogue cannot be read/)
    }
    t.same(await s.rows('SELECT * FROM appt'), [], 'nothing written')
    await s.rows('GRANT SELECT ON pg_catalog.pg_index TO PUBLIC')
    await fittedAgain(t, s, book)
  })
}

for (const dialect of testDialects()) {
  t.test(`${dialect}: the database down at start and at the first write, then back`, async (t) => {
    const s = await scratchOn(t, dialect, SCHEMA, MAPPING)
    let url = s.url
    let back: () => Promise<void>
    if (dialect === 'sqlite') {
      const lock = await holdLock(s.url.slice('sqlite:'.length), 'UPDATE appt SET st = st WHERE 0')
      let held = true
      back = async () => { held = false; await lock.release() }
      t.teardown(async () => { if (held) await lock.release() })
    } else {
      const target = new URL(s.url)
      const proxy = await tcpProxy({ host: target.hostname, port: Number(target.port) })
      t.teardown(() => proxy.close())
      await proxy.stop()
      target.port = String(proxy.port)
      url = target.toString()
      back = proxy.start
    }
    const { catalogRead, book } = await serve(t, url)
    t.notOk(catalogRead, 'start-up could not read the catalogue')
    const refused = await book('10', '09:00')
    t.ok([503, 504].includes(refused.status), `the first write: ${refused.status} (${String(refused.body.detail)})`)
    await back()
    t.same(await s.rows('SELECT * FROM appt'), [], 'nothing written')
    await fittedAgain(t, s, book)
  })
}
