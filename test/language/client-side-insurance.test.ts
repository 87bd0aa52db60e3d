// Issue 27: a health insurance kept on the patient's side only, with no insurer table. OSCAR's
// `demographic.hc_type` (a value column on the client's row) and OpenMRS's `person_attribute`
// rows (a type, a voided flag): `valuesOf` lists the distinct values (`resource: client`, or
// `table` with its `where`), each appointment reads its patient's through a join, and a
// booking may send only the client's own (`write.refs.healthInsurance.fromClient`). On a
// Montreal practice generated in the test, on every test database.
import t from 'tap'
import { testDialects } from '../helpers/contract.js'
import { scratchOn } from '../helpers/scratch-servers.js'
import { checkOf } from '../helpers/check-of.js'
import { MONTREAL_SCHEMA, montrealMapping } from '../helpers/montreal-physio.js'
import { parseMapping } from '../../src/mapping/load.js'
import { buildModel } from '../../src/mapping/model.js'
import { MappingError } from '../../src/mapping/errors.js'
import { compileMapping } from '../../src/mapping/compile/index.js'
import { sqlite } from '../../src/sql/sqlite/dialect.js'

const ids = (xs: Array<{ id: string }>): string[] => xs.map((x) => x.id).sort()
const RANGE = '/appointments?start=2031-03-03&end=2031-03-04'
const insurances = (list: Array<{ id: string, healthInsurance?: { id: string } }>): Record<string, string | null> =>
  Object.fromEntries(list.map((a) => [a.id, a.healthInsurance?.id ?? null]))

