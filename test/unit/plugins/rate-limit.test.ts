import t from 'tap'
import { sampleApp, TEST_KEY } from '../../helpers/app.js'

t.test('each API key has its own budget a minute; past it, 429 problem+json', async (t) => {
  const other = 'another-key-0123456789abcdef'
  const a = await sampleApp('mappings/clinica-sorriso.yaml', { RATE_LIMIT_PER_MINUTE: '3', API_KEYS: `${TEST_KEY},${other}` })
  t.teardown(() => a.close())
  const call = async (key?: string) => await a.app.inject({ url: '/specialties', headers: key ? { 'x-api-key': key } : {} })
  for (let i = 0; i < 3; i++) t.equal((await call(TEST_KEY)).statusCode, 200)
  const limited = await call(TEST_KEY)
  t.equal(limited.statusCode, 429)
  t.match(String(limited.headers['content-type']), /^application\/problem\+json/)
  t.match(JSON.parse(limited.body), { type: /rate-limited$/, status: 429, title: 'Too many requests' })
  t.ok(Number(limited.headers['retry-after']) > 0, 'Retry-After says when')
  t.equal((await call(other)).statusCode, 200, 'another key is not affected')
  t.equal((await call()).statusCode, 401, 'no key: refused before any budget is spent')
  t.equal((await a.app.inject({ url: '/health' })).statusCode, 200, 'health is outside the budget')
})
