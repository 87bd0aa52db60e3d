import t from 'tap'
import { sampleApp, TEST_KEY } from '../../helpers/app.js'

t.test('the OpenAPI document describes every interface route, from the same schemas', async (t) => {
  const a = await sampleApp('mappings/clinica-sorriso.yaml', { BASE_PATH: '/v1' })
  t.teardown(() => a.close())
  const res = await a.app.inject({ url: '/openapi.json' })
  t.equal(res.statusCode, 200, 'no key needed for the document')
  const doc = JSON.parse(res.body)
  t.equal(doc.openapi, '3.1.0')
  t.match(doc.servers, [{ url: '/v1' }])
  for (const path of ['/appointments', '/appointments/{id}', '/appointments/{id}/state', '/appointments/{id}/time', '/clients', '/clients/search',
    '/clients/{id}', '/professionals', '/professionals/{id}', '/locations', '/locations/{id}', '/services', '/services/{id}',
    '/health-insurances', '/health-insurances/{id}', '/specialties', '/specialties/{id}', '/availability']) {
    t.ok(doc.paths[path], `${path} documented`)
  }
  t.notOk(doc.paths['/health'], 'health routes are not part of the interface')
  const params = doc.paths['/appointments'].get.parameters
  t.same(params.filter((p: any) => p.required).map((p: any) => p.name).sort(), ['end', 'start'])
  for (const name of ['Appointment', 'Client', 'Professional', 'Location', 'Service', 'HealthInsurance', 'Specialty', 'Problem']) {
    t.ok(doc.components.schemas[name], `${name} schema`)
  }
  t.ok(doc.paths['/appointments'].post.responses['409'], 'a taken slot is documented')
  t.match(doc.info.description, /problem details/)
  const docs = await a.app.inject({ url: '/docs/' })
  t.equal(docs.statusCode, 200, 'docs page')
  t.match(docs.body, /swagger/i)
})

t.test('what generated clients read: every operation and parameter described, the headers sent declared, the states an enum', async (t) => {
  const a = await sampleApp('mappings/northwind-health.yaml')
  t.teardown(() => a.close())
  const doc = JSON.parse((await a.app.inject({ url: '/openapi.json' })).body)
  const operations = Object.entries<any>(doc.paths).flatMap(([path, p]) => Object.entries<any>(p).map(([method, o]) => ({ name: `${method.toUpperCase()} ${path}`, ...o })))
  const parameters = operations.flatMap((o) => (o.parameters ?? []).map((p: any) => ({ name: `${o.name} ${p.in} ${p.name}`, ...p })))
  t.comment(`${operations.length} operations, ${parameters.length} parameters`)
  t.ok(operations.length >= 21 && parameters.length >= 55, 'every route, every parameter')
  t.same(operations.filter((o) => !o.summary || !o.description).map((o) => o.name), [], 'every operation has a summary and a description')
  t.same(parameters.filter((p) => typeof p.description !== 'string' || p.description === '').map((p) => p.name), [], 'every parameter has a description')
  for (const o of operations) {
    const ok = o.responses['200'].headers
    for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) t.ok(ok[h]?.description, `${o.name}: ${h} declared`)
    t.ok(o.responses['429'].headers['retry-after'], `${o.name}: Retry-After on 429`)
    t.match(o.responses['401'].headers['www-authenticate'], { schema: { type: 'string' }, description: /Bearer/ }, `${o.name}: WWW-Authenticate on 401`)
  }
  // The installation's own states (the sample's mapping lists them), wherever a state is named.
  const states = a.ponte.compiled.model.states.values
  t.ok(states.length > 0)
  t.same(doc.components.schemas.Appointment.properties.state.enum, [...states, 'UNKNOWN'], 'the answers\' state (UNKNOWN: a stored code the mapping does not cover)')
  t.same(doc.paths['/appointments'].get.parameters.find((p: any) => p.name === 'state').schema.enum, states, 'the list filter')
  t.same(doc.paths['/appointments/{id}/state'].patch.requestBody.content['application/json'].schema.properties.state.enum, states, 'PATCH …/state')
  // The text answers' examples are what is sent.
  t.match(doc.paths['/appointments/{id}/state'].patch.responses['200'].content['text/plain'].example, /^Appointment \S+ is now [A-Z_]+\.$/)
  const docs = await a.app.inject({ url: '/docs/' })
  t.match(docs.body, /<title>Ponte<\/title>/, '/docs is titled Ponte')
})

t.test('the 401 and rate-limit headers the document declares are the ones sent', async (t) => {
  const a = await sampleApp('mappings/clinica-sorriso.yaml', { RATE_LIMIT_PER_MINUTE: '2' })
  t.teardown(() => a.close())
  const refused = await a.app.inject({ url: '/professionals' })
  t.equal(refused.statusCode, 401)
  t.equal(refused.headers['www-authenticate'], 'Bearer realm="ponte"')
  const first = await a.app.inject({ url: '/professionals', headers: { 'x-api-key': TEST_KEY } })
  t.equal(first.statusCode, 200)
  t.same([first.headers['x-ratelimit-limit'], first.headers['x-ratelimit-remaining']], ['2', '1'])
  t.match(first.headers['x-ratelimit-reset'], /^\d+$/)
  await a.app.inject({ url: '/professionals', headers: { 'x-api-key': TEST_KEY } })
  const over = await a.app.inject({ url: '/professionals', headers: { 'x-api-key': TEST_KEY } })
  t.equal(over.statusCode, 429)
  t.match(over.headers['retry-after'], /^\d+$/)
})
