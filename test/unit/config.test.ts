import { readFileSync } from 'node:fs'
import t from 'tap'
import { ConfigError, loadConfig, sha256 } from '../../src/config.js'

t.test('defaults: the bundled sample and a generated development key', async (t) => {
  const c = loadConfig({})
  t.equal(c.port, 3000)
  t.equal(c.databaseUrl, undefined)
  t.match(c.mapping, /mappings\/clinica-sorriso\.yaml$/)
  t.match(c.generatedKey, /^dev-/)
  t.same(c.apiKeyHashes, [sha256(c.generatedKey as string)])
  t.equal(c.maxRangeDays, 92)
  t.equal(c.allowPastBookings, false)
  t.equal(c.idempotencyBusyTimeoutMs, 2000)
})

t.test('keys: plain keys are kept only as digests; sha256: entries are taken as given', async (t) => {
  const digest = sha256('another-key-0123456789')
  const c = loadConfig({ API_KEYS: ` first-key-0123456789 , sha256:${digest.toUpperCase()}` })
  t.same(c.apiKeyHashes, [sha256('first-key-0123456789'), digest])
  t.equal(c.generatedKey, undefined)
})

t.test('every problem is reported at once', async (t) => {
  try {
    loadConfig({ PORT: 'eighty', API_KEYS: 'short', DATABASE_URL: 'postgres://x', LOG_LEVEL: 'loud', BASE_PATH: 'v1', ALLOW_PAST_BOOKINGS: 'perhaps', IDEMPOTENCY_BUSY_TIMEOUT_MS: '2s' })
    t.fail('should throw')
  } catch (err) {
    t.ok(err instanceof ConfigError)
    const problems = (err as ConfigError).problems.join('\n')
    for (const name of ['PORT', 'API_KEYS', 'DATABASE_URL', 'MAPPING', 'LOG_LEVEL', 'BASE_PATH', 'ALLOW_PAST_BOOKINGS', 'IDEMPOTENCY_BUSY_TIMEOUT_MS']) t.match(problems, name)
  }
})

t.test('production refuses to run without keys', async (t) => {
  t.throws(() => loadConfig({ NODE_ENV: 'production' }), /API_KEYS is required/)
})

t.test('production needs a persistent events file, not the temp-dir default', async (t) => {
  const prod = { NODE_ENV: 'production', API_KEYS: 'prod-key-0123456789abcdef', DATABASE_URL: 'sqlite:/srv/clinic.db', MAPPING: 'mappings/northwind-health.yaml' }
  const problems = (env: Record<string, string>): string[] => {
    try { loadConfig({ ...prod, ...env }); return [] } catch (err) { return (err as ConfigError).problems }
  }
  t.match(problems({}), [/EVENTS_STORE must be set to a persistent path when NODE_ENV=production/], 'EVENTS_STORE unset, no XDG_STATE_HOME: refused')
  t.match(problems({ EVENTS_STORE: '  ' }), [/EVENTS_STORE must be set/], 'a blank EVENTS_STORE is none')
  t.same(problems({ EVENTS_STORE: '/var/lib/ponte/events.sqlite' }), [], 'a path given: starts')
  t.same(problems({ XDG_STATE_HOME: '/var/lib/state' }), [], 'under XDG_STATE_HOME: starts')
  t.equal(loadConfig({ ...prod, XDG_STATE_HOME: '/var/lib/state' }).eventsStore, '/var/lib/state/ponte/events.sqlite', 'there, in ponte/')
  t.match(loadConfig({ NODE_ENV: 'development', DATABASE_URL: 'sqlite:/tmp/c.sqlite', MAPPING: 'm.yaml' }).eventsStore, /ponte-[^/]+\/events\.sqlite$/, 'development keeps the temp-dir default')
  // The bundled sample's fresh copy reuses ids another start's events and answers named.
  const sample = loadConfig({ NODE_ENV: 'development' })
  t.same([sample.eventsStore, sample.idempotencyStore], [':memory:', ':memory:'], 'the bundled sample keeps its events and answers with its copy')
})

