// Builds a real Ponte over a fresh SQLite copy of a sample installation, for tests.
import type { FastifyInstance } from 'fastify'
import { loadConfig } from '../../src/config.js'
import { createPonte, type Ponte } from '../../src/context.js'
import { buildApp } from '../../src/app.js'
import { openSample, type Installation } from '../../src/installation.js'

export const TEST_KEY = 'test-key-0123456789abcdef'
export const SAMPLES = ['mappings/clinica-sorriso.yaml', 'mappings/northwind-health.yaml']

export interface TestApp {
  app: FastifyInstance
  ponte: Ponte
  inst: Installation & { file: string }
  /** GET with the API key; returns status and parsed JSON body. */
  get: (url: string) => Promise<{ status: number, body: any, headers: Record<string, unknown> }>
  close: () => Promise<void>
}

export async function sampleApp (mapping: string, env: Record<string, string> = {}): Promise<TestApp> {
  const inst = await openSample(mapping)
  const config = loadConfig({ API_KEYS: TEST_KEY, MAPPING: mapping, IDEMPOTENCY_STORE: ':memory:', RATE_LIMIT_PER_MINUTE: '0', ...env })
  const ponte = createPonte(config, inst.db, inst.compiled)
  const app = await buildApp(ponte, { logLevel: false })
  return {
    app,
    ponte,
    inst,
    async get (url) {
      const res = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${TEST_KEY}` } })
      return { status: res.statusCode, body: res.body === '' ? undefined : JSON.parse(res.body), headers: res.headers }
    },
    async close () {
      await app.close()
      await inst.close()
    }
  }
}
