// The differential harness must find nothing between two identical installations, and must
// find — with request, path and both values — a body changed on purpose. Otherwise a green
// differential run would prove nothing.
import t from 'tap'
import { compareAnswers, stableStringify, type Answer } from '../../helpers/differential/compare.js'
import { Differ } from '../../helpers/differential/differ.js'
import { openSide, requestedDialects, type Side } from '../../helpers/differential/sides.js'
import { lookupCatalog } from '../../helpers/differential/reads-lookups.js'
import { clientPages } from '../../helpers/differential/reads-clients.js'
import { scriptedWrites } from '../../helpers/differential/writes-script.js'
import { fixtureToday } from '../../helpers/differential/run.js'
import { seeded } from '../../helpers/differential/seeded.js'
import { freePort } from '../../helpers/server-process.js'

const json = (status: number, value: unknown): Answer => ({ status, contentType: 'application/json; charset=utf-8', text: JSON.stringify(value) })

t.test('compareAnswers: key order and charset spelling are not differences', async (t) => {
  const a = json(200, [{ id: '1', name: 'Ana', client: { id: '7', phone: '+5511999990000' } }])
  const b: Answer = { status: 200, contentType: 'application/json;charset=UTF-8', text: '[{"client":{"phone":"+5511999990000","id":"7"},"name":"Ana","id":"1"}]' }
  t.same(compareAnswers('GET /x', a, b), [])
  t.equal(stableStringify({ b: 1, a: [{ d: 2, c: 3 }] }), '{"a":[{"c":3,"d":2}],"b":1}')
})

t.test('compareAnswers: each change is reported at its JSON path with both values', async (t) => {
  const a = json(200, [{ id: '1', name: 'Ana', client: { id: '7' } }, { id: '2', hour: '09:00' }])
  const b = json(200, [{ id: '1', name: 'Ana ', client: { id: '7', email: 'a@b.c' } }, { id: '2', hour: '9:00' }, { id: '3' }])
  const diffs = compareAnswers('GET /appointments?start=…', a, b)
  t.same(diffs.map((x) => [x.path, x.reference, x.other]), [
    ['/length', '2', '3'],
    ['/0/client/email', '(absent)', '"a@b.c"'],
    ['/0/name', '"Ana"', '"Ana "'],
    ['/1/hour', '"09:00"', '"9:00"'],
    ['/2', '(absent)', '{"id":"3"}']
  ])
  t.ok(diffs.every((x) => x.request === 'GET /appointments?start=…'), 'each names the request')
})

t.test('compareAnswers: status, media type and text bodies', async (t) => {
  const ok: Answer = { status: 200, contentType: 'text/plain; charset=utf-8', text: 'CONFIRMED' }
  t.same(compareAnswers('PATCH', ok, { ...ok }), [])
  t.same(compareAnswers('PATCH', ok, { ...ok, text: 'CANCELED' }).map((x) => [x.path, x.reference, x.other]), [['(body)', 'CONFIRMED', 'CANCELED']])
  const refused = json(409, { type: 'https://ponte.dev/problems/conflict', status: 409 })
  const other = compareAnswers('POST', ok, { ...refused, contentType: 'application/problem+json' })
  t.same(other.map((x) => x.path), ['(status)'], 'another status: one difference, not one per field')
  t.match(other[0], { reference: /^200 CONFIRMED/, other: /^409 \{"type"/ }, 'with both bodies')
  t.same(compareAnswers('GET', json(200, []), { ...json(200, []), contentType: 'text/html' }).map((x) => x.path), ['(content-type)'])
})

t.test('requestedDialects: default all three; a typo is refused, not ignored', async (t) => {
  t.same(requestedDialects(undefined), ['sqlite', 'mysql', 'postgres'])
  t.same(requestedDialects('sqlite, postgres'), ['sqlite', 'postgres'])
  t.throws(() => requestedDialects('sqlite,postgress'), /unknown dialect\(s\) postgress/)
})

t.test('a server that cannot be reached is an error naming the dialect, not a skip', async (t) => {
  const port = await freePort()
  const saved = { pg: process.env.PONTE_TEST_POSTGRES_URL, my: process.env.PONTE_TEST_MYSQL_URL }
  t.teardown(() => {
    for (const [name, value] of [['PONTE_TEST_POSTGRES_URL', saved.pg], ['PONTE_TEST_MYSQL_URL', saved.my]] as const) {
      if (value === undefined) delete process.env[name]
      else process.env[name] = value
    }
  })
  process.env.PONTE_TEST_POSTGRES_URL = `postgres://postgres@127.0.0.1:${port}/postgres`
  process.env.PONTE_TEST_MYSQL_URL = `mysql://root@127.0.0.1:${port}/`
  for (const dialect of ['postgres', 'mysql'] as const) {
    const started = performance.now()
    const error = await openSide(dialect, 'mappings/clinica-sorriso.yaml').then(() => undefined, (err: Error) => err)
    t.match(error?.message, new RegExp(`^dialect ${dialect}: cannot create a scratch database for mappings/clinica-sorriso.yaml — is the local server running\\?`), `${dialect}: refused with a clear message`)
    t.comment(error?.message)
    t.ok(performance.now() - started < 15_000, `${dialect}: at once, not after a long wait`)
  }
})

/** A side that answers one request with a body changed in one place. */
function tampered (side: Side, url: string, change: (body: any) => void): Side {
  return {
    ...side,
    name: `${side.name} (tampered)`,
    async send (probe) {
      const answer = await side.send(probe)
      if (probe.url !== url) return answer
      const body = JSON.parse(answer.text)
      change(body)
      return { ...answer, text: JSON.stringify(body) }
    }
  }
}

t.test('SQLite against SQLite: reads and scripted writes agree; one changed body is reported', async (t) => {
  const mapping = 'mappings/clinica-sorriso.yaml'
  const sides: Side[] = []
  t.teardown(async () => { for (const s of sides) await s.close() })
  sides.push(await openSide('sqlite', mapping), await openSide('sqlite', mapping, 'sqlite#2'), await openSide('sqlite', mapping, 'sqlite#3'))
  const [reference, same, other] = sides
  let original = ''
  const changed = tampered(other, '/professionals/1', (body) => { original = body.name; body.name = `${body.name as string} ` })

  const d = new Differ([reference, same, changed])
  await lookupCatalog(d)
  const clients = await clientPages(d, seeded(1))
  await scriptedWrites(d, fixtureToday(mapping), '11', clients.length)

  t.ok(d.requests > 100, `${d.requests} requests`)
  t.same(d.differences.get('sqlite#2'), [], 'an identical installation: no difference')
  const found = d.differences.get('sqlite#3 (tampered)') ?? []
  t.equal(found.length, 1, 'the tampered side: exactly one difference')
  t.match(found[0], { request: /GET \/professionals\/1$/, path: '/name', reference: JSON.stringify(original), other: JSON.stringify(`${original} `) },
    'reported with the request, the JSON path and both values')
})
