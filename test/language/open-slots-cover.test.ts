// Open slots (issue 27 item 2) with a health insurance and plan on the appointment row, on
// every test database: a row released by a cancellation never carries one patient's cover into
// the next booking, a reschedule moves the cover with the appointment, and a `free` condition
// written with `not` is released and claimed as it reads.
import t from 'tap'
import { testDialects } from '../helpers/contract.js'
import { scratchOn, type ServerScratch } from '../helpers/scratch-servers.js'
import { DAY, mapping, NEXT, schema } from '../helpers/open-slots-installation.js'
import type { TestDialect } from '../helpers/app.js'
import { parseMapping } from '../../src/mapping/load.js'
import { buildModel } from '../../src/mapping/model.js'
import { compileMapping, isUnsupported } from '../../src/mapping/compile/index.js'
import { sqlite } from '../../src/sql/sqlite/dialect.js'
import { MappingError } from '../../src/mapping/errors.js'

/** The generated schema with an insurance and a plan kept on the appointment row (`extra`: more statements after it). */
function coveredSchema (dialect: TestDialect, extra = ''): string {
  return `${schema(dialect)}
ALTER TABLE gh_appointment ADD COLUMN insurance INTEGER;
ALTER TABLE gh_appointment ADD COLUMN insurance_plan INTEGER;
CREATE TABLE insurer (id INTEGER PRIMARY KEY, name VARCHAR(60) NOT NULL);
INSERT INTO insurer (id, name) VALUES (70, 'Cover Seventy');
${extra}`
}

const STATES = '[confirmed, checked_in, user_cancelled, done]'
const FREE = 'free: [{ column: patient, isNull: true }, { column: state, eq: free }]'

function coveredMapping (onCancel: string, free?: string): string {
  let yaml = mapping(onCancel)
    .replace('refs: { client: patient, professional: healthprof, location: institution }', 'refs: { client: patient, professional: healthprof, location: institution, healthInsurance: insurance, plan: insurance_plan }')
    .replace('  location:\n    table: institution', '  healthInsurance:\n    table: insurer\n    key: id\n    fields: { name: name }\n  location:\n    table: institution')
  if (free !== undefined) yaml = yaml.replace('free: [{ column: patient, isNull: true }, { column: state, eq: free }]', free)
  return yaml
}

const cover = async (s: ServerScratch, id: number | string): Promise<{ insurance: unknown, plan: unknown }> => {
  const [r] = await s.rows(`SELECT insurance, insurance_plan FROM gh_appointment WHERE id = ${Number(id)}`)
  return { insurance: r.insurance === null ? null : Number(r.insurance), plan: r.insurance_plan === null ? null : Number(r.insurance_plan) }
}

t.test('free conditions that nest are judged as they read', async (t) => {
  const refused = (free: string): string => {
    try {
      const writes = compileMapping(buildModel(parseMapping(coveredMapping('release', free), 'x.yaml')), sqlite).writes.appointment
      return isUnsupported(writes) ? `${writes.unsupported.path}: ${writes.unsupported.reason}` : ''
    } catch (err) {
      if (err instanceof MappingError) return err.issues.map((i) => `${i.path}: ${i.message}`).join('\n')
      throw err
    }
  }
  t.equal(refused(FREE), '', 'the flat condition compiles')
  // A value inside `not` is one a free row must NOT hold: it is never what a release writes.
  t.match(refused(`free: [{ column: patient, isNull: true }, { not: { column: state, in: ${STATES} } }]`), /openSlots\/release: a released row would not read as free/)
  t.equal(refused(`free: { not: { column: state, in: ${STATES} } }\n      release: { state: { value: free } }`), '', '`not` alone: a claim writes a state it names, so the claimed row is not free')
  t.equal(refused('free: { all: [{ column: patient, isNull: true }, { any: [{ column: state, eq: free }, { column: state, eq: vacant }] }] }\n      release: { state: { value: free } }'), '', 'an `any` inside `all`, with the value a release writes')
  t.match(refused('free: { all: [{ column: patient, isNull: true }, { any: [{ column: state, eq: free }, { column: state, eq: vacant }] }] }'), /openSlots\/release: a released row would not read as free/, 'without it, which branch a release meets is not known')
})

