// Run as a child (test/system/process/lean-start.test.ts): starts Ponte's app on the bundled SQLite sample
// the way server.ts does (with `cli`: first loads the `ponte` command, as `ponte serve` does),
// then prints the npm packages the process loaded, one a line. The network drivers are
// CommonJS, so an import of any of them lands in require's cache.
import { createRequire } from 'node:module'

if (process.argv[2] === 'cli') await import('../../src/cli.js')
const { loadConfig } = await import('../../src/config.js')
const { openSample } = await import('../../src/installation.js')
const { createPonte } = await import('../../src/ponte.js')
const { buildApp } = await import('../../src/app.js')

const config = loadConfig({ API_KEYS: 'lean-start-key-0123456789', IDEMPOTENCY_STORE: ':memory:', EVENTS_STORE: ':memory:', NODE_ENV: 'development' })
const inst = await openSample(config.mapping, {})
const app = await buildApp(createPonte(config, inst.db, inst.compiled))
await app.ready()
const packages = new Set<string>()
for (const file of Object.keys(createRequire(import.meta.url).cache)) {
  const name = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1]
  if (name) packages.add(name)
}
process.stdout.write([...packages].sort().join('\n') + '\n')
await app.close()
await inst.close()
