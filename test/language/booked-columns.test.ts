// `{ service: { column } }` (and a professional's): a column of the booked record's own row
// copied into the appointment as stored, on a pediatric dental schema generated here
// (test/helpers/booked-columns.ts) on every test database. A booking stores the kind's own
// chair-time pattern in the visit's `slots` (also its length, so the pattern and the booked
// length agree), its chair, and the dentist's tint, each read back from the table; a kind
// without a pattern gets the length's own, a NULL column `otherwise`; a pattern the clinic
// changes before the booking is the one stored. `check` passes (its write probe comparing the
// copies), and names a missing column and a number copied as text at their line; mapping
// mistakes are refused at load.
import t from 'tap'
import { testDialects } from '../helpers/contract.js'
import { scratchOn, type ServerScratch } from '../helpers/scratch-servers.js'
import { checkOf } from '../helpers/check-of.js'
import { parseMapping } from '../../src/mapping/load.js'
import { buildModel } from '../../src/mapping/model.js'
import { compileMapping } from '../../src/mapping/compile/index.js'
import { sqlite } from '../../src/sql/sqlite/dialect.js'
import { MappingError } from '../../src/mapping/errors.js'
import { DAY, MAPPING, SCHEMA } from '../helpers/booked-columns.js'

const text = (v: unknown): string | null => v === null || v === undefined ? null : String(v).trim()

async function visit (s: ServerScratch, id: string): Promise<Record<string, string | null>> {
  const [row] = await s.rows(`SELECT slots, chair, tint FROM visit WHERE visit_no = ${Number(id)}`)
  return { slots: text(row?.slots), chair: text(row?.chair), tint: text(row?.tint) }
}

const problems = (report: { findings: Array<{ severity: string, path: string, message: string }> }): string[] =>
  report.findings.filter((f) => f.severity === 'problem').map((f) => `${f.path}: ${f.message}`)

for (const dialect of testDialects()) {
  t.test(dialect, async (t) => {
    t.test('a booking copies the kind\'s pattern and chair and the dentist\'s tint, as stored', async (t) => {
      const s = await scratchOn(t, dialect, SCHEMA, MAPPING)
      const sealants = await s.call('POST', '/appointments', { date: DAY, hour: '08:00', client: '1', professional: '1', service: '2' })
      t.equal(sealants.status, 200, JSON.stringify(sealants.body))
      t.same(await visit(s, sealants.body.id), { slots: '//XXXX//', chair: '4', tint: '#3366cc' }, 'the kind\'s own characters (not the converter\'s /XXXXXX/), its chair, the dentist\'s tint')
      t.equal(sealants.body.endHour, '08:40', 'the copied pattern is the booked length: 8 characters of 5 minutes')
      t.equal((await s.call('GET', `/appointments/${sealants.body.id as string}`)).body.endHour, '08:40', 'and reads back as it')

      const consult = await s.call('POST', '/appointments', { date: DAY, hour: '10:00', client: '2', professional: '2', service: '3' })
      t.equal(consult.status, 200, JSON.stringify(consult.body))
      t.same(await visit(s, consult.body.id), { slots: 'XX', chair: '0', tint: null }, 'a kind with no pattern: the booked length\'s own (10 minutes); a NULL chair and tint: `otherwise` (0, and NULL by default)')

      const none = await s.call('POST', '/appointments', { date: DAY, hour: '11:00', client: '2', professional: '1' })
      t.equal(none.status, 200, JSON.stringify(none.body))
      t.same(await visit(s, none.body.id), { slots: 'XX', chair: '0', tint: '#3366cc' }, 'no kind booked: the length\'s pattern and `otherwise`')

      // The clinic's program lengthens the checkup and moves its chair: the booking reads them in its transaction.
      await s.rows("UPDATE visit_kind SET slots = '/XXXX/', chair = 7 WHERE kind_no = 1")
      const checkup = await s.call('POST', '/appointments', { date: DAY, hour: '13:00', client: '1', professional: '1', service: '1' })
      t.equal(checkup.status, 200, JSON.stringify(checkup.body))
      t.same(await visit(s, checkup.body.id), { slots: '/XXXX/', chair: '7', tint: '#3366cc' }, 'the pattern and chair as they are now')
      t.equal(checkup.body.endHour, '13:30', 'and the length they stand for')

      const moved = await s.call('PATCH', `/appointments/${sealants.body.id as string}/time`, { date: DAY, hour: '14:00' })
      t.equal(moved.status, 200, JSON.stringify(moved.body))
      t.equal((await visit(s, sealants.body.id)).slots, '//XXXX//', 'a reschedule keeps the length column, so the copy')
      t.equal((await s.call('GET', `/appointments/${sealants.body.id as string}`)).body.endHour, '14:40', 'the same length at the new time')
    })

    t.test('check: the copies compared by the write probe; a missing column and a number copied as text are problems at their line', async (t) => {
      const s = await scratchOn(t, dialect, SCHEMA, MAPPING)
      t.same(problems(await checkOf(t, s.url, MAPPING)), [], 'the mapping as written passes check')

      const missing = MAPPING.replace('chair: { service: { column: chair }', 'chair: { service: { column: chair_no }')
      const report = await checkOf(t, s.url, missing)
      const line = missing.split('\n').findIndex((l) => l.includes('column: chair_no')) + 1
      const at = report.findings.filter((f) => f.severity === 'problem' && f.path === '/resources/appointment/write/set/chair/service/column')
      t.equal(at.length, 1, problems(report).join('\n'))
      t.equal(at[0]?.line, line, 'at the copy\'s line')
      t.match(at[0]?.message, /chair_no/)

      const misfit = MAPPING.replace('chair: { service: { column: chair }', 'chair: { service: { column: title }')
      const said = (await checkOf(t, s.url, misfit)).findings.filter((f) => f.path === '/resources/appointment/write/set/chair/service/column')
      t.same(said.map((f) => f.severity), ['problem'], JSON.stringify(said))
      t.match(said[0]?.message, /`visit_kind\.title` \(.*\) is copied into `visit\.chair` \(.*\) but that column holds numbers/)
    })
  })
}

