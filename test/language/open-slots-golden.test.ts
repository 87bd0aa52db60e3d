// Open slots' statements where no server runs them (issue 27 item 2): SQL Server's T-SQL of
// the GNU-Health-like installation pinned in test/golden/ and parsed by the T-SQL grammar
// (the claim's UPDATE … OUTPUT … INTO, the release, the reopened row's INSERT, a reschedule's
// two conditioned UPDATEs swapping times with a free row); and the
// mappings the compiler refuses, at the place that says why.
// After an intended change: UPDATE_GOLDEN=1 npx tap --disable-coverage test/language/open-slots-golden.test.ts
import t from 'tap'
import { parseMapping } from '../../src/mapping/load.js'
import { buildModel } from '../../src/mapping/model.js'
import { compileMapping, isUnsupported } from '../../src/mapping/compile/index.js'
import { sqlite } from '../../src/sql/sqlite/dialect.js'
import { MappingError } from '../../src/mapping/errors.js'
import { pinTsql } from '../helpers/tsql-golden.js'
import { mapping } from '../helpers/open-slots-installation.js'

t.setTimeout(180_000)

const model = buildModel(parseMapping(mapping('reopen'), 'gnu-health-like.yaml'))
pinTsql(t, model, {
  by: 'test/language/open-slots-golden.test.ts',
  more: (t, statements) => {
    t.ok(statements.some((s) => s.name.startsWith('appointment.openSlot.claim')), 'the claim is among the statements')
    t.ok(statements.some((s) => s.name === 'appointment.openSlot.reopen'), 'and the reopened row\'s insert')
    t.ok(statements.some((s) => s.name === 'appointment.openSlot.vacate' && /OUTPUT INSERTED/.test(s.sql)), 'and a swap\'s UPDATE of the free row, saying what it changed')
    t.ok(statements.some((s) => s.name === 'appointment.openSlot.take' && /OUTPUT INSERTED/.test(s.sql)), 'and of the appointment')
  }
})

t.test('mappings whose claims or releases would not change what reads as free are refused at their place', async (t) => {
  // A write the mapping cannot express is a value in the compiled writes (served as 501, reported by check).
  const refused = (yaml: string): string => {
    try {
      const writes = compileMapping(buildModel(parseMapping(yaml, 'x.yaml')), sqlite).writes.appointment
      return isUnsupported(writes) ? `${writes.unsupported.path}: ${writes.unsupported.reason}` : ''
    } catch (err) {
      if (err instanceof MappingError) return err.issues.map((i) => `${i.path}: ${i.message}`).join('\n')
      throw err
    }
  }
  const base = mapping('release')
  t.equal(refused(base), '', 'the GNU-Health-like mapping compiles')
  // Free by the type column alone: a booking writes neither it nor anything `free` tests.
  const stillFree = base.replace('free: [{ column: patient, isNull: true }, { column: state, eq: free }]', 'free: { column: appointment_type, eq: slot }')
  t.match(refused(stillFree), /\/resources\/appointment\/openSlots\/free: a claimed row would still read as free/)
  // Free when a column release cannot know the value of is set.
  const unreleased = base.replace('free: [{ column: patient, isNull: true }, { column: state, eq: free }]', 'free: [{ column: patient, isNull: true }, { column: appointment_type, ne: x }]')
  t.match(refused(unreleased), /\/resources\/appointment\/openSlots\/release: a released row would not read as free/)
  t.equal(refused(unreleased.replace('onCancel: release', 'onCancel: release\n      release: { appointment_type: { value: slot } }')), '', 'saying it under release mends it')
  const withHours = base.replace('resources:', 'availability:\n  weekly: { table: hours, professional: p, weekday: d, start: s, end: e }\nresources:')
  t.match(refused(withHours), /\/availability\/weekly: with \/resources\/appointment\/openSlots the free rows are the working hours/)
})