for (const dialect of testDialects()) {
  t.test(`${dialect}: the plans on the patients' files are the health insurances, each appointment its patient's`, async (t) => {
    const s = await scratchOn(t, dialect, MONTREAL_SCHEMA, montrealMapping('column'))
    const list = await s.call('GET', '/health-insurances')
    t.equal(list.status, 200, JSON.stringify(list.body))
    t.same(list.body, [{ id: 'ON', name: 'ON' }, { id: 'QC', name: 'QC' }], 'each value once; NULL and blank none; a closed file\'s (the client\'s where) none')
    t.same((await s.call('GET', '/health-insurances/QC')).body, { id: 'QC', name: 'QC' })
    t.equal((await s.call('GET', '/health-insurances/NB')).status, 404, 'only on a closed file')
    t.equal((await s.call('GET', '/health-insurances/qc')).status, 404, 'case counts')

    const appts = await s.call('GET', RANGE)
    t.same(insurances(appts.body), { 1: 'QC', 2: 'ON', 3: null, 4: null, 5: 'QC' }, 'nested: the patient\'s own, none for NULL or blank')
    t.same(appts.body[0].healthInsurance, { id: 'QC', name: 'QC' })
    t.same((await s.call('GET', '/appointments/2')).body.healthInsurance, { id: 'ON', name: 'ON' })
    t.equal((await s.call('GET', `${RANGE}&healthInsurance=ON`)).status, 400, 'the interface has no insurance filter of appointments')
    // Related to no lookup: every professional takes every insurance (an unknown one, none).
    t.same(ids((await s.call('GET', '/professionals?healthInsurance=ON')).body), ['1', '2'])
    t.same(ids((await s.call('GET', '/professionals?healthInsurance=NB')).body), [])
    t.same(ids((await s.call('GET', '/health-insurances?professional=2')).body), ['ON', 'QC'])

    // The desk moves a patient to another plan: the appointments follow the patient's file.
    await s.rows("UPDATE client_file SET prov_plan = 'ON' WHERE file_no = 5")
    t.equal((await s.call('GET', '/appointments/5')).body.healthInsurance?.id, 'ON')
  })

  t.test(`${dialect}: a plan's code is answered by the name the mapping gives it (names), its id the code`, async (t) => {
    const s = await scratchOn(t, dialect, MONTREAL_SCHEMA, montrealMapping('column', { healthInsurance: '    valuesOf: { resource: client, column: prov_plan, names: { ON: OHIP } }' }))
    t.same((await s.call('GET', '/health-insurances')).body, [{ id: 'ON', name: 'OHIP' }, { id: 'QC', name: 'QC' }], 'a code the names do not list is its own name')
    t.same((await s.call('GET', '/health-insurances/ON')).body, { id: 'ON', name: 'OHIP' }, 'by id: the code, named')
    t.equal((await s.call('GET', '/health-insurances/OHIP')).status, 404, 'the name is no id')
    t.same((await s.call('GET', '/appointments/2')).body.healthInsurance, { id: 'ON', name: 'OHIP' }, 'nested, named')
  })

  t.test(`${dialect}: the insurer attribute rows of a kind, not retired, are the health insurances`, async (t) => {
    const s = await scratchOn(t, dialect, MONTREAL_SCHEMA, montrealMapping('rows'))
    const list = await s.call('GET', '/health-insurances')
    t.equal(list.status, 200, JSON.stringify(list.body))
    t.same(ids(list.body), ['Blue Cross', 'Desjardins', 'Manulife'], 'a retired row, another kind\'s and a blank value are none')
    t.same((await s.call('GET', '/health-insurances/Blue%20Cross')).body, { id: 'Blue Cross', name: 'Blue Cross' })
    t.equal((await s.call('GET', '/health-insurances/Sun%20Life')).status, 404, 'retired')
    t.equal((await s.call('GET', '/health-insurances/French')).status, 404, 'a language, not an insurer')
    t.same(insurances((await s.call('GET', RANGE)).body), { 1: 'Desjardins', 2: 'Manulife', 3: 'Desjardins', 4: null, 5: null }, 'nested: the patient\'s insurer row, not the retired one nor another kind')
    t.same((await s.call('GET', '/appointments/3')).body.healthInsurance, { id: 'Desjardins', name: 'Desjardins' })
  })

  t.test(`${dialect}: a booking takes the client's own insurance, and refuses another by name`, async (t) => {
    for (const form of ['column', 'rows'] as const) {
      const s = await scratchOn(t, dialect, MONTREAL_SCHEMA, montrealMapping(form))
      const own = form === 'column' ? 'QC' : 'Desjardins'
      const other = form === 'column' ? 'ON' : 'Manulife'
      const visits = async (): Promise<unknown[]> => await s.rows('SELECT visit_id, file_no, ther_id, visit_day, visit_hour, visit_state FROM visit ORDER BY visit_id')
      const before = await visits()

      const sent = await s.call('POST', '/appointments', { date: '2031-03-05', hour: '09:00', client: '1', professional: '1', healthInsurance: own })
      t.equal(sent.status, 200, `${form}: the client's own accepted: ${JSON.stringify(sent.body)}`)
      t.same(sent.body.healthInsurance, { id: own, name: own })
      const row = await s.rows(`SELECT file_no, ther_id, visit_hour FROM visit WHERE visit_id = ${Number(sent.body.id)}`)
      t.same(row.map((r) => [Number(r.file_no), Number(r.ther_id), r.visit_hour]), [[1, 1, '09:00']], 'the row written, read back')
      t.equal((await s.call('GET', `/appointments/${String(sent.body.id)}`)).body.healthInsurance?.id, own, 'read back as the client\'s')

      const none = await s.call('POST', '/appointments', { date: '2031-03-05', hour: '10:00', client: '2', professional: '1' })
      t.equal(none.status, 200, JSON.stringify(none.body))
      t.equal(none.body.healthInsurance?.id, other, `${form}: none sent, the client's own is the appointment's`)

      const after = await visits()
      const refused = await s.call('POST', '/appointments', { date: '2031-03-05', hour: '11:00', client: '1', professional: '1', healthInsurance: other })
      t.equal(refused.status, 409, `${form}: another than the client's own: ${JSON.stringify(refused.body)}`)
      t.same(refused.body.errors?.map((e: { path: string }) => e.path), ['/body/healthInsurance'], 'named')
      t.match(refused.body.detail, new RegExp(`Client "1"'s healthInsurance is "${own}".*"${other}".*Nothing was written`))
      const noneOwn = await s.call('POST', '/appointments', { date: '2031-03-05', hour: '11:00', client: form === 'column' ? '4' : '5', professional: '2', healthInsurance: own })
      t.equal(noneOwn.status, 409, `${form}: a client with none: ${JSON.stringify(noneOwn.body)}`)
      t.match(noneOwn.body.detail, /healthInsurance is none/)
      t.same(await visits(), after, 'nothing written by either refusal')
      t.equal(after.length, before.length + 2)
    }
  })

  t.test(`${dialect}: check counts the values at valuesOf, without calling their repeats a key problem`, async (t) => {
    for (const [form, values] of [['column', 2], ['rows', 3]] as const) {
      const s = await scratchOn(t, dialect, MONTREAL_SCHEMA, montrealMapping(form))
      const report = await checkOf(t, s.url, montrealMapping(form))
      t.notOk(report.lines.some((l) => /key is not unique/.test(l)), report.lines.join('\n'))
      t.ok(report.lines.some((l) => l === `✓ healthInsurance valuesOf: ${values} distinct values`), `${form}: ${report.lines.join('\n')}`)
      t.notOk(report.lines.some((l) => /^✗/.test(l)), report.lines.filter((l) => l.startsWith('✗')).join('\n'))
      const misspelt = await checkOf(t, s.url, montrealMapping(form, { healthInsurance: form === 'column' ? '    valuesOf: { resource: client, column: hc_type }' : '    valuesOf: { table: file_trait, column: value }' }))
      t.ok(misspelt.lines.some((l) => /^✗ .*:\d+:\d+: .*(hc_type|`value`)/.test(l)), `${form}: a column the table lacks, at its line: ${misspelt.lines.join('\n')}`)
    }
  })
}

