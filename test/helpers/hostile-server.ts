// A sample installation served on a real socket in its own process, for the hostile suite:
// a request that spins the event loop cannot freeze the test, which kills and restarts this
// process instead. Usage (forked with IPC): hostile-server.ts <mapping>; LOG_LEVEL=trace sends
// pino's lines to stdout. Replies over IPC with { port, file } once listening.
import { loadConfig } from '../../src/config.js'
import { createPonte } from '../../src/ponte.js'
import { buildApp } from '../../src/app.js'
import { openSample } from '../../src/installation.js'
import { TEST_KEY } from './app.js'

process.env.TZ = 'UTC' // as src/server.ts

const mapping = process.argv[2]
const level = process.env.LOG_LEVEL ?? 'silent'
const inst = await openSample(mapping)
const config = loadConfig({ API_KEYS: TEST_KEY, MAPPING: mapping, IDEMPOTENCY_STORE: ':memory:', EVENTS_STORE: ':memory:', RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: level })
const app = await buildApp(createPonte(config, inst.db, inst.compiled), { logLevel: level === 'silent' ? false : level, logStream: process.stdout })
await app.listen({ port: 0, host: '127.0.0.1' })
const address = app.server.address()
process.send?.({ port: typeof address === 'object' && address ? address.port : 0, file: inst.file })
// The parent going away (or asking) ends this process; the sample's temporary copy goes with it.
const stop = async (): Promise<void> => { await app.close(); await inst.close(); process.exit(0) }
process.on('disconnect', () => { void stop() })
process.on('SIGTERM', () => { void stop() })
