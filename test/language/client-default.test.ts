// A booking ref defaulting to the booked client's own (`write.refs.<ref>.fromClient`), on two
// schemas generated here unlike the samples, on every test database. A Delphi-style agenda
// copies the patient's convênio from the patient's row: a booking without one stores the
// patient's own as it stands at booking time, a patient with none (NULL, or 0 meaning none)
// takes `otherwise`, one sent is stored as sent. A dental schema reaches the patient's plan
// through link rows (person_plan → enrolment, first by rank) and stores the plan's number
// while reading its carrier: a booking without one stores the first plan, one sent takes the
// patient's own plan of that carrier, and a carrier only other patients hold is refused (409
// naming the field, nothing written). `ponte check` proves both and reports a per-client ref
// whose sent value is not kept to the client's own, at its line.
import t from 'tap'
import { testDialects } from '../helpers/contract.js'
import { scratchOn, type ServerScratch } from '../helpers/scratch-servers.js'
import { checkOf } from '../helpers/check-of.js'
import { AGENDA_REF, AGENDA_SCHEMA, DAY, DENTAL_SCHEMA, NOT_OWNED, agendaMapping, dentalMapping } from '../helpers/client-default.js'
import { parseMapping } from '../../src/mapping/load.js'
import { buildModel } from '../../src/mapping/model.js'
import { compileMapping } from '../../src/mapping/compile/index.js'
import { sqlite } from '../../src/sql/sqlite/dialect.js'
import { MappingError } from '../../src/mapping/errors.js'

const lineOf = (text: string, line: string): number => text.split('\n').indexOf(line) + 1
const stored = async (s: ServerScratch, sql: string): Promise<Array<number | null>> =>
  (await s.rows(sql)).map((r) => { const v = Object.values(r)[0]; return v === null ? null : Number(v) })

