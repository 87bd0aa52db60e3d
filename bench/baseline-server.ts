// The hand-written baseline as a process of its own (bench/servers.ts starts it), configured
// as Ponte is: DATABASE_FILE (SQLite) or DATABASE_URL (mysql:, postgres:), KEY_SHA256,
// LOG_LEVEL, RATE_LIMIT_PER_MINUTE, PORT, HOST.
// GET /_bench/statements (behind the key) tells the bench how many SQL statements it ran.
import { buildHandWritten } from './hand-written.js'
import type { BaselineStore } from './hand-written/store.js'

const env = process.env
// Each store imported only where used: the SQLite baseline never loads a network driver.
const store: BaselineStore = env.DATABASE_FILE
  ? (await import('./hand-written/sqlite.js')).openSqliteStore(env.DATABASE_FILE)
  : (await import('./hand-written/network.js')).openNetworkStore(/^postgres(ql)?:/.test(env.DATABASE_URL ?? '') ? 'postgres' : 'mysql', env.DATABASE_URL!)
const { app, statements } = await buildHandWritten(store, {
  keyHashes: [env.KEY_SHA256!],
  logLevel: env.LOG_LEVEL ?? 'info',
  rateLimitPerMinute: Number(env.RATE_LIMIT_PER_MINUTE ?? 0)
})
app.get('/_bench/statements', async () => String(statements()))
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => { void app.close().then(() => process.exit(0)) })
}
await app.listen({ port: Number(env.PORT ?? 0), host: env.HOST ?? '127.0.0.1' })
