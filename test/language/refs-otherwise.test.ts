// A booking's default ref (`write.refs.service.otherwise`), on a schema generated here whose
// visit rows require a visit type (test/helpers/visit-type-required.ts), on every test
// database: a booking with the vet only stores the default type, read back from the table and
// through Ponte, lasting its minutes, as /availability offers it; one sending a type stores
// that one; without the default such a booking is refused naming /body/service; `ponte check`
// proves the professional-only booking with it and reports a default naming no type at its
// line; a default the column cannot hold is refused at load, at its line.
import t from 'tap'
import { testDialects } from '../helpers/contract.js'
import { scratchOn } from '../helpers/scratch-servers.js'
import { checkOf } from '../helpers/check-of.js'
import { DAY, VISIT_TYPE_SCHEMA, visitTypeMapping } from '../helpers/visit-type-required.js'
import { parseMapping } from '../../src/mapping/load.js'
import { buildModel } from '../../src/mapping/model.js'
import { compileMapping } from '../../src/mapping/compile/index.js'
import { sqlite } from '../../src/sql/sqlite/dialect.js'
import { MappingError } from '../../src/mapping/errors.js'

const MAPPING = visitTypeMapping()

for (const dialect of testDialects()) {
  t.test(dialect, async (t) => {
    t.test('a booking without a visit type stores the default, for its minutes; one with a type stores it', async (t) => {
      const s = await scratchOn(t, dialect, VISIT_TYPE_SCHEMA, MAPPING)
      const visit = async (id: string): Promise<Record<string, any>> => (await s.rows(`SELECT type_id, start_hm, end_hm FROM visit WHERE visit_id = ${Number(id)}`))[0]

      const offered = await s.call('GET', `/availability?start=${DAY}&end=${DAY}&professional=1`)
      t.equal(offered.status, 200, JSON.stringify(offered.body))
      const slots = (body: Array<{ hour: string, endHour: string }>): string[] => body.map((x) => `${x.hour}-${x.endHour}`)
      t.same(slots(offered.body).slice(0, 3), ['08:00-08:45', '08:45-09:30', '09:30-10:15'], '/availability without ?service= offers the default type\'s 45 minutes')

      const plain = await s.call('POST', '/appointments', { date: DAY, hour: '08:45', client: '1', professional: '1' })
      t.equal(plain.status, 200, JSON.stringify(plain.body))
      t.same(await visit(plain.body.id), { type_id: 4, start_hm: '08:45', end_hm: '09:30' }, 'stored: the default type and its 45 minutes')
      const read = await s.call('GET', `/appointments/${plain.body.id as string}`)
      t.equal(read.body.service?.id, '4', 'read back with the default type')
      t.equal(read.body.endHour, '09:30')
      const after = await s.call('GET', `/availability?start=${DAY}&end=${DAY}&professional=1`)
      t.notOk(slots(after.body).includes('08:45-09:30'), 'the booked time is no longer offered')

      const typed = await s.call('POST', '/appointments', { date: DAY, hour: '10:00', client: '2', professional: '1', service: '3' })
      t.equal(typed.status, 200, JSON.stringify(typed.body))
      t.same(await visit(typed.body.id), { type_id: 3, start_hm: '10:00', end_hm: '10:15' }, 'stored: the type sent and its 15 minutes')

      t.type(typed.body.service, 'object')
      t.equal(typed.body.service?.id, '3', 'read back with the type sent')
    })

    t.test('without the default the booking is refused naming the service; check proves it with one and reports one naming no type', async (t) => {
      const s = await scratchOn(t, dialect, VISIT_TYPE_SCHEMA, visitTypeMapping(''))
      const refused = await s.call('POST', '/appointments', { date: DAY, hour: '09:00', client: '1', professional: '1' })
      t.equal(refused.status, 400, JSON.stringify(refused.body))
      t.same(refused.body.errors?.map((e: { path: string }) => e.path), ['/body/service'], 'refused naming /body/service')

      const report = await checkOf(t, s.url, MAPPING)
      const problems = report.findings.filter((f) => f.severity === 'problem').map((f) => `${f.path}: ${f.message}`)
      t.same(problems, [], 'check finds no problem with the default')
      const probe = report.findings.find((f) => f.message.startsWith('POST /appointments with the professional only'))
      t.equal(probe?.severity, 'ok', JSON.stringify(probe))
      t.match(probe?.message ?? '', /service/, 'the professional-only booking wrote the service')

      const wrong = visitTypeMapping('      refs: { service: { otherwise: 99 } }')
      const bad = await checkOf(t, s.url, wrong)
      const line = wrong.split('\n').findIndex((l) => l.includes('otherwise: 99')) + 1
      const found = bad.findings.find((f) => f.path.endsWith('/write/refs/service/otherwise'))
      t.equal(found?.severity, 'problem', JSON.stringify(found))
      t.match(found?.message ?? '', /no service has id 99/)
      t.equal(found?.line, line, 'at its line')
      t.equal((await s.rows('SELECT COUNT(*) AS n FROM visit'))[0].n.toString(), '0', 'check rolled its writes back (the refused booking wrote nothing)')
    })
  })
}

t.test('a default its column cannot hold, or for a ref not mapped, is refused at load, at its line', async (t) => {
  const refused = (yaml: string): string => {
    try {
      compileMapping(buildModel(parseMapping(yaml, 'm.yaml')), sqlite)
    } catch (err) {
      return err instanceof MappingError ? err.message : String(err)
    }
    return 'accepted'
  }
  t.equal(refused(MAPPING), 'accepted')
  const text = visitTypeMapping("      refs: { service: { otherwise: 'consulta' } }")
  const line = text.split('\n').findIndex((l) => l.includes('otherwise:')) + 1
  t.match(refused(text), new RegExp(`m.yaml:${line}.*write/refs/service/otherwise.*cannot be stored in the ref's int column`))
  t.match(refused(visitTypeMapping('      refs: { location: { otherwise: 1 } }')), /write\/refs\/location\/otherwise.*has no location/)
  t.match(refused(visitTypeMapping('      refs: { service: {} }')), /write\/refs\/service.*fewer than 1 properties/)
})