t.test('a booking with no fromClient still refuses a sent insurance it cannot store', async (t) => {
  const s = await scratchOn(t, 'sqlite', MONTREAL_SCHEMA, montrealMapping('column', { write: null }))
  const res = await s.call('POST', '/appointments', { date: '2031-03-05', hour: '09:00', client: '1', professional: '1', healthInsurance: 'QC' })
  t.equal(res.status, 501, JSON.stringify(res.body))
  t.same(res.body.errors?.map((e: { path: string }) => e.path), ['/body/healthInsurance'])
})

t.test('the values are recorded as read at valuesOf; the client\'s where and the rows\' where apply', async (t) => {
  for (const form of ['column', 'rows'] as const) {
    const compiled = compileMapping(buildModel(parseMapping(montrealMapping(form), 'x.yaml')), sqlite)
    const column = form === 'column' ? 'prov_plan' : 'trait_value'
    const refs = compiled.references.list.filter((r) => r.column === column && r.path === '/resources/healthInsurance/valuesOf/column')
    t.ok(refs.some((r) => r.table === (form === 'column' ? 'client_file' : 'file_trait') && r.use === 'read'), JSON.stringify(refs))
    const all = compiled.lookups.find((l) => l.name === 'healthInsurance')?.all.sql ?? ''
    t.match(all, form === 'column' ? /"closed"/ : /"trait_kind".*"retired"/s, all)
    t.notOk(compiled.model.relations.some((r) => r.between.includes('healthInsurance')), 'related to no lookup')
  }
})

t.test('mistakes are refused at their line', async (t) => {
  const refused = (yaml: string): string => {
    try { compileMapping(buildModel(parseMapping(yaml, 'x.yaml')), sqlite); return 'accepted' } catch (err) { return err instanceof MappingError ? err.message : String(err) }
  }
  t.match(refused(montrealMapping('column', { write: '{ fromClient: { column: prov_plan, owned: true } }' })), /healthInsurance\/fromClient.*client's own already/s)
  t.match(refused(montrealMapping('column', { write: '{ fromClient: prov_plan, otherwise: QC }' })), /healthInsurance\/fromClient.*`otherwise` has no column/s)
  const notTheClients = montrealMapping('column').replace('holder: { table: client_file, on: { file_no: file_no } }', 'holder: { table: client_file, on: { ther_id: file_no } }')
  t.match(refused(notTheClients), /healthInsurance\/fromClient.*nor is that join the client's side/s)
  t.match(refused(montrealMapping('rows', { healthInsurance: '    valuesOf: { table: file_trait, column: trait_value, joins: { f: { table: client_file, from: g, on: { file_no: file_no } } } }' })), /healthInsurance\/valuesOf\/joins\/f\/from/)
  t.match(refused(montrealMapping('column', { healthInsurance: '    valuesOf: { resource: client, table: client_file, column: prov_plan }' })), /valuesOf/)
})
