// A throw-away installation for one test: a SQLite file built from SQL, a mapping written
// inline, and a real Ponte over both — for schemas unlike the samples.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import type { Test } from 'tap'
import { parseMapping } from '../../src/mapping/load.js'
import { buildModel } from '../../src/mapping/model.js'
import { compileMapping } from '../../src/mapping/compile/index.js'
import { openSqlite } from '../../src/sql/sqlite/driver.js'
import { loadConfig } from '../../src/config.js'
import { createPonte } from '../../src/ponte.js'
import { buildApp } from '../../src/app.js'

const KEY = 'scratch-key-0123456789abcdef'

export interface Scratch {
  /** The legacy database, for reading what Ponte wrote. */
  raw: BetterSqlite3.Database
  /** A request with the API key; JSON bodies parsed, text bodies as they are. */
  call: (method: string, url: string, payload?: object) => Promise<{ status: number, body: any }>
  get: (url: string) => Promise<{ status: number, body: any }>
}

export async function scratchInstallation (t: Test, schemaSql: string, mappingYaml: string): Promise<Scratch> {
  const dir = mkdtempSync(join(tmpdir(), 'ponte-scratch-'))
  const file = join(dir, 'legacy.db')
  const raw = new BetterSqlite3(file)
  raw.exec(schemaSql)
  const db = openSqlite(file)
  const compiled = compileMapping(buildModel(parseMapping(mappingYaml, 'scratch.yaml')), db.dialect)
  const config = loadConfig({ API_KEYS: KEY, IDEMPOTENCY_STORE: ':memory:', EVENTS_STORE: ':memory:', RATE_LIMIT_PER_MINUTE: '0' })
  const app = await buildApp(createPonte(config, db, compiled), { logLevel: false })
  t.teardown(async () => { await app.close(); await db.close(); raw.close(); rmSync(dir, { recursive: true, force: true }) })
  const call: Scratch['call'] = async (method, url, payload) => {
    const res = await app.inject({ method: method as 'GET', url, payload, headers: { 'x-api-key': KEY } })
    return { status: res.statusCode, body: res.headers['content-type']?.toString().includes('json') ? JSON.parse(res.body) : res.body }
  }
  return { raw, call, get: async (url) => await call('GET', url) }
}
