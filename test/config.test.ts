import t from 'tap'
import { ConfigError, loadConfig, sha256 } from '../src/config.js'

t.test('defaults: the bundled sample and a generated development key', async (t) => {
  const c = loadConfig({})
  t.equal(c.port, 3000)
  t.equal(c.databaseUrl, undefined)
  t.match(c.mapping, /mappings\/clinica-sorriso\.yaml$/)
  t.match(c.generatedKey, /^dev-/)
  t.same(c.apiKeyHashes, [sha256(c.generatedKey as string)])
  t.equal(c.maxRangeDays, 92)
  t.equal(c.allowPastBookings, false)
})

t.test('keys: plain keys are kept only as digests; sha256: entries are taken as given', async (t) => {
  const digest = sha256('another-key-0123456789')
  const c = loadConfig({ API_KEYS: ` first-key-0123456789 , sha256:${digest.toUpperCase()}` })
  t.same(c.apiKeyHashes, [sha256('first-key-0123456789'), digest])
  t.equal(c.generatedKey, undefined)
})

t.test('every problem is reported at once', async (t) => {
  try {
    loadConfig({ PORT: 'eighty', API_KEYS: 'short', DATABASE_URL: 'postgres://x', LOG_LEVEL: 'loud', BASE_PATH: 'v1', ALLOW_PAST_BOOKINGS: 'perhaps' })
    t.fail('should throw')
  } catch (err) {
    t.ok(err instanceof ConfigError)
    const problems = (err as ConfigError).problems.join('\n')
    for (const name of ['PORT', 'API_KEYS', 'DATABASE_URL', 'MAPPING', 'LOG_LEVEL', 'BASE_PATH', 'ALLOW_PAST_BOOKINGS']) t.match(problems, name)
  }
})

t.test('production refuses to run without keys', async (t) => {
  t.throws(() => loadConfig({ NODE_ENV: 'production' }), /API_KEYS is required/)
})

t.test('a malformed digest is refused', async (t) => {
  t.throws(() => loadConfig({ API_KEYS: 'sha256:abc' }), /64 hex digits/)
})
