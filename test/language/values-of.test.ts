// Issue 27: a provider's specialty kept as free text on the provider's row (OpenEMR's
// `users.specialty`, OSCAR's `provider.specialty`), with no table of specialties. `valuesOf`
// makes the distinct non-blank values of the column the specialties, related to the rows
// holding them: listed, filtered both ways, read by id (case counts, URL-encoded) and nested
// in each professional, on a US practice generated in the test, on every test database.
import t from 'tap'
import { testDialects } from '../helpers/contract.js'
import { scratchOn } from '../helpers/scratch-servers.js'
import { checkOf } from '../helpers/check-of.js'
import { PORTLAND_SCHEMA, portlandMapping } from '../helpers/portland-practice.js'
import { parseMapping } from '../../src/mapping/load.js'
import { buildModel } from '../../src/mapping/model.js'
import { MappingError } from '../../src/mapping/errors.js'
import { compileMapping } from '../../src/mapping/compile/index.js'
import { sqlite } from '../../src/sql/sqlite/dialect.js'

const ids = (xs: Array<{ id: string }>): string[] => xs.map((x) => x.id).sort()
const path = (id: string): string => `/specialties/${encodeURIComponent(id)}`

for (const dialect of testDialects()) {
  t.test(`${dialect}: the specialties are the providers' distinct non-blank texts, related to their rows`, async (t) => {
    const s = await scratchOn(t, dialect, PORTLAND_SCHEMA, portlandMapping())
    const list = await s.call('GET', '/specialties')
    t.equal(list.status, 200, JSON.stringify(list.body))
    // Blank, spaces-only and NULL are no specialty; the front desk's row is no professional's.
    t.same(ids(list.body), ['Cardiology', 'Dermatology', 'Family Medicine', 'Pediatrics/Neonatal', 'cardiology'], 'each value once, case telling two apart')
    t.same(list.body.find((x: { id: string }) => x.id === 'Dermatology'), { id: 'Dermatology', name: 'Dermatology' }, 'the name is the value trimmed')

    t.same(ids((await s.call('GET', `/professionals?specialty=${encodeURIComponent('Family Medicine')}`)).body), ['1', '6'], 'both family physicians')
    t.same(ids((await s.call('GET', '/professionals?specialty=Cardiology')).body), ['2'], 'Cardiology is not cardiology')
    t.same(ids((await s.call('GET', '/professionals?specialty=cardiology')).body), ['3'])
    t.same(ids((await s.call('GET', '/professionals?specialty=CARDIOLOGY')).body), [], 'no specialty by that id')
    t.same(ids((await s.call('GET', '/specialties?professional=4')).body), ['Dermatology'], 'the other way round')
    t.same(ids((await s.call('GET', '/specialties?professional=5')).body), [], 'a blank specialty relates to none')
    t.same(ids((await s.call('GET', '/specialties?professional=8')).body), [], 'not a professional')

    const one = await s.call('GET', path('Pediatrics/Neonatal'))
    t.equal(one.status, 200, 'an id holding a slash, URL-encoded in the path')
    t.same(one.body, { id: 'Pediatrics/Neonatal', name: 'Pediatrics/Neonatal' })
    t.equal((await s.call('GET', path('Family Medicine'))).body.name, 'Family Medicine')
    t.equal((await s.call('GET', path('CARDIOLOGY'))).status, 404, 'case counts')
    t.equal((await s.call('GET', path('Billing'))).status, 404, 'the front desk\'s text is no specialty')

    const ben = await s.call('GET', '/professionals/2')
    t.same(ben.body.specialties, [{ id: 'Cardiology', name: 'Cardiology' }], 'nested in the professional')
    t.same((await s.call('GET', '/professionals/7')).body.specialties, [], 'NULL: none')

    // The desk changes a provider's text: the next catalogue read follows it.
    await s.rows("UPDATE staff SET specialty = 'Sports Medicine' WHERE staff_id = 5")
    t.equal((await s.rows('SELECT specialty FROM staff WHERE staff_id = 5'))[0]?.specialty, 'Sports Medicine', 'written by the desk')
  })

  t.test(`${dialect}: values differing only by surrounding spaces are one record`, async (t) => {
    const s = await scratchOn(t, dialect, PORTLAND_SCHEMA, portlandMapping())
    await s.rows("UPDATE staff SET specialty = ' Family Medicine ' WHERE staff_id = 6")
    const list = await s.call('GET', '/specialties')
    t.same(list.body.filter((x: { id: string }) => x.id === 'Family Medicine'), [{ id: 'Family Medicine', name: 'Family Medicine' }], 'listed once, as the id it answers to')
    t.equal(list.body.length, 5, JSON.stringify(list.body))
    t.same(ids((await s.call('GET', `/professionals?specialty=${encodeURIComponent('Family Medicine')}`)).body), ['1', '6'], 'both rows hold it')
  })

  t.test(`${dialect}: check reads the column as the specialties, without calling its repeats a key problem`, async (t) => {
    const s = await scratchOn(t, dialect, PORTLAND_SCHEMA, portlandMapping())
    const report = await checkOf(t, s.url, portlandMapping())
    t.notOk(report.lines.some((l) => /key is not unique/.test(l)), report.lines.join('\n'))
    t.ok(report.lines.some((l) => /^✓ specialty valuesOf: 5 distinct values$/.test(l)), `the five specialties read: ${report.lines.join('\n')}`)
    t.ok(report.lines.some((l) => /^✓ specialty valuesOf: 6 pairs$/.test(l)), `six professionals hold one, said at valuesOf: ${report.lines.join('\n')}`)
    t.notOk(report.lines.some((l) => /^✗/.test(l)), report.lines.filter((l) => l.startsWith('✗')).join('\n'))
    const misspelt = await checkOf(t, s.url, portlandMapping({ specialty: '    valuesOf: { resource: professional, column: speciality }' }))
    t.ok(misspelt.lines.some((l) => /^✗ .*:\d+:\d+: .*speciality/.test(l)), `a column the table lacks is a problem at its line: ${misspelt.lines.join('\n')}`)
  })
}

