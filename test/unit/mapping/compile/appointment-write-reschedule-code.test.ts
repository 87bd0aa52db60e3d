// A status code written on every reschedule must read as the state the move leaves the
// appointment in: found going live on OpenMRS, where `write.reschedule: { status: RESCHEDULED }`
// beside `onReschedule: keep` passed check (its probe moves a WAITING booking) and then refused
// every move of a confirmed appointment at its read-back (501). Refused at the column's line.
import t from 'tap'
import { parseMapping } from '../../../../src/mapping/load.js'
import { buildModel } from '../../../../src/mapping/model.js'
import { compileMapping, isUnsupported } from '../../../../src/mapping/compile/index.js'
import { sqlite } from '../../../../src/sql/sqlite/dialect.js'

const mapping = (onReschedule: string, reschedule: string): string => `
version: 1
installation: openmrs-like
states:
  values: [WAITING, CONFIRMED, CANCELED]
  onReschedule: ${onReschedule}
resources:
  appointment:
    table: appointment
    key: appointment_id
    start: { datetime: { column: start_date, format: datetime } }
    state: { column: status, map: { SCHEDULED: WAITING, RESCHEDULED: WAITING, CONF: CONFIRMED, CANCELLED: CANCELED } }
    refs: { client: patient_id }
    write:
      key: { generate: max }
      reschedule: ${reschedule}
  client: { table: patient, key: patient_id, fields: { name: given_name } }
`

const writesOf = (onReschedule: string, reschedule: string) => compileMapping(buildModel(parseMapping(mapping(onReschedule, reschedule), 'm.yaml')), sqlite).writes.appointment

t.test('a code reading as another state than the move leaves is refused at its line', async (t) => {
  for (const onReschedule of ['keep', 'CONFIRMED']) {
    const writes = writesOf(onReschedule, '{ status: { value: RESCHEDULED }, date_changed: { now: datetime } }')
    t.ok(isUnsupported(writes), `onReschedule: ${onReschedule}`)
    if (!isUnsupported(writes)) continue
    t.match(writes.unsupported.path, '/resources/appointment/write/reschedule/status')
    t.match(writes.unsupported.reason, /every reschedule writes `RESCHEDULED`, which reads as WAITING, but a reschedule .*: a moved appointment would read back as WAITING and the move be refused. Set `states.onReschedule: WAITING`/)
  }
})

t.test('a code reading as the state the move leaves, or no status written, compiles', async (t) => {
  t.notOk(isUnsupported(writesOf('WAITING', '{ status: { value: RESCHEDULED } }')), 'RESCHEDULED reads as WAITING, where the move leaves it')
  t.notOk(isUnsupported(writesOf('keep', '{ date_changed: { now: datetime } }')), 'no status written')
})
