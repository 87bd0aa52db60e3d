import t, { type Test } from 'tap'
import Fastify, { type FastifyInstance, type FastifyReply, type LightMyRequestResponse } from 'fastify'
import problems, { PROBLEM_TYPE_BASE } from '../../../src/plugins/problems.js'
import { requireApiKey } from '../../../src/plugins/auth.js'
import idempotency, { canonicalJson, parseIdempotencyKey } from '../../../src/plugins/idempotency.js'
import { HOUR_MS, IdempotencyStore } from '../../../src/idempotency/store.js'
import { ConflictError } from '../../../src/errors.js'
import { sha256 } from '../../../src/config.js'

const KEY_A = 'caller-a-0123456789abcdef'
const KEY_B = 'caller-b-0123456789abcdef'

interface Harness {
  app: FastifyInstance
  store: IdempotencyStore
  clock: { now: number }
  calls: () => number
  mode: { value: 'ok' | 'fail' | 'slow' | 'conflict' }
  /** While mode is 'slow': resolves when the handler has started; call release() to let it finish. */
  slow: () => { entered: Promise<void>, release: () => void }
  post: (body: unknown, headers?: Record<string, string>, url?: string) => Promise<LightMyRequestResponse>
}

async function harness (t: Test): Promise<Harness> {
  const clock = { now: Date.UTC(2025, 5, 1) }
  const store = await IdempotencyStore.open(':memory:', { now: () => clock.now, purgeEveryMs: 0 })
  const app = Fastify({ logger: false })
  await app.register(problems)
  let count = 0
  const mode: Harness['mode'] = { value: 'ok' }
  let gate = { entered: () => {}, wait: Promise.resolve() }
  await app.register(async (api) => {
    requireApiKey(api, [sha256(KEY_A), sha256(KEY_B)])
    await api.register(idempotency, { store })
    const handler = async (request: { body: unknown }, reply: FastifyReply) => {
      count++
      if (mode.value === 'slow') { gate.entered(); await gate.wait }
      if (mode.value === 'fail') throw new Error('boom')
      if (mode.value === 'conflict') throw new ConflictError('That slot is taken.')
      return await reply.code(201).header('location', `/things/${count}`).send({ id: count, received: request.body })
    }
    api.post('/things', {
      config: { idempotent: true },
      schema: { body: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } }
    }, handler)
    api.post('/other', { config: { idempotent: true } }, handler)
    api.post('/plain', handler)
  })
  t.teardown(async () => { await app.close(); store.close() })
  return {
    app,
    store,
    clock,
    calls: () => count,
    mode,
    slow () {
      mode.value = 'slow'
      let release!: () => void
      const entered = new Promise<void>((resolve) => {
        gate = { entered: resolve, wait: new Promise<void>((resolve) => { release = resolve }) }
      })
      return { entered, release: () => { mode.value = 'ok'; release() } }
    },
    post: async (body, headers = {}, url = '/things') => await app.inject({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${KEY_A}`, 'content-type': 'application/json', ...headers },
      payload: typeof body === 'string' ? body : JSON.stringify(body)
    })
  }
}

const problemType = (res: { body: string }): string => JSON.parse(res.body).type

t.test('without the header, POSTs run every time', async (t) => {
  const h = await harness(t)
  const a = await h.post({ name: 'x' })
  const b = await h.post({ name: 'x' })
  t.equal(a.statusCode, 201)
  t.equal(b.statusCode, 201)
  t.equal(h.calls(), 2)
  t.equal(b.headers['idempotent-replayed'], undefined)
})

t.test('same key, same request: the stored response is replayed and the handler ran once', async (t) => {
  const h = await harness(t)
  const first = await h.post('{"name":"Ana","tags":{"b":1,"a":[1,2]}}', { 'idempotency-key': 'k-1' })
  t.equal(first.statusCode, 201)
  t.equal(first.headers['idempotent-replayed'], undefined, 'the first response is not marked')
  // Same JSON, different key order and whitespace.
  const again = await h.post('{ "tags": { "a": [1, 2], "b": 1 },\n  "name": "Ana" }', { 'idempotency-key': 'k-1' })
  t.equal(h.calls(), 1, 'the handler ran once')
  t.equal(again.statusCode, 201)
  t.equal(again.body, first.body, 'byte for byte the same body')
  t.equal(again.headers['content-type'], first.headers['content-type'])
  t.equal(again.headers.location, '/things/1')
  t.equal(again.headers['idempotent-replayed'], 'true')
  // The draft's sf-string form of the same key is the same key.
  const quoted = await h.post({ name: 'Ana', tags: { a: [1, 2], b: 1 } }, { 'idempotency-key': '"k-1"' })
  t.equal(quoted.headers['idempotent-replayed'], 'true')
  t.equal(h.calls(), 1)
})

t.test('same key, different request: 422 and nothing runs', async (t) => {
  const h = await harness(t)
  await h.post({ name: 'Ana' }, { 'idempotency-key': 'k-2' })
  const other = await h.post({ name: 'Bia' }, { 'idempotency-key': 'k-2' })
  t.equal(other.statusCode, 422)
  t.match(other.headers['content-type'], /^application\/problem\+json/)
  t.equal(problemType(other), PROBLEM_TYPE_BASE + 'idempotency-key-reused')
  const otherPath = await h.post({ name: 'Ana' }, { 'idempotency-key': 'k-2' }, '/other')
  t.equal(otherPath.statusCode, 422, 'another path is another request')
  t.equal(h.calls(), 1)
})

t.test('a retry while the first request is in flight: 409; afterwards, a replay', async (t) => {
  const h = await harness(t)
  const gate = h.slow()
  const first = h.post({ name: 'Ana' }, { 'idempotency-key': 'k-3' })
  await gate.entered
  const retry = await h.post({ name: 'Ana' }, { 'idempotency-key': 'k-3' })
  t.equal(retry.statusCode, 409)
  t.equal(problemType(retry), PROBLEM_TYPE_BASE + 'idempotency-key-in-flight')
  t.equal(retry.headers['retry-after'], '1')
  const other = await h.post({ name: 'Other' }, { 'idempotency-key': 'k-3' })
  t.equal(other.statusCode, 422, 'a different body under a claimed key is a mismatch')
  gate.release()
  t.equal((await first).statusCode, 201)
  const after = await h.post({ name: 'Ana' }, { 'idempotency-key': 'k-3' })
  t.equal(after.statusCode, 201)
  t.equal(after.headers['idempotent-replayed'], 'true')
  t.equal(h.calls(), 1)
})

t.test('a 5xx is not stored: the key is released and a retry runs the handler again', async (t) => {
  const h = await harness(t)
  h.mode.value = 'fail'
  const failed = await h.post({ name: 'Ana' }, { 'idempotency-key': 'k-4' })
  t.equal(failed.statusCode, 500)
  h.mode.value = 'ok'
  const retry = await h.post({ name: 'Ana' }, { 'idempotency-key': 'k-4' })
  t.equal(retry.statusCode, 201)
  t.equal(retry.headers['idempotent-replayed'], undefined)
  t.equal(h.calls(), 2)
  const replay = await h.post({ name: 'Ana' }, { 'idempotency-key': 'k-4' })
  t.equal(replay.headers['idempotent-replayed'], 'true')
  t.equal(h.calls(), 2)
})

t.test('a 4xx is stored: same input, same answer', async (t) => {
  const h = await harness(t)
  h.mode.value = 'conflict'
  const first = await h.post({ name: 'Ana' }, { 'idempotency-key': 'k-5' })
  t.equal(first.statusCode, 409)
  t.equal(problemType(first), PROBLEM_TYPE_BASE + 'conflict')
  h.mode.value = 'ok'
  const again = await h.post({ name: 'Ana' }, { 'idempotency-key': 'k-5' })
  t.equal(again.statusCode, 409)
  t.equal(again.body, first.body)
  t.equal(again.headers['content-type'], first.headers['content-type'])
  t.equal(again.headers['idempotent-replayed'], 'true')
  t.equal(h.calls(), 1)

  const invalid = await h.post({ nome: 'Ana' }, { 'idempotency-key': 'k-6' })
  t.equal(invalid.statusCode, 400, 'schema validation runs after the claim')
  const invalidAgain = await h.post({ nome: 'Ana' }, { 'idempotency-key': 'k-6' })
  t.equal(invalidAgain.statusCode, 400)
  t.equal(invalidAgain.headers['idempotent-replayed'], 'true')
  t.equal(invalidAgain.body, invalid.body)
})

t.test('keys are scoped per API key; the API key itself is not stored', async (t) => {
  const h = await harness(t)
  const a = await h.post({ name: 'Ana' }, { 'idempotency-key': 'shared' })
  const b = await h.post({ name: 'Ana' }, { 'idempotency-key': 'shared', authorization: `Bearer ${KEY_B}` })
  const bDifferent = await h.post({ name: 'Bia' }, { 'idempotency-key': 'shared-2', 'x-api-key': KEY_B, authorization: '' })
  t.equal(a.statusCode, 201)
  t.equal(b.statusCode, 201)
  t.equal(b.headers['idempotent-replayed'], undefined, 'caller B is not served caller A\'s response')
  t.equal(bDifferent.statusCode, 201)
  t.equal(h.calls(), 3)
  const bAgain = await h.post({ name: 'Ana' }, { 'idempotency-key': 'shared', 'x-api-key': KEY_B, authorization: '' })
  t.equal(bAgain.headers['idempotent-replayed'], 'true', 'X-API-Key and Bearer are the same identity')
  t.equal(JSON.parse(bAgain.body).id, JSON.parse(b.body).id)
  t.equal((await h.store.begin(sha256(KEY_A), 'shared', 'x')).kind, 'mismatch', 'scope is the SHA-256 of the API key')

  const anonymous = await h.app.inject({ method: 'POST', url: '/things', headers: { 'idempotency-key': 'k-anon', 'content-type': 'application/json' }, payload: '{"name":"x"}' })
  t.equal(anonymous.statusCode, 401, 'auth comes first')
  t.equal((await h.store.begin(sha256(''), 'k-anon', 'x')).kind, 'new', 'and a 401 claims nothing')
})

t.test('keys expire after the TTL and are purged', async (t) => {
  const h = await harness(t)
  await h.post({ name: 'Ana' }, { 'idempotency-key': 'k-7' })
  h.clock.now += 24 * HOUR_MS - 1
  t.equal(await h.store.purgeExpired(), 0)
  t.equal((await h.post({ name: 'Ana' }, { 'idempotency-key': 'k-7' })).headers['idempotent-replayed'], 'true', 'kept for 24 h')
  h.clock.now += 1
  t.equal(await h.store.purgeExpired(), 1)
  const later = await h.post({ name: 'Ana' }, { 'idempotency-key': 'k-7' })
  t.equal(later.statusCode, 201)
  t.equal(later.headers['idempotent-replayed'], undefined)
  t.equal(h.calls(), 2, 'after expiry the key is new again')
})

t.test('key syntax: 1 to 255 characters', async (t) => {
  const h = await harness(t)
  const long = await h.post({ name: 'Ana' }, { 'idempotency-key': 'x'.repeat(256) })
  t.equal(long.statusCode, 400)
  t.equal(problemType(long), PROBLEM_TYPE_BASE + 'invalid-input')
  t.same(JSON.parse(long.body).errors, [{ path: '/headers/idempotency-key', message: 'must have at most 255 characters' }])
  t.equal((await h.post({ name: 'Ana' }, { 'idempotency-key': '' })).statusCode, 400, 'empty')
  t.equal((await h.post({ name: 'Ana' }, { 'idempotency-key': '""' })).statusCode, 400, 'empty sf-string')
  t.equal((await h.post({ name: 'Ana' }, { 'idempotency-key': '"a"b"' })).statusCode, 400, 'broken sf-string')
  t.equal(h.calls(), 0)
  t.equal((await h.post({ name: 'Ana' }, { 'idempotency-key': 'x'.repeat(255) })).statusCode, 201)
})

t.test('a body nested 3,000 levels deep is the same 400 with or without a key', async (t) => {
  const h = await harness(t)
  const deep = `{"name":${'['.repeat(3000)}${']'.repeat(3000)}}`
  const plain = await h.post(deep)
  t.equal(plain.statusCode, 400, 'without a key: 400')
  const keyed = await h.post(deep, { 'idempotency-key': 'k-deep' })
  t.equal(keyed.statusCode, 400, 'with a key: 400, not a 503 for the key store', { body: keyed.body })
  t.equal(problemType(keyed), problemType(plain), 'the same problem')
  t.equal(h.calls(), 0)
})

t.test('routes without config.idempotent ignore the header', async (t) => {
  const h = await harness(t)
  await h.post({ name: 'Ana' }, { 'idempotency-key': 'k-8' }, '/plain')
  const again = await h.post({ name: 'Ana' }, { 'idempotency-key': 'x'.repeat(300) }, '/plain')
  t.equal(again.statusCode, 201)
  t.equal(h.calls(), 2)
})

t.test('helpers', async (t) => {
  t.equal(canonicalJson({ b: [1, { d: 1, c: undefined, a: null }], a: 'x' }), '{"a":"x","b":[1,{"a":null,"d":1}]}')
  t.equal(canonicalJson(undefined), 'null')
  t.equal(canonicalJson([undefined, { b: 2, a: [] }, 'x', 1.5, true, {}]), '[null,{"a":[],"b":2},"x",1.5,true,{}]')
  t.equal(canonicalJson(JSON.parse('['.repeat(100_000) + ']'.repeat(100_000))), '['.repeat(100_000) + ']'.repeat(100_000), 'any depth')
  t.equal(parseIdempotencyKey('  "a\\"b\\\\c"  '), 'a"b\\c')
  t.equal(parseIdempotencyKey('8e03978e-40d5-43e8-bc93-6894a57f9324'), '8e03978e-40d5-43e8-bc93-6894a57f9324')
  t.throws(() => parseIdempotencyKey(['a', 'b']))
  t.throws(() => parseIdempotencyKey('"a\\x"'))
})