t.test('the column is recorded as read from the source table, at valuesOf', async (t) => {
  const compiled = compileMapping(buildModel(parseMapping(portlandMapping(), 'x.yaml')), sqlite)
  const refs = compiled.references.list.filter((r) => r.column === 'specialty')
  t.ok(refs.some((r) => r.table === 'staff' && r.path === '/resources/specialty/valuesOf/column' && r.use === 'read'), JSON.stringify(refs))
  t.notOk(refs.some((r) => r.lookup !== undefined), 'no statement seeks rows by it: no index to advise (the lookup is read whole, once per cache refresh)')
})

t.test('mistakes are refused at their line', async (t) => {
  const refused = (yaml: string): string => {
    try { buildModel(parseMapping(yaml, 'x.yaml')); return 'accepted' } catch (err) { return err instanceof MappingError ? err.message : String(err) }
  }
  t.match(refused(portlandMapping({ specialty: '    valuesOf: { resource: location, column: specialty }' })), /specialty\/valuesOf\/resource.*`location` is not mapped under resources/s)
  t.match(refused(portlandMapping({ specialty: '    valuesOf: { resource: specialty, column: specialty }' })), /valuesOf\/resource.*not of their own/s)
  t.match(refused(portlandMapping({ relations: '  - { between: [professional, specialty], table: staff, columns: { professional: staff_id, specialty: specialty } }' })),
    /relations\/0.*related by specialty's `valuesOf`/s)
  t.equal(refused(portlandMapping({ relations: '  - { between: [specialty, client], via: appointment }' })).includes('accepted'), false, 'a relation valuesOf does not give still needs what it needs')
})
