// Builds a real Ponte over a fresh copy of a sample installation, for tests: a SQLite file by
// default, or a scratch database on the local MariaDB/PostgreSQL server.
import type { FastifyInstance } from 'fastify'
import { loadConfig } from '../../src/config.js'
import { createPonte, type Ponte } from '../../src/ponte.js'
import { buildApp } from '../../src/app.js'
import { openInstallation, openSample, sampleFixture, type Installation } from '../../src/installation.js'
import { createScratchDatabase } from './scratch-db/index.js'

export const TEST_KEY = 'test-key-0123456789abcdef'
export const SAMPLES = ['mappings/clinica-sorriso.yaml', 'mappings/northwind-health.yaml']

export const DIALECTS = ['sqlite', 'mysql', 'postgres'] as const
export type TestDialect = typeof DIALECTS[number]

export interface TestApp {
  app: FastifyInstance
  ponte: Ponte
  /** `file`: the SQLite copy (sqlite only). */
  inst: Installation & { file?: string }
  dialect: TestDialect
  /** DATABASE_URL of this copy: a second Ponte (or connection) may open the same data. */
  url: string
  /** Legacy table names (bare, without schema), read once from the catalog: nothing may leak them. */
  tables: string[]
  /** GET with the API key; returns status and parsed JSON body. */
  get: (url: string) => Promise<{ status: number, body: any, headers: Record<string, unknown> }>
  close: () => Promise<void>
}

/** A sample installation on a fresh copy of its fixture, on one test database. */
export async function openSampleOn (mapping: string, dialect: TestDialect): Promise<{ inst: Installation & { file?: string }, url: string }> {
  if (dialect === 'sqlite') {
    const inst = await openSample(mapping)
    return { inst, url: `sqlite:${inst.file}` }
  }
  const scratch = await createScratchDatabase(dialect, sampleFixture(mapping))
  let inst: Installation
  try {
    inst = await openInstallation(mapping, scratch.url)
  } catch (err) {
    await scratch.drop()
    throw err
  }
  return { inst: { ...inst, close: async () => { try { await inst.close() } finally { await scratch.drop() } } }, url: scratch.url }
}

export async function sampleApp (mapping: string, env: Record<string, string> = {}, dialect: TestDialect = 'sqlite'): Promise<TestApp> {
  const { inst, url } = await openSampleOn(mapping, dialect)
  try {
    const tables = (await inst.db.introspect.catalog()).tables.map((t) => t.name)
      .filter((n) => n.length >= 4 && !n.startsWith('sqlite_'))
    const config = loadConfig({ API_KEYS: TEST_KEY, MAPPING: mapping, IDEMPOTENCY_STORE: ':memory:', EVENTS_STORE: ':memory:', RATE_LIMIT_PER_MINUTE: '0', ...env })
    const ponte = createPonte(config, inst.db, inst.compiled)
    const app = await buildApp(ponte, { logLevel: false })
    return {
      app,
      ponte,
      inst,
      dialect,
      url,
      tables,
      async get (path) {
        const res = await app.inject({ method: 'GET', url: path, headers: { authorization: `Bearer ${TEST_KEY}` } })
        return { status: res.statusCode, body: res.body === '' ? undefined : JSON.parse(res.body), headers: res.headers }
      },
      async close () {
        try { await app.close() } finally { await inst.close() }
      }
    }
  } catch (err) {
    await inst.close()
    throw err
  }
}