t.test('mapping mistakes are refused at load, at their line', async (t) => {
  const refused = (yaml: string): string => {
    try {
      compileMapping(buildModel(parseMapping(yaml, 'm.yaml')), sqlite)
    } catch (err) {
      return err instanceof MappingError ? err.message : String(err)
    }
    return 'accepted'
  }
  const line = (yaml: string, s: string): number => yaml.split('\n').findIndex((l) => l.includes(s)) + 1
  t.equal(refused(MAPPING), 'accepted')

  const noRef = MAPPING.replace('refs: { client: child_no, professional: dentist_no, service: kind_no }', 'refs: { client: child_no, professional: dentist_no }')
  t.match(refused(noRef), new RegExp(`m.yaml:${line(noRef, 'chair: { service')}.*write/set/chair/service.*the appointment has no \`refs.service\`, so a booking names no service to copy from`))

  const unmapped = MAPPING.replace('        tint: { professional: { column: tint } }\n', '        tint: { location: { column: tint } }\n').replace('refs: { client: child_no,', 'refs: { location: dentist_no, client: child_no,')
  t.match(refused(unmapped), /write\/set\/tint\/location: no location is mapped under resources, so there is no row to copy `tint` from/)

  const joined = MAPPING.replace('tint: { professional: { column: tint } }', 'tint: { professional: { column: x.tint } }')
  t.match(refused(joined), /write\/set\/tint\/professional\/column: `x.tint` is a joined column: `column` copies a column of the professional's own table \(dentist\)/)

  const notTheLength = MAPPING.replace('duration: { column: slots, pattern: { per: 5 } }', 'duration: { column: slots, pattern: { per: 10 } }')
  t.match(refused(notTheLength), new RegExp(`m.yaml:${line(notTheLength, 'slots: { service')}.*write/set/slots: column \`slots\` holds the appointment's length: the booked length is written into \`slots\` too: copy the service's pattern there only with the service's \`duration: \\{ column: slots, pattern: \\{ per: 5 \\} \\}\``))

  const otherColumn = MAPPING.replace('slots: { service: { column: slots } }', 'slots: { service: { column: title } }')
  t.match(refused(otherColumn), /write\/set\/slots: column `slots` holds the appointment's length/, 'a column the service\'s length is not read from')

  const otherwise = MAPPING.replace('slots: { service: { column: slots } }', "slots: { service: { column: slots }, otherwise: '/XX/' }")
  t.match(refused(otherwise), /write\/set\/slots\/otherwise: where the service has no `slots`, the booked length's own pattern is written into `slots`: `otherwise` would contradict it/)

  const fromDentist = MAPPING.replace('slots: { service: { column: slots } }', 'slots: { professional: { column: tint } }')
  t.match(refused(fromDentist), /write\/set\/slots: column `slots` holds the appointment's length, which comes from the booked service: a copy of the professional's `tint` there would contradict it/)

  const byName = MAPPING.replace('slots: { service: { column: slots } }', 'slots: { service: name }')
  t.match(refused(byName), /write\/set\/slots: column `slots` holds the appointment's length: a copy writes a name or id there/, 'a name into the length column, as before')

  const onState = MAPPING.replace('      set:\n', '      states:\n        CONFIRMED: { status: { value: 2 }, chair: { service: { column: chair } } }\n      set:\n')
  t.match(refused(onState), /write\/states\/CONFIRMED\/chair\/service: a copy of the booked service is written when an appointment is booked/)

  const bad = MAPPING.replace('chair: { service: { column: chair }', 'chair: { service: { columns: chair }')
  t.match(refused(bad), /write\/set\/chair/, 'a misspelt form')
})