for (const dialect of testDialects()) {
  t.test(dialect, async (t) => {
    t.test('a booking without a convênio stores the patient\'s own, as it stands; none takes otherwise; one sent is stored', async (t) => {
      const s = await scratchOn(t, dialect, AGENDA_SCHEMA, agendaMapping())
      const book = async (client: string, hour: string, more: object = {}) => await s.call('POST', '/appointments', { date: DAY, hour, client, professional: '7', ...more })

      const own = await book('1', '09:00')
      t.equal(own.status, 200, JSON.stringify(own.body))
      t.equal(own.body.healthInsurance?.id, '10', 'answered with the patient\'s own convênio')
      const none = await book('2', '09:30')
      t.equal(none.status, 200, JSON.stringify(none.body))
      t.equal(none.body.healthInsurance?.id, '20', 'a patient with none: the mapping\'s otherwise')
      const zero = await book('3', '10:00')
      t.equal(zero.status, 200, JSON.stringify(zero.body))
      const sent = await book('1', '10:30', { healthInsurance: '30' })
      t.equal(sent.status, 200, JSON.stringify(sent.body))
      // The desk changed Ana's convênio: the next booking takes the new one.
      await s.rows('UPDATE paciente SET codconvenio = 30 WHERE codigo = 1')
      const changed = await book('1', '11:00')
      t.equal(changed.status, 200, JSON.stringify(changed.body))
      t.same(await stored(s, 'SELECT codconvenio FROM agenda ORDER BY codigo'), [10, 20, 20, 30, 30], 'own, none, 0 meaning none, sent, own after the change')

      // Dr. Otavio takes Particular only: the patient's own convênio is refused by name, as a sent one would be.
      const notTaken = await book('1', '11:30', { professional: '8' })
      t.equal(notTaken.status, 409, JSON.stringify(notTaken.body))
      t.same(notTaken.body.errors?.map((e: { path: string }) => e.path), ['/body/healthInsurance'], 'the refusal names the field')
      t.match(notTaken.body.errors?.[0]?.message, /client's own \("30"\).*not offered with professional "8"/)
      const particular = await book('1', '11:30', { professional: '8', healthInsurance: '20' })
      t.equal(particular.status, 200, 'sending one the professional takes books it')
      t.equal((await stored(s, 'SELECT COUNT(*) AS n FROM agenda'))[0], 6, 'only that booking was written')
    })

    t.test('a patient with none and a default the booking refuses: 400 naming the field', async (t) => {
      const s = await scratchOn(t, dialect, AGENDA_SCHEMA, agendaMapping(AGENDA_REF.replace('otherwise: 20', 'otherwise: 99')))
      const refused = await s.call('POST', '/appointments', { date: DAY, hour: '09:00', client: '2', professional: '7' })
      t.equal(refused.status, 400, JSON.stringify(refused.body))
      t.same(refused.body.errors?.map((e: { path: string }) => e.path), ['/body/healthInsurance'])
      t.match(refused.body.errors?.[0]?.message, /has none of their own.*otherwise: "99"/)
      const own = await s.call('POST', '/appointments', { date: DAY, hour: '09:00', client: '1', professional: '7' })
      t.equal(own.status, 200, 'a patient with one takes it, the default aside')
    })

    t.test('a booking without a plan stores the patient\'s first plan; one sent must be the patient\'s own', async (t) => {
      const s = await scratchOn(t, dialect, DENTAL_SCHEMA, dentalMapping())
      const book = async (client: string, hour: string, more: object = {}) => await s.call('POST', '/appointments', { date: DAY, hour, client, professional: '5', ...more })
      const policies = async () => await stored(s, 'SELECT policy_no FROM visit ORDER BY visit_no')

      const first = await book('13', '09:00')
      t.equal(first.status, 200, JSON.stringify(first.body))
      t.equal(first.body.healthInsurance?.id, '2', 'read back as the carrier of the patient\'s rank-1 plan')
      t.same(await policies(), [2], 'stored the plan of rank 1, not the older link row')

      const second = await book('13', '09:30', { healthInsurance: '3' })
      t.equal(second.status, 200, JSON.stringify(second.body))
      t.same((await policies())[1], 3, 'a carrier sent: the patient\'s own plan of it')

      const dependant = await book('12', '10:00', { healthInsurance: '1' })
      t.equal(dependant.status, 200, JSON.stringify(dependant.body))
      t.same((await policies())[2], 1, 'a dependant\'s plan reached through their own link row')

      const foreign = await book('13', '10:30', { healthInsurance: '1' })
      t.equal(foreign.status, 409, JSON.stringify(foreign.body))
      t.same(foreign.body.errors?.map((e: { path: string }) => e.path), ['/body/healthInsurance'], 'the refusal names the field')
      t.equal((await policies()).length, 3, 'nothing was written')

      const planless = await book('14', '11:00')
      t.equal(planless.status, 200, JSON.stringify(planless.body))
      t.equal(planless.body.healthInsurance, undefined, 'a patient without a plan: none')
      t.same((await policies())[3], 0, 'the column keeps its default')
    })

    t.test('check proves the client\'s own is stored, and reports a sent plan not kept to the client\'s own', async (t) => {
      const s = await scratchOn(t, dialect, DENTAL_SCHEMA, dentalMapping())
      const owned = await checkOf(t, s.url, dentalMapping())
      const problems = owned.findings.filter((f) => f.severity === 'problem').map((f) => `${f.path}: ${f.message}`)
      t.same(problems, [], 'no problem with `owned`')
      const probe = owned.findings.find((f) => f.message.startsWith('POST /appointments with the professional only'))
      t.equal(probe?.severity, 'ok', JSON.stringify(probe))
      t.match(probe?.message ?? '', /healthInsurance/, 'the professional-only booking stored the client\'s own plan, compared')

      const loose = dentalMapping(NOT_OWNED)
      const report = await checkOf(t, s.url, loose)
      const found = report.findings.find((f) => f.path.endsWith('/write/refs/healthInsurance/fromClient'))
      t.equal(found?.severity, 'problem', JSON.stringify(found))
      t.equal(found?.line, lineOf(loose, NOT_OWNED), 'at the fromClient line')
      t.match(found?.message ?? '', /another patient's/)
      t.match(found?.message ?? '', /owned: true/, 'says what to add')
      t.same(await stored(s, 'SELECT COUNT(*) AS n FROM visit'), [0], 'check rolled its writes back')

      const agenda = await scratchOn(t, dialect, AGENDA_SCHEMA, agendaMapping())
      const direct = await checkOf(t, agenda.url, agendaMapping())
      t.same(direct.findings.filter((f) => f.severity === 'problem').map((f) => `${f.path}: ${f.message}`), [], 'a convênio on the patient\'s row: no problem')
      const plain = direct.findings.find((f) => f.message.startsWith('POST /appointments with the professional only'))
      t.equal(plain?.severity, 'ok', JSON.stringify(plain))
    })
  })
}

t.test('a fromClient the booking cannot apply is refused at load, at its line', async (t) => {
  const refused = (yaml: string): string => {
    try {
      compileMapping(buildModel(parseMapping(yaml, 'm.yaml')), sqlite)
    } catch (err) {
      return err instanceof MappingError ? err.message : String(err)
    }
    return 'accepted'
  }
  const at = (yaml: string, line: string): RegExp => new RegExp(`m.yaml:${yaml.split('\n').indexOf(line) + 1}.*fromClient`)
  t.equal(refused(dentalMapping()), 'accepted')
  t.equal(refused(agendaMapping()), 'accepted')

  const service = '        professional: { fromClient: codmedico }'
  const onService = agendaMapping(service)
  t.match(refused(onService), at(onService, service))
  t.match(refused(onService), /hours or length.*for healthInsurance and plan/)

  const noJoin = '        healthInsurance: { fromClient: cov.codconvenio }'
  t.match(refused(agendaMapping(noJoin)), /no join called `cov` in \/resources\/client\/joins/)

  const notWritten = dentalMapping().replace('          firstOf: pol\n', '')
  t.match(refused(notWritten), /read through the join `pol` without `firstOf`, so the booking does not write it/)

  const both = dentalMapping().replace('          firstOf: pol', '          firstOf: { join: pol, owner: person_no }')
  t.match(refused(both), /`owned` with `firstOf.owner`/)

  const claimed = agendaMapping().replace('    write:\n      key: { generate: max }\n      refs:', '    openSlots:\n      free: [{ column: codpaciente, eq: 0 }]\n      onCancel: release\n    write:\n      key: { generate: max }\n      refs:')
  t.match(refused(claimed), /open slot \(openSlots\) does not read the client's own yet/)
})
