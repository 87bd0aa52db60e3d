// Issue 27 item 15, on every test database: which service may use which slot. A template
// string's codes say which session types they take (`pattern.services`): /availability with a
// service offers only the slots whose code takes it, and booking or rescheduling a service
// onto a code that does not take it is a 409 with nothing written (test/helpers/session-codes.ts).
import t, { type Test } from 'tap'
import { testDialects } from '../helpers/contract.js'
import { fixtureInstallation, type FixtureApp } from '../helpers/fixture-installation.js'
import { sessionCodesFixture, SESSION_CODES_MAPPING, VALE } from '../helpers/session-codes.js'
import { tableContents } from '../helpers/table-contents.js'
import { checkOf } from '../helpers/check-of.js'
import { parseMapping } from '../../src/mapping/load.js'
import { buildModel } from '../../src/mapping/model.js'
import { compileMapping } from '../../src/mapping/compile/index.js'
import { sqlite } from '../../src/sql/sqlite/dialect.js'

const show = (s: any): string => `${s.hour}-${s.endHour}`

/** The stored row of a session, as the clinic's own program sees it. */
async function storedRow (a: FixtureApp, id: string): Promise<{ data: string, hora: string, hora_fim: string, cod: number } | undefined> {
  const d = a.inst.db.dialect
  const rows = await a.inst.db.query({
    name: 'test.sessao',
    sql: `SELECT ${['data', 'hora', 'hora_fim', 'cod'].map((c) => d.ident(c)).join(', ')} FROM ${d.table('sessao')} WHERE ${d.ident('id_sessao')} = ${d.placeholder(1)}`,
    params: [{ type: 'int', source: { input: 'id' } }]
  }, { id: Number(id) })
  const r = rows[0]
  if (!r) return undefined
  const day = r.data instanceof Date ? `${r.data.getFullYear()}-${String(r.data.getMonth() + 1).padStart(2, '0')}-${String(r.data.getDate()).padStart(2, '0')}` : String(r.data).slice(0, 10)
  return { data: day, hora: String(r.hora), hora_fim: String(r.hora_fim), cod: Number(r.cod) }
}

for (const dialect of testDialects()) {
  t.test(`on ${dialect}`, async (t) => {
    const a = await fixtureInstallation(t, dialect, sessionCodesFixture(), SESSION_CODES_MAPPING)
    const offered = async (t: Test, service?: string): Promise<string[]> => {
      const r = await a.get(`/availability?start=${VALE.tuesday}&end=${VALE.tuesday}${service ? `&service=${service}` : ''}`)
      t.equal(r.status, 200)
      return r.body.map(show)
    }

    t.test('ponte check: the listed services are in the services table, or it says which are not', async (t) => {
      const good = await checkOf(t, a.url, SESSION_CODES_MAPPING, '2033-05-01')
      t.match(good.findings.find((f) => f.path === '/availability/weekly/pattern/services'), { severity: 'ok' }, 'both listed services exist')
      const typo = await checkOf(t, a.url, SESSION_CODES_MAPPING.replace("'8': H", "'88': H"), '2033-05-01')
      t.match(typo.findings.find((f) => f.path === '/availability/weekly/pattern/services'), { severity: 'warning', message: /service 88 is not in the services table/ }, 'a mistyped id is named')
    })

    t.test('/availability offers a service only on the codes that take it', async (t) => {
      t.same(await offered(t, VALE.assessment), ['08:00-08:30', '08:30-09:00', '12:00-12:30', '12:30-13:00'], 'assessments: the A slots only')
      t.same(await offered(t, VALE.pool), ['09:00-10:00', '10:00-11:00'], 'hydrotherapy (60 minutes): the H run only')
      const every = ['08:00-08:30', '08:30-09:00', '09:00-09:30', '09:30-10:00', '10:00-10:30', '10:30-11:00', '12:00-12:30', '12:30-13:00']
      t.same(await offered(t, VALE.followUp), every, 'follow-ups, listed nowhere: every bookable code')
      t.same(await offered(t), every, 'no service asked: every bookable slot')
    })

    t.test('booking a service onto a code that does not take it is refused, nothing written', async (t) => {
      const before = await tableContents(a.inst.db)
      for (const [hour, service, why] of [['08:00', VALE.pool, 'a pool session on an assessment slot'], ['09:00', VALE.assessment, 'an assessment on a pool slot']]) {
        const r = await a.call('POST', '/appointments', { date: VALE.tuesday, hour, client: '1', professional: '31', service })
        t.equal(r.status, 409, `409: ${why}`)
        t.same(r.body?.errors?.map((e: any) => e.path), ['/body/service'], 'naming the service')
      }
      t.same(await tableContents(a.inst.db), before, 'nothing written')

      const assessment = await a.call('POST', '/appointments', { date: VALE.tuesday, hour: '12:00', client: '1', professional: '31', service: VALE.assessment })
      t.equal(assessment.status, 200, JSON.stringify(assessment.body))
      t.same(await storedRow(a, assessment.body.id), { data: VALE.tuesday, hora: '12:00', hora_fim: '12:30', cod: 7 }, 'an assessment on an A slot, stored')
      const pool = await a.call('POST', '/appointments', { date: VALE.tuesday, hour: '09:00', client: '2', professional: '31', service: VALE.pool })
      t.equal(pool.status, 200, JSON.stringify(pool.body))
      t.same(await storedRow(a, pool.body.id), { data: VALE.tuesday, hora: '09:00', hora_fim: '10:00', cod: 8 }, 'hydrotherapy on the H run, stored')
      const followUp = await a.call('POST', '/appointments', { date: VALE.tuesday, hour: '10:30', client: '1', professional: '31', service: VALE.followUp })
      t.equal(followUp.status, 200, 'a follow-up on an H slot: it is listed nowhere')
      t.same(await offered(t, VALE.assessment), ['08:00-08:30', '08:30-09:00', '12:30-13:00'], 'the booked A slot is no longer offered')

      const moved = await a.call('PATCH', `/appointments/${assessment.body.id as string}/time`, { date: VALE.nextTuesday, hour: '10:00' })
      t.equal(moved.status, 409, 'an assessment cannot be moved onto a pool slot')
      t.same(moved.body?.errors?.map((e: any) => e.path), ['/body/date', '/body/hour'], 'naming the time')
      t.same(await storedRow(a, assessment.body.id), { data: VALE.tuesday, hora: '12:00', hora_fim: '12:30', cod: 7 }, 'and it stays where it was')
      const ok = await a.call('PATCH', `/appointments/${assessment.body.id as string}/time`, { date: VALE.nextTuesday, hour: '08:30' })
      t.equal(ok.status, 200, `onto an A slot a week later: ${JSON.stringify(ok.body)}`)
      t.same(await storedRow(a, assessment.body.id), { data: VALE.nextTuesday, hora: '08:30', hora_fim: '09:00', cod: 7 }, 'moved')
    })
  })
}

t.test('a code that is never bookable is a mapping error naming its place', async (t) => {
  const yaml = SESSION_CODES_MAPPING.replace("services: { '7': A, '8': H }", "services: { '7': A_, '8': H }")
  t.not(yaml, SESSION_CODES_MAPPING)
  t.throws(() => compileMapping(buildModel(parseMapping(yaml, 'vale.yaml')), sqlite), { message: /pattern\/services\/7.*'_' is never bookable/ })
})