for (const dialect of testDialects()) {
  t.test(dialect, async (t) => {
    t.test('a released row does not carry the last patient\'s cover into the next booking', async (t) => {
      const s = await scratchOn(t, dialect, coveredSchema(dialect), coveredMapping('release'))
      const first = await s.call('POST', '/appointments', { date: DAY, hour: '09:00', client: '3', professional: '1', healthInsurance: '70', plan: '5' })
      t.equal(first.status, 200, JSON.stringify(first.body))
      t.same(await cover(s, first.body.id), { insurance: 70, plan: 5 }, 'the claim stores the cover sent')
      t.equal((await s.call('PATCH', `/appointments/${first.body.id}/state`, { state: 'CANCELED' })).status, 200)
      t.same(await cover(s, first.body.id), { insurance: null, plan: null }, 'the release clears it with the patient')
      const next = await s.call('POST', '/appointments', { date: DAY, hour: '09:00', client: '4', professional: '1' })
      t.equal(next.status, 200, JSON.stringify(next.body))
      t.equal(next.body.id, first.body.id, 'the same row is claimed again')
      t.same(await cover(s, next.body.id), { insurance: null, plan: null }, 'the next patient, who sent none, has none')
      t.notOk('healthInsurance' in next.body, 'and the answer shows none')
    })

    t.test('a claim over a row left with a cover writes the cover sent, or none', async (t) => {
      const s = await scratchOn(t, dialect, coveredSchema(dialect, 'UPDATE gh_appointment SET insurance = 70, insurance_plan = 9 WHERE id = 2;'), coveredMapping('release'))
      const res = await s.call('POST', '/appointments', { date: DAY, hour: '09:30', client: '4', professional: '1' })
      t.equal(res.status, 200, JSON.stringify(res.body))
      t.same(await cover(s, 2), { insurance: null, plan: null }, 'a cover the desk left on a free row is not the new patient\'s')
    })

    for (const onCancel of ['release', 'reopen']) {
      t.test(`a reschedule keeps the cover on the appointment (${onCancel})`, async (t) => {
        const s = await scratchOn(t, dialect, coveredSchema(dialect), coveredMapping(onCancel))
        const booked = await s.call('POST', '/appointments', { date: DAY, hour: '09:00', client: '3', professional: '1', healthInsurance: '70', plan: '5' })
        t.equal(booked.status, 200, JSON.stringify(booked.body))
        const moved = await s.call('PATCH', `/appointments/${booked.body.id}/time`, { date: NEXT, hour: '09:00' })
        t.equal(moved.status, 200, JSON.stringify(moved.body))
        const id = Number(booked.body.id)
        t.same(await cover(s, id), { insurance: 70, plan: 5 }, 'the appointment\'s row, at the new time, keeps the cover')
        t.same(await cover(s, 4), { insurance: null, plan: null }, 'the free row it swapped with takes none')
        t.match((await s.call('GET', `/appointments/${id}`)).body, { date: NEXT, client: { id: '3' }, healthInsurance: { id: '70' } })
      })
    }

    t.test('a free condition with `not` is claimed and released as it reads', async (t) => {
      const free = `free: [{ column: patient, isNull: true }, { not: { column: state, in: ${STATES} } }]\n      release: { state: { value: free } }`
      const s = await scratchOn(t, dialect, coveredSchema(dialect), coveredMapping('release', free))
      const booked = await s.call('POST', '/appointments', { date: DAY, hour: '09:00', client: '3', professional: '1' })
      t.equal(booked.status, 200, JSON.stringify(booked.body))
      const cancelled = await s.call('PATCH', `/appointments/${booked.body.id}/state`, { state: 'CANCELED' })
      t.equal(cancelled.status, 200, JSON.stringify(cancelled.body))
      const [r] = await s.rows(`SELECT patient, state FROM gh_appointment WHERE id = ${Number(booked.body.id)}`)
      t.same({ patient: r.patient, state: r.state }, { patient: null, state: 'free' }, 'the released row reads as free again')
    })
  })
}
