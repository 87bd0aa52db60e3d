// A join's `first.asOf` (test/helpers/as-of.ts), on SQLite, MariaDB and PostgreSQL: the
// appointment's payer is the member's main coverage in force on the session's day (the latest
// `starts_on` on or before it; NULL in force always, after any dated row in force), not the
// latest row; a booking reads it as of its day, a reschedule across a coverage change reads
// the new one, and SQLite's plan seeks the coverage by its index.
// `asOf` outside the appointment's joins, or on a join a write goes through, is refused at load.
import t from 'tap'
import { testDialects } from '../helpers/contract.js'
import { scratchOn } from '../helpers/scratch-servers.js'
import { AS_OF_SCHEMA, DAY, asOfMapping } from '../helpers/as-of.js'
import { parseMapping } from '../../src/mapping/load.js'
import { buildModel } from '../../src/mapping/model.js'
import { compileMapping } from '../../src/mapping/compile/index.js'
import { sqlite } from '../../src/sql/sqlite/dialect.js'
import { MappingError } from '../../src/mapping/errors.js'

const insurer = (a: { healthInsurance?: { id: string } }): string | undefined => a.healthInsurance?.id

for (const dialect of testDialects()) {
  t.test(dialect, async (t) => {
    const s = await scratchOn(t, dialect, AS_OF_SCHEMA, asOfMapping())
    const list = await s.call('GET', '/appointments?start=2031-03-03&end=2031-03-10')
    t.equal(list.status, 200, JSON.stringify(list.body))
    const items: Array<{ id: string, healthInsurance?: { id: string } }> = list.body.data ?? list.body
    t.same(Object.fromEntries(items.map((a) => [a.id, insurer(a) ?? null])), { 1: '10', 2: '20', 3: '10', 4: '30', 5: null },
      'the main coverage in force on each day: the older plan before the change, the new one from its first day, an undated row until a dated one starts, none before any')
    t.equal(insurer((await s.call('GET', '/appointments/2')).body), '20', 'GET one reads the same')

    const booked = await s.call('POST', '/appointments', { date: DAY, hour: '10:00', client: '1', professional: '1' })
    t.equal(booked.status, 200, JSON.stringify(booked.body))
    t.equal(insurer(booked.body), '10', 'a booking answers the coverage in force on its day')
    const id = String(booked.body.id)
    t.same((await s.rows(`SELECT member_no, sess_day, sess_hm FROM session WHERE sess_id = ${Number(id)}`)).map((r) => [Number(r.member_no), String(r.sess_hm)]), [[1, '10:00']], 'stored')

    const moved = await s.call('PATCH', `/appointments/${id}/time`, { date: '2031-03-10', hour: '10:00' })
    t.equal(moved.status, 200, JSON.stringify(moved.body))
    t.equal(insurer((await s.call('GET', `/appointments/${id}`)).body), '20', 'moved past the change: the new coverage')
    const back = await s.call('PATCH', `/appointments/${id}/time`, { date: DAY, hour: '11:00' })
    t.equal(back.status, 200, JSON.stringify(back.body))
    t.equal(insurer((await s.call('GET', `/appointments/${id}`)).body), '10', 'and back again')
    t.equal(insurer((await s.call('GET', '/appointments/1')).body), '10', 'the other sessions unchanged')
  })
}

t.test('without asOf the latest main coverage is read whatever the day (what asOf changes)', async (t) => {
  const s = await scratchOn(t, 'sqlite', AS_OF_SCHEMA, asOfMapping(''))
  t.equal((await s.call('GET', '/appointments/1')).body.healthInsurance?.id, '20')
})

t.test('SQLite seeks the coverage in force by its index', async (t) => {
  const s = await scratchOn(t, 'sqlite', AS_OF_SCHEMA, asOfMapping())
  const compiled = compileMapping(buildModel(parseMapping(asOfMapping(), 'm.yaml')), sqlite)
  const read = compiled.statements().find((x) => x.name === 'appointment.byId[]')
  t.ok(read, 'appointment.byId[]')
  t.match(read?.sql ?? '', /IS NULL OR .*starts_on.* <= .*sess_day/, 'the day bounds the coverage in the correlated subquery')
  const plan = (await s.rows(`EXPLAIN QUERY PLAN ${(read?.sql ?? '').replace(/\+?@p\d+/g, "'1'")}`)).map((r) => String(r.detail))
  t.ok(plan.some((d) => /SEARCH t_cov_1 USING (COVERING )?INDEX coverage_member \(member_no=\?/.test(d)), plan.join('\n'))
  t.notOk(plan.some((d) => /SCAN t_cov/.test(d)), 'never a scan of the coverages')
})

t.test('asOf outside the appointment\'s joins, or on a join a write goes through, is refused at its line', async (t) => {
  const refused = (yaml: string): string => {
    try { compileMapping(buildModel(parseMapping(yaml, 'm.yaml')), sqlite); return 'accepted' } catch (err) { return err instanceof MappingError ? err.message : String(err) }
  }
  const onClient = asOfMapping().replace('    phones: [mobile]\n', '    phones: [mobile]\n    joins:\n      c2: { table: coverage, on: { member_no: member_no }, first: { key: cov_id, asOf: { column: starts_on, notAfter: member_no } } }\n')
  const line = onClient.split('\n').findIndex((l) => l.includes('c2:')) + 1
  t.match(refused(onClient), new RegExp(`m\\.yaml:${line}:\\d+: /resources/client/joins/c2/first/asOf: .*only a join of the appointment`))
  const slot = asOfMapping().replace('      ignore: [healthInsurance]\n', '      ignore: [healthInsurance]\n      stateRows: [{ join: cov, states: [CANCELED] }]\n')
  t.match(refused(slot), /\/resources\/appointment\/joins\/cov\/first\/asOf: write\.stateRows\/0 writes through this join/)
  t.match(refused(asOfMapping(', asOf: { column: starts_on }')), /notAfter/)
})
