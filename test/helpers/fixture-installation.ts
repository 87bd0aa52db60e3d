// One installation from a fixture and a mapping written in the test, with a real Ponte over
// it, on SQLite or on a scratch database of the local MariaDB or PostgreSQL (each dialect's
// own loader): a scenario that must behave alike on every database, on a schema unlike the
// samples. The scratch database is dropped at teardown.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Test } from 'tap'
import type { Fixture } from '../../src/fixtures/format.js'
import { createSqliteFromFixture } from '../../src/sql/sqlite/load.js'
import { createScratchDatabase } from './scratch-db/index.js'
import { openInstallation, type Installation } from '../../src/installation.js'
import { loadConfig } from '../../src/config.js'
import { createPonte } from '../../src/ponte.js'
import { buildApp } from '../../src/app.js'
import type { TestDialect } from './app.js'

const KEY = 'fixture-key-0123456789abcdef'

export interface FixtureApp {
  inst: Installation
  /** The database's URL, for `ponte check` or a second installation. */
  url: string
  get: (url: string) => Promise<{ status: number, body: any }>
  call: (method: string, url: string, payload?: object) => Promise<{ status: number, body: any }>
}

export async function fixtureInstallation (t: Test, dialect: TestDialect, fixture: Fixture, mapping: string): Promise<FixtureApp> {
  const dir = mkdtempSync(join(tmpdir(), 'ponte-fixture-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const fixtureFile = join(dir, 'fixture.json')
  const mappingFile = join(dir, `${fixture.name}.yaml`)
  writeFileSync(fixtureFile, JSON.stringify(fixture))
  writeFileSync(mappingFile, mapping)
  let url: string
  if (dialect === 'sqlite') {
    const file = join(dir, 'legacy.db')
    createSqliteFromFixture(fixtureFile, file)
    url = `sqlite:${file}`
  } else {
    const scratch = await createScratchDatabase(dialect, fixtureFile)
    t.teardown(scratch.drop)
    url = scratch.url
  }
  const inst = await openInstallation(mappingFile, url)
  const config = loadConfig({ API_KEYS: KEY, MAPPING: mappingFile, IDEMPOTENCY_STORE: ':memory:', EVENTS_STORE: ':memory:', RATE_LIMIT_PER_MINUTE: '0' })
  const app = await buildApp(createPonte(config, inst.db, inst.compiled), { logLevel: false })
  t.teardown(async () => { await app.close(); await inst.close() })
  const call: FixtureApp['call'] = async (method, path, payload) => {
    const res = await app.inject({ method: method as 'GET', url: path, payload, headers: { 'x-api-key': KEY } })
    // PATCH …/state and …/time answer plain text.
    return { status: res.statusCode, body: res.body === '' ? undefined : /json/.test(String(res.headers['content-type'])) ? JSON.parse(res.body) : res.body }
  }
  return { inst, url, call, get: async (path) => await call('GET', path) }
}
