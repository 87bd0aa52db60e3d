// Writes are compiled at start-up with the reads: what a mapping cannot write is a value in
// the compiled installation, the same one the server answers 501 from and `explain` lists.
import t from 'tap'
import { parseMapping } from '../../../../src/mapping/load.js'
import { buildModel } from '../../../../src/mapping/model.js'
import { compileMapping, isUnsupported } from '../../../../src/mapping/compile/index.js'
import { sqlite } from '../../../../src/sql/sqlite/dialect.js'
import { scratchInstallation } from '../../../helpers/scratch.js'

// An appointment table with a composite key: Ponte cannot make keys for it, but can move states.
const SCHEMA = `
  CREATE TABLE AG (UNIT INTEGER, NUM INTEGER, DAY TEXT, AT TEXT, ST TEXT, PAT INTEGER, PRIMARY KEY (UNIT, NUM));
  CREATE TABLE PAT (ID INTEGER PRIMARY KEY, NAME TEXT);
  INSERT INTO PAT VALUES (5, 'Paciente');
  INSERT INTO AG VALUES (1, 100, '2026-03-10', '09:00', 'A', 5);
`
const MAPPING = `
version: 1
installation: composite-writes
idSeparator: '-'
resources:
  appointment:
    table: AG
    key: [UNIT, NUM]
    start: { date: { column: DAY, format: text }, hour: AT }
    state: { column: ST, map: { A: WAITING, C: CONFIRMED } }
    refs: { client: PAT }
  client: { table: PAT, key: ID, fields: { name: NAME } }
`

t.test('a write the mapping cannot express is a value in the compiled installation, not a start-up failure', async (t) => {
  const compiled = compileMapping(buildModel(parseMapping(MAPPING, 'scratch.yaml')), sqlite)
  const appointment = compiled.writes.appointment
  if (isUnsupported(appointment)) throw new Error('state moves should be writable')
  t.ok(isUnsupported(appointment.insert), 'booking is unsupported')
  if (isUnsupported(appointment.insert)) {
    t.equal(appointment.insert.unsupported.path, '/resources/appointment/key')
    t.match(appointment.insert.unsupported.reason, /composite key/)
  }
  t.notOk(isUnsupported(appointment.stateMoves.CONFIRMED), 'state moves are plans')
  const names = compiled.statements().map((s) => s.name)
  t.ok(names.includes('appointment.state[CONFIRMED]'), 'explain lists the state move')
  t.notOk(names.includes('appointment.insert'), 'and no insert it cannot run')
})

t.test('the server answers 501 naming the place and reason from the same compiled value', async (t) => {
  const { call } = await scratchInstallation(t, SCHEMA, MAPPING)
  const created = await call('POST', '/appointments', { date: '2099-01-01', hour: '10:00', client: '5' })
  t.equal(created.status, 501)
  t.match(created.body.detail, /does not say how to write appointments: .*composite key.* \(at \/resources\/appointment\/key\)\./)
  t.equal((await call('PATCH', '/appointments/1-100/state', { state: 'CONFIRMED' })).status, 200, 'a supported part still works')
  t.equal((await call('PATCH', '/appointments/1-x/state', { state: 'CONFIRMED' })).status, 404, 'an id no row can have is a 404 before anything is written')
})
