import t from 'tap'
import { sampleApp } from './helpers/app.js'

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
