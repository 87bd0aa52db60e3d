// One "side" of the differential run: a real Ponte over one sample installation in one
// database (SQLite, MariaDB or PostgreSQL), answering injected requests. The SQLite side is
// the reference every other side is compared with.
import type { FastifyInstance } from 'fastify'
import { loadConfig } from '../../../src/config.js'
import { createPonte } from '../../../src/ponte.js'
import { buildApp } from '../../../src/app.js'
import { openInstallation, openSample, sampleFixture, type Installation } from '../../../src/installation.js'
import type { Answer } from './compare.js'
import { createScratchDatabase, type ScratchDatabase } from '../scratch-db/index.js'

export const DIFF_KEY = 'differential-key-0123456789abcdef'

export type Dialect = 'sqlite' | 'mysql' | 'postgres'
export const DIALECTS: Dialect[] = ['sqlite', 'mysql', 'postgres']

export interface Probe {
  method: 'GET' | 'POST' | 'PATCH'
  url: string
  body?: unknown
  headers?: Record<string, string>
  /** Why the request is in the list (printed with a difference). */
  label?: string
}

export interface Side {
  dialect: Dialect
  /** `sqlite`, `mysql`, … or `sqlite#2` for the self-check copy. */
  name: string
  inst: Installation
  app: FastifyInstance
  send: (probe: Probe) => Promise<Answer>
  close: () => Promise<void>
}

/**
 * The dialects to compare, from PONTE_TEST_DIALECTS (comma list; default all three). A name
 * that is not a dialect is a typo that would otherwise silently test less: it is refused.
 */
export function requestedDialects (env: string | undefined = process.env.PONTE_TEST_DIALECTS): Dialect[] {
  if (env === undefined || env.trim() === '') return [...DIALECTS]
  const names = env.split(',').map((s) => s.trim().toLowerCase()).filter((s) => s !== '')
  const unknown = names.filter((n) => !DIALECTS.includes(n as Dialect))
  if (unknown.length > 0) throw new Error(`PONTE_TEST_DIALECTS: unknown dialect(s) ${unknown.join(', ')} (known: ${DIALECTS.join(', ')})`)
  return [...new Set(names as Dialect[])]
}

async function serve (dialect: Dialect, name: string, mapping: string, inst: Installation, dispose: () => Promise<void>): Promise<Side> {
  const config = loadConfig({ API_KEYS: DIFF_KEY, MAPPING: mapping, IDEMPOTENCY_STORE: ':memory:', RATE_LIMIT_PER_MINUTE: '0' })
  const app = await buildApp(createPonte(config, inst.db, inst.compiled), { logLevel: false })
  return {
    dialect,
    name,
    inst,
    app,
    async send (probe) {
      const res = await app.inject({
        method: probe.method,
        url: probe.url,
        headers: {
          authorization: `Bearer ${DIFF_KEY}`,
          ...(probe.body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...probe.headers
        },
        ...(probe.body !== undefined ? { payload: JSON.stringify(probe.body) } : {})
      })
      return { status: res.statusCode, contentType: String(res.headers['content-type'] ?? ''), text: res.body }
    },
    async close () {
      await app.close()
      await dispose()
    }
  }
}

/**
 * Opens one sample on one dialect. A server that cannot be reached, or a dialect not built
 * yet, is an error naming the dialect: the differential test fails, it never skips.
 */
export async function openSide (dialect: Dialect, mapping: string, name: string = dialect): Promise<Side> {
  if (dialect === 'sqlite') {
    const inst = await openSample(mapping)
    return await serve(dialect, name, mapping, inst, inst.close)
  }
  let scratch: ScratchDatabase
  try {
    scratch = await createScratchDatabase(dialect, sampleFixture(mapping))
  } catch (err) {
    throw new Error(`dialect ${dialect}: cannot create a scratch database for ${mapping} — is the local server running? (${(err as Error).message.split('\n')[0]})`)
  }
  let inst: Installation
  try {
    inst = await openInstallation(mapping, scratch.url)
  } catch (err) {
    await scratch.drop().catch(() => {})
    throw new Error(`dialect ${dialect}: cannot open ${mapping} over its scratch database (${(err as Error).message.split('\n')[0]})`)
  }
  return await serve(dialect, name, mapping, inst, async () => {
    await inst.close()
    await scratch.drop()
  })
}