t.test('the image\'s own environment is one production accepts, its stores on the volume', async (t) => {
  const dockerfile = readFileSync(new URL('../../Dockerfile', import.meta.url), 'utf8')
  const env = envOfImage(dockerfile)
  const config = loadConfig({ ...env, API_KEYS: 'prod-key-0123456789abcdef', DATABASE_URL: 'sqlite:/srv/clinic.db', MAPPING: 'mappings/northwind-health.yaml' })
  const volume = /VOLUME \["([^"]+)"\]/.exec(dockerfile)?.[1] ?? 'no VOLUME'
  t.equal(env.NODE_ENV, 'production')
  t.ok(config.eventsStore.startsWith(volume + '/'), `events on the volume (${config.eventsStore})`)
  t.ok(env.IDEMPOTENCY_STORE?.startsWith(volume + '/'), 'remembered answers on the volume')
})

/** The ENV lines of a Dockerfile's last stage (continuation lines joined). */
function envOfImage (dockerfile: string): Record<string, string> {
  const lastStage = dockerfile.split(/^FROM /m).at(-1) ?? ''
  const env: Record<string, string> = {}
  for (const m of lastStage.replace(/\\\n\s*/g, ' ').matchAll(/^ENV (.+)$/gm)) {
    for (const pair of m[1].trim().split(/\s+/)) {
      const [name, ...value] = pair.split('=')
      env[name] = value.join('=')
    }
  }
  return env
}

t.test('production never falls back to the bundled sample clinic', async (t) => {
  const keys = { NODE_ENV: 'production', API_KEYS: 'prod-key-0123456789abcdef' }
  const problems = (env: Record<string, string>): string[] => {
    try { loadConfig({ ...keys, ...env }); return [] } catch (err) { return (err as ConfigError).problems }
  }
  t.match(problems({}), [/DATABASE_URL is required when NODE_ENV=production/, /MAPPING is required when NODE_ENV=production/], 'neither: both named at once')
  t.match(problems({ MAPPING: 'mappings/northwind-health.yaml' }), [/DATABASE_URL is required/])
  t.match(problems({ DATABASE_URL: 'sqlite:/srv/clinic.db' }), [/MAPPING is required with DATABASE_URL/])
  t.match(problems({ DATABASE_URL: 'sqlite:/srv/clinic.db', MAPPING: '  ' }), [/MAPPING is required/], 'a blank MAPPING is no mapping')
  t.equal(problems({ DATABASE_URL: 'sqlite:/srv/clinic.db', MAPPING: 'mappings/northwind-health.yaml', EVENTS_STORE: '/var/lib/ponte/events.sqlite' }).length, 0, 'both given: starts')
  t.equal(loadConfig({ NODE_ENV: 'development' }).databaseUrl, undefined, 'outside production the sample stays the default')
})

t.test('a malformed digest is refused', async (t) => {
  t.throws(() => loadConfig({ API_KEYS: 'sha256:abc' }), /64 hex digits/)
})

t.test('a request must arrive within bounds: its head sooner than the whole of it', async (t) => {
  const c = loadConfig({})
  t.equal(c.headersTimeoutMs, 10_000)
  t.equal(c.requestTimeoutMs, 30_000)
  const set = loadConfig({ HEADERS_TIMEOUT_MS: '500', REQUEST_TIMEOUT_MS: '2000' })
  t.same([set.headersTimeoutMs, set.requestTimeoutMs], [500, 2000])
  t.throws(() => loadConfig({ HEADERS_TIMEOUT_MS: '5000', REQUEST_TIMEOUT_MS: '1000' }), /HEADERS_TIMEOUT_MS \(5000\) must not be longer than REQUEST_TIMEOUT_MS/)
  t.throws(() => loadConfig({ REQUEST_TIMEOUT_MS: '0' }), /REQUEST_TIMEOUT_MS="0"/)
})
